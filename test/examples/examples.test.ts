// Every example extension loaded together by the real host and exercised through its interface
// (commands, tools, interceptors, panels). The `zot ext test` scripts and end-to-end runs through the
// built binary are in e2e.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { Host } from "../../src/ext/host.ts";
import { landlockAbi } from "../../src/platform/landlock.ts";
import { VENDORED, vendoredText } from "../../scripts/vendor-sdk.ts";
import type { LoadReport } from "../../src/ext/types.ts";
import { exampleEnv, exampleNames, examplesSource, exampleWorkspace } from "./copy.ts";

const names = exampleNames();
let root = "";
let home = "";
let project = "";
let dirOf: (name: string) => string = () => "";

beforeAll(() => {
  ({ root, home, project, dirOf } = exampleWorkspace("zot-examples-"));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

test("the examples directory holds the ten documented examples, each with a manifest and a README", () => {
  expect(names).toEqual(["clock", "guard", "hello", "hello-py", "redact", "scratchpad", "theme-solarized", "todo", "tool-loader", "weather"]);
  for (const name of names) {
    expect(existsSync(join(examplesSource, name, "extension.json"))).toBe(true);
    expect(existsSync(join(examplesSource, name, "README.md"))).toBe(true);
  }
});

test("the SDK bundled beside the weather example is the SDK as it bundles now (bun scripts/vendor-sdk.ts)", async () => {
  const want = await vendoredText();
  for (const path of VENDORED) expect(readFileSync(path, "utf8") === want).toBe(true);
});

describe("the real host loads every example together", () => {
  const host = new Host();
  let report: LoadReport;

  beforeAll(async () => {
    const saved = process.env.PATH;
    process.env.PATH = exampleEnv().PATH;
    try {
      report = await host.load({
        extPaths: names.map(dirOf),
        noExt: true,
        cwd: project,
        home,
        info: { zotVersion: "test", provider: "mock", model: "mock", cwd: project },
      });
    } finally {
      process.env.PATH = saved;
    }
  });

  afterAll(async () => {
    await host.shutdown();
  });

  test("every process example is ready and the theme-only one is a theme", () => {
    expect(report.errors).toEqual([]);
    const status = Object.fromEntries(report.extensions.map((e) => [e.name, e.status]));
    for (const name of names) expect(status[name]).toBe(name === "theme-solarized" ? "theme_only" : "ready");
    expect(host.themes().map((t) => t.name)).toEqual(["solarized"]);
  });

  test("every example's commands and tools are registered with the host", () => {
    const commands = host
      .commands()
      .map((c) => `${c.extension}:${c.name}`)
      .sort();
    expect(commands).toEqual(
      [
        "clock:now",
        "clock:uptime",
        "guard:guard",
        "hello:cwd",
        "hello:hello",
        "hello-py:hellopy",
        "redact:redact",
        "scratchpad:scratch",
        "scratchpad:scratch-clear",
        "scratchpad:scratch-insert",
        "todo:todo",
        "weather:weather",
      ].sort(),
    );
    const tools = host
      .tools()
      .map((t) => `${t.extension}:${t.name}:${t.deferred ? "deferred" : "eager"}:${t.active ? "active" : "inactive"}`)
      .sort();
    expect(tools).toEqual(
      [
        "scratchpad:scratchpad:eager:active",
        "todo:todo_items:eager:active",
        "tool-loader:load_tools:eager:active",
        "tool-loader:base64:deferred:inactive",
        "tool-loader:sha256:deferred:inactive",
        "tool-loader:uuid:deferred:inactive",
        "weather:weather:eager:active",
      ].sort(),
    );
  });

  test("commands answer through the host", async () => {
    const hello = await host.invokeCommand("hello", "");
    expect(hello.ok && hello.response.prompt).toBe("Greet me in one short sentence.");
    const cwd = await host.invokeCommand("cwd", "");
    expect(cwd.ok && cwd.response.display).toBe(project);
    const py = await host.invokeCommand("hellopy", "");
    expect(py.ok && py.response.action).toBe("prompt");
    const now = await host.invokeCommand("now", "");
    expect(now.ok && now.response.action).toBe("display");
    const uptime = await host.invokeCommand("uptime", "");
    expect(uptime.ok && uptime.response.action).toBe("prompt");
  });

  test("tools answer through the host, and load_tools activates the deferred ones", async () => {
    const signal = new AbortController().signal;
    const weather = await host.callTool("weather", { city: "Cairo" }, { signal });
    expect(weather.content).toEqual([{ type: "text", text: "Cairo: 31°C, sunny, wind 11 km/h, humidity 22%" }]);
    expect(weather.isError).toBe(false);
    const loaded = await host.callTool("load_tools", { names: ["uuid"] }, { signal });
    expect(loaded.activateTools).toEqual(["uuid"]);
    expect(host.tools().find((t) => t.name === "uuid")?.active).toBe(true);
    const uuid = await host.callTool("uuid", {}, { signal });
    expect(uuid.content[0]).toMatchObject({ type: "text" });
    expect((uuid.content[0] as { text: string }).text).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("the weather example runs in the sandbox it declares and follows its units setting as it changes", async () => {
    const signal = new AbortController().signal;
    const weather = host.states().find((e) => e.name === "weather")!;
    expect(weather.permissions).toMatchObject({ fs: { read: [], write: [] }, net: false, exec: false, env: [] });
    if (process.platform === "linux" && landlockAbi() >= 4) expect(weather.enforcement).toBe("enforced");
    expect((await host.configure("weather", [["units", "imperial"]], [])).ok).toBe(true);
    // settings_changed and the tool call travel the same pipe in order, so the call sees the change.
    const imperial = await host.callTool("weather", { city: "Cairo" }, { signal });
    expect(imperial.content).toEqual([{ type: "text", text: "Cairo: 88°F, sunny, wind 7 mph, humidity 22%" }]);
    expect((await host.configure("weather", [], ["units"])).ok).toBe(true);
  });

  test("the todo tool persists to todos.json in the data directory and the panel reflects it", async () => {
    const signal = new AbortController().signal;
    const added = await host.callTool("todo_items", { action: "add", text: "ship the SDK" }, { signal });
    expect(added.content).toEqual([{ type: "text", text: "1. [ ] ship the SDK" }]);
    await host.callTool("todo_items", { action: "toggle", number: 1 }, { signal });
    expect(JSON.parse(readFileSync(join(dirOf("todo"), "todos.json"), "utf8"))).toEqual([{ text: "ship the SDK", done: true }]);
    const opened = await host.invokeCommand("todo", "");
    expect(opened.ok && opened.response.open_panel?.lines).toEqual(["› ✓ ship the SDK"]);
    expect(opened.ok && opened.response.open_panel?.title).toBe("Todos (1/1 done)");
    const renders: string[][] = [];
    const off = host.onIntent((i) => {
      if (i.kind === "panel_render" && i.lines) renders.push(i.lines);
    });
    host.panelKey("todo-main", "rune", "a");
    for (const ch of "more") host.panelKey("todo-main", "rune", ch);
    host.panelKey("todo-main", "enter");
    const deadline = Date.now() + 10_000;
    while (!renders.some((l) => l.includes("› □ more")) && Date.now() < deadline) await Bun.sleep(20);
    off();
    expect(renders.at(-1)).toEqual(["  ✓ ship the SDK", "› □ more"]);
    host.panelClose("todo-main");
  });

  test("guard refuses rm -rf / and rewrites ls, and redact masks a key in a tool result", async () => {
    const blocked = await host.intercept({ event: "tool_call", tool_id: "1", tool_name: "bash", tool_args: { command: "rm -rf /" } });
    expect(blocked.blocked).toBe(true);
    expect(blocked.blockedBy).toBe("guard");
    const rewritten = await host.intercept({ event: "tool_call", tool_id: "2", tool_name: "bash", tool_args: { command: "ls" } });
    expect(rewritten.blocked).toBe(false);
    expect(rewritten.args).toEqual({ command: "ls -la" });
    const masked = await host.intercept({
      event: "tool_result",
      tool_id: "3",
      tool_name: "read",
      tool_args: { path: ".env" },
      content: [{ type: "text", text: "KEY=sk-proj-0123456789abcdefghij" }],
      is_error: false,
    });
    expect(masked.content).toEqual([{ type: "text", text: "KEY=sk-proj…[redacted]" }]);
    const text = await host.intercept({ event: "assistant_message", text: "use sk-ant-0123456789abcdefghij" });
    expect(text.text).toBe("use sk-ant-…[redacted]");
  });

  test("scratchpad commands and tool share one file", async () => {
    const signal = new AbortController().signal;
    await host.callTool("scratchpad", { action: "append", text: "from the model" }, { signal });
    const shown = await host.invokeCommand("scratch", "");
    expect(shown.ok && shown.response.display).toBe("from the model");
    expect(readFileSync(join(dirOf("scratchpad"), "scratchpad.md"), "utf8")).toBe("from the model\n");
  });
});
