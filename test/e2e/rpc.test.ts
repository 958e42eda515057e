import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { COMPACT_INSTRUCTION } from "../../src/agent/compaction.ts";
import { anthropic, FIXTURES, jsonLines, type RpcSession, useZotHome } from "./zot.ts";

const e2e = useZotHome();

const done =
  (n = 1) =>
  (s: RpcSession) =>
    s.waitForNth((f) => f.type === "done", n);

describe("zot rpc", () => {
  test("answers ping and hello, runs a prompt with events, and reports state and messages", async () => {
    const rpc = e2e.rpc(["--provider", "mock"]);
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
    expect(state.data).toMatchObject({ provider: "mock", model: "mock", cwd: e2e.home, message_count: 2, busy: false });
    const messages = (await rpc.request({ type: "get_messages" })).data as { messages: { role: string; content: { text: string }[] }[] };
    expect(messages.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(messages.messages[1]!.content[0]!.text).toBe("mock: hi there");
    expect((await rpc.close()).code).toBe(0);
  });

  test("keeps serving after bad JSON and unknown commands, answering each with an error", async () => {
    const rpc = e2e.rpc(["--provider", "mock"]);
    rpc.writeLine("{not json");
    const bad = await rpc.waitFor((f) => f.type === "response" && f.command === "");
    expect(bad).toMatchObject({ success: false });
    expect(String(bad.error)).toContain("invalid JSON");
    const unknown = await rpc.request({ type: "frobnicate" });
    expect(unknown).toMatchObject({ command: "frobnicate", success: false });
    expect(String(unknown.error)).toContain('unknown command "frobnicate"');
    expect(await rpc.request({ type: "ping" })).toMatchObject({ success: true });
    await rpc.close();
  });

  test("requires a hello with the token when ZOTCORE_RPC_TOKEN is set, and exits on a wrong one", async () => {
    const rpc = e2e.rpc(["--provider", "mock"], { env: { ZOTCORE_RPC_TOKEN: "tok-secret-1" } });
    // As in the Go zot: commands before the hello are refused, and the process waits for it.
    const r = await rpc.request({ type: "prompt", message: "sneaky" });
    expect(r).toMatchObject({ command: "prompt", success: false, error: "auth required: send hello with token first" });
    const wrong = await rpc.request({ type: "hello", token: "guess" });
    expect(wrong).toMatchObject({ command: "hello", success: false });
    expect(String(wrong.error)).toContain("authentication failed");
    expect(await rpc.proc.exited).toBe(1);
  });

  test("accepts the right token and then serves normally", async () => {
    const rpc = e2e.rpc(["--provider", "mock"], { env: { ZOTCORE_RPC_TOKEN: "tok-secret-1" } });
    expect(await rpc.request({ type: "hello", token: "tok-secret-1" })).toMatchObject({ success: true });
    expect(await rpc.request({ type: "ping" })).toMatchObject({ success: true });
    await rpc.close();
  });

  test("runs extension commands and returns their responses; a prompt action starts the turn", async () => {
    const rpc = e2e.rpc(["--provider", "mock", "-e", join(FIXTURES, "toolbox")]);
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
    expect(await rpc.request({ type: "command", name: "ask", args: "x" })).toMatchObject({
      success: true,
      data: { action: "prompt", prompt: "asked: x", started: true },
    });
    expect(await done()(rpc)).toMatchObject({ text: "mock: asked: x" });
    const missing = await rpc.request({ type: "command", name: "nope" });
    expect(missing.success).toBe(false);
    await rpc.close();
  });

  test("forwards extension notes as ext_notify, ext_clear_notes and ext_display events", async () => {
    const rpc = e2e.rpc(["--provider", "mock", "-e", join(FIXTURES, "toolbox")]);
    await rpc.request({ type: "command", name: "noisy" });
    expect(await rpc.waitFor((f) => f.type === "ext_notify")).toEqual({
      type: "ext_notify",
      extension: "toolbox",
      level: "warn",
      message: "note from toolbox",
    });
    expect(await rpc.waitFor((f) => f.type === "ext_clear_notes")).toEqual({ type: "ext_clear_notes", extension: "toolbox" });
    await rpc.request({ type: "command", name: "greet", args: "event" });
    expect(await rpc.waitFor((f) => f.type === "ext_display")).toEqual({ type: "ext_display", extension: "toolbox", text: "hello event" });
    await rpc.close();
  });

  test("reports extensions as doctor data and reloads them", async () => {
    const rpc = e2e.rpc(["--provider", "mock", "-e", join(FIXTURES, "toolbox")]);
    const list = (await rpc.request({ type: "get_extensions" })).data as {
      ok: boolean;
      extensions: { name: string; status: string; tools: { name: string; deferred: boolean }[] }[];
    };
    expect(list.ok).toBe(true);
    const toolbox = list.extensions.find((e) => e.name === "toolbox");
    expect(toolbox?.status).toBe("ready");
    expect(toolbox?.tools).toContainEqual({ name: "secret", deferred: true });
    const reloaded = (await rpc.request({ type: "reload_extensions", name: "toolbox" })).data as {
      extensions: { name: string; status: string }[];
      errors: unknown[];
    };
    expect(reloaded.extensions).toMatchObject([{ name: "toolbox", status: "ready" }]);
    expect(reloaded.errors).toEqual([]);
    expect(await rpc.request({ type: "command", name: "greet", args: "again" })).toMatchObject({ data: { display: "hello again" } });
    await rpc.close();
  });

  test("lists and switches models, and refuses changes while a prompt runs", async () => {
    const server = e2e.serve({ replies: [{ kind: "turn", text: "partial answer", stallAfter: 4 }] });
    const rpc = e2e.rpc(["--provider", "anthropic", "--base-url", server.url, "--api-key", "sk-test-e2e"]);
    const models = (await rpc.request({ type: "get_models" })).data as { models: { id: string; provider: string }[] };
    expect(models.models.map((m) => m.id)).toEqual(expect.arrayContaining(["claude-sonnet-5-5", "claude-haiku-4-5"]));
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
    expect((server.requests[0]!.body as { model: string }).model).toBe("claude-haiku-4-5");
    await rpc.close();
  });

  test("compacts the conversation into a summary and clears it", async () => {
    const rpc = e2e.rpc(["--provider", "mock"]);
    await rpc.request({ type: "prompt", message: "first" });
    await done()(rpc);
    expect(await rpc.request({ type: "compact" })).toMatchObject({ success: true, data: { started: true } });
    const compacted = await rpc.waitFor((f) => f.type === "compact_done");
    expect(compacted.summary).toBe(`mock: ${COMPACT_INSTRUCTION}`);
    expect((await rpc.request({ type: "get_state" })).data).toMatchObject({ message_count: 1 });
    expect(await rpc.request({ type: "clear" })).toMatchObject({ success: true });
    expect((await rpc.request({ type: "get_state" })).data).toMatchObject({ message_count: 0 });
    await rpc.close();
  });

  test("on end of input it finishes the running turn before exiting", async () => {
    const server = e2e.serve({
      replies: [
        { kind: "turn", toolCalls: [{ name: "bash", args: { command: "sleep 0.3; echo slow-done" } }] },
        { kind: "turn", text: "all finished" },
      ],
    });
    const rpc = e2e.rpc(["--provider", "anthropic", "--base-url", server.url, "--api-key", "sk-test-e2e"]);
    await rpc.request({ type: "prompt", message: "go" });
    const { code } = await rpc.close();
    expect(code).toBe(0);
    expect(rpc.frames.find((f) => f.type === "done")).toMatchObject({ stop: "end_turn", text: "all finished" });
  });

  test("accepts images with a prompt and rejects malformed ones", async () => {
    const rpc = e2e.rpc(["--provider", "mock"]);
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
    expect(await rpc.request({ type: "prompt", message: "look", images: [{ mime_type: "image/png", data: png }] })).toMatchObject({ success: true });
    expect(await rpc.waitFor((f) => f.type === "user_message")).toMatchObject({ text: "look", images: 1 });
    await done()(rpc);
    const bad = await rpc.request({ type: "prompt", message: "look", images: [{ mime_type: "text/plain", data: "x" }] });
    expect(bad.success).toBe(false);
    await rpc.close();
  });
});

describe("zot rpc, driven like a client script", () => {
  const guard = (cfg: object) => ({ ZOT_TEST_GUARD: JSON.stringify(cfg) });

  test("tool_call interceptors block and rewrite calls in RPC mode too", async () => {
    const server = e2e.serve({
      replies: [
        {
          kind: "turn",
          toolCalls: [
            { id: "toolu_a", name: "bash", args: { command: "rm -rf ./precious" } },
            { id: "toolu_b", name: "bash", args: { command: "echo original" } },
          ],
        },
        { kind: "turn", text: "done" },
      ],
    });
    const rpc = e2e.rpc([...anthropic(server), "-e", join(FIXTURES, "guard")], {
      env: guard({ intercept: ["tool_call"], block_command: "rm -rf", rewrite_from: "echo original", rewrite_to: "echo rewritten" }),
    });
    await rpc.request({ type: "prompt", message: "go" });
    await done()(rpc);
    const results = rpc.frames.filter((f) => f.type === "tool_result");
    expect(results[0]).toMatchObject({ id: "toolu_a", is_error: true, blocked_by: "guard" });
    expect(results[1]).toMatchObject({ id: "toolu_b", is_error: false, content: [{ type: "text", text: "rewritten" }] });
    expect(rpc.frames.find((f) => f.type === "tool_call" && f.id === "toolu_b")).toMatchObject({
      original_args: { command: "echo original" },
      rewritten_by: ["guard"],
    });
    await rpc.close();
  });

  test("assistant_message interception holds the deltas in RPC mode: only the replacement is ever sent", async () => {
    const server = e2e.serve({ replies: [{ kind: "turn", text: "the code is SECRET-9" }] });
    const rpc = e2e.rpc([...anthropic(server), "-e", join(FIXTURES, "guard")], { env: guard({ intercept: ["assistant_message"], redact: "SECRET" }) });
    await rpc.request({ type: "prompt", message: "code?" });
    expect(await done()(rpc)).toMatchObject({ stop: "end_turn", text: "the code is [redacted]-9" });
    expect(rpc.frames.filter((f) => f.type === "text_delta")).toEqual([
      { type: "text_delta", text: "the code is [redacted]-9", held: true, delta: "the code is [redacted]-9" },
    ]);
    // get_messages shows the conversation as the user saw it, too.
    const messages = (await rpc.request({ type: "get_messages" })).data as { messages: { role: string; content: unknown[]; rewritten_by?: string[] }[] };
    expect(messages.messages[1]).toMatchObject({ role: "assistant", content: [{ type: "text", text: "the code is [redacted]-9" }], rewritten_by: ["guard"] });
    expect(JSON.stringify(rpc.frames)).not.toContain("SECRET");
    await rpc.close();
  });

  test("a resumed session shows intercepted messages as the user saw them, while the model still gets its own words", async () => {
    const server = e2e.serve({
      replies: [
        { kind: "turn", text: "the code is SECRET-9" },
        { kind: "turn", text: "FORBIDDEN reply" },
        { kind: "turn", text: "third" },
      ],
    });
    const env = guard({ intercept: ["assistant_message"], redact: "SECRET", hide: "FORBIDDEN" });
    let rpc = e2e.rpc([...anthropic(server), "-e", join(FIXTURES, "guard")], { env });
    await rpc.request({ type: "prompt", message: "code?" });
    await done(1)(rpc);
    await rpc.request({ type: "prompt", message: "again" });
    await done(2)(rpc);
    const session = String(((await rpc.request({ type: "get_state" })).data as { session: string }).session);
    await rpc.close();

    rpc = e2e.rpc([...anthropic(server), "--session", session]);
    const messages = (await rpc.request({ type: "get_messages" })).data as { messages: Record<string, unknown>[] };
    expect(messages.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(messages.messages[1]).toMatchObject({ content: [{ type: "text", text: "the code is [redacted]-9" }], rewritten_by: ["guard"] });
    expect(messages.messages[3]).toMatchObject({ content: [], hidden: true, blocked_by: "guard" });
    expect(JSON.stringify(messages)).not.toContain("SECRET");
    expect(JSON.stringify(messages)).not.toContain("FORBIDDEN");
    await rpc.request({ type: "prompt", message: "and now?" });
    await done()(rpc);
    expect(JSON.stringify(server.requests[2]!.body)).toContain("the code is SECRET-9");
    await rpc.close();
  });

  test("a turn blocked at step 1 ends with turn_blocked and done carrying the reason; nothing reaches the model", async () => {
    const server = e2e.serve({ replies: [] });
    const rpc = e2e.rpc([...anthropic(server), "-e", join(FIXTURES, "guard")], { env: guard({ intercept: ["turn_start"], block_step: 1 }) });
    await rpc.request({ type: "prompt", message: "hello" });
    expect(await done()(rpc)).toEqual({ type: "done", stop: "error", text: "", steps: 1, error: "turn blocked by guard: no step 1 today" });
    expect(rpc.frames.find((f) => f.type === "turn_blocked")).toEqual({ type: "turn_blocked", step: 1, extension: "guard", reason: "no step 1 today" });
    expect(server.requests.length).toBe(0);
    await rpc.close();
  });

  test("abort mid-command kills the bash command's whole process group, grandchildren included", async () => {
    const pidFile = join(e2e.home, "grandchild.pid");
    const server = e2e.serve({
      replies: [{ kind: "turn", toolCalls: [{ name: "bash", args: { command: `sh -c 'sleep 300' & echo $! > ${pidFile}; echo started; wait` } }] }],
    });
    const rpc = e2e.rpc(["--permission-mode", "yolo", ...anthropic(server)]);
    await rpc.request({ type: "prompt", message: "run it" });
    await rpc.waitFor((f) => f.type === "tool_progress" && String(f.text).includes("started"));
    const pid = Number(readFileSync(pidFile, "utf8"));
    await rpc.request({ type: "abort" });
    expect(await done()(rpc)).toMatchObject({ stop: "aborted" });
    expect(rpc.frames.find((f) => f.type === "tool_result")).toMatchObject({ is_error: true });
    expect(await gone(pid)).toBe(true);
    await rpc.close();
  });

  test("prompt images reach the provider as image blocks", async () => {
    const server = e2e.serve({ replies: [{ kind: "turn", text: "a red pixel" }] });
    const rpc = e2e.rpc(anthropic(server));
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
    await rpc.request({ type: "prompt", message: "what is this?", images: [{ mime_type: "image/png", data: png }] });
    await done()(rpc);
    const sent = JSON.stringify((server.requests[0]!.body as { messages: unknown }).messages);
    expect(sent).toContain(png);
    expect(sent).toContain('"media_type":"image/png"');
    await rpc.close();
  });

  test("set_model with a bad provider or a keyless one is an error response and nothing changes", async () => {
    const server = e2e.serve({ replies: [] });
    const rpc = e2e.rpc([...anthropic(server), "-e", join(FIXTURES, "toolbox")], { env: { ZOT_TEST_EVENTS: join(e2e.home, "frames.jsonl") } });
    expect(await rpc.request({ type: "set_model", provider: "bogus", model: "x" })).toMatchObject({
      success: false,
      error: 'unknown provider "bogus" (anthropic, openai, kimi, kimi-code, ollama or mock)',
    });
    const keyless = await rpc.request({ type: "set_model", provider: "openai", model: "gpt-4o" });
    expect(keyless.success).toBe(false);
    expect(String(keyless.error)).toContain("no API key for openai");
    expect(await rpc.request({ type: "set_model" })).toMatchObject({ success: false, error: 'set_model needs a string "model"' });
    expect((await rpc.request({ type: "get_state" })).data).toMatchObject({ provider: "anthropic" });
    // A switch that works is what extensions started afterwards see in hello_ack.
    expect(await rpc.request({ type: "set_model", provider: "mock", model: "mock" })).toMatchObject({
      success: true,
      data: { provider: "mock", model: "mock" },
    });
    await rpc.request({ type: "reload_extensions", name: "toolbox" });
    // The fixture announces itself without waiting for hello_ack, so its log of the ack may lag the reload's answer.
    const acks = async (): Promise<unknown[]> => {
      for (;;) {
        const seen = jsonLines(readFileSync(join(e2e.home, "frames.jsonl"), "utf8")).filter((f) => f.type === "hello_ack");
        if (seen.length >= 2) return seen.map((a) => a.provider);
        await Bun.sleep(20);
      }
    };
    expect(await acks()).toEqual(["anthropic", "mock"]);
    await rpc.close();
  });

  test("missing ids are fine: the response simply has none", async () => {
    const rpc = e2e.rpc(["--provider", "mock"]);
    rpc.writeLine('{"type":"ping"}');
    expect(await rpc.waitFor((f) => f.type === "response")).toEqual({ type: "response", command: "ping", success: true, data: { pong: true } });
    await rpc.close();
  });
});

async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await Bun.sleep(50);
  }
  return !existsSync(`/proc/${pid}`);
}
