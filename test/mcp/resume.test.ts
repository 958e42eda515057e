// Resumable event streams (Streamable HTTP, SEP-1699) against a real server on 127.0.0.1 that
// behaves as the conformance suite's sse-retry scenario: the tools/call stream carries only a
// priming event (an id, a retry delay, empty data) and closes; the answer comes on the GET that
// resumes it with Last-Event-ID. Variants refuse the GET, send no id, or never answer.
import { expect, test } from "bun:test";
import { join } from "node:path";
import type { McpHost } from "../../src/mcp/host.ts";
import { loadHost, signal, useScratch, writeList } from "./helpers.ts";

type Resume = "answer" | "refuse" | "silent";
type Seen = { method: string; rpc: string | null; lastEventId: string | null };

let host: McpHost | null = null;
let server: ReturnType<typeof Bun.serve> | null = null;
const s = useScratch(async () => {
  await host?.shutdown();
  host = null;
  await server?.stop(true);
  server = null;
});

const enc = new TextEncoder();
const sse = (text: string) => new Response(enc.encode(text), { headers: { "content-type": "text/event-stream", "mcp-session-id": "s1" } });
const json = (body: unknown) => Response.json(body, { headers: { "mcp-session-id": "s1" } });

/** An initialize-era server whose `resume` tool's stream closes after a priming event (`withId`: one carrying an id). */
function start(resume: Resume, withId = true): { seen: Seen[] } {
  const seen: Seen[] = [];
  let pending: string | number | null = null;
  let counter = 0;
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const body = req.method === "POST" ? ((await req.json()) as { id?: string | number; method?: string; params?: { name?: string } }) : null;
      seen.push({ method: req.method, rpc: body?.method ?? null, lastEventId: req.headers.get("last-event-id") });
      if (req.method === "GET") {
        if (resume === "refuse" || req.headers.get("last-event-id") === null) return new Response("no", { status: 405 });
        if (resume === "silent") return sse("");
        const answer =
          pending === null
            ? ""
            : `event: message\nid: e${++counter}\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: pending, result: { content: [{ type: "text", text: "resumed" }] } })}\n\n`;
        pending = null;
        return sse(`id: e${++counter}\nretry: 50\ndata: \n\n${answer}`);
      }
      if (req.method !== "POST" || !body) return new Response(null, { status: 405 });
      if (body.id === undefined) return new Response(null, { status: 202 });
      switch (body.method) {
        case "initialize":
          return json({
            jsonrpc: "2.0",
            id: body.id,
            result: { protocolVersion: "2025-03-26", capabilities: { tools: {} }, serverInfo: { name: "resume", version: "1" } },
          });
        case "tools/list":
          return json({ jsonrpc: "2.0", id: body.id, result: { tools: [{ name: "resume", inputSchema: { type: "object" } }] } });
        case "tools/call":
          pending = body.id;
          return sse(withId ? `id: e${++counter}\nretry: 50\ndata: \n\n` : "retry: 50\ndata: \n\n");
        default:
          return json({ jsonrpc: "2.0", id: body.id, error: { code: -32601, message: "Method not found" } });
      }
    },
  });
  writeList(join(s.home, "mcp.json"), { web: { type: "http", url: `http://127.0.0.1:${server.port}/mcp` } });
  return { seen };
}

async function call(): Promise<string> {
  host = await loadHost(s);
  const r = await host.callTool("mcp__web__resume", {}, { signal: signal() });
  return (r.content[0] as { text: string }).text;
}

test("a stream that closes before the answer is resumed with GET and Last-Event-ID, and the answer arrives on it", async () => {
  const { seen } = start("answer");
  expect(await call()).toBe("resumed");
  const gets = seen.filter((x) => x.method === "GET" && x.lastEventId !== null);
  expect(gets.map((g) => g.lastEventId)).toEqual(["e1"]);
  // The empty priming events are no garbage: nothing about them in the server's warnings.
  expect(host!.serverStates()[0]!.warnings).toEqual([]);
});

test("a server that refuses the GET to resume fails the call with a sentence saying so", async () => {
  start("refuse");
  expect(await call()).toBe(
    'tool "resume" failed on MCP server "web": the server closed the event stream before answering, and answered the GET to resume it (Last-Event-ID e1) with HTTP 405',
  );
});

test("a stream that closes without an event id cannot be resumed, and the call says so", async () => {
  const { seen } = start("answer", false);
  expect(await call()).toBe(
    'tool "resume" failed on MCP server "web": the server closed the event stream before answering, without an event id to resume it from',
  );
  expect(seen.filter((x) => x.lastEventId !== null)).toEqual([]);
});

test("reconnections that bring nothing new end after a bound, with a sentence naming it", async () => {
  const { seen } = start("silent");
  expect(await call()).toBe(
    'tool "resume" failed on MCP server "web": the server closed the event stream before answering, and 3 reconnections in a row (GET with Last-Event-ID e1) brought nothing new; giving up',
  );
  expect(seen.filter((x) => x.method === "GET" && x.lastEventId === "e1")).toHaveLength(3);
});
