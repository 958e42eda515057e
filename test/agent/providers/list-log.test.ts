// A request's list is taken from the pieces the conversation's last request put, up to the last
// place its walk cut, and walked on from there (wire-cache.ts `ListLog`). Whatever happened to the
// history in between — steps, prompts, a rewind (and new messages in place of the old), a compaction, a model switch, another conversation's
// requests, a changed system prompt — every body must be byte for byte the body of the same
// request built afresh: the same history in new objects, which nothing kept can match.
import { afterAll, expect, test } from "bun:test";
import { emptyUsage, type AssistantMessage, type Message, type ToolDeclaration, type ToolResultMessage } from "../../../src/agent/messages.ts";
import { createProvider } from "../../../src/agent/providers/index.ts";
import type { ChoosableWire, ProviderName } from "../../../src/agent/choices.ts";
import { anthropicEvents, openaiEvents, responsesEvents } from "../../helpers/provider-server.ts";
import { collect } from "../../helpers/collect-stream.ts";
import { ListLog, type ListWalk } from "../../../src/agent/providers/wire-cache.ts";

const seen: string[] = [];
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    seen.push(await req.text());
    const path = new URL(req.url).pathname;
    const events = path.endsWith("/chat/completions") ? openaiEvents : path.endsWith("/responses") ? responsesEvents : anthropicEvents;
    return new Response(events({ kind: "turn", text: "ok" }, "m").join(""), { headers: { "content-type": "text/event-stream" } });
  },
});
afterAll(() => server.stop(true));

/** mulberry32: the same sequence on every run, so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Wire = { wire: string; provider: ProviderName; base: string; models: [string, string]; pin?: ChoosableWire };
const WIRES: Wire[] = [
  // A catalog model (tool search native: the tool list reads the history too) and one it does not know.
  { wire: "Anthropic Messages", provider: "anthropic", base: server.url.href.replace(/\/$/, ""), models: ["claude-sonnet-4-5", "claude-unknown-x"] },
  { wire: "OpenAI Chat Completions", provider: "ollama", base: `${server.url.href}v1`, models: ["qwen3", "llama4"] },
  // Kimi's routes: wire names and declarations that depend on the whole history.
  { wire: "Kimi (Chat Completions, dynamic tools)", provider: "kimi", base: `${server.url.href}v1`, models: ["kimi-k3", "kimi-k3.1-pro"] },
  { wire: "OpenAI Responses", provider: "openai", base: `${server.url.href}v1`, models: ["gpt-a", "gpt-b"], pin: "responses" },
];

const TOOLS = [
  { name: "read", description: "reads", schema: { type: "object", properties: {} } },
  { name: "a.b", description: "dotted", schema: { type: "object", properties: {} } },
];
const DEFERRED: ToolDeclaration = { name: "mcp__docs__search", description: "searches", schema: { type: "object", properties: {} } };

for (const w of WIRES)
  test(`${w.wire}: every body equals the same request built afresh, over 150 random changes of the history`, async () => {
    const p = createProvider({ provider: w.provider, apiKey: "sk-test", baseUrl: w.base, ...(w.pin ? { wire: w.pin } : {}), retry: { sleep: async () => {} } });
    const r = random(26);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
    const text = () => pick(["", "ok", "a line\nand another", 'é🙂 "quoted"', "x".repeat(Math.floor(r() * 400))]);
    let ts = 0;
    let model = w.models[0];
    let system = "You are zot.";
    // The main conversation and a subagent's, whose requests take turns with it.
    const conversations: Message[][] = [
      [{ role: "user", content: [{ type: "text", text: "main task" }], ts: ts++ }],
      [{ role: "user", content: [{ type: "text", text: "sub task" }], ts: ts++ }],
    ];
    let now = 0;
    const step = (h: Message[]) => {
      const calls = Math.floor(r() * 3);
      const assistant: AssistantMessage = {
        role: "assistant",
        content: [],
        stop: calls > 0 ? "tool_use" : "end_turn",
        provider: w.provider,
        model,
        usage: emptyUsage(),
        ts: ts++,
      };
      if (r() < 0.4) assistant.content.push({ type: "thinking", thinking: text(), signature: `sig-${ts}` });
      if (r() < 0.7) assistant.content.push({ type: "text", text: text() });
      for (let c = 0; c < calls; c++) assistant.content.push({ type: "toolCall", id: `c${ts}-${c}`, name: pick(["read", "a_b", "a.b"]), args: { n: c } });
      h.push(assistant);
      for (let c = 0; c < calls; c++) {
        const result: ToolResultMessage = {
          role: "toolResult",
          toolCallId: `c${assistant.ts}-${c}`,
          toolName: "read",
          content: r() < 0.15 ? [] : [{ type: "text", text: text() }],
          isError: r() < 0.1,
          ts: ts++,
        };
        if (r() < 0.15) result.content.push({ type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" });
        if (r() < 0.15) result.activatedTools = [DEFERRED];
        h.push(result);
      }
    };
    for (let i = 0; i < 150; i++) {
      const h = conversations[now]!;
      const change = r();
      if (change < 0.45) step(h);
      else if (change < 0.6)
        h.push({ role: "user", content: r() < 0.2 ? [{ type: "image", mimeType: "image/png", data: "AAAA" }] : [{ type: "text", text: text() }], ts: ts++ });
      else if (change < 0.64) h.splice(1 + Math.floor(r() * h.length));
      else if (change < 0.68) {
        // A rewind and a new step in its place: other messages where the kept ones were.
        h.splice(1 + Math.floor(r() * h.length));
        step(h);
      } else if (change < 0.74) {
        const kept = h.slice(Math.max(1, h.length - Math.floor(r() * 4)));
        h.length = 0;
        h.push({ role: "user", content: [{ type: "text", text: `[Summary] ${text()}` }], ts: ts++ }, ...kept);
      } else if (change < 0.82) model = model === w.models[0] ? w.models[1] : w.models[0];
      else if (change < 0.92) now = 1 - now;
      else system = pick(["You are zot.", "You are zot, in plan mode.", ""]);
      const tools = [...TOOLS, ...(r() < 0.5 ? [{ ...DEFERRED, deferred: true }] : [])];
      const messages = conversations[now]!;
      seen.length = 0;
      await collect(p, { model, system, tools, messages });
      await collect(p, { model, system, tools, messages: structuredClone(messages) });
      expect(seen).toHaveLength(2);
      if (seen[0] !== seen[1]) throw new Error(`change ${i}: the body differs from the same request built afresh:\n${seen[0]}\n---\n${seen[1]}`);
    }
  });

for (const w of WIRES)
  test(`${w.wire}: a long conversation's bodies, kept as blocks, equal the same request built afresh after rewinds into them`, async () => {
    const p = createProvider({ provider: w.provider, apiKey: "sk-test", baseUrl: w.base, ...(w.pin ? { wire: w.pin } : {}), retry: { sleep: async () => {} } });
    const r = random(2026);
    let ts = 0;
    const h: Message[] = [{ role: "user", content: [{ type: "text", text: "a long task" }], ts: ts++ }];
    // Results of every size around a block's pieces: empty, a few bytes, hundreds, past a kilobyte.
    const step = () => {
      const id = `c${ts}`;
      h.push({
        role: "assistant",
        content: [{ type: "toolCall", id, name: "read", args: { n: ts } }],
        stop: "tool_use",
        provider: w.provider,
        model: w.models[0],
        usage: emptyUsage(),
        ts: ts++,
      });
      h.push({
        role: "toolResult",
        toolCallId: id,
        toolName: "read",
        content: [{ type: "text", text: "r".repeat(Math.floor(r() ** 3 * 3000)) }],
        isError: false,
        ts: ts++,
      });
    };
    const check = async (what: string) => {
      seen.length = 0;
      await collect(p, { model: w.models[0], system: "You are zot.", tools: TOOLS, messages: h });
      await collect(p, { model: w.models[0], system: "You are zot.", tools: TOOLS, messages: structuredClone(h) });
      expect(seen).toHaveLength(2);
      if (seen[0] !== seen[1]) throw new Error(`${what}: the body differs from the same request built afresh`);
    };
    for (let i = 0; i < 300; i++) {
      step();
      if (i % 60 === 59) await check(`step ${i}`);
    }
    for (let i = 0; i < 12; i++) {
      h.splice(1 + Math.floor(r() * (h.length - 1)));
      if (h.at(-1)?.role === "assistant") h.pop();
      await check(`rewind ${i} to ${h.length} messages`);
      for (let j = Math.floor(r() * 40); j >= 0; j--) step();
      await check(`rewind ${i}, then steps to ${h.length} messages`);
    }
  });

test("a run of small pieces holds a buffer about its own size, whether the history is walked at once (a resume) or a step at a time", () => {
  const log = new ListLog<number>();
  // A coding session's shape: a short message, then a tool output too big to share a block.
  const sizes = Array.from({ length: 41 }, (_, i) => (i % 2 === 0 ? 100 : 2_000));
  const bytes = sizes.map((n, i) => new Uint8Array(n).fill(i % 251));
  const messages = sizes.map((_, i) => ({ role: "user", content: [{ type: "text", text: String(i) }], ts: i }) as Message);
  const walk: ListWalk<number> = (put, from, _state, cut) => {
    for (let i = from; i < messages.length; i++) {
      put(bytes[i]!);
      cut(i + 1, i + 1);
    }
  };
  const joined = (pieces: readonly Uint8Array[]): number[] => pieces.flatMap((p) => [...p]);
  const roomy = (pieces: readonly Uint8Array[]): number[] =>
    pieces.filter((p) => p.buffer.byteLength > Math.max(2 * p.byteLength, 2_048)).map((p) => p.byteLength);
  const whole = log.list(messages, "k", walk);
  expect(joined(whole.pieces)).toEqual(joined(bytes));
  expect(roomy(whole.pieces)).toEqual([]);
  // Then small pieces added a request at a time: the last run grows, its buffer with it.
  for (let step = 0; step < 60; step++) {
    messages.push({ role: "user", content: [{ type: "text", text: `more ${step}` }], ts: 100 + step } as Message);
    bytes.push(new Uint8Array(300).fill(step));
    const listed = log.list(messages, "k", walk);
    expect(joined(listed.pieces)).toEqual(joined(bytes));
    expect(roomy(listed.pieces)).toEqual([]);
  }
});
