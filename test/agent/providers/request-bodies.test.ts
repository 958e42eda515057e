// Request bodies are written from the messages' cached bytes into buffers reused from one call to
// the next, or streamed when they are big (wire-cache.ts `requestBody`): what reaches the server
// must be exactly each request's JSON, with a content-length that matches it, a short request after
// a long one and a retried streamed one included.
import { afterAll, expect, test } from "bun:test";
import type { Message } from "../../../src/agent/messages.ts";
import { createProvider } from "../../../src/agent/providers/index.ts";
import { STREAM_ABOVE } from "../../../src/agent/providers/wire-cache.ts";
import { anthropicEvents } from "../../helpers/provider-server.ts";
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
    return new Response(anthropicEvents({ kind: "turn", text: "ok" }, "claude-sonnet-4-5").join(""), { headers: { "content-type": "text/event-stream" } });
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

test("the tools field follows the request's tools from one call to the next, though its text is reused", async () => {
  seen.length = 0;
  const p = provider();
  const schema = { type: "object", properties: {} };
  const read = { name: "read", description: "reads", schema };
  const bash = { name: "bash", description: "runs", schema };
  const model = "claude-sonnet-4-5";
  await collect(p, { model, tools: [read, bash] });
  await collect(p, { model, tools: [{ ...read }, { ...bash }] });
  await collect(p, { model, tools: [read] });
  await collect(p, { model, tools: [read, { ...bash, description: "runs commands" }] });
  await collect(p, { model, tools: [read, { ...bash, schema: { type: "object", properties: { command: { type: "string" } } } }] });
  await collect(p, { model, tools: [] });
  const sent = seen.map((s) => (JSON.parse(s) as { tools?: { name: string; description: string; input_schema: unknown }[] }).tools);
  const wire = (t: { name: string; description: string; schema: unknown }, last: boolean) => ({
    name: t.name,
    description: t.description,
    input_schema: t.schema,
    ...(last ? { cache_control: { type: "ephemeral" } } : {}),
  });
  expect(sent[0]).toEqual([wire(read, false), wire(bash, true)]);
  expect(sent[1]).toEqual(sent[0]);
  expect(sent[2]).toEqual([wire(read, true)]);
  expect(sent[3]![1]!.description).toBe("runs commands");
  expect(sent[4]![1]!.input_schema).toEqual({ type: "object", properties: { command: { type: "string" } } });
  expect(sent[5]).toBeUndefined();
});
