import { describe, expect, test } from "bun:test";
import { builtinTools, selectTools } from "../../../src/agent/tools/index.ts";
import { BUILTIN_TOOLS } from "../../../src/ext/name-rules.ts";

describe("tool selection", () => {
  test("offers the file tools, bash and its background companions, and skill, with object schemas", () => {
    const tools = builtinTools();
    expect(tools.map((t) => t.name)).toEqual(["read", "write", "edit", "bash", "bash_output", "bash_kill", "todo", "web_fetch", "skill", "task"]);
    for (const t of tools) expect(t.schema.type).toBe("object");
  });

  test("the tools offered are exactly the names the host reserves from extensions, in the same order", () => {
    expect(builtinTools().map((t) => t.name)).toEqual([...BUILTIN_TOOLS]);
  });

  test("--tools keeps only the named built-ins", () => {
    const r = selectTools(["bash", " read "]);
    expect(r.error).toBeUndefined();
    expect(r.tools.map((t) => t.name)).toEqual(["read", "bash"]);
  });

  test("null selects every built-in", () => {
    expect(selectTools(null).tools.length).toBe(BUILTIN_TOOLS.length);
  });

  test("unknown names produce one sentence listing the valid ones", () => {
    const r = selectTools(["read", "grep"]);
    expect(r.error).toBe(
      'Unknown tool "grep" in --tools; the built-in tools are read, write, edit, bash, bash_output, bash_kill, todo, web_fetch, skill, task.',
    );
  });
});
