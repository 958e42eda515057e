import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { join, resolve } from "node:path";
import { Host } from "../../src/ext/host.ts";
import type { AgentEvent } from "../../src/agent/events.ts";
import { runLoop, type Approval, type LoopContext } from "../../src/agent/loop.ts";
import type { Message } from "../../src/agent/messages.ts";
import { createProvider } from "../../src/agent/providers/index.ts";
import { builtinTools } from "../../src/agent/tools/index.ts";
import { startProviderServer, type ProviderServer, type Reply } from "../helpers/provider-server.ts";
import { elements } from "../helpers/elements.ts";
import { tempDir } from "../helpers/temp.ts";

const ROOT = resolve(import.meta.dir, "../..");
const FIXTURES = join(ROOT, "test", "fixtures", "agent");
process.env.PATH = `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH ?? ""}`;

let dir: string;
let server: ProviderServer;
let host: Host;

beforeEach(() => {
  dir = tempDir("zot-loop-");
  host = new Host();
});
afterEach(async () => {
  await host.shutdown();
  await server?.stop();
});

type Run = { events: AgentEvent[]; history: Message[]; ctx: LoopContext };

async function setup(replies: Reply[], opts: { ext?: string[]; approve?: (name: string) => Approval; maxSteps?: number } = {}): Promise<Run> {
  server = startProviderServer({ replies });
  await host.load({
    extPaths: (opts.ext ?? []).map((e) => join(FIXTURES, e)),
    noExt: true,
    cwd: dir,
    home: dir,
    info: { zotVersion: "test", provider: "anthropic", model: "m", cwd: dir },
  });
  const events: AgentEvent[] = [];
  const history: Message[] = [{ role: "user", content: [{ type: "text", text: "go" }], ts: Date.now() }];
  const ctx: LoopContext = {
    provider: createProvider({ provider: "anthropic", apiKey: "sk-test-loop", baseUrl: server.url }),
    model: "claude-sonnet-4-5",
    system: "test",
    maxSteps: opts.maxSteps ?? 50,
    cwd: dir,
    home: dir,
    builtins: builtinTools(),
    extensionTools: true,
    hooks: host,
    history: () => history,
    record: (m) => void history.push(m),
    emit: (e) => void events.push(e),
    addUsage: (u) => u,
    approve: async (req) => (opts.approve ? opts.approve(req.name) : { ok: true }),
  };
  return { events, history, ctx };
}

const results = (history: Message[]) => history.filter((m) => m.role === "toolResult");
const textOf = (m: Message) => m.content.map((p) => (p.type === "text" ? p.text : "")).join("");

describe("the agent loop", () => {
  test("runs the tool calls of one response one after another, in order, before the next model call", async () => {
    const { ctx, history } = await setup([
      {
        kind: "turn",
        toolCalls: [
          { id: "a", name: "bash", args: { command: "sleep 0.2; echo first > order.txt" } },
          { id: "b", name: "bash", args: { command: "echo second >> order.txt; cat order.txt" } },
        ],
      },
      { kind: "turn", text: "done" },
    ]);
    const outcome = await runLoop(ctx, new AbortController().signal);
    expect(outcome).toEqual({ stop: "end_turn", text: "done" });
    const r = results(history);
    expect(r.map((m) => (m.role === "toolResult" ? m.toolCallId : ""))).toEqual(["a", "b"]);
    expect(textOf(r[1]!)).toBe("first\nsecond");
    const second = JSON.stringify(server.requests[1]!.body);
    expect(second).toContain('"tool_use_id":"a"');
    expect(second).toContain('"tool_use_id":"b"');
  });

  test("never executes a call whose arguments were invalid JSON and tells the model why", async () => {
    const { ctx, history } = await setup([
      { kind: "turn", toolCalls: [{ id: "bad", name: "bash", args: '{"command": "touch should-not-exist' }] },
      { kind: "turn", text: "ok" },
    ]);
    await runLoop(ctx, new AbortController().signal);
    const [r] = elements(results(history), 1);
    expect(r.role === "toolResult" && r.isError).toBe(true);
    expect(textOf(r)).toContain('Invalid arguments for tool "bash"');
    expect(await Bun.file(join(dir, "should-not-exist")).exists()).toBe(false);
  });

  test("answers a call to an unknown tool with an error naming it", async () => {
    const { ctx, history } = await setup([
      { kind: "turn", toolCalls: [{ name: "teleport", args: {} }] },
      { kind: "turn", text: "ok" },
    ]);
    await runLoop(ctx, new AbortController().signal);
    expect(textOf(results(history)[0]!)).toStartWith('Unknown tool "teleport"');
  });

  test("treats a deferred extension tool as unknown until it is activated", async () => {
    const { ctx, history } = await setup(
      [
        { kind: "turn", toolCalls: [{ name: "secret", args: {} }] },
        { kind: "turn", toolCalls: [{ name: "loader", args: {} }] },
        { kind: "turn", toolCalls: [{ name: "secret", args: {} }] },
        { kind: "turn", text: "ok" },
      ],
      { ext: ["toolbox"] },
    );
    await runLoop(ctx, new AbortController().signal);
    const texts = results(history).map(textOf);
    expect(texts[0]).toStartWith('Unknown tool "secret"');
    expect(texts[1]).toBe("loaded secret");
    expect(texts[2]).toBe("the secret is 42");
    const r = results(history)[2]!;
    expect(r.role === "toolResult" && r.extension).toBe("toolbox");
  });

  test("a declined confirmation does not run the tool and gives the model the reason", async () => {
    const { ctx, history } = await setup(
      [
        { kind: "turn", toolCalls: [{ name: "bash", args: { command: "touch declined.txt" } }] },
        { kind: "turn", text: "ok" },
      ],
      { approve: () => ({ ok: false, reason: "not today", byUser: true }) },
    );
    await runLoop(ctx, new AbortController().signal);
    expect(textOf(results(history)[0]!)).toBe("The user declined this tool call: not today");
    expect(await Bun.file(join(dir, "declined.txt")).exists()).toBe(false);
  });

  test("an abort during a tool call ends the prompt as aborted with a result for every call", async () => {
    const { ctx, history, events } = await setup([
      {
        kind: "turn",
        toolCalls: [
          { id: "slow", name: "bash", args: { command: "sleep 20" } },
          { id: "later", name: "bash", args: { command: "echo never" } },
        ],
      },
    ]);
    const controller = new AbortController();
    ctx.emit = (e) => {
      events.push(e);
      if (e.type === "tool_call" && e.id === "slow") setTimeout(() => controller.abort(), 50);
    };
    const outcome = await runLoop(ctx, controller.signal);
    expect(outcome.stop).toBe("aborted");
    expect(results(history).map((m) => (m.role === "toolResult" ? m.toolCallId : ""))).toEqual(["slow", "later"]);
    expect(textOf(results(history)[1]!)).toContain("aborted");
    expect(events.at(-1)).toMatchObject({ type: "done", stop: "aborted" });
    expect(server.requests.length).toBe(1);
  });

  test("stops after --max-steps model calls", async () => {
    const call: Reply = { kind: "turn", toolCalls: [{ name: "bash", args: { command: "true" } }] };
    const { ctx } = await setup([call, call, call], { maxSteps: 2 });
    const outcome = await runLoop(ctx, new AbortController().signal);
    expect(outcome.stop).toBe("error");
    expect(outcome.error).toContain("--max-steps 2");
    expect(server.requests.length).toBe(2);
  });

  test("reports a provider failure as an error stop with the provider's sentence", async () => {
    const { ctx, events } = await setup([
      { kind: "status", status: 400, body: '{"type":"error","error":{"type":"invalid_request_error","message":"bad things"}}' },
    ]);
    const outcome = await runLoop(ctx, new AbortController().signal);
    expect(outcome.stop).toBe("error");
    expect(outcome.error).toContain("bad things");
    expect(events.find((e) => e.type === "turn_end")).toMatchObject({ stop: "error" });
  });

  test("step numbers count model calls within one prompt from 1", async () => {
    const { ctx, events } = await setup([
      { kind: "turn", toolCalls: [{ name: "bash", args: { command: "true" } }] },
      { kind: "turn", text: "ok" },
    ]);
    await runLoop(ctx, new AbortController().signal);
    expect(events.filter((e) => e.type === "turn_start")).toEqual([
      { type: "turn_start", step: 1 },
      { type: "turn_start", step: 2 },
    ]);
  });

  test("held text is still released when the assistant_message interceptor goes away while the response streams", async () => {
    process.env.ZOT_TEST_GUARD = JSON.stringify({ intercept: ["assistant_message"], redact: "never-present" });
    try {
      const { ctx, events, history } = await setup([{ kind: "turn", text: "text that was held back" }], { ext: ["guard"] });
      expect(host.hasInterceptor("assistant_message")).toBe(true);
      // The real provider, with the interceptor's extension shut down just before the response completes.
      const real = ctx.provider;
      ctx.provider = {
        name: real.name,
        async *stream(req, signal) {
          for await (const ev of real.stream(req, signal)) {
            if (ev.type === "done") await host.shutdown();
            yield ev;
          }
        },
      };
      const outcome = await runLoop(ctx, new AbortController().signal);
      expect(outcome).toEqual({ stop: "end_turn", text: "text that was held back" });
      expect(events.filter((e) => e.type === "text_delta")).toEqual([{ type: "text_delta", text: "text that was held back", held: true }]);
      expect(textOf(history[1]!)).toBe("text that was held back");
    } finally {
      delete process.env.ZOT_TEST_GUARD;
    }
  });
});
