// `zot mcp serve --http`: Streamable HTTP on one endpoint (`/mcp`). A POSTed request is answered
// with JSON, or, for tools/call and subscriptions/listen, with an SSE stream that carries its
// progress, its elicitation requests and its reply; notifications and responses get 202. The
// initialize era gets a session (`Mcp-Session-Id`, a GET stream for list changes, DELETE to end);
// 2026-07-28 requests are stateless. Every request needs the bearer token, and a Host and Origin
// of the loopback address when bound to it (DNS rebinding). A client that closes a stream cancels
// the call behind it.
import { timingSafeEqual } from "node:crypto";
import { isObject } from "../../json.ts";
import type { JsonObject } from "../../protocol.ts";
import { randomHex } from "../../random.ts";
import { MODERN_VERSION } from "../../mcp/client.ts";
import { HEADER_MISMATCH, METHOD_NOT_FOUND, MISSING_CLIENT_CAPABILITY, UNSUPPORTED_PROTOCOL_VERSION } from "../../mcp/jsonrpc.ts";
import type { Runtime } from "../runtime.ts";
import { type Channel, INVALID_PARAMS, INVALID_REQUEST, McpServer, PARSE_ERROR } from "./server.ts";
import type { ServedTools } from "./tools.ts";
import { onAbort } from "../../abort.ts";

export const ENDPOINT = "/mcp";
const LOOPBACK_NAMES = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);
/** Streamed methods: the ones that send messages before their reply, or stay open. */
const STREAMED = new Set(["tools/call", "subscriptions/listen"]);
const encoder = new TextEncoder();

export type HttpOptions = { hostname: string; port: number; token: string };

export type HttpServer = { url: string; stop(): Promise<void> };

type Session = { server: McpServer; streams: Set<(msg: JsonObject) => void> };

export function serveHttp(runtime: Runtime, tools: ServedTools, opts: HttpOptions): HttpServer {
  const sessions = new Map<string, Session>();
  // 2026-07-28 requests carry everything in `_meta`: one server answers them all.
  const stateless = new McpServer(runtime, tools, () => {});
  const expected = encoder.encode(`Bearer ${opts.token}`);
  const loopback = LOOPBACK_NAMES.has(opts.hostname);
  const unhook = runtime.onIntent((intent) => {
    const all = [stateless, ...[...sessions.values()].map((s) => s.server)];
    if (intent.kind === "registry_changed") for (const s of all) s.toolsChanged();
    else if (intent.kind === "notify")
      for (const s of all) s.log(intent.level === "error" ? "error" : intent.level === "warn" ? "warning" : "info", intent.extension, intent.message);
  });

  const server = Bun.serve({
    hostname: opts.hostname,
    port: opts.port,
    // Streams stay open as long as calls run and GET listeners listen.
    idleTimeout: 0,
    async fetch(req) {
      const url = new URL(req.url);
      if (url.pathname !== ENDPOINT) return plain(404, `zot's MCP endpoint is ${ENDPOINT}, not ${url.pathname}`);
      const guard = checkOrigin(req, loopback) ?? checkToken(req, expected);
      if (guard) return guard;
      const sid = req.headers.get("mcp-session-id");
      const session = sid === null ? null : (sessions.get(sid) ?? null);
      if (sid !== null && !session)
        return rpcError(404, null, INVALID_REQUEST, `no session ${sid} (it ended, or zot restarted); send initialize again without Mcp-Session-Id`);
      switch (req.method) {
        case "GET":
          if (!session)
            return new Response("zot serves a GET stream only to an initialize-era session (send Mcp-Session-Id)", {
              status: 405,
              headers: { Allow: "POST, DELETE" },
            });
          return listenStream(session, req.signal);
        case "DELETE":
          if (!session || sid === null) return new Response("DELETE needs the Mcp-Session-Id of a session", { status: 405, headers: { Allow: "POST" } });
          sessions.delete(sid);
          session.server.stopAll();
          return new Response(null, { status: 204 });
        case "POST":
          return post(req, session, sid);
        default:
          return new Response(`zot's MCP endpoint takes POST, GET and DELETE, not ${req.method}`, { status: 405, headers: { Allow: "POST, GET, DELETE" } });
      }
    },
  });

  async function post(req: Request, session: Session | null, sid: string | null): Promise<Response> {
    const type = req.headers.get("content-type") ?? "";
    if (!type.includes("application/json"))
      return rpcError(415, null, INVALID_REQUEST, `POST a JSON-RPC message with Content-Type: application/json (got ${type || "none"})`);
    let raw: unknown;
    try {
      raw = JSON.parse(await req.text());
    } catch {
      return rpcError(400, null, PARSE_ERROR, "the body is not JSON; POST one JSON-RPC message");
    }
    const msg = isObject(raw) ? raw : null;
    const isRequest = msg !== null && typeof msg.method === "string" && (typeof msg.id === "string" || typeof msg.id === "number");
    const meta = msg && isObject(msg.params) && isObject(msg.params._meta) ? msg.params._meta : {};
    const header = req.headers.get("mcp-protocol-version");
    const modern = meta["io.modelcontextprotocol/protocolVersion"] !== undefined || header === MODERN_VERSION;
    if (modern && isRequest && msg) {
      const mismatch = headerMismatch(req.headers, msg);
      if (mismatch) return rpcError(400, msg.id as string | number, HEADER_MISMATCH, mismatch);
    }
    let target: Session | { server: McpServer } | null = session;
    let newId: string | null = null;
    if (!target) {
      if (isRequest && msg?.method === "initialize" && !modern) {
        const fresh: Session = { server: new McpServer(runtime, tools, (m) => fresh.streams.forEach((s) => s(m))), streams: new Set() };
        newId = randomHex(16);
        sessions.set(newId, fresh);
        target = fresh;
      } else if (modern || !isRequest || msg?.method === "ping") target = { server: stateless };
      else
        return rpcError(
          400,
          isRequest ? (msg?.id as string | number) : null,
          INVALID_REQUEST,
          `${String(msg?.method)} without Mcp-Session-Id: send initialize first, or use protocol ${MODERN_VERSION} with _meta`,
        );
    }
    const headers: Record<string, string> = newId ? { "Mcp-Session-Id": newId } : sid ? { "Mcp-Session-Id": sid } : {};
    if (!isRequest) {
      const reply = await target.server.handle(raw, { send: () => {} }, undefined, header);
      return reply ? Response.json(reply, { status: 400, headers }) : new Response(null, { status: 202, headers });
    }
    if (!STREAMED.has(String(msg?.method))) {
      const reply = await target.server.handle(raw, { send: () => {} }, req.signal, header);
      return Response.json(reply, { status: statusOf(reply, modern), headers });
    }
    const server = target.server;
    const cancel = new AbortController();
    onAbort(req.signal, () => cancel.abort());
    let write: ((msg: JsonObject) => void) | null = null;
    const channel: Channel = { send: (m) => write?.(m) };
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        let n = 0;
        write = (m) => {
          try {
            controller.enqueue(encoder.encode(`id: ${++n}\nevent: message\ndata: ${JSON.stringify(m)}\n\n`));
          } catch {
            cancel.abort();
          }
        };
        void server.handle(raw, channel, cancel.signal, header).then((reply) => {
          if (reply && !cancel.signal.aborted) write?.(reply);
          write = null;
          try {
            controller.close();
          } catch {
            // Already closed by the client.
          }
        });
      },
      cancel() {
        write = null;
        cancel.abort();
      },
    });
    return new Response(body, { headers: { ...headers, "Content-Type": "text/event-stream", "Cache-Control": "no-cache" } });
  }

  function listenStream(session: Session, signal: AbortSignal): Response {
    let push: ((m: JsonObject) => void) | null = null;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        let n = 0;
        const p = (m: JsonObject) => {
          try {
            controller.enqueue(encoder.encode(`id: ${++n}\nevent: message\ndata: ${JSON.stringify(m)}\n\n`));
          } catch {
            session.streams.delete(p);
          }
        };
        push = p;
        session.streams.add(p);
        // A priming event, so the client knows the stream is up.
        controller.enqueue(encoder.encode(": zot\n\n"));
        onAbort(signal, () => session.streams.delete(p));
      },
      cancel() {
        if (push) session.streams.delete(push);
      },
    });
    return new Response(body, { headers: { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" } });
  }

  const host = opts.hostname.includes(":") && !opts.hostname.startsWith("[") ? `[${opts.hostname}]` : opts.hostname;
  return {
    url: `http://${host}:${server.port}${ENDPOINT}`,
    async stop() {
      unhook();
      const all = [stateless, ...[...sessions.values()].map((s) => s.server)];
      for (const s of all) s.stopAll();
      await Promise.all(all.map((s) => s.settled()));
      await server.stop(true);
    },
  };
}

/** DNS rebinding: bound to loopback, only a loopback Host, and an Origin (when sent) of loopback. */
function checkOrigin(req: Request, loopback: boolean): Response | null {
  if (!loopback) return null;
  const host = hostOf(req.headers.get("host") ?? "");
  if (!LOOPBACK_NAMES.has(host))
    return rpcError(
      403,
      null,
      INVALID_REQUEST,
      `zot serves loopback only; the Host header ${JSON.stringify(req.headers.get("host"))} is not 127.0.0.1, localhost or [::1]`,
    );
  const origin = req.headers.get("origin");
  if (origin === null || origin === "null") return null;
  let name: string;
  try {
    name = new URL(origin).hostname;
  } catch {
    return rpcError(403, null, INVALID_REQUEST, `the Origin header ${JSON.stringify(origin)} is not a URL`);
  }
  return LOOPBACK_NAMES.has(name) ? null : rpcError(403, null, INVALID_REQUEST, `requests from the web page ${origin} are refused (Origin is not loopback)`);
}

function hostOf(header: string): string {
  if (header.startsWith("[")) return header.slice(0, header.indexOf("]") + 1);
  return header.split(":")[0] ?? "";
}

function checkToken(req: Request, expected: Uint8Array): Response | null {
  const got = encoder.encode(req.headers.get("authorization") ?? "");
  if (got.length === expected.length && timingSafeEqual(got, expected)) return null;
  return new Response(
    JSON.stringify({
      jsonrpc: "2.0",
      id: null,
      error: { code: INVALID_REQUEST, message: "zot mcp serve needs Authorization: Bearer <the token in the variable named by --token-env>" },
    }),
    { status: 401, headers: { "Content-Type": "application/json", "WWW-Authenticate": 'Bearer realm="zot"' } },
  );
}

/**
 * 2026-07-28 (SEP-2243): `Mcp-Method`, and `Mcp-Name` for the methods that name something, repeat
 * the body so intermediaries can route on them; a header that is missing or disagrees is refused.
 */
function headerMismatch(headers: Headers, msg: JsonObject): string | null {
  const method = String(msg.method);
  const sent = headers.get("mcp-method")?.trim();
  if (sent === undefined) return `a ${MODERN_VERSION} request needs the Mcp-Method header (${method}, as in the body)`;
  if (sent !== method) return `the Mcp-Method header (${sent}) is not the body's method (${method})`;
  const params = isObject(msg.params) ? msg.params : {};
  const named = method === "resources/read" ? params.uri : method === "tools/call" || method === "prompts/get" ? params.name : undefined;
  if (typeof named !== "string") return null;
  const raw = headers.get("mcp-name");
  if (raw === null) return `${method} needs the Mcp-Name header (${JSON.stringify(named)}, as in the body)`;
  const value = decodeHeaderValue(raw.trim());
  return value === named
    ? null
    : `the Mcp-Name header (${JSON.stringify(value)}) is not the body's ${method === "resources/read" ? "uri" : "name"} (${JSON.stringify(named)})`;
}

/** A header value as zot's client and SEP-2243 encode it: as is, or `=?base64?…?=` for what is not printable ASCII. */
function decodeHeaderValue(v: string): string {
  if (!v.startsWith("=?base64?") || !v.endsWith("?=")) return v;
  return Buffer.from(v.slice(9, -2), "base64").toString("utf8");
}

/**
 * 2026-07-28 puts the error in the HTTP status too: 404 for a method the server lacks, 400 for a
 * request it cannot take (its _meta, its version). A version zot does not speak is 400 in any era.
 */
function statusOf(reply: JsonObject | null, modern: boolean): number {
  const error = reply && isObject(reply.error) ? reply.error : null;
  if (!error) return 200;
  if (error.code === UNSUPPORTED_PROTOCOL_VERSION) return 400;
  if (!modern) return 200;
  if (error.code === METHOD_NOT_FOUND) return 404;
  return error.code === INVALID_PARAMS || error.code === HEADER_MISMATCH || error.code === MISSING_CLIENT_CAPABILITY ? 400 : 200;
}

function rpcError(status: number, id: string | number | null, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", id, error: { code, message } }, { status });
}

function plain(status: number, text: string): Response {
  return new Response(`${text}\n`, { status, headers: { "Content-Type": "text/plain" } });
}
