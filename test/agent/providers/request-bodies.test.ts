// Request bodies are written from the messages' cached bytes into buffers reused from one call to
// the next, or streamed when they are big (wire-cache.ts `requestBody`): what reaches the server
// must be exactly each request's JSON, with a content-length that matches it, a short request after
// a long one and a retried streamed one included.
import { afterAll, expect, test } from "bun:test";
import { emptyUsage, type Message } from "../../../src/agent/messages.ts";
import { createProvider } from "../../../src/agent/providers/index.ts";
import { STREAM_ABOVE } from "../../../src/agent/providers/wire-cache.ts";
import type { ChoosableWire, ProviderName } from "../../../src/agent/choices.ts";
import { anthropicEvents, openaiEvents, responsesEvents } from "../../helpers/provider-server.ts";
import { collect } from "../../helpers/collect-stream.ts";

const seen: string[] = [];
const lengths: { header: string | null; chunked: boolean; bytes: number }[] = [];
let failFirst = 0;

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const bytes = new Uint8Array(await req.arrayBuffer());
    lengths.push({ header: req.headers.get("content-length"), chunked: req.headers.has("transfer-encoding"), bytes: bytes.length });
    seen.push(new TextDecoder().decode(bytes));
    if (failFirst > 0) {
      failFirst--;
      return new Response("busy", { status: 503 });
    }
    const path = new URL(req.url).pathname;
    const events = path.endsWith("/chat/completions") ? openaiEvents : path.endsWith("/responses") ? responsesEvents : anthropicEvents;
    return new Response(events({ kind: "turn", text: "ok" }, "m").join(""), { headers: { "content-type": "text/event-stream" } });
  },
});
afterAll(() => server.stop(true));

const provider = () =>
  createProvider({ provider: "anthropic", apiKey: "sk-ant-test", baseUrl: server.url.href.replace(/\/$/, ""), retry: { sleep: async () => {} } });
const history = (n: number, word: string): Message[] =>
  Array.from({ length: n }, (_, i) => ({ role: "user" as const, content: [{ type: "text" as const, text: `${word} ${i} ${"x".repeat(i % 97)}` }], ts: i }));
const sentTexts = (body: string): string[] =>
  (JSON.parse(body) as { messages: { content: { text: string }[] }[] }).messages.flatMap((m) => m.content.map((c) => c.text));

test("a short request after a long one carries only its own JSON", async () => {
  seen.length = 0;
  const p = provider();
  const long = history(400, "long");
  const short = history(3, "short");
  await collect(p, { model: "claude-sonnet-4-5", messages: long });
  await collect(p, { model: "claude-sonnet-4-5", messages: short });
  await collect(p, { model: "claude-sonnet-4-5", messages: long.slice(0, 200) });
  expect(seen.map((s) => sentTexts(s).length)).toEqual([400, 3, 200]);
  for (const l of lengths.slice(-3)) expect(l.header).toBe(String(l.bytes));
  expect(sentTexts(seen[1]!)).toEqual(short.map((m) => (m.content[0]?.type === "text" ? m.content[0].text : "")));
  expect(sentTexts(seen[2]!)).toEqual(long.slice(0, 200).map((m) => (m.content[0]?.type === "text" ? m.content[0].text : "")));
});

test("a streamed body of many chunks, with pieces larger than a chunk, arrives whole with its length, again on a retry", async () => {
  seen.length = 0;
  lengths.length = 0;
  failFirst = 1;
  const big = (n: number) => `${"é".repeat(n)}🙂${"z".repeat(n)}`;
  const messages: Message[] = Array.from({ length: 300 }, (_, i) => ({
    role: "user" as const,
    content: [{ type: "text" as const, text: i % 50 === 7 ? big(400_000 + i) : `small ${i} ${"y".repeat(i)}` }],
    ts: i,
  }));
  const { message } = await collect(provider(), { model: "claude-sonnet-4-5", messages });
  expect(message.stop).toBe("end_turn");
  expect(seen).toHaveLength(2);
  expect(seen[1]).toBe(seen[0]!);
  expect(sentTexts(seen[1]!)).toEqual(messages.map((m) => (m.content[0]?.type === "text" ? m.content[0].text : "")));
  for (const l of lengths) {
    expect(l.chunked).toBe(false);
    expect(l.header).toBe(String(l.bytes));
  }
  expect(lengths[0]!.bytes).toBeGreaterThan(STREAM_ABOVE);
});

/** Each wire's provider, and its tools as sent, in a common shape. */
const WIRES: {
  wire: string;
  provider: ProviderName;
  base: string;
  model: string;
  pin?: ChoosableWire;
  tools: (body: unknown) => { name: string; description: string; schema: unknown }[] | undefined;
}[] = [
  {
    wire: "Anthropic Messages",
    provider: "anthropic",
    base: server.url.href.replace(/\/$/, ""),
    model: "claude-sonnet-4-5",
    tools: (b) =>
      (b as { tools?: { name: string; description: string; input_schema: unknown }[] }).tools?.map((t) => ({
        name: t.name,
        description: t.description,
        schema: t.input_schema,
      })),
  },
  {
    wire: "OpenAI Chat Completions",
    provider: "ollama",
    base: `${server.url.href}v1`,
    model: "qwen3",
    tools: (b) =>
      (b as { tools?: { function: { name: string; description: string; parameters: unknown } }[] }).tools?.map(({ function: f }) => ({
        name: f.name,
        description: f.description,
        schema: f.parameters,
      })),
  },
  {
    wire: "OpenAI Responses",
    provider: "openai",
    base: `${server.url.href}v1`,
    model: "any-model",
    pin: "responses",
    tools: (b) =>
      (b as { tools?: { name: string; description: string; parameters: unknown }[] }).tools?.map((t) => ({
        name: t.name,
        description: t.description,
        schema: t.parameters,
      })),
  },
];

for (const w of WIRES)
  test(`${w.wire}: the tools field follows the request's tools from one step to the next, though its text is reused`, async () => {
    seen.length = 0;
    const p = createProvider({ provider: w.provider, apiKey: "sk-test", baseUrl: w.base, ...(w.pin ? { wire: w.pin } : {}), retry: { sleep: async () => {} } });
    const schema = { type: "object", properties: {} };
    const read = { name: "read", description: "reads", schema };
    const bash = { name: "bash", description: "runs", schema };
    const mcp = { name: "mcp__docs__search", description: "searches the docs", schema: { type: "object", properties: { q: { type: "string" } } } };
    const steps = [
      [read, bash],
      [read, bash],
      // Equal specs in new objects (a list built afresh each step) give the same text too.
      [{ ...read }, { ...bash }],
      // An MCP server's new tool, then its removal.
      [read, bash, mcp],
      [read, bash],
      [read],
      // A mode change's new description, then a new schema object.
      [read, { ...bash, description: "runs commands" }],
      [read, { ...bash, schema: { type: "object", properties: { command: { type: "string" } } } }],
      [],
    ];
    for (const tools of steps) await collect(p, { model: w.model, tools });
    expect(seen).toHaveLength(steps.length);
    const sent = seen.map((s) => w.tools(JSON.parse(s)));
    expect(sent).toEqual(
      steps.map((tools) => (tools.length === 0 ? undefined : tools.map((t) => ({ name: t.name, description: t.description, schema: t.schema })))),
    );
    // The same tools are the same bytes on the wire, step after step.
    const field = (s: string) => {
      const text = `"tools":${JSON.stringify((JSON.parse(s) as { tools?: unknown }).tools)}`;
      expect(s).toContain(text);
      return text;
    };
    for (const same of [1, 2, 4]) expect(field(seen[same]!)).toBe(field(seen[0]!));
  });

test("Anthropic Messages: the tools field keeps the cache breakpoint on the last tool", async () => {
  seen.length = 0;
  const p = provider();
  const schema = { type: "object", properties: {} };
  const read = { name: "read", description: "reads", schema };
  const bash = { name: "bash", description: "runs", schema };
  await collect(p, { model: "claude-sonnet-4-5", tools: [read, bash] });
  await collect(p, { model: "claude-sonnet-4-5", tools: [read] });
  const marks = seen.map((s) => (JSON.parse(s) as { tools: { cache_control?: unknown }[] }).tools.map((t) => t.cache_control !== undefined));
  expect(marks).toEqual([[false, true], [true]]);
});

test("Kimi's wire names, which depend on the history, are part of what the tools field is kept by", async () => {
  seen.length = 0;
  const p = createProvider({ provider: "kimi", apiKey: "sk-test", baseUrl: `${server.url.href}v1`, retry: { sleep: async () => {} } });
  const tools = [{ name: "a.b", description: "dotted", schema: { type: "object", properties: {} } }];
  // A call to a tool named `a_b` in the history takes that wire name, so `a.b` becomes `a_b_2`.
  const calledAB: Message[] = [
    { role: "user", content: [{ type: "text", text: "hi" }], ts: 0 },
    {
      role: "assistant",
      content: [{ type: "toolCall", id: "c1", name: "a_b", args: {} }],
      provider: "kimi",
      model: "kimi-k3.1-pro",
      usage: emptyUsage(),
      stop: "tool_use",
      ts: 1,
    },
    { role: "toolResult", toolCallId: "c1", toolName: "a_b", content: [{ type: "text", text: "ok" }], isError: false, ts: 2 },
  ];
  await collect(p, { model: "kimi-k3.1-pro", tools });
  await collect(p, { model: "kimi-k3.1-pro", tools, messages: calledAB });
  await collect(p, { model: "kimi-k3.1-pro", tools });
  const names = seen.map((s) => (JSON.parse(s) as { tools: { function: { name: string } }[] }).tools.map((t) => t.function.name));
  expect(names).toEqual([["a_b"], ["a_b_2"], ["a_b"]]);
});
