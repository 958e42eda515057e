import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { startProviderServer, type ProviderServer } from "../helpers/provider-server.ts";
import { FIXTURES, RpcSession, tempDir } from "./zot.ts";

let home: string;
let cleanup: () => void;
let server: ProviderServer | null = null;
let rpc: RpcSession | null = null;

beforeEach(() => {
  ({ dir: home, cleanup } = tempDir());
});
afterEach(async () => {
  if (rpc && rpc.proc.exitCode === null) rpc.proc.kill("SIGKILL");
  rpc = null;
  await server?.stop();
  server = null;
  cleanup();
});

const done = (n = 1) => (s: RpcSession) => s.waitForNth((f) => f.type === "done", n);

describe("zot rpc", () => {
  test("answers ping and hello, runs a prompt with events, and reports state and messages", async () => {
    rpc = new RpcSession(["--provider", "mock"], { home });
    expect(await rpc.request({ type: "ping" })).toEqual({ type: "response", id: "1", command: "ping", success: true, data: { pong: true } });
    const hello = await rpc.request({ type: "hello" });
    expect(hello).toMatchObject({ command: "hello", success: true, data: { protocol_version: 1, provider: "mock", model: "mock" } });
    expect(await rpc.request({ type: "prompt", message: "hi there" })).toMatchObject({ command: "prompt", success: true, data: { started: true } });
    const end = await done()(rpc);
    expect(end).toMatchObject({ stop: "end_turn", text: "mock: hi there" });
    expect(rpc.frames.some((f) => f.type === "text_delta")).toBe(true);
    const responseAt = rpc.frames.findIndex((f) => f.type === "response" && f.command === "prompt");
    expect(responseAt).toBeLessThan(rpc.frames.findIndex((f) => f.type === "user_message"));
    const state = await rpc.request({ type: "get_state" });
    expect(state.data).toMatchObject({ provider: "mock", model: "mock", cwd: home, message_count: 2, busy: false });
    const messages = (await rpc.request({ type: "get_messages" })).data as { messages: { role: string; content: { text: string }[] }[] };
    expect(messages.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(messages.messages[1].content[0].text).toBe("mock: hi there");
    expect((await rpc.close()).code).toBe(0);
  });

  test("keeps serving after bad JSON and unknown commands, answering each with an error", async () => {
    rpc = new RpcSession(["--provider", "mock"], { home });
    rpc.writeLine("{not json");
    const bad = await rpc.waitFor((f) => f.type === "response" && f.command === null);
    expect(bad).toMatchObject({ success: false });
    expect(String(bad.error)).toContain("invalid JSON");
    const unknown = await rpc.request({ type: "frobnicate" });
    expect(unknown).toMatchObject({ command: "frobnicate", success: false });
    expect(String(unknown.error)).toContain('unknown command "frobnicate"');
    expect(await rpc.request({ type: "ping" })).toMatchObject({ success: true });
    await rpc.close();
  });

  test("requires a hello with the token when ZOTCORE_RPC_TOKEN is set, and exits on a wrong one", async () => {
    rpc = new RpcSession(["--provider", "mock"], { home, env: { ZOTCORE_RPC_TOKEN: "tok-secret-1" } });
    const r = await rpc.request({ type: "prompt", message: "sneaky" });
    expect(r).toMatchObject({ success: false });
    expect(String(r.error)).toContain("authentication failed");
    expect(await rpc.proc.exited).toBe(1);
  });

  test("accepts the right token and then serves normally", async () => {
    rpc = new RpcSession(["--provider", "mock"], { home, env: { ZOTCORE_RPC_TOKEN: "tok-secret-1" } });
    expect(await rpc.request({ type: "hello", token: "tok-secret-1" })).toMatchObject({ success: true });
    expect(await rpc.request({ type: "ping" })).toMatchObject({ success: true });
    await rpc.close();
  });

  test("runs extension commands and returns their responses; a prompt action starts the turn", async () => {
    rpc = new RpcSession(["--provider", "mock", "-e", join(FIXTURES, "toolbox")], { home });
    expect(await rpc.request({ type: "command", name: "greet", args: "rpc" })).toMatchObject({
      success: true,
      data: { extension: "toolbox", action: "display", display: "hello rpc" },
    });
    expect(await rpc.request({ type: "command", name: "/PANEL" })).toMatchObject({
      success: true,
      data: { action: "open_panel", open_panel: { id: "p1", title: "Todos", lines: ["first", "second"] } },
    });
    const failed = await rpc.request({ type: "command", name: "fail" });
    expect(failed).toMatchObject({ success: false, error: "/fail (toolbox): it failed on purpose" });
    expect(await rpc.request({ type: "command", name: "ask", args: "x" })).toMatchObject({ success: true, data: { action: "prompt", prompt: "asked: x", started: true } });
    expect(await done()(rpc)).toMatchObject({ text: "mock: asked: x" });
    const missing = await rpc.request({ type: "command", name: "nope" });
    expect(missing.success).toBe(false);
    await rpc.close();
  });

  test("forwards extension notes as ext_notify, ext_clear_notes and ext_display events", async () => {
    rpc = new RpcSession(["--provider", "mock", "-e", join(FIXTURES, "toolbox")], { home });
    await rpc.request({ type: "command", name: "noisy" });
    expect(await rpc.waitFor((f) => f.type === "ext_notify")).toEqual({ type: "ext_notify", extension: "toolbox", level: "warn", message: "note from toolbox" });
    expect(await rpc.waitFor((f) => f.type === "ext_clear_notes")).toEqual({ type: "ext_clear_notes", extension: "toolbox" });
    await rpc.request({ type: "command", name: "greet", args: "event" });
    expect(await rpc.waitFor((f) => f.type === "ext_display")).toEqual({ type: "ext_display", extension: "toolbox", text: "hello event" });
    await rpc.close();
  });

  test("reports extensions as doctor data and reloads them", async () => {
    rpc = new RpcSession(["--provider", "mock", "-e", join(FIXTURES, "toolbox")], { home });
    const list = (await rpc.request({ type: "get_extensions" })).data as { ok: boolean; extensions: { name: string; status: string; tools: { name: string; deferred: boolean }[] }[] };
    expect(list.ok).toBe(true);
    const toolbox = list.extensions.find((e) => e.name === "toolbox");
    expect(toolbox?.status).toBe("ready");
    expect(toolbox?.tools).toContainEqual({ name: "secret", deferred: true });
    const reloaded = (await rpc.request({ type: "reload_extensions", name: "toolbox" })).data as { extensions: { name: string; status: string }[]; errors: unknown[] };
    expect(reloaded.extensions).toMatchObject([{ name: "toolbox", status: "ready" }]);
    expect(reloaded.errors).toEqual([]);
    expect(await rpc.request({ type: "command", name: "greet", args: "again" })).toMatchObject({ data: { display: "hello again" } });
    await rpc.close();
  });

  test("lists and switches models, and refuses changes while a prompt runs", async () => {
    server = startProviderServer({ replies: [{ kind: "turn", text: "partial answer", stallAfter: 4 }] });
    rpc = new RpcSession(["--provider", "anthropic", "--base-url", server.url, "--api-key", "sk-test-e2e"], { home });
    const models = (await rpc.request({ type: "get_models" })).data as { models: { id: string; provider: string }[] };
    expect(models.models.length).toBeGreaterThan(0);
    expect(models.models.every((m) => m.provider === "anthropic")).toBe(true);
    expect(await rpc.request({ type: "set_model", model: "claude-haiku-4-5" })).toMatchObject({ success: true, data: { model: "claude-haiku-4-5" } });
    await rpc.request({ type: "prompt", message: "long one" });
    // The stream stalls after its first text delta: the model call is in flight.
    await rpc.waitFor((f) => f.type === "text_delta");
    const busy = await rpc.request({ type: "set_model", model: "claude-opus-4-5" });
    expect(busy).toMatchObject({ success: false });
    expect(String(busy.error)).toContain("busy");
    expect(await rpc.request({ type: "abort" })).toMatchObject({ success: true });
    expect(await rpc.waitFor((f) => f.type === "turn_end")).toMatchObject({ stop: "aborted" });
    expect(await done()(rpc)).toMatchObject({ stop: "aborted" });
    expect((server.requests[0].body as { model: string }).model).toBe("claude-haiku-4-5");
    await rpc.close();
  });

  test("compacts the conversation into a summary and clears it", async () => {
    rpc = new RpcSession(["--provider", "mock"], { home });
    await rpc.request({ type: "prompt", message: "first" });
    await done()(rpc);
    expect(await rpc.request({ type: "compact" })).toMatchObject({ success: true, data: { started: true } });
    const compacted = await rpc.waitFor((f) => f.type === "compact_done");
    expect(typeof compacted.summary).toBe("string");
    expect((await rpc.request({ type: "get_state" })).data).toMatchObject({ message_count: 1 });
    expect(await rpc.request({ type: "clear" })).toMatchObject({ success: true });
    expect((await rpc.request({ type: "get_state" })).data).toMatchObject({ message_count: 0 });
    await rpc.close();
  });

  test("on end of input it finishes the running turn before exiting", async () => {
    server = startProviderServer({
      replies: [
        { kind: "turn", toolCalls: [{ name: "bash", args: { command: "sleep 0.3; echo slow-done" } }] },
        { kind: "turn", text: "all finished" },
      ],
    });
    rpc = new RpcSession(["--provider", "anthropic", "--base-url", server.url, "--api-key", "sk-test-e2e"], { home });
    await rpc.request({ type: "prompt", message: "go" });
    const { code } = await rpc.close();
    expect(code).toBe(0);
    expect(rpc.frames.find((f) => f.type === "done")).toMatchObject({ stop: "end_turn", text: "all finished" });
  });

  test("accepts images with a prompt and rejects malformed ones", async () => {
    rpc = new RpcSession(["--provider", "mock"], { home });
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
    expect(await rpc.request({ type: "prompt", message: "look", images: [{ mime_type: "image/png", data: png }] })).toMatchObject({ success: true });
    expect(await rpc.waitFor((f) => f.type === "user_message")).toMatchObject({ text: "look", images: 1 });
    await done()(rpc);
    const bad = await rpc.request({ type: "prompt", message: "look", images: [{ mime_type: "text/plain", data: "x" }] });
    expect(bad.success).toBe(false);
    await rpc.close();
  });
});
