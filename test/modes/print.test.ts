import { expect, test } from "bun:test";
import { parseSlash, runPrint } from "../../src/modes/print.ts";
import { capture, mockRuntime } from "./helpers.ts";

test("a slash command is a registered-looking name after a slash; paths and empty names are prompts", () => {
  expect(parseSlash("/greet  world  ")).toEqual({ name: "greet", args: "world" });
  expect(parseSlash("  /Greet")).toEqual({ name: "Greet", args: "" });
  expect(parseSlash("/tmp/file explain")).toBeNull();
  expect(parseSlash("/")).toBeNull();
  expect(parseSlash("hello /greet")).toBeNull();
  expect(parseSlash("/multi line\nargs here")).toEqual({ name: "multi", args: "line\nargs here" });
});

test("print mode writes the answer to stdout and tool progress to stderr", async () => {
  const { runtime, dispose } = await mockRuntime();
  try {
    const c = capture();
    const code = await runPrint(runtime, 'call bash {"command":"echo progress-line"}', c.io);
    expect(code).toBe(0);
    expect(c.out).toBe("mock: tool bash returned: progress-line\n");
    expect(c.err).toContain('[tool] bash {"command":"echo progress-line"}');
    expect(c.err).toContain("progress-line\n");
  } finally {
    await dispose();
  }
});

test("an unknown slash command fails without calling the model", async () => {
  const { runtime, dispose } = await mockRuntime();
  try {
    const c = capture();
    expect(await runPrint(runtime, "/nothing here", c.io)).toBe(1);
    expect(c.err).toBe("zot: unknown command /nothing (no extension commands are loaded)\n");
    expect(runtime.messages()).toEqual([]);
  } finally {
    await dispose();
  }
});
