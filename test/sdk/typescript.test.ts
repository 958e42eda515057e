// The TypeScript SDK against a fake host over real pipes, under Bun (SDK from source) and under Node
// (the bundle built from it), so both runtimes see the same behaviour.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { bundle, declarations } from "../../sdk/typescript/build.ts";
import { FakeHost } from "./fake-host.ts";
import { tempDir } from "../helpers/temp.ts";

const repo = resolve(import.meta.dir, "../..");
const fixture = join(import.meta.dir, "fixtures/kitchen-sink.mjs");
let outDir = "";
const hosts: FakeHost[] = [];

beforeAll(async () => {
  outDir = tempDir("zot-sdk-");
  const failure = await bundle(outDir);
  if (failure) throw new Error(failure);
});

afterAll(() => {
  for (const h of hosts) h.kill();
});

const runtimes = {
  bun: () => ({ cmd: [process.execPath, fixture], sdk: join(repo, "sdk/typescript/src/index.ts") }),
  node: () => ({ cmd: ["node", fixture], sdk: join(outDir, "index.js") }),
};

for (const [runtime, setup] of Object.entries(runtimes)) {
  describe(`TypeScript SDK under ${runtime}`, () => {
    const start = (): FakeHost => {
      const { cmd, sdk } = setup();
      const host = new FakeHost(cmd, { env: { ZOT_SDK: sdk } });
      hosts.push(host);
      return host;
    };

    test("settings arrive in hello_ack and in settings_changed, kept in host.settings", async () => {
      const host = start();
      await host.handshake({ capabilities: ["settings_changed"], settings: { units: "metric" } });
      host.send({ type: "command_invoked", id: "s1", name: "settings", args: "" });
      expect((await host.reply("s1")).display).toBe('{"units":"metric"}');
      host.send({ type: "settings_changed", settings: { units: "imperial" } });
      const note = await host.take((f) => f.type === "notify" && String(f.message).startsWith("settings"));
      expect(note.message).toBe('settings {"units":"imperial"} host {"units":"imperial"}');
      host.kill();
    });

    test("hello comes first, then onHello runs, then registrations and subscribe, then ready", async () => {
      const host = start();
      const frames = await host.handshake();
      expect(frames[0]).toEqual({ type: "hello", name: "sink", version: "1.2.3", capabilities: ["commands", "tools", "events", "panels"] });
      expect(frames.at(-1)).toEqual({ type: "ready" });
      const commands = frames.filter((f) => f.type === "register_command").map((f) => f.name);
      expect(commands).toContain("cwd");
      expect(commands).toContain("prompt");
      const tools = frames.filter((f) => f.type === "register_tool");
      expect(tools.find((t) => t.name === "hidden")).toEqual({
        type: "register_tool",
        name: "hidden",
        description: "deferred",
        schema: { type: "object" },
        deferred: true,
      });
      expect(tools.find((t) => t.name === "add")?.deferred).toBe(false);
      const sub = frames.find((f) => f.type === "subscribe");
      expect(sub).toEqual({
        type: "subscribe",
        events: ["turn_end", "tool_call", "session_start"],
        intercept: [{ event: "tool_call", timeout_ms: 2000, on_timeout: "block" }, "turn_start", "assistant_message", "tool_result"],
      });
      host.send({ type: "command_invoked", id: "c1", name: "cwd", args: "" });
      expect((await host.reply("c1")).display).toBe("/project|m|/ext|test");
      host.kill();
    });

    test("every command response helper produces its frame, and a throw becomes the error field", async () => {
      const host = start();
      await host.handshake();
      const calls: [string, string][] = [
        ["prompt", "hi"],
        ["insert", "text"],
        ["display", "shown"],
        ["panel", ""],
        ["quiet", ""],
        ["nothing", ""],
        ["fail", ""],
        ["err", ""],
        ["PROMPT", "case"],
        ["missing", ""],
        ["wrong", ""],
      ];
      calls.forEach(([name, args], i) => host.send({ type: "command_invoked", id: `c${i}`, name, args }));
      const replies = await Promise.all(calls.map((_, i) => host.reply(`c${i}`)));
      expect(replies[0]).toEqual({ type: "command_response", id: "c0", action: "prompt", prompt: "say hi" });
      expect(replies[1]).toEqual({ type: "command_response", id: "c1", action: "insert", insert: "text" });
      expect(replies[2]).toEqual({ type: "command_response", id: "c2", action: "display", display: "shown" });
      expect(replies[3]).toEqual({
        type: "command_response",
        id: "c3",
        action: "open_panel",
        open_panel: { id: "p1", title: "Panel", lines: ["a", "b"], footer: "esc close" },
      });
      expect(replies[4]).toEqual({ type: "command_response", id: "c4", action: "noop" });
      expect(replies[5]).toEqual({ type: "command_response", id: "c5", action: "noop" });
      expect(replies[6]).toEqual({ type: "command_response", id: "c6", action: "noop", error: "/fail failed: kaput" });
      expect(replies[7]).toEqual({ type: "command_response", id: "c7", action: "noop", error: "bad input" });
      expect(replies[8]!.prompt).toBe("say case");
      expect(replies[9]!.error).toContain('unknown command "/missing"');
      expect(replies[10]!.error).toContain('/wrong returned "a bare string", not prompt()');
      expect(await host.take((f) => f.type === "notify")).toEqual({ type: "notify", level: "success", message: "did it" });
      expect(await host.take((f) => f.type === "clear_notes")).toEqual({ type: "clear_notes" });
      expect(await host.take((f) => f.type === "submit")).toEqual({ type: "submit", text: "queued prompt" });
      host.kill();
    });

    test("a slow handler does not hold back a fast one", async () => {
      const host = start();
      await host.handshake();
      host.send({ type: "command_invoked", id: "slow", name: "slow", args: "" });
      host.send({ type: "command_invoked", id: "fast", name: "display", args: "fast" });
      await host.reply("slow");
      const order = host.seen.filter((f) => f.type === "command_response").map((f) => f.id);
      expect(order).toEqual(["fast", "slow"]);
      host.kill();
    });

    test("tool results carry text, images, is_error and activate_tools, large ones arrive whole, and a throwing tool becomes an is_error result", async () => {
      const host = start();
      await host.handshake();
      const calls: [string, Record<string, unknown>][] = [
        ["add", { a: 2, b: 3 }],
        ["plain", {}],
        ["picture", {}],
        ["boom", {}],
        ["flagged", {}],
        ["loader", {}],
        ["hidden", {}],
        ["nope", {}],
        ["big", {}],
      ];
      calls.forEach(([name, args], i) => host.send({ type: "tool_call", id: `t${i}`, name, args }));
      const r = await Promise.all(calls.map((_, i) => host.reply(`t${i}`)));
      expect(r[0]).toEqual({ type: "tool_result", id: "t0", content: [{ type: "text", text: "5" }], is_error: false, activate_tools: [] });
      expect(r[1]!.content).toEqual([{ type: "text", text: "just a string" }]);
      expect(r[2]!.content).toEqual([
        { type: "text", text: "see image" },
        { type: "image", mime_type: "image/png", data: "aGk=" },
      ]);
      expect(r[3]).toEqual({
        type: "tool_result",
        id: "t3",
        content: [{ type: "text", text: "boom failed: tool exploded" }],
        is_error: true,
        activate_tools: [],
      });
      expect(r[4]!.is_error).toBe(true);
      expect(r[5]!.activate_tools).toEqual(["hidden"]);
      expect(r[6]!.content).toEqual([{ type: "text", text: "hidden ran" }]);
      expect(r[7]!.is_error).toBe(true);
      expect((r[8]!.content as { text: string }[])[0]!.text.length).toBe(2 * 1024 * 1024);
      host.kill();
    });

    test("agents are registered, and a subagent's tool calls, events and interceptions name it", async () => {
      const host = start();
      const frames = await host.handshake();
      expect(frames.find((f) => f.type === "register_agent")).toEqual({
        type: "register_agent",
        name: "critic",
        description: "finds bugs in a change",
        prompt: "You criticise code.",
        tools: ["read"],
        reasoning: "high",
      });
      const agent = { id: "untrusted-2", name: "untrusted", parent: "general-1" };
      host.send({ type: "tool_call", id: "w1", name: "who", args: {}, agent });
      host.send({ type: "tool_call", id: "w2", name: "who", args: {} });
      expect((await host.reply("w1")).content).toEqual([{ type: "text", text: "untrusted-2" }]);
      expect((await host.reply("w2")).content).toEqual([{ type: "text", text: "main" }]);
      host.send({ type: "event", event: "tool_call", tool_id: "x", tool_name: "read", tool_args: { path: "a" }, agent });
      expect((await host.take((f) => f.type === "notify")).message).toBe('tool_call read {"path":"a"} by untrusted-2 (untrusted, parent general-1)');
      host.send({ type: "event_intercept", id: "i1", event: "tool_call", tool_id: "y", tool_name: "read", tool_args: {}, agent });
      expect(await host.reply("i1")).toEqual({ type: "event_intercept_response", id: "i1", block: true, reason: "no calls from untrusted-2" });
      host.kill();
    });

    test("tool_cancel aborts the handler's signal, and progress lines arrive before the result", async () => {
      const host = start();
      await host.handshake();
      host.send({ type: "tool_call", id: "w1", name: "wait", args: {} });
      expect(await host.take((f) => f.type === "tool_progress")).toEqual({ type: "tool_progress", id: "w1", text: "started w1" });
      host.send({ type: "tool_cancel", id: "w1" });
      const reply = await host.reply("w1");
      expect(reply.content).toEqual([{ type: "text", text: "aborted: cancelled by the host" }]);
      expect(reply.is_error).toBe(true);
      host.kill();
    });

    test("interceptors answer with typed decisions; a fail-closed one blocks when it throws and a fail-open one allows", async () => {
      const host = start();
      await host.handshake();
      const frames = [
        { event: "tool_call", tool_id: "a", tool_name: "bash", tool_args: { command: "rm -rf /" } },
        { event: "tool_call", tool_id: "b", tool_name: "bash", tool_args: { command: "ls" } },
        { event: "tool_call", tool_id: "c", tool_name: "read", tool_args: { path: "x" } },
        { event: "tool_call", tool_id: "d", tool_name: "explode", tool_args: {} },
        { event: "turn_start", step: 9 },
        { event: "turn_start", step: 1 },
        { event: "assistant_message", text: "key sk-abc123 ok" },
        { event: "tool_result", tool_id: "e", tool_name: "read", tool_args: {}, content: [{ type: "text", text: "hello" }], is_error: true },
        { event: "tool_result", tool_id: "f", tool_name: "explode", tool_args: {}, content: [], is_error: false },
      ];
      frames.forEach((f, i) => host.send({ type: "event_intercept", id: `i${i}`, ...f }));
      const r = await Promise.all(frames.map((_, i) => host.reply(`i${i}`)));
      const base = (i: number) => ({ type: "event_intercept_response", id: `i${i}`, block: false, reason: "" });
      expect(r[0]).toEqual({ ...base(0), block: true, reason: "dangerous" });
      expect(r[1]).toEqual({ ...base(1), modified_args: { command: "ls -la" } });
      expect(r[2]).toEqual(base(2));
      expect(r[3]!.block).toBe(true);
      expect(r[3]!.reason).toContain("interceptor bug");
      expect(r[4]).toEqual({ ...base(4), block: true, reason: "too many steps" });
      expect(r[5]).toEqual(base(5));
      expect(r[6]).toEqual({ ...base(6), replace_text: "key [redacted] ok" });
      expect(r[7]).toEqual({ ...base(7), replace_content: [{ type: "text", text: "HELLO" }], is_error: false });
      expect(r[8]).toEqual(base(8));
      expect(host.stderr).toContain("interceptor bug");
      host.kill();
    });

    test("events reach their handlers and panel keys, resizes and closes reach theirs", async () => {
      const host = start();
      await host.handshake();
      host.send({ type: "event", event: "session_start" });
      host.send({ type: "event", event: "tool_call", tool_id: "x", tool_name: "read", tool_args: { path: "a" } });
      host.send({ type: "event", event: "turn_end", stop: "end_turn" });
      host.send({ type: "event", event: "assistant_message", text: "unsubscribed events are ignored" });
      expect((await host.take((f) => f.type === "notify")).message).toBe('tool_call read {"path":"a"}');
      expect((await host.take((f) => f.type === "notify")).message).toBe("turn_end end_turn");
      host.send({ type: "panel_key", panel_id: "p1", key: "rune", text: "x" });
      expect(await host.take((f) => f.type === "panel_render")).toEqual({ type: "panel_render", panel_id: "p1", lines: ["key rune x"] });
      host.send({ type: "panel_resize", panel_id: "p1", width: 80, height: 20 });
      expect(await host.take((f) => f.type === "panel_render")).toEqual({ type: "panel_render", panel_id: "p1", footer: "80x20" });
      host.send({ type: "panel_close", panel_id: "p1" });
      expect(await host.take((f) => f.type === "notify")).toEqual({ type: "notify", level: "warn", message: "closed p1" });
      host.send({ type: "command_invoked", id: "c", name: "close", args: "" });
      expect(await host.take((f) => f.type === "panel_close")).toEqual({ type: "panel_close", panel_id: "p1" });
      expect(host.stderr).toContain("event handler errors are only logged");
      host.kill();
    });

    test("stray console output and stdout writes go to stderr, and unknown or malformed frames are ignored", async () => {
      const host = start();
      await host.handshake();
      host.send({ type: "brand_new_frame", id: "z" });
      (host.proc.stdin as import("bun").FileSink).write("not json at all\n");
      host.send({ type: "command_invoked", id: "p", name: "print", args: "" });
      expect((await host.reply("p")).display).toBe("printed");
      host.send({ type: "shutdown" });
      await host.done;
      expect(host.seen.filter((f) => f.type.startsWith("<"))).toEqual([]);
      for (const s of [
        "stray before run",
        "dropped a notify frame sent before run()",
        "stray console.log",
        "stray console.info",
        "stray console.debug",
        "stray stdout write",
      ])
        expect(host.stderr).toContain(s);
    });

    test("a malformed request is answered once with an error naming the bad field, so the host never waits for its deadline", async () => {
      const host = start();
      await host.handshake();
      host.send({ type: "command_invoked", id: "m1", name: 7, args: "" });
      host.send({ type: "tool_call", id: "m2", name: "add", args: [1, 2] });
      host.send({ type: "event_intercept", id: "m3", event: "not_an_event" });
      const command = await host.reply("m1");
      expect(command).toEqual({
        type: "command_response",
        id: "m1",
        action: "noop",
        error: 'sink could not read the request: command_invoked: field "name" must be a string, got number',
      });
      const tool = await host.reply("m2");
      expect(tool).toMatchObject({
        type: "tool_result",
        id: "m2",
        is_error: true,
        content: [{ type: "text", text: 'sink could not read the request: tool_call: field "args" must be an object, got array' }],
      });
      expect(await host.reply("m3")).toEqual({ type: "event_intercept_response", id: "m3", block: false, reason: "" });
      host.send({ type: "shutdown" });
      await host.done;
      expect(host.stderr).toContain('ignored an invalid frame from the host: event_intercept: unknown intercept event "not_an_event"');
    });

    test("shutdown waits for in-flight replies, then acks and exits 0", async () => {
      const host = start();
      await host.handshake();
      host.send({ type: "command_invoked", id: "s", name: "slow", args: "" });
      host.send({ type: "shutdown" });
      expect(await host.done).toBe(0);
      const types = host.seen.map((f) => f.type);
      expect(types.slice(-2)).toEqual(["command_response", "shutdown_ack"]);
    });

    test("end of input exits 0 without a shutdown frame", async () => {
      const host = start();
      await host.handshake();
      host.end();
      expect(await host.done).toBe(0);
      expect(host.seen.some((f) => f.type === "shutdown_ack")).toBe(false);
    });
  });
}

test("the built package resolves by name for a NodeNext TypeScript consumer and runs under node", async () => {
  // The layout `npm install <zot>/sdk/typescript` produces: node_modules/@zot/ext → the package directory.
  const pkg = join(outDir, "package");
  mkdirSync(pkg);
  cpSync(join(repo, "sdk/typescript/package.json"), join(pkg, "package.json"));
  const failure = (await bundle(join(pkg, "dist"))) ?? (await declarations(join(pkg, "dist")));
  if (failure) throw new Error(failure);
  const consumer = join(outDir, "consumer");
  mkdirSync(join(consumer, "node_modules/@zot"), { recursive: true });
  symlinkSync(pkg, join(consumer, "node_modules/@zot/ext"));
  writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", type: "module", private: true }));
  const source = [
    'import { Extension, display, text, type ToolResult } from "@zot/ext";',
    'const ext = new Extension("consumer", "1.0.0");',
    'ext.command("hi", "says hi", (args: string) => display(`hi ${args}`));',
    'ext.tool("t", "d", { type: "object" }, (_args, { signal }): ToolResult => text(String(signal.aborted)));',
    'ext.interceptToolCall(({ toolName }) => (toolName === "bash" ? { block: true, reason: "no" } : undefined), { onTimeout: "block" });',
    "void ext.run();",
  ].join("\n");
  writeFileSync(join(consumer, "index.ts"), source);
  writeFileSync(
    join(consumer, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        module: "nodenext",
        moduleResolution: "nodenext",
        target: "es2022",
        strict: true,
        outDir: "out",
        types: ["node"],
        typeRoots: [join(repo, "node_modules/@types")],
      },
      files: ["index.ts"],
    }),
  );
  const tsc = Bun.spawn([join(repo, "node_modules/.bin/tsc"), "-p", consumer], { stdout: "pipe", stderr: "pipe" });
  const [tscOut, tscCode] = await Promise.all([new Response(tsc.stdout).text(), tsc.exited]);
  expect(tscOut).toBe("");
  expect(tscCode).toBe(0);
  const host = new FakeHost(["node", join(consumer, "out/index.js")]);
  hosts.push(host);
  await host.handshake();
  host.send({ type: "command_invoked", id: "c", name: "hi", args: "there" });
  expect(await host.reply("c")).toEqual({ type: "command_response", id: "c", action: "display", display: "hi there" });
  host.send({ type: "shutdown" });
  expect(await host.done).toBe(0);
}, 120_000);
