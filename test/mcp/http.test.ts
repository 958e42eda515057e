// Streamable HTTP against a real server on 127.0.0.1, in both eras and with both reply forms: the
// required headers, 202 for notifications, the session header of the initialize era, bearer tokens
// from config, closing the stream as cancellation, and a clear sentence when authorization is demanded.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { headerValue } from "../../src/mcp/http.ts";
import type { McpHost } from "../../src/mcp/host.ts";
import { startMcpHttpServer, type McpHttpServer, type McpHttpOptions } from "../helpers/mcp-http-server.ts";
import { waitFor } from "../helpers/wait.ts";
import { startEndless, startTwoOrigins } from "../helpers/two-origins.ts";
import { loadHost, signal, useScratch, writeList } from "./helpers.ts";

let host: McpHost | null = null;
let server: McpHttpServer | null = null;
const s = useScratch(async () => {
  await host?.shutdown();
  host = null;
  await server?.stop();
  server = null;
});

async function start(o: McpHttpOptions, entry: Record<string, unknown> = {}): Promise<McpHost> {
  server = startMcpHttpServer(o);
  writeList(join(s.home, "mcp.json"), { web: { type: "http", url: server.url, ...entry } });
  host = await loadHost(s, { env: { ...process.env, WEB_TOKEN: "t0k" } });
  return host;
}

for (const era of ["modern", "legacy"] as const) {
  for (const reply of ["json", "sse"] as const) {
    describe(`${era} era, ${reply} replies`, () => {
      test("negotiates, lists and calls tools with the required headers and the bearer token", async () => {
        const h = await start({ era, reply, token: "t0k" }, { headers: { Authorization: "Bearer ${WEB_TOKEN}" } });
        expect(h.serverStates()[0]).toMatchObject({ status: "ready", era, transport: "http" });
        expect(await h.callTool("mcp__web__echo", { text: "over http" }, { signal: signal() })).toMatchObject({
          isError: false,
          content: [{ type: "text", text: "echo: over http" }],
        });
        expect(await h.callTool("mcp__web__fail", {}, { signal: signal() })).toMatchObject({ isError: true });
        const call = server!.requests.find((r) => r.body?.method === "tools/call")!;
        expect(call.headers).toMatchObject({
          authorization: "Bearer t0k",
          "mcp-method": "tools/call",
          "mcp-name": "echo",
          accept: "application/json, text/event-stream",
        });
        expect(call.headers["mcp-protocol-version"]).toBe(era === "modern" ? "2026-07-28" : "2025-11-25");
        if (era === "legacy") {
          const init = server!.requests.findIndex((r) => r.body?.method === "initialize");
          expect(server!.requests[init - 1]!.body?.method).toBe("server/discover");
          expect(call.headers["mcp-session-id"]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
          expect(server!.requests.filter((r) => r.body?.method === "notifications/initialized")).toHaveLength(1);
        } else {
          expect(server!.requests.some((r) => r.body?.method === "initialize")).toBe(false);
        }
      });

      test("progress arrives on the call's stream, and aborting closes that stream", async () => {
        const h = await start({ era, reply });
        const progress: string[] = [];
        expect(await h.callTool("mcp__web__slow", { steps: 3 }, { signal: signal(), onProgress: (t) => progress.push(t) })).toMatchObject({
          content: [{ type: "text", text: "done" }],
        });
        expect(progress).toEqual(["step 1", "step 2", "step 3"]);
        const ac = new AbortController();
        setTimeout(() => ac.abort(), 150);
        const r = await h.callTool("mcp__web__slow", { steps: 50 }, { signal: ac.signal });
        expect((r.content[0] as { text: string }).text).toBe('tool "slow" on MCP server "web" was cancelled');
        await waitFor(() => server!.closedStreams.length === 1);
        if (era === "legacy") await waitFor(() => server!.requests.some((x) => x.body?.method === "notifications/cancelled"));
      });

      test("a list change reaches zot and updates the tools", async () => {
        const h = await start({ era, reply });
        // The listening stream is opened right after start-up.
        await waitFor(() => server!.requests.some((r) => r.body?.method === "subscriptions/listen" || r.method === "GET"));
        await h.callTool("mcp__web__change", {}, { signal: signal() });
        await waitFor(() => h.tools().some((t) => t.name === "mcp__web__late"));
      });
    });
  }
}

test("notifications get 202 and the initialize era's session ends with DELETE", async () => {
  const h = await start({ era: "legacy", reply: "json" });
  await h.shutdown();
  host = null;
  expect(server!.deletes).toBe(1);
});

test("server-to-client elicitation on an SSE stream is answered by a POST (declined headlessly)", async () => {
  const h = await start({ era: "legacy", reply: "sse" });
  const r = await h.callTool("mcp__web__ask", {}, { signal: signal() });
  expect(r.content[0]).toEqual({ type: "text", text: 'answer {"action":"decline"}' });
});

test("x-mcp-header parameters are mirrored as Mcp-Param headers; a non-ASCII tool name is refused with a warning", async () => {
  const h = await start({ era: "modern", reply: "json" });
  const r = await h.callTool("mcp__web__regional", { region: "eu-west1" }, { signal: signal() });
  expect(r.content[0]).toEqual({ type: "text", text: "region header eu-west1" });
  expect(h.serverStates()[0]!.warnings).toContain('tool name "région" rejected: MCP tool names are 1–128 characters from A-Z a-z 0-9 _ - .');
});

test("header values that are not plain visible ASCII use the spec's Base64 sentinel", () => {
  expect(headerValue("file:///a/b.txt")).toBe("file:///a/b.txt");
  expect(headerValue("file:///café")).toBe(`=?base64?${Buffer.from("file:///café").toString("base64")}?=`);
  expect(headerValue(" padded ")).toBe("=?base64?IHBhZGRlZCA=?=");
  expect(headerValue("=?base64?literal?=")).toBe("=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
});

test("a server that demands OAuth before any login fails its start with a sentence naming zot mcp login", async () => {
  const h = await start({ era: "modern", reply: "json", oauth: true });
  expect(h.serverStates()[0]).toMatchObject({ status: "failed", auth: "needs login: run zot mcp login web" });
  expect(h.serverStates()[0]!.error).toBe("it needs login: run zot mcp login web (it asks for authorization and zot holds no token for it)");
});

test("a server that refuses the configured Authorization header says to check that token, not to log in", async () => {
  const h = await start({ era: "modern", reply: "json", token: "right" }, { headers: { Authorization: "Bearer ${WEB_TOKEN}" } });
  expect(h.serverStates()[0]).toMatchObject({
    status: "failed",
    error: "the server refused the Authorization header from its config (HTTP 401); check the token it expands to",
  });
  expect(h.serverStates()[0]!.auth).toBeUndefined();
});

test("a server nobody listens at fails its start naming the URL", async () => {
  writeList(join(s.home, "mcp.json"), { web: { type: "http", url: "http://127.0.0.1:9/mcp" } });
  host = await loadHost(s);
  expect(host.serverStates()[0]!.error).toStartWith("cannot reach http://127.0.0.1:9/mcp: ");
});

describe("the HTTP door", () => {
  test("a server that redirects to another origin fails its start, and its configured headers never reach that origin", async () => {
    const t = startTwoOrigins(307);
    try {
      writeList(join(s.home, "mcp.json"), { web: { type: "http", url: `${t.first}/mcp`, headers: { "X-Key": "${MY_SECRET}" } } });
      host = await loadHost(s, { env: { ...process.env, MY_SECRET: "s3cret-value" } });
      expect(host.serverStates()[0]).toMatchObject({ status: "failed" });
      expect(host.serverStates()[0]!.error).toContain(
        `${t.first} redirected the request (HTTP 307) to ${t.second}/mcp, another origin; zot does not follow it`,
      );
      expect(t.seen).toEqual([]);
    } finally {
      t.stop();
    }
  });

  test("a JSON reply that never ends is stopped at 64 MiB with a sentence", async () => {
    const endless = startEndless("application/json", "x".repeat(256 * 1024), '{"jsonrpc":"2.0","id":1,"result":{"x":"');
    try {
      writeList(join(s.home, "mcp.json"), { web: { type: "http", url: `${endless.url}/mcp` } });
      host = await loadHost(s);
      expect(host.serverStates()[0]).toMatchObject({ status: "failed" });
      expect(host.serverStates()[0]!.error).toContain(`the answer from ${endless.url} passed 64 MiB and was stopped`);
    } finally {
      endless.stop();
    }
  });

  test("an event-stream line that never ends is stopped at 64 MiB with a sentence", async () => {
    const endless = startEndless("text/event-stream", "y".repeat(256 * 1024), "data: ");
    try {
      writeList(join(s.home, "mcp.json"), { web: { type: "http", url: `${endless.url}/mcp` } });
      host = await loadHost(s);
      expect(host.serverStates()[0]).toMatchObject({ status: "failed" });
      expect(host.serverStates()[0]!.error).toContain(`${endless.url} sent an event larger than 64 MiB, so the stream was stopped`);
    } finally {
      endless.stop();
    }
  });
});
