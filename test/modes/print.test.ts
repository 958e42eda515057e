import { expect, test } from "bun:test";
import { runPrint } from "../../src/modes/print.ts";
import { parseSlash } from "../../src/modes/slash.ts";
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
    const code = await runPrint(runtime, runtime.host, 'call bash {"command":"echo progress-line"}', c.io);
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
    expect(await runPrint(runtime, runtime.host, "/nothing here", c.io)).toBe(1);
    expect(c.err).toBe("zot: unknown command /nothing (no extension commands are loaded)\n");
    expect(runtime.messages()).toEqual([]);
  } finally {
    await dispose();
  }
});

test("tool output that arrives in pieces of one line stays one line on stderr, and later lines start fresh", async () => {
  const { runtime, home, dispose } = await mockRuntime();
  try {
    const c = capture();
    // "b" is printed only after "a" went out as its own piece, so the line really arrives in two pieces.
    const go = `${home}/go`;
    const unsubscribe = runtime.subscribe((e) => {
      if (e.type === "tool_progress" && e.text.includes("a")) void Bun.write(go, "");
    });
    const command = `printf a; while [ ! -f ${go} ]; do sleep 0.02; done; printf b`;
    const code = await runPrint(runtime, runtime.host, `call bash ${JSON.stringify({ command })}`, c.io);
    unsubscribe();
    expect(code).toBe(0);
    expect(c.err).toEndWith(`[tool] bash ${JSON.stringify({ command })}\nab\n`);
    expect(c.out).toBe("mock: tool bash returned: ab\n");
  } finally {
    await dispose();
  }
});
