// MCP tool calls are guarded like every other tool, in every mode, through the built binary: the
// same tool_call/tool_result interceptors (block, modified_args, result rewrite, fail-closed), the
// attribution [mcp:<server>], the transcript and the JSON/RPC events. The TUI part (--no-yolo
// confirmation) is in tui.e2e.test.ts.
import { beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { anthropic, FIXTURES, jsonLines, sessionFiles, useZotHome } from "../e2e/zot.ts";
import { fixtureLog, LEGACY, MODERN, writeList } from "./helpers.ts";

const e2e = useZotHome({ prefix: "zot-mcp-e2e-", homeDir: "home" });
let list: string;
let log: string;

beforeEach(() => {
  log = join(e2e.root, "fixture.jsonl");
  list = writeList(join(e2e.root, "servers.json"), {
    fx: { command: "python3", args: [LEGACY], env: { MCP_FIXTURE_LOG: log } },
    nu: { command: "python3", args: [MODERN], env: { MCP_FIXTURE_LOG: log } },
  });
});
const guard = (cfg: object) => ({ ZOT_TEST_GUARD: JSON.stringify(cfg) });
const calls = () => fixtureLog(log).filter((e) => e.event === "call");

function callThenText(name: string, args: Record<string, unknown>) {
  return e2e.serve({
    replies: [
      { kind: "turn", toolCalls: [{ id: "toolu_1", name, args: args as never }] },
      { kind: "turn", text: "finished" },
    ],
  });
}

/** The tool result blocks of the transcript's `tool` rows, in order. */
function transcriptResults(): Record<string, unknown>[] {
  const lines = jsonLines(readFileSync(sessionFiles(e2e.home)[0]!, "utf8")) as {
    type: string;
    message?: { role: string; content: Record<string, unknown>[] };
  }[];
  return lines.flatMap((l) => (l.type === "message" && l.message?.role === "tool" ? l.message.content : []));
}

const transcriptResult = (): Record<string, unknown> => transcriptResults()[0]!;

describe("json mode", () => {
  test("offers MCP tools to the model and reports the call with its attribution and structured content", async () => {
    const server = callThenText("mcp__nu__add", { a: 20, b: 22 });
    const r = await e2e.run(["--permission-mode", "yolo", "--json", ...anthropic(server), "--mcp", list, "add them"]);
    expect(r.code).toBe(0);
    const offered = (server.requests[0]!.body as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(offered).toContain("mcp__fx__echo");
    expect(offered).toContain("mcp__nu__add");
    const events = jsonLines(r.stdout);
    expect(events.find((e) => e.type === "tool_call")).toMatchObject({ name: "mcp__nu__add", extension: "mcp:nu", args: { a: 20, b: 22 } });
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({
      extension: "mcp:nu",
      is_error: false,
      content: [{ type: "text", text: "42" }],
      structured_content: { sum: 42 },
    });
    expect(transcriptResult()).toMatchObject({ name: "mcp__nu__add", extension: "mcp:nu" });
  });

  test("a tool_call interceptor blocks an MCP call before it reaches the server", async () => {
    callThenText("mcp__fx__echo", { text: "forbidden words" });
    const r = await e2e.run(["--permission-mode", "yolo", "--json", ...anthropic(e2e.server), "--mcp", list, "-e", join(FIXTURES, "guard"), "go"], {
      env: guard({ intercept: ["tool_call"], block_command: "forbidden" }),
    });
    expect(jsonLines(r.stdout).find((e) => e.type === "tool_result")).toMatchObject({ is_error: true, blocked_by: "guard", extension: "mcp:fx" });
    expect(calls()).toEqual([]);
    expect(transcriptResult().intercept).toMatchObject({ blocked_by: "guard" });
  });

  test("modified_args from an interceptor are what the MCP server receives, and both are recorded", async () => {
    callThenText("mcp__fx__echo", { text: "t", command: "echo original" });
    const r = await e2e.run(["--permission-mode", "yolo", "--json", ...anthropic(e2e.server), "--mcp", list, "-e", join(FIXTURES, "guard"), "go"], {
      env: guard({ intercept: ["tool_call"], rewrite_from: "echo original", rewrite_to: "echo rewritten" }),
    });
    expect(jsonLines(r.stdout).find((e) => e.type === "tool_call")).toMatchObject({
      args: { command: "echo rewritten" },
      original_args: { command: "echo original" },
      rewritten_by: ["guard"],
    });
    expect(calls()[0]).toMatchObject({ name: "echo", args: { text: "t", command: "echo rewritten" } });
    expect(transcriptResult().intercept).toEqual({ args: { text: "t", command: "echo rewritten" }, rewritten_by: ["guard"] });
  });

  test("a tool_result interceptor rewrites an MCP result before the model sees it", async () => {
    const server = callThenText("mcp__fx__echo", { text: "the secret" });
    const r = await e2e.run(["--permission-mode", "yolo", "--json", ...anthropic(server), "--mcp", list, "-e", join(FIXTURES, "guard"), "go"], {
      env: guard({ intercept: ["tool_result"], withhold: "secret" }),
    });
    expect(jsonLines(r.stdout).find((e) => e.type === "tool_result")).toMatchObject({
      content: [{ type: "text", text: "[guard withheld this result]" }],
      rewritten_by: ["guard"],
      extension: "mcp:fx",
    });
    expect(JSON.stringify((server.requests[1]!.body as { messages: unknown }).messages)).not.toContain("echo: the secret");
  });

  test("a fail-closed interceptor that does not answer blocks the MCP call", async () => {
    callThenText("mcp__fx__echo", { text: "x" });
    const r = await e2e.run(["--permission-mode", "yolo", "--json", ...anthropic(e2e.server), "--mcp", list, "-e", join(FIXTURES, "guard"), "go"], {
      env: guard({ intercept: [{ event: "tool_call", timeout_ms: 200, on_timeout: "block" }], hang: ["tool_call"] }),
    });
    expect(jsonLines(r.stdout).find((e) => e.type === "tool_result")).toMatchObject({ is_error: true, blocked_by: "guard" });
    expect(calls()).toEqual([]);
  });

  test("--no-mcp leaves the configured servers out; --no-tools offers no MCP tool", async () => {
    writeList(join(e2e.home, "mcp.json"), { fx: { command: "python3", args: [LEGACY] } });
    const server = e2e.serve({
      replies: [
        { kind: "turn", text: "a" },
        { kind: "turn", text: "b" },
        { kind: "turn", text: "c" },
      ],
    });
    await e2e.run(["--permission-mode", "yolo", "--json", ...anthropic(server), "hi"]);
    await e2e.run(["--permission-mode", "yolo", "--json", ...anthropic(server), "--no-mcp", "hi"]);
    await e2e.run(["--permission-mode", "yolo", "--json", ...anthropic(server), "--no-tools", "hi"]);
    const names = (i: number) => (server.requests[i]!.body as { tools?: { name: string }[] }).tools?.map((t) => t.name) ?? [];
    expect(names(0)).toContain("mcp__fx__echo");
    expect(names(1).some((n) => n.startsWith("mcp__"))).toBe(false);
    expect(names(2)).toEqual([]);
  });
});

describe("print mode", () => {
  test("runs an MCP tool and prints the answer; a server that fails to start is a notice, not a crash", async () => {
    const bad = writeList(join(e2e.root, "bad.json"), { broken: { command: "no-such-command-for-zot" } });
    const server = callThenText("mcp__fx__echo", { text: "printed" });
    const r = await e2e.run(["--permission-mode", "yolo", "-p", ...anthropic(server), "--mcp", list, "--mcp", bad, "go"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("finished\n");
    expect(r.stderr).toContain('zot: MCP server broken did not start: the command "no-such-command-for-zot" was not found on PATH');
    expect(JSON.stringify((server.requests[1]!.body as { messages: unknown }).messages)).toContain("echo: printed");
  });

  test("interceptors guard MCP calls in print mode: a block keeps the call from the server, a rewrite reaches it", async () => {
    const server = e2e.serve({
      replies: [
        {
          kind: "turn",
          toolCalls: [
            { id: "toolu_1", name: "mcp__fx__echo", args: { text: "forbidden" } },
            { id: "toolu_2", name: "mcp__nu__echo", args: { text: "t", command: "echo original" } },
          ],
        },
        { kind: "turn", text: "finished" },
      ],
    });
    const r = await e2e.run(["--permission-mode", "yolo", "-p", ...anthropic(server), "--mcp", list, "-e", join(FIXTURES, "guard"), "go"], {
      env: guard({ intercept: ["tool_call"], block_command: "forbidden", rewrite_from: "echo original", rewrite_to: "echo rewritten" }),
    });
    expect(r.stdout).toBe("finished\n");
    expect(calls().map((c) => c.args)).toEqual([{ text: "t", command: "echo rewritten" }]);
    expect(transcriptResults().map((b) => [b.extension, b.intercept])).toEqual([
      ["mcp:fx", { blocked_by: "guard", reason: 'refused: matches "forbidden"' }],
      ["mcp:nu", { args: { text: "t", command: "echo rewritten" }, rewritten_by: ["guard"] }],
    ]);
  });

  test("an MCP prompt is a slash command in print mode", async () => {
    const server = e2e.serve({ replies: [{ kind: "turn", text: "reviewed" }] });
    const r = await e2e.run(["--permission-mode", "yolo", "-p", ...anthropic(server), "--mcp", list, "/mcp__fx__review src/main.ts"]);
    expect(r.stdout).toBe("reviewed\n");
    expect(JSON.stringify((server.requests[0]!.body as { messages: unknown }).messages)).toContain("Please review src/main.ts");
  });

  test("@server:uri in the prompt attaches the resource", async () => {
    const server = e2e.serve({ replies: [{ kind: "turn", text: "ok" }] });
    await e2e.run(["--permission-mode", "yolo", "-p", ...anthropic(server), "--mcp", list, "read @nu:fixture://readme"]);
    expect(JSON.stringify((server.requests[0]!.body as { messages: unknown }).messages)).toContain("The fixture readme says hi.");
  });

  test("a project .mcp.json loads only in a trusted folder", async () => {
    const project = join(e2e.root, "project");
    mkdirSync(project);
    writeList(join(project, ".mcp.json"), { proj: { command: "python3", args: [LEGACY] } });
    const server = e2e.serve({
      replies: [
        { kind: "turn", text: "a" },
        { kind: "turn", text: "b" },
      ],
    });
    const untrusted = await e2e.run(["--permission-mode", "yolo", "-p", ...anthropic(server), "hi"], { cwd: project });
    expect(untrusted.stderr).toContain(`skipped the project MCP server lists of the untrusted folder ${project}: ${join(project, ".mcp.json")}`);
    await e2e.run(["--permission-mode", "yolo", "-p", ...anthropic(server), "--trust", "hi"], { cwd: project });
    const names = (i: number) => (server.requests[i]!.body as { tools?: { name: string }[] }).tools?.map((t) => t.name) ?? [];
    expect(names(0).some((n) => n.startsWith("mcp__proj__"))).toBe(false);
    expect(names(1)).toContain("mcp__proj__echo");
  });
});

describe("rpc mode", () => {
  test("MCP calls go through the interceptors and come out as events", async () => {
    const server = e2e.serve({
      replies: [
        {
          kind: "turn",
          toolCalls: [
            { id: "toolu_1", name: "mcp__nu__echo", args: { text: "over rpc" } },
            { id: "toolu_2", name: "mcp__fx__echo", args: { text: "forbidden" } },
          ],
        },
        { kind: "turn", text: "finished" },
      ],
    });
    const rpc = e2e.rpc(["--permission-mode", "yolo", ...anthropic(server), "--mcp", list, "-e", join(FIXTURES, "guard")], {
      env: guard({ intercept: ["tool_call"], block_command: "forbidden" }),
    });
    await rpc.request({ type: "prompt", message: "go" });
    await rpc.waitFor((f) => f.type === "done");
    const results = rpc.frames.filter((f) => f.type === "tool_result");
    expect(results[0]).toMatchObject({ name: "mcp__nu__echo", extension: "mcp:nu", content: [{ type: "text", text: "echo: over rpc" }] });
    expect(results[1]).toMatchObject({ name: "mcp__fx__echo", extension: "mcp:fx", blocked_by: "guard", is_error: true });
    expect(calls().map((c) => (c.args as { text: string }).text)).toEqual(["over rpc"]);
  });
});
