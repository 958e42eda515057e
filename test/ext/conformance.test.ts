// "Real extension" conformance: extensions written the way people write them from the spec — the
// spec's Python quick start copied verbatim, plain Node.js without an SDK, POSIX sh with only
// read/printf, and one that talks the way the Go SDK does — loaded by the real host and by
// `zot ext doctor` run as a subprocess.
import { describe, expect, test } from "bun:test";
import { chmodSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_TIMINGS, commandIntents } from "../../src/ext/host.ts";
import { decodeExtensionFrame } from "../../src/protocol.ts";
import { runZotExt } from "./cli-helpers.ts";
import { waitFor } from "../helpers/wait.ts";
import { FIXTURES, start } from "./fixture-host.ts";
import { elements } from "../helpers/elements.ts";
import { tempDir } from "../helpers/temp.ts";

// The spec is not part of the repository, so its Python quick start is pinned by hash: these are
// the SHA-256 digests of the spec's ```python block and of the manifest after "Drop it in a
// directory" in the Go zot's extension protocol spec. A fixture edit that drifts from it fails here.
const SPEC_QUICKSTART_SHA256 = {
  "hello.py": "cc75f6be98c92410af64c3898e0a416ec9a6caabf2b983fd0ac902655316e0de",
  "extension.json": "22eab4497fe19ecd15d46337eca928fbdb7552e9fa7f05248c891afbd5ee0c92",
};

function sha256(path: string): string {
  return new Bun.CryptoHasher("sha256").update(readFileSync(path)).digest("hex");
}

function tempHome(): string {
  return tempDir("zot-conf-");
}

describe("the spec's Python quick start, verbatim", () => {
  test("the fixture is the spec's code block and manifest, byte for byte", () => {
    for (const [file, digest] of Object.entries(SPEC_QUICKSTART_SHA256)) {
      expect(sha256(join(FIXTURES, "hello-py", file))).toBe(digest);
    }
  });

  test("the host loads it, /hellopy prompts the agent, and it acknowledges shutdown", async () => {
    const h = await start(["hello-py"]);
    try {
      const s = h.host.states()[0]!;
      expect(s.status).toBe("ready");
      expect(s.commands).toEqual(["hellopy"]);
      const r = await h.host.invokeCommand("/HelloPy", "  ");
      if (!r.ok) throw new Error(r.error);
      expect(r.response.action).toBe("prompt");
      expect(commandIntents(r.extension, r.response)).toEqual([{ kind: "prompt", extension: "hello-py", text: "Greet me very briefly in one sentence." }]);
    } finally {
      await h.host.shutdown();
    }
    const log = h.log("hello-py");
    expect(log).toContain("[zot] shutdown acknowledged");
    expect(log).toContain("[zot] process exited with exit code 0");
    rmSync(h.home, { recursive: true, force: true });
  });

  test("zot ext install copies it and zot ext doctor reports it ready with its command, log and startup time", async () => {
    const home = tempHome();
    try {
      // As the spec says: `zot ext install ./hello-py`, from the directory holding it.
      const inst = await runZotExt(["install", "./hello-py"], home, FIXTURES);
      expect(inst.err).toBe("");
      expect(inst.code).toBe(0);
      const r = await runZotExt(["doctor", "--json"], home);
      expect(r.code).toBe(0);
      const report = JSON.parse(r.out);
      expect(report.ok).toBe(true);
      const [e] = report.extensions;
      expect(e).toMatchObject({
        name: "hello-py",
        dir: join(home, "extensions", "hello-py"),
        source: "global",
        status: "ready",
        error: null,
        version: "1.0.0",
        commands: ["hellopy"],
        tools: [],
        conflicts: [],
        warnings: [],
        log: join(home, "logs", "ext-hello-py.log"),
      });
      expect(typeof e.startup_ms).toBe("number");
      expect(e.startup_ms).toBeGreaterThan(0);
      const log = readFileSync(e.log, "utf8");
      expect(log).toMatch(/^\[zot\] starting hello-py 1\.0\.0 at \d{4}-\d\d-\d\dT[\d:.]+Z$/m);
      expect(log).toContain("[zot] registration complete (ready)");
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe("a plain Node.js extension (no SDK, exec node)", () => {
  test("commands, a tool with notify, events in order to a subscriber, and interception all work", async () => {
    const h = await start(["plain-node"]);
    try {
      expect(h.report.errors).toEqual([]);
      const s = h.host.states()[0]!;
      expect(s.status).toBe("ready");
      expect(s.commands).toEqual(["Shout", "seen"]);
      expect(s.tools).toEqual([{ name: "word_count", deferred: false }]);

      const shout = await h.host.invokeCommand("shout", "  hi there  ");
      if (!shout.ok) throw new Error(shout.error);
      expect(shout.response).toMatchObject({ action: "display", display: "HI THERE" });
      expect(h.log("plain-node")).toContain('"type":"command_invoked"');
      expect(h.log("plain-node")).toMatch(/"name":"Shout","args":"hi there"/);

      const tool = await h.host.callTool("word_count", { text: "one two three" }, { signal: new AbortController().signal });
      expect(tool).toEqual({ content: [{ type: "text", text: "3" }], isError: false, activateTools: [], extension: "plain-node" });
      await h.intent((i) => i.kind === "notify" && i.message === "counted 3 words" && i.extension === "plain-node");

      h.host.emit({ event: "session_start" });
      h.host.emit({ event: "turn_start", step: 1 });
      h.host.emit({ event: "tool_call", tool_id: "t1", tool_name: "read", tool_args: { path: "a" } });
      h.host.emit({ event: "turn_end", stop: "end_turn" });
      const seen = await h.host.invokeCommand("seen", "");
      if (!seen.ok) throw new Error(seen.error);
      // turn_start was not subscribed to, so it never arrived.
      expect(seen.response).toMatchObject({ action: "insert", insert: "session_start,tool_call,turn_end" });

      const blocked = await h.host.intercept({ event: "tool_call", tool_id: "t2", tool_name: "bash", tool_args: { command: "rm -rf /" } });
      expect(blocked).toMatchObject({ blocked: true, blockedBy: "plain-node", reason: "refused: rm -rf" });
      const rewritten = await h.host.intercept({ event: "tool_call", tool_id: "t3", tool_name: "bash", tool_args: { command: "ls" } });
      expect(rewritten).toMatchObject({ blocked: false, args: { command: "echo GUARDED: ls" } });
      const text = await h.host.intercept({ event: "assistant_message", text: "key sk-secret here" });
      expect(text).toMatchObject({ blocked: false, text: "key [redacted] here" });
      const turn = await h.host.intercept({ event: "turn_start", step: 2 });
      expect(turn).toEqual({ blocked: false, steps: [] });
    } finally {
      await h.close();
    }
  });
});

describe("a POSIX shell extension using only read and printf", () => {
  test("handshakes, registers after hello_ack and answers its command", async () => {
    const h = await start(["plain-sh"]);
    try {
      expect(h.host.states()[0]).toMatchObject({ status: "ready", commands: ["echo-sh"], warnings: [] });
      const r = await h.host.invokeCommand("echo-sh", "  hello world ");
      if (!r.ok) throw new Error(r.error);
      expect(r.response).toMatchObject({ action: "display", display: "sh says: hello world" });
    } finally {
      await h.host.shutdown();
    }
    expect(h.log("plain-sh")).toContain("[zot] shutdown acknowledged");
    rmSync(h.home, { recursive: true, force: true });
  });

  test("zot ext doctor reports it ready", async () => {
    const home = tempHome();
    try {
      const r = await runZotExt(["doctor", "--json", "--no-ext", "-e", join(FIXTURES, "plain-sh")], home);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.out).extensions[0]).toMatchObject({ name: "plain-sh", source: "flag", status: "ready", commands: ["echo-sh"] });
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe("an extension that behaves like the Go SDK", () => {
  test("registrations and ready sent before reading hello_ack count; Go-encoded frames are accepted", async () => {
    const h = await start(["go-style"]);
    try {
      const s = h.host.states()[0]!;
      expect(s).toMatchObject({ status: "ready", version: "2.1.0", commands: ["gohello", "panel"], events: ["turn_start"] });
      expect(s.tools).toEqual([
        { name: "go_echo", deferred: false },
        { name: "go_empty", deferred: false },
      ]);
      expect(s.intercept.map((i) => i.event)).toEqual(["tool_call"]);
      // "schema": null is how Go marshals a nil json.RawMessage: an empty object schema, with a warning.
      expect(h.host.tools().find((t) => t.name === "go_empty")?.schema).toEqual({ type: "object", properties: {} });
      expect(s.warnings).toEqual(['tool "go_empty" has no schema; using an empty object schema']);

      const hi = await h.host.invokeCommand("gohello", "");
      if (!hi.ok) throw new Error(hi.error);
      expect(hi.response).toMatchObject({ action: "prompt", prompt: "Greet me in one short sentence." });

      const echo = await h.host.callTool("go_echo", { text: "ping" }, { signal: new AbortController().signal });
      expect(echo.content).toEqual([{ type: "text", text: "ping" }]);
      // ext.TextResult("") drops the empty text (omitempty): still a valid, empty text block.
      const empty = await h.host.callTool("go_empty", {}, { signal: new AbortController().signal });
      expect(empty).toEqual({ content: [{ type: "text", text: "" }], isError: false, activateTools: [], extension: "go-style" });

      const panel = await h.host.invokeCommand("panel", "");
      if (!panel.ok) throw new Error(panel.error);
      expect(panel.response.open_panel).toEqual({ id: "go-panel", title: "Go", lines: ["one", "two"], footer: "" });
      h.host.panelKey("go-panel", "down");
      await h.intent((i) => i.kind === "panel_render" && i.panelId === "go-panel" && i.lines?.[0] === "key down");

      const allowed = await h.host.intercept({ event: "tool_call", tool_id: "t", tool_name: "bash", tool_args: { command: "ls" } });
      expect(allowed.blocked).toBe(false);
      expect(allowed.steps.map((x) => x.outcome)).toEqual(["allow"]);
    } finally {
      await h.host.shutdown();
    }
    expect(h.log("go-style")).toContain("[zot] shutdown acknowledged");
    rmSync(h.home, { recursive: true, force: true });
  });
});

describe("all four together", () => {
  test("load in parallel, and after shutdown none of their processes is left", async () => {
    const h = await start(["hello-py", "plain-node", "plain-sh", "go-style"]);
    const dirs = ["hello-py", "plain-node", "plain-sh", "go-style"].map((n) => join(FIXTURES, n));
    try {
      expect(h.host.states().map((s) => s.status)).toEqual(["ready", "ready", "ready", "ready"]);
    } finally {
      await h.close();
    }
    await waitFor(() => running(dirs).length === 0 || null, 5000).catch(() => undefined);
    expect(running(dirs)).toEqual([]);
  });
});

/** Live processes whose working directory is one of `dirs`. */
function running(dirs: string[]): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      const cwd = realpathSync(`/proc/${pid}/cwd`);
      if (!dirs.includes(cwd)) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) === "Z") continue;
      found.push(`${pid} ${cwd}`);
    } catch {
      // Gone while we looked, or not ours to inspect.
    }
  }
  return found;
}

describe("an extension speaking a newer dialect", () => {
  test("unknown event and intercept names are dropped with a warning; the known ones still count", async () => {
    const h = await start(["newer-sdk"]);
    try {
      const s = h.host.states()[0]!;
      expect(s.status).toBe("ready");
      expect(s.events).toEqual(["session_start"]);
      expect(s.intercept.map((i) => i.event)).toEqual(["tool_call"]);
      expect(s.warnings).toEqual([
        'subscribe: ignored unknown event "session_end", event "user_prompt_submit", intercept "before_agent_start", intercept "tool_result_v2"; the rest of the subscription counts',
      ]);
      expect(h.host.hasInterceptor("tool_call")).toBe(true);
    } finally {
      await h.close();
    }
  });

  test("an answer the host cannot use fails its request at once, naming the extension", async () => {
    // Timeouts far beyond the test's own limit: only an immediate failure can pass.
    const h = await start(["newer-sdk"], { commandMs: 600_000, toolMs: 600_000 });
    try {
      const cmd = await h.host.invokeCommand("future", "");
      expect(cmd.ok).toBe(false);
      if (!cmd.ok) expect(cmd.error).toMatch(/^extension "newer-sdk" sent an invalid command_response: .*unknown action "tool_prompt"/);
      const tool = await h.host.callTool("future_tool", {}, { signal: new AbortController().signal, timeoutMs: 600_000 });
      expect(tool.isError).toBe(true);
      expect(tool.extension).toBe("newer-sdk");
      expect(tool.content[0]).toMatchObject({ type: "text" });
      expect((tool.content[0] as { text: string }).text).toContain('tool "future_tool" failed: extension "newer-sdk" sent an invalid tool_result');
      const i = await h.host.intercept({ event: "tool_call", tool_id: "t", tool_name: "bash", tool_args: {} });
      expect(i.blocked).toBe(false);
      expect(i.steps).toMatchObject([{ extension: "newer-sdk", outcome: "unavailable" }]);
      expect(h.log("newer-sdk")).toContain("[zot] warning: ignored an invalid frame: command_response: unknown action");
    } finally {
      await h.close();
    }
  });
});

describe("hostile output", () => {
  test("malformed frames of every kind are warnings; the host, the good frames and other extensions carry on", async () => {
    const h = await start(["hostile", "plain-sh"]);
    try {
      const [hostile, sh] = elements(h.host.states(), 2);
      expect(hostile.status).toBe("ready");
      expect(sh.status).toBe("ready");
      expect(hostile.commands).toEqual(["still-works", "close-other", "mute"]);
      expect(hostile.tools).toEqual([{ name: "picture", deferred: false }]);
      expect(hostile.warnings.length).toBeGreaterThan(30);
      expect(hostile.warnings.some((w) => w.includes("not JSON"))).toBe(true);
      const r = await h.host.invokeCommand("still-works", "");
      expect(r.ok && r.response.display).toBe("survived");
      const pic = await h.host.callTool("picture", {}, { signal: new AbortController().signal });
      expect(pic.content).toEqual([
        { type: "image", mime_type: "image/png", data: "iVBORw0KGgo=" },
        { type: "text", text: "a picture" },
      ]);
      // Nothing it sent became a submit, and the other extension still answers.
      expect(h.intents.filter((i) => i.kind === "submit")).toEqual([]);
      const echo = await h.host.invokeCommand("echo-sh", "ok");
      expect(echo.ok && echo.response.display).toBe("sh says: ok");
    } finally {
      await h.close();
    }
  });

  test("a command that is never answered fails at its deadline, naming extension and command", async () => {
    const h = await start(["hostile"], { commandMs: 300 });
    try {
      const r = await h.host.invokeCommand("MUTE", "");
      expect(r).toEqual({ ok: false, error: 'extension "hostile" did not answer command "/mute" within 0.3 s' });
      const again = await h.host.invokeCommand("still-works", "");
      expect(again.ok).toBe(true);
    } finally {
      await h.close();
    }
  });

  test("an extension cannot take over the routing of another extension's panel", async () => {
    const h = await start(["hostile", "go-style"]);
    try {
      const open = await h.host.invokeCommand("panel", "");
      expect(open.ok).toBe(true);
      const closed = await h.host.invokeCommand("close-other", "go-panel");
      expect(closed.ok).toBe(true);
      h.host.panelKey("go-panel", "up");
      await h.intent((i) => i.kind === "panel_render" && i.extension === "go-style" && i.lines?.[0] === "key up");
    } finally {
      await h.close();
    }
  });

  test("an executable script without a #! line fails to start with a hint and its log path, in the log too", async () => {
    const dir = tempDir("zot-conf-noshebang-");
    writeFileSync(join(dir, "run"), "echo hello >&2\n");
    chmodSync(join(dir, "run"), 0o755);
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name: "noshebang", exec: "./run" }));
    const h = await start([dir]);
    try {
      const s = h.host.states()[0]!;
      expect(s.status).toBe("failed");
      expect(s.error).toContain('extension "noshebang" failed to start: could not start');
      expect(s.error).toContain('a script needs a "#!" line');
      expect(s.error).toContain(`(log: ${join(h.home, "logs", "ext-noshebang.log")})`);
      expect(h.report.errors.map((e) => e.extension)).toEqual(["noshebang"]);
      expect(h.log("noshebang")).toMatch(/^\[zot\] failed: could not start /m);
    } finally {
      await h.close();
    }
  });

  test("an invalid hello fails the load saying what is wrong with it", async () => {
    const h = await start(["bad-hello"]);
    try {
      const s = h.host.states()[0]!;
      expect(s.status).toBe("failed");
      expect(s.error).toContain('its hello frame is invalid (hello: field "version" must be a string, got number)');
      expect(s.error).toContain("(log: ");
    } finally {
      await h.close();
    }
  });
});

test("the real-extension fixtures keep their executable bits", () => {
  for (const f of ["hello-py/hello.py", "plain-sh/main.sh", "go-style/go-style.py", "noisy/run.sh", "bad-hello/run.sh"])
    expect(statSync(join(FIXTURES, f)).mode & 0o111).not.toBe(0);
});

test("the documented timeouts and limits are the defaults", () => {
  expect(DEFAULT_TIMINGS).toEqual({
    helloMs: 10_000,
    readyGraceMs: 250,
    readyMaxMs: 3_000,
    lingerMs: 200,
    maxQueueBytes: 64 * 1024 * 1024,
    maxLineBytes: 64 * 1024 * 1024,
    commandMs: 30_000,
    toolMs: 60_000,
    shutdownGraceMs: 2_000,
    killAfterMs: 1_000,
    reconnectMs: 500,
    reconnectMaxMs: 30_000,
  });
  const sub = decodeExtensionFrame({
    type: "subscribe",
    intercept: ["tool_call", { event: "turn_start" }, { event: "tool_result", timeout_ms: 2000, on_timeout: "block" }],
  });
  expect(sub).toEqual({
    ok: true,
    value: {
      type: "subscribe",
      events: [],
      intercept: [
        { event: "tool_call", timeout_ms: 5000, on_timeout: "allow" },
        { event: "turn_start", timeout_ms: 5000, on_timeout: "allow" },
        { event: "tool_result", timeout_ms: 2000, on_timeout: "block" },
      ],
    },
  });
});
