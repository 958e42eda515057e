/**
 * A real Streamable HTTP MCP server for tests: `Bun.serve` on 127.0.0.1, port 0.
 *
 *   const server = startMcpHttpServer({ era: "modern", reply: "sse", token: "t0k" });
 *   // {"mcpServers": {"web": {"type": "http", "url": server.url, "headers": {"Authorization": "Bearer t0k"}}}}
 *   expect(server.requests[0].headers["mcp-method"]).toBe("server/discover");
 *   await server.stop();
 *
 * `era: "modern"` speaks 2026-07-28: POST only, `MCP-Protocol-Version` must match `_meta` and
 * `Mcp-Method` the body (else 400 with HeaderMismatch), notifications get 202, an unknown method 404
 * with -32601, `subscriptions/listen` is an open SSE stream. `era: "legacy"` speaks 2025-11-25 as
 * the TypeScript SDK v1 does: `initialize` hands out an `Mcp-Session-Id` that every later request
 * must carry (else 400), a GET stream carries list changes, DELETE ends the session, and the `ask`
 * tool sends `elicitation/create` on the call's SSE stream and waits for the client's answer.
 * `reply` chooses JSON bodies or SSE streams for ordinary answers. Tools: echo, fail, slow (progress
 * on SSE; records a stream the client closed), ask, change (adds "late"), regional (x-mcp-header),
 * whoami (echoes the Authorization header it got).
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

export type McpHttpOptions = {
  era: "modern" | "legacy";
  reply: "json" | "sse";
  token?: string;
  oauth?: boolean;
  /** Answers a request before the MCP server sees it (an OAuth resource server's 401 and metadata), or lets it through with null. */
  guard?: (req: Request, url: URL) => Response | null;
};
export type RecordedRequest = { method: string; headers: Record<string, string>; body: Obj | null };

export type McpHttpServer = {
  url: string;
  requests: RecordedRequest[];
  /** Request ids whose SSE stream the client closed before the answer. */
  closedStreams: (string | number)[];
  deletes: number;
  stop(): Promise<void>;
};

const VERSION = { modern: "2026-07-28", legacy: "2025-11-25" };
const LEGACY_SPOKEN = ["2025-11-25", "2025-06-18", "2025-03-26"];
const KEY = "io.modelcontextprotocol/";
const enc = new TextEncoder();

export function startMcpHttpServer(o: McpHttpOptions): McpHttpServer {
  const requests: RecordedRequest[] = [];
  const closedStreams: (string | number)[] = [];
  const listeners = new Set<ReadableStreamDefaultController<Uint8Array>>();
  const waiting = new Map<string, (answer: Obj) => void>();
  let deletes = 0;
  let session: string | null = null;
  let tools: Obj[] = [
    { name: "echo", description: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
    { name: "fail", description: "fails", inputSchema: { type: "object" } },
    { name: "slow", description: "slow", inputSchema: { type: "object", properties: { steps: { type: "integer" } } } },
    { name: "ask", description: "asks", inputSchema: { type: "object" } },
    { name: "change", description: "changes the tools", inputSchema: { type: "object" } },
    { name: "regional", description: "x-mcp-header", inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } } },
    { name: "whoami", description: "echoes the Authorization header", inputSchema: { type: "object" } },
    { name: "région", description: "a non-ASCII name, which MCP does not allow", inputSchema: { type: "object" } },
  ];
  const caps: Obj = { tools: { listChanged: true } };

  const json = (status: number, body: Json, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
  const rpcError = (status: number, id: Json, code: number, message: string, data?: Json) =>
    json(status, { jsonrpc: "2.0", id, error: data === undefined ? { code, message } : { code, message, data } });
  const sseLine = (msg: Json) => enc.encode(`event: message\ndata: ${JSON.stringify(msg)}\n\n`);
  const complete = (r: Obj): Obj => (o.era === "modern" ? { resultType: "complete", ...r } : r);

  /** An SSE reply: `run` writes events and returns the final answer (or null when it ends otherwise). */
  function stream(id: Json, signal: AbortSignal, run: (send: (m: Json) => void) => Promise<Json | null>): Response {
    const body = new ReadableStream<Uint8Array>({
      async start(c) {
        let open = true;
        signal.addEventListener("abort", () => {
          if (open && id !== null && typeof id !== "object" && typeof id !== "boolean") closedStreams.push(id);
          open = false;
        });
        const answer = await run((m) => {
          if (open) c.enqueue(sseLine(m));
        });
        if (open && answer !== null) c.enqueue(sseLine(answer));
        if (open) c.close();
        open = false;
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  }

  function answer(id: Json, result: Obj, signal: AbortSignal): Response {
    const msg = { jsonrpc: "2.0", id, result: complete(result) };
    return o.reply === "sse" ? stream(id, signal, async () => msg) : json(200, msg);
  }

  async function callTool(id: Json, params: Obj, signal: AbortSignal): Promise<Response> {
    const name = params.name;
    const args = (params.arguments ?? {}) as Obj;
    const token = ((params._meta ?? {}) as Obj).progressToken ?? null;
    switch (name) {
      case "echo":
        return answer(id, { content: [{ type: "text", text: `echo: ${String(args.text)}` }] }, signal);
      case "fail":
        return answer(id, { content: [{ type: "text", text: "nope" }], isError: true }, signal);
      case "whoami":
        return answer(id, { content: [{ type: "text", text: `you sent ${requests.at(-1)!.headers.authorization ?? "(nothing)"}` }] }, signal);
      case "regional":
        return answer(id, { content: [{ type: "text", text: `region header ${requests.at(-1)!.headers["mcp-param-region"] ?? "(none)"}` }] }, signal);
      case "change":
        tools = [...tools, { name: "late", description: "late", inputSchema: { type: "object" } }];
        for (const l of listeners) l.enqueue(sseLine({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: {} }));
        return answer(id, { content: [{ type: "text", text: "changed" }] }, signal);
      case "slow": {
        const steps = Number(args.steps ?? 3);
        return stream(id, signal, async (send) => {
          for (let i = 1; i <= steps; i++) {
            if (signal.aborted) return null;
            send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: i, total: steps, message: `step ${i}` } });
            await Bun.sleep(100);
          }
          return { jsonrpc: "2.0", id, result: complete({ content: [{ type: "text", text: "done" }] }) };
        });
      }
      case "ask":
        return stream(id, signal, async (send) => {
          const rid = `srv-${id}`;
          const got = new Promise<Obj>((r) => waiting.set(rid, r));
          send({
            jsonrpc: "2.0",
            id: rid,
            method: "elicitation/create",
            params: { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } },
          });
          const a = await got;
          return { jsonrpc: "2.0", id, result: { content: [{ type: "text", text: `answer ${JSON.stringify(a)}` }] } };
        });
      default:
        return rpcError(200, id, -32602, `Unknown tool: ${String(name)}`);
    }
  }

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const headers: Record<string, string> = {};
      req.headers.forEach((v, k) => (headers[k] = v));
      let body: Obj | null = null;
      if (req.method === "POST") {
        try {
          body = (await req.json()) as Obj;
        } catch {
          body = null;
        }
      }
      requests.push({ method: req.method, headers, body });
      const guarded = o.guard?.(req, new URL(req.url));
      if (guarded) return guarded;
      if (o.oauth)
        return new Response("", {
          status: 401,
          headers: { "www-authenticate": 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"' },
        });
      if (o.token && headers.authorization !== `Bearer ${o.token}`) return new Response("unauthorized", { status: 401 });
      if (req.method === "DELETE") {
        deletes++;
        session = null;
        return new Response(null, { status: 200 });
      }
      if (req.method === "GET") {
        if (o.era === "modern" || headers["mcp-session-id"] !== session) return new Response(null, { status: 405 });
        const body = new ReadableStream<Uint8Array>({
          start(c) {
            listeners.add(c);
            req.signal.addEventListener("abort", () => listeners.delete(c));
          },
        });
        return new Response(body, { headers: { "content-type": "text/event-stream" } });
      }
      if (body?.jsonrpc !== "2.0") return rpcError(400, null, -32700, "Parse error");
      const id = body.id ?? null;
      const params = (body.params ?? {}) as Obj;
      const method = body.method;
      if (method === undefined) {
        // A response to one of our requests (elicitation).
        waiting.get(String(id))?.((body.result ?? {}) as Obj);
        return new Response(null, { status: 202 });
      }
      if (o.era === "legacy") {
        if (method === "initialize") {
          session = crypto.randomUUID();
          // As the SDKs do: the client's version when the server speaks it, else its own newest.
          const asked = params.protocolVersion;
          const version = typeof asked === "string" && LEGACY_SPOKEN.includes(asked) ? asked : VERSION.legacy;
          return json(
            200,
            { jsonrpc: "2.0", id, result: { protocolVersion: version, capabilities: caps, serverInfo: { name: "http-legacy", version: "1" } } },
            { "mcp-session-id": session },
          );
        }
        if (!session || headers["mcp-session-id"] !== session) return rpcError(400, id, -32000, "Bad Request: No valid session ID provided");
        if (id === null) return new Response(null, { status: 202 });
      } else {
        const meta = (params._meta ?? {}) as Obj;
        if (headers["mcp-method"] !== method || (id !== null && headers["mcp-protocol-version"] !== meta[KEY + "protocolVersion"]))
          return rpcError(400, id, -32020, "Header mismatch");
        if (id === null) return new Response(null, { status: 202 });
        if (meta[KEY + "protocolVersion"] !== VERSION.modern) return rpcError(400, id, -32022, "Unsupported protocol version", { supported: [VERSION.modern] });
        if ((method === "tools/call" || method === "prompts/get") && headers["mcp-name"] === undefined) return rpcError(400, id, -32020, "Mcp-Name missing");
      }
      switch (method) {
        case "server/discover":
          if (o.era === "legacy") return rpcError(400, id, -32000, "Bad Request: Server not initialized");
          return answer(
            id,
            { supportedVersions: [VERSION.modern], capabilities: caps, _meta: { [KEY + "serverInfo"]: { name: "http-modern", version: "2" } } },
            req.signal,
          );
        case "subscriptions/listen": {
          const body = new ReadableStream<Uint8Array>({
            start(c) {
              listeners.add(c);
              c.enqueue(sseLine({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { _meta: { [KEY + "subscriptionId"]: id } } }));
              req.signal.addEventListener("abort", () => listeners.delete(c));
            },
          });
          return new Response(body, { headers: { "content-type": "text/event-stream" } });
        }
        case "tools/list":
          return answer(id, { tools }, req.signal);
        case "tools/call":
          return callTool(id, params, req.signal);
        default:
          return rpcError(o.era === "modern" ? 404 : 200, id, -32601, "Method not found");
      }
    },
  });

  return {
    url: `http://127.0.0.1:${server.port}/mcp`,
    requests,
    closedStreams,
    get deletes() {
      return deletes;
    },
    async stop() {
      for (const l of listeners) {
        try {
          l.close();
        } catch {
          // already closed
        }
      }
      await server.stop(true);
    },
  };
}
