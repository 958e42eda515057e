// The host API as modes and the agent loop use it, against real fixture extensions.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandIntents, Host, MAX_UNHEARD_INTENTS } from "../../src/ext/host.ts";
import type { UiIntent } from "../../src/ext/types.ts";
import { waitFor } from "../helpers/wait.ts";
import { alive, FAST, FIXTURES, start } from "./fixture-host.ts";
import type { Harness } from "./fixture-host.ts";

const never = new AbortController().signal;

describe("one panel per id", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await start(["kitchen", "panel-twin"]);
  });
  afterAll(() => h.close());

  test("a second extension opening the same panel id ends the first one's panel and takes its keys", async () => {
    expect((await h.host.invokeCommand("panel", "")).ok).toBe(true);
    expect((await h.host.invokeCommand("twin", "")).ok).toBe(true);
    await h.intent((i) => i.kind === "notify" && i.extension === "kitchen" && i.message === "panel closed kp");
    h.host.panelKey("kp", "down");
    await h.intent((i) => i.kind === "notify" && i.extension === "panel-twin" && i.message === "twin got down");
    expect(h.intents.some((i) => i.kind === "panel_render" && i.extension === "kitchen" && i.lines?.[0] === "key down")).toBe(false);
  });
});

describe("commands, tools, events and panels", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await start(["kitchen", "legacy"]);
  });
  afterAll(() => h.close());

  test("commands are found case-insensitively and invoked with their canonical name and trimmed args", async () => {
    const r = await h.host.invokeCommand("/LEGACY", "  some args \n");
    expect(r).toEqual({ ok: true, extension: "legacy", response: expect.objectContaining({ action: "display", display: "legacy:Legacy:some args" }) });
  });

  test("an unknown command is an error value, not an exception", async () => {
    const r = await h.host.invokeCommand("nope", "");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(`"/nope"`);
  });

  test("command responses become UI intents for every action", async () => {
    const collect = async (name: string, args = "") => {
      const r = await h.host.invokeCommand(name, args);
      if (!r.ok) throw new Error(r.error);
      return commandIntents(r.extension, r.response);
    };
    expect(await collect("prompt", "hi")).toEqual([{ kind: "prompt", extension: "kitchen", text: "say hi" }]);
    expect(await collect("insert", "text")).toEqual([{ kind: "insert", extension: "kitchen", text: "text" }]);
    expect(await collect("echo", "x")).toEqual([{ kind: "display", extension: "kitchen", text: "echo:x" }]);
    expect(await collect("fail")).toEqual([{ kind: "command_error", extension: "kitchen", message: "it failed" }]);
    expect(await collect("panel")).toEqual([
      { kind: "panel_open", extension: "kitchen", panel: { id: "kp", title: "Kitchen", lines: ["one"], footer: "esc" } },
    ]);
  });

  test("panel keys, resizes and closes go to the extension that opened the panel", async () => {
    const r = await h.host.invokeCommand("Panel", "");
    expect(r.ok).toBe(true);
    h.host.panelKey("kp", "down");
    h.host.panelKey("kp", "rune", "x");
    h.host.panelResize("kp", 80, 24);
    await h.intent((i) => i.kind === "panel_render" && i.lines?.[0] === "size 80x24");
    const renders = h.intents.flatMap((i) => (i.kind === "panel_render" ? [i.lines?.[0]] : []));
    expect(renders.slice(-3)).toEqual(["key down", "key rune x", "size 80x24"]);
    h.host.panelClose("kp");
    await h.intent((i) => i.kind === "clear_notes");
    const tail = h.intents.slice(-3);
    expect(tail).toEqual([
      { kind: "notify", extension: "kitchen", level: "info", message: "panel closed kp" },
      { kind: "submit", extension: "kitchen", text: "after panel" },
      { kind: "clear_notes", extension: "kitchen" },
    ]);
    // The panel is closed: further keys go nowhere.
    h.host.panelKey("kp", "up");
  });

  test("tool calls return content, the error flag and the owning extension", async () => {
    const r = await h.host.callTool("echo_tool", { x: "1" }, { signal: never });
    expect(r).toEqual({ content: [{ type: "text", text: `{"x":"1"}` }], isError: false, activateTools: [], extension: "kitchen" });
  });

  test("tools without a schema get an empty object schema", () => {
    expect(h.host.tools().find((t) => t.name === "slow_tool")?.schema).toEqual({ type: "object", properties: {} });
  });

  test("deferred tools stay inactive until a tool result activates them; unknown names are ignored", async () => {
    expect(h.host.tools().find((t) => t.name === "hidden")).toMatchObject({ deferred: true, active: false });
    const r = await h.host.callTool("loader", {}, { signal: never });
    expect(r.activateTools).toEqual(["hidden", "no_such_tool"]);
    expect(h.host.tools().find((t) => t.name === "hidden")).toMatchObject({ deferred: true, active: true });
    expect(h.host.tools().some((t) => t.name === "no_such_tool")).toBe(false);
    const hidden = await h.host.callTool("hidden", {}, { signal: never });
    expect(hidden.isError).toBe(true);
  });

  test("tool progress reaches the caller, and a timeout sends tool_cancel and names extension and tool", async () => {
    const progress: string[] = [];
    const r = await h.host.callTool("slow_tool", {}, { signal: never, timeoutMs: 1000, onProgress: (t) => progress.push(t) });
    expect(progress).toEqual(["working"]);
    expect(r.isError).toBe(true);
    expect(r.extension).toBe("kitchen");
    expect(r.content[0]).toEqual({ type: "text", text: `extension "kitchen" did not answer tool "slow_tool" within 1 s` });
    await h.intent((i) => i.kind === "notify" && i.message.startsWith("cancelled "));
  });

  test("aborting a tool call sends tool_cancel with the call's id and returns an error result", async () => {
    const ac = new AbortController();
    const calls: string[] = [];
    const off = h.host.onIntent((i) => {
      if (i.kind === "tool_progress") {
        calls.push(i.callId);
        ac.abort();
      }
    });
    const r = await h.host.callTool("slow_tool", {}, { signal: ac.signal });
    off();
    expect(r.isError).toBe(true);
    expect(r.content[0]).toEqual({ type: "text", text: `tool "slow_tool" from extension "kitchen" was cancelled` });
    await h.intent((i) => i.kind === "notify" && i.message === `cancelled ${calls[0]}`);
  });

  test("events reach subscribers only", async () => {
    h.host.emit({ event: "turn_end", stop: "end_turn" });
    h.host.emit({ event: "turn_start", step: 1 });
    h.host.emit({ event: "session_start" });
    await h.intent((i) => i.kind === "notify" && i.message === "event session_start");
    const events = h.intents.flatMap((i) => (i.kind === "notify" && i.message.startsWith("event ") ? [i.message] : []));
    expect(events).toEqual(["event turn_end", "event session_start"]);
  });
});

describe("runtime exits", () => {
  test("a crash during a tool call fails the call at once, naming extension, exit code and log", async () => {
    const h = await start(["kitchen", "legacy"]);
    try {
      // A ten-minute timeout: the call can only end early because the exit fails it.
      const r = await h.host.callTool("crash", {}, { signal: never, timeoutMs: 600_000 });
      expect(r.isError).toBe(true);
      const text = (r.content[0] as { text: string }).text;
      expect(text).toContain(`tool "crash" failed`);
      expect(text).toContain(`extension "kitchen" exited with exit code 7`);
      expect(text).toContain(h.host.states()[0]!.log);
      await h.intent((i) => i.kind === "extension_exited");
      expect(h.host.commands().map((c) => c.extension)).toEqual(["legacy"]);
      expect(h.host.tools()).toEqual([]);
      expect(h.host.states()[0]!.status).toBe("exited");
      const r2 = await h.host.invokeCommand("legacy", "");
      expect(r2.ok).toBe(true);
    } finally {
      await h.close();
    }
  });

  test("an exit during a command fails the pending command at once", async () => {
    const h = await start(["kitchen"], { commandMs: 600_000 });
    try {
      const r = await h.host.invokeCommand("die", "");
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toContain("exit code 9");
    } finally {
      await h.close();
    }
  });

  test("an open panel of an exiting extension is closed", async () => {
    const h = await start(["kitchen"]);
    try {
      await h.host.invokeCommand("Panel", "");
      await h.host.invokeCommand("die", "");
      const ends = h.intents.flatMap((i) => (i.kind === "panel_close" ? [`panel_close ${i.panelId}`] : i.kind === "extension_exited" ? [i.kind] : []));
      expect(ends).toEqual(["panel_close kp", "extension_exited"]);
    } finally {
      await h.close();
    }
  });
});

describe("reload", () => {
  test("reloading one extension restarts only it and re-sends session_start", async () => {
    const h = await start(["kitchen", "legacy"]);
    try {
      h.host.emit({ event: "session_start" });
      await h.intent((i) => i.kind === "notify" && i.message === "event session_start");
      h.intents.length = 0;
      const report = await h.host.reload("KITCHEN");
      expect(report.errors).toEqual([]);
      expect(report.extensions.map((e) => [e.name, e.status])).toEqual([["kitchen", "ready"]]);
      await h.intent((i) => i.kind === "notify" && i.message === "event session_start");
      expect(h.host.states().map((s) => s.status)).toEqual(["ready", "auto_ready"]);
      expect((await h.host.invokeCommand("legacy", "still")).ok).toBe(true);
      expect((await h.host.invokeCommand("echo", "new")).ok).toBe(true);
      expect(h.intents.some((i) => i.kind === "extension_exited")).toBe(false);
    } finally {
      await h.close();
    }
  });

  test("a reload sends the host facts given by setInfo in the new hello_ack", async () => {
    const h = await start(["kitchen"]);
    try {
      h.host.setInfo({ model: "other-model", provider: "other-provider" });
      await h.host.reload("kitchen");
      const acks = h.intents.flatMap((i) => (i.kind === "notify" && i.message.startsWith("ack ") ? [JSON.parse(i.message.slice(4)).ack] : []));
      expect(acks.map((a) => [a.provider, a.model])).toEqual([
        ["test-provider", "test-model"],
        ["other-provider", "other-model"],
      ]);
    } finally {
      await h.close();
    }
  });

  test("reloading all restarts every extension and reports per-extension errors", async () => {
    const h = await start(["kitchen", "exit-early"]);
    try {
      const report = await h.host.reload();
      expect(report.extensions.map((e) => [e.name, e.status])).toEqual([
        ["kitchen", "ready"],
        ["exit-early", "failed"],
      ]);
      expect(report.errors.map((e) => e.extension)).toEqual(["exit-early"]);
      expect(report.errors[0]!.log).toContain("ext-exit-early.log");
      expect((await h.host.invokeCommand("echo", "")).ok).toBe(true);
    } finally {
      await h.close();
    }
  });

  test("after shutdown, a reload starts extensions again and the next shutdown stops them", async () => {
    const h = await start(["grandchild"]);
    try {
      await h.host.shutdown();
      h.intents.length = 0;
      await h.host.reload();
      const note = await h.intent((i) => i.kind === "notify" && i.message.startsWith("grandchild "));
      const pid = Number((note as { message: string }).message.split(" ")[1]);
      expect(alive(pid)).toBe(true);
      await h.host.shutdown();
      await waitFor(() => !alive(pid), 5_000);
    } finally {
      await h.close();
    }
  });

  test("reloading an unknown name reports an error", async () => {
    const h = await start(["legacy"]);
    try {
      const report = await h.host.reload("ghost");
      expect(report.errors[0]!.message).toContain(`no extension named "ghost"`);
    } finally {
      await h.close();
    }
  });
});

test("commandIntents reports an error next to the action", () => {
  const intents: UiIntent[] = commandIntents("x", { type: "command_response", id: "1", action: "display", display: "d", error: "e" });
  expect(intents).toEqual([
    { kind: "display", extension: "x", text: "d" },
    { kind: "command_error", extension: "x", message: "e" },
  ]);
});

test("intents sent before anyone listens go to the first listener, in order, at most the last 200", async () => {
  const home = mkdtempSync(join(tmpdir(), "zot-host-"));
  const host = new Host(FAST);
  try {
    // early-notes sends n1…n250 between hello and ready, so all of them arrive during load().
    const opts = { extPaths: [join(FIXTURES, "early-notes")], noExt: true, cwd: home, home, info: { zotVersion: "1", provider: "p", model: "m", cwd: home } };
    const report = await host.load(opts);
    expect(report.extensions[0]!.status).toBe("ready");
    const first: UiIntent[] = [];
    const second: UiIntent[] = [];
    host.onIntent((i) => first.push(i));
    host.onIntent((i) => second.push(i));
    const notes = (list: UiIntent[]) => list.flatMap((i) => (i.kind === "notify" ? [i.message] : []));
    const expected = (from: number) => Array.from({ length: 250 - from + 1 }, (_, k) => `n${from + k}`);
    expect(MAX_UNHEARD_INTENTS).toBe(200);
    expect(notes(first)).toEqual(expected(51));
    expect(second).toEqual([]);
    // Once someone listens, nothing is held back: a reload's notes reach every listener as they come.
    await host.reload("early-notes");
    await waitFor(() => notes(second).length === 250);
    expect(notes(second)).toEqual(expected(1));
    expect(notes(first)).toEqual([...expected(51), ...expected(1)]);
  } finally {
    await host.shutdown();
    rmSync(home, { recursive: true, force: true });
  }
});

test("a mode's listener that throws does not stop the host or the other listeners, and the failure is in the extension's log", async () => {
  const home = mkdtempSync(join(tmpdir(), "zot-host-"));
  const host = new Host(FAST);
  try {
    const opts = { extPaths: [join(FIXTURES, "early-notes")], noExt: true, cwd: home, home, info: { zotVersion: "1", provider: "p", model: "m", cwd: home } };
    await host.load(opts);
    host.onIntent(() => {
      throw new Error("listener bug");
    });
    const heard: string[] = [];
    host.onIntent((i) => {
      if (i.kind === "notify") heard.push(i.message);
    });
    await host.reload("early-notes");
    await waitFor(() => heard.length === 250);
    expect(heard.at(-1)).toBe("n250");
    expect(readFileSync(join(home, "logs", "ext-early-notes.log"), "utf8")).toContain("a UI listener failed on a notify intent: listener bug");
  } finally {
    await host.shutdown();
    rmSync(home, { recursive: true, force: true });
  }
});
