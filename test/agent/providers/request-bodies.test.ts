// Request bodies are written into buffers that are reused from one call to the next
// (wire-cache.ts `bodyBuffers`): what reaches the server must be exactly each request's JSON, a
// short request after a long one included.
import { afterAll, expect, test } from "bun:test";
import type { Message } from "../../../src/agent/messages.ts";
import { createProvider } from "../../../src/agent/providers/index.ts";
import { anthropicEvents } from "../../helpers/provider-server.ts";
import { collect } from "../../helpers/collect-stream.ts";

const seen: string[] = [];

const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    seen.push(await req.text());
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
  expect(sentTexts(seen[1]!)).toEqual(short.map((m) => (m.content[0]?.type === "text" ? m.content[0].text : "")));
  expect(sentTexts(seen[2]!)).toEqual(long.slice(0, 200).map((m) => (m.content[0]?.type === "text" ? m.content[0].text : "")));
});
