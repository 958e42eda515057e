// Who wins a name: built-ins, then load order, then an extension's own first registration.
import { describe, expect, test } from "bun:test";
import { checkCommand, checkTool, resolve } from "../../src/ext/registry.ts";
import { start } from "./fixture-host.ts";
import { elements } from "../helpers/elements.ts";

const tool = (name: string, schema?: unknown) => checkTool({ type: "register_tool", name, description: "", schema: schema as never, deferred: false }, "ext");

describe("validation", () => {
  test("command and tool names must match the name pattern", () => {
    expect(checkCommand({ type: "register_command", name: "ok-name_1", description: "" })).toBeNull();
    expect(checkCommand({ type: "register_command", name: "has space", description: "" })).toContain("rejected");
    expect(checkCommand({ type: "register_command", name: "x".repeat(65), description: "" })).toContain("rejected");
    expect(tool("a.b").ok).toBe(false);
  });

  test("schemas are normalised: missing gets an empty object schema with a warning, a missing type is added", () => {
    expect(tool("t")).toEqual({
      ok: true,
      tool: { name: "t", description: "", schema: { type: "object", properties: {} }, deferred: false },
      warning: expect.stringContaining("no schema"),
    });
    const untyped = tool("t", { properties: { a: { type: "string" } } });
    expect(untyped.ok && untyped.tool.schema).toEqual({ type: "object", properties: { a: { type: "string" } } });
    expect(untyped.ok && untyped.warning).toBeNull();
  });

  test("non-object schemas and other root types are rejected with a warning naming the tool", () => {
    for (const bad of ["str", 3, [], { type: "array" }, { type: ["object"] }]) {
      const r = tool("named", bad);
      expect(r.ok).toBe(false);
      expect(r.warning).toContain(`tool "named" rejected`);
    }
  });
});

describe("resolution", () => {
  const regs = (extension: string, commands: string[], tools: string[] = []) => ({
    extension,
    commands: commands.map((name) => ({ name, description: extension })),
    tools: tools.map((name) => ({ name, description: extension, schema: { type: "object" }, deferred: false })),
  });

  test("the earlier extension in load order wins regardless of spelling, and the loser records the conflict", () => {
    const r = resolve([regs("a", ["Deploy"], ["t"]), regs("b", ["deploy", "other"], ["t"])]);
    expect(r.commands.get("deploy")).toEqual({ name: "Deploy", description: "a", extension: "a" });
    expect(r.commands.get("other")?.extension).toBe("b");
    expect(r.tools.get("t")?.extension).toBe("a");
    expect(r.conflicts.get("b")).toEqual([
      `command "/deploy" is shadowed by "/Deploy" from extension "a" (loaded earlier)`,
      `tool "t" is shadowed by the tool from extension "a" (loaded earlier)`,
    ]);
    expect(r.conflicts.get("a")).toBeUndefined();
  });

  test("built-in commands win case-insensitively, built-in tools by exact name", () => {
    const r = resolve([regs("a", ["HELP", "reload-ext", "Yolo"], ["read", "Read"])]);
    expect(r.commands.size).toBe(0);
    expect([...r.tools.keys()]).toEqual(["Read"]);
    expect(r.conflicts.get("a")?.length).toBe(4);
  });
});

describe("conflicts between running extensions", () => {
  test("load order decides, the loser's doctor entry and log list the conflict, and the winner's command runs", async () => {
    const h = await start(["conflict-b", "conflict-a"]);
    try {
      const [b, a] = elements(h.host.states(), 2);
      expect(b.commands).toEqual(["deploy", "only-conflict-b"]);
      expect(b.tools).toEqual([{ name: "shared_tool", deferred: false }]);
      expect(a.commands).toEqual(["only-conflict-a"]);
      expect(a.tools).toEqual([]);
      expect(a.conflicts).toEqual([
        `command "/Deploy" is shadowed by "/deploy" from extension "conflict-b" (loaded earlier)`,
        `tool "shared_tool" is shadowed by the tool from extension "conflict-b" (loaded earlier)`,
      ]);
      expect(h.log("conflict-a")).toContain(`[zot] conflict: command "/Deploy" is shadowed`);
      const r = await h.host.invokeCommand("DEPLOY", "");
      expect(r.ok && r.response.display).toBe("conflict-b ran deploy");
      expect((await h.host.callTool("shared_tool", {}, { signal: new AbortController().signal })).extension).toBe("conflict-b");
    } finally {
      await h.close();
    }
  });

  test("when the winner exits, the loser's registration takes over the name", async () => {
    const h = await start(["conflict-a", "conflict-b"]);
    try {
      expect(h.host.commands().find((c) => c.name.toLowerCase() === "deploy")?.extension).toBe("conflict-a");
      expect((await h.host.invokeCommand("only-conflict-a", "")).ok).toBe(false);
      expect(h.host.commands().find((c) => c.name.toLowerCase() === "deploy")).toEqual({ name: "deploy", description: "conflict-b", extension: "conflict-b" });
      expect(h.host.tools().find((t) => t.name === "shared_tool")?.extension).toBe("conflict-b");
      expect(h.host.states()[1]!.conflicts).toEqual([]);
    } finally {
      await h.close();
    }
  });

  test("built-in names and case duplicates within one extension are conflicts, not load failures", async () => {
    const h = await start(["malformed"]);
    try {
      const s = h.host.states()[0]!;
      expect(s.status).toBe("ready");
      expect(s.commands).toEqual(["Dup"]);
      expect(s.tools.map((t) => t.name)).toEqual(["no_schema", "untyped"]);
      expect(s.conflicts).toEqual([
        `command "/Help" is shadowed by the built-in command "/help"`,
        `command "/dup" is registered again; its first registration "/Dup" stays active`,
        `tool "bash" is shadowed by the built-in tool "bash"`,
      ]);
      expect(s.warnings.filter((w) => w.includes("rejected"))).toEqual([
        `command name "bad name!" rejected: names must match ^[A-Za-z0-9_-]{1,64}$`,
        `tool "string_schema" rejected: schema must be a JSON object, got string`,
        `tool "array_schema" rejected: schema type must be "object", got "array"`,
        `tool name "bad.tool" rejected: names must match ^[A-Za-z0-9_-]{1,64}$`,
      ]);
    } finally {
      await h.close();
    }
  });
});
