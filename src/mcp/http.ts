// The Streamable HTTP transport: one POST per message to one endpoint, the reply either a JSON body or
// an SSE stream that carries the request's notifications and finally its answer; 202 for
// notifications. Aborting a request closes its stream, which is cancellation in 2026-07-28. For the
// `initialize` era it keeps the `Mcp-Session-Id`, listens on the optional GET stream and ends the
// session with DELETE.
import type { Result } from "../result.ts";
import { isObject } from "../json.ts";
import type { JsonObject } from "../protocol.ts";
import { parseSse, SseDecoder, SseEventTooLarge, type SseEvent } from "../platform/sse.ts";
import { METHOD_NOT_FOUND, decodeServerMessage, notification, relatedId } from "./jsonrpc.ts";
import type { RpcId, RpcNotification, RpcRequest, ServerMessage } from "./jsonrpc.ts";
import { MAX_LINE_BYTES } from "../ext/connection/lines.ts";
import { origin, send, sizeText, type HttpResponse } from "../platform/http.ts";
import type { Inbound, SendOptions, SendOutcome, ServerRequestHandler, Transport } from "./transport.ts";
import { abortableSleep, onAbort } from "../abort.ts";

export type HttpSpec = {
  url: string;
  /** From the config, `${VAR}`-expanded (Authorization: Bearer … lives here). */
  headers: Record<string, string>;
  /** OAuth for a server whose config sets no Authorization header. */
  auth?: HttpAuth;
};

/** Where the Authorization header comes from when the config does not give one (OAuth tokens). */
export interface HttpAuth {
  /** The header value for the next request, or null. */
  authorization(): Promise<string | null>;
  /** After a 401 (or a 403 with a challenge): true when a retry may succeed (the token was refreshed). */
  unauthorized(status: number, challenge: string | null): Promise<boolean>;
  /** The sentence for a request that stays unauthorized. */
  refusal(status: number): string;
}

const SENTINEL = "=?base64?";
/** The reconnection delay when the server sets none with `retry:` (the WHATWG default is a few seconds; MCP servers that resume send one). */
const DEFAULT_RETRY_MS = 1000;
/** Reconnections in a row that may bring no new event before zot stops resuming a stream. */
const MAX_IDLE_RESUMES = 3;

export class HttpTransport implements Transport {
  readonly kind = "http" as const;
  onNotification: (n: Inbound) => void = () => {};
  onRequest: ServerRequestHandler = async () => ({ error: { code: METHOD_NOT_FOUND, message: "method not found" } });
  onWarning: (text: string) => void = () => {};
  readonly ended: Promise<string>;
  private end!: (why: string) => void;
  private version: string | null = null;
  private sessionId: string | null = null;
  private bearer: string | null = null;
  private readonly inflight = new Set<AbortController>();
  private closed = false;

  constructor(private readonly spec: HttpSpec) {
    this.ended = new Promise((r) => (this.end = r));
  }

  async start(): Promise<Result> {
    try {
      const u = new URL(this.spec.url);
      if (u.protocol !== "http:" && u.protocol !== "https:") return { ok: false, error: `the url ${this.spec.url} is not http:// or https://` };
    } catch {
      return { ok: false, error: `the url ${JSON.stringify(this.spec.url)} is not a valid URL` };
    }
    return { ok: true };
  }

  setProtocolVersion(version: string): void {
    this.version = version;
  }

  send(req: RpcRequest, opts: SendOptions): Promise<SendOutcome> {
    return this.post(req, opts);
  }

  async notify(n: RpcNotification): Promise<void> {
    const controller = new AbortController();
    await this.post(n, { signal: controller.signal });
  }

  /** The `initialize` era's standalone GET stream for server notifications; a 405 means the server has none. */
  listen(): void {
    if (this.closed) return;
    const controller = new AbortController();
    this.inflight.add(controller);
    void (async () => {
      try {
        const sent = await send(this.spec.url, { method: "GET", headers: this.headers(null, { Accept: "text/event-stream" }), signal: controller.signal });
        if (!sent.ok) return;
        const res = sent.response;
        if (!res.ok || !res.body || !(res.headers.get("content-type") ?? "").includes("text/event-stream")) {
          await res.discard();
          return;
        }
        const stopped = await readEvents(res, controller.signal, (e) => void this.inbound(e.data, null, undefined));
        if (stopped) this.onWarning(stopped);
      } catch {
        // No stream, or it broke: list changes then reach zot only through later requests.
      } finally {
        this.inflight.delete(controller);
      }
    })();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const c of this.inflight) c.abort();
    this.inflight.clear();
    if (this.sessionId) {
      const sent = await send(this.spec.url, { method: "DELETE", headers: this.headers(null), headerTimeoutMs: 2000 });
      if (sent.ok) await sent.response.discard();
    }
    this.end("the connection was closed");
  }

  private headers(msg: RpcRequest | RpcNotification | null, extra: Record<string, string> = {}): Record<string, string> {
    const h: Record<string, string> = { ...this.spec.headers };
    if (this.bearer) h.Authorization = this.bearer;
    if (this.version) h["MCP-Protocol-Version"] = this.version;
    if (this.sessionId) h["Mcp-Session-Id"] = this.sessionId;
    if (msg) {
      h["Content-Type"] = "application/json";
      h.Accept = "application/json, text/event-stream";
      h["Mcp-Method"] = msg.method;
      const p = msg.params ?? {};
      const name = msg.method === "resources/read" ? p.uri : msg.method === "tools/call" || msg.method === "prompts/get" ? p.name : undefined;
      if (typeof name === "string") h["Mcp-Name"] = headerValue(name);
      const meta = isObject(p._meta) ? p._meta : {};
      const v = meta["io.modelcontextprotocol/protocolVersion"];
      if (typeof v === "string") h["MCP-Protocol-Version"] = v;
    }
    return { ...h, ...extra };
  }

  private async post(msg: RpcRequest | RpcNotification, opts: SendOptions): Promise<SendOutcome> {
    if (this.closed) return { ok: false, kind: "gone", error: "the connection was closed" };
    const id = "id" in msg ? msg.id : null;
    const controller = new AbortController();
    const unlisten = onAbort(opts.signal, () => controller.abort());
    this.inflight.add(controller);
    try {
      let res: HttpResponse;
      const auth = this.spec.auth;
      for (let attempt = 0; ; attempt++) {
        if (auth) this.bearer = await auth.authorization();
        const sent = await send(this.spec.url, {
          method: "POST",
          headers: this.headers(msg, opts.headers),
          body: JSON.stringify(msg),
          signal: controller.signal,
        });
        if (!sent.ok) {
          if (opts.signal.aborted) return this.cancelled(id);
          if (sent.kind === "redirect") return { ok: false, kind: "gone", error: `${sent.error}; check the server's url` };
          return { ok: false, kind: "gone", error: `cannot reach ${this.spec.url}: ${sent.cause ?? sent.error}` };
        }
        res = sent.response;
        if (!auth || attempt > 0 || !demandsAuth(res)) break;
        await res.discard();
        if (!(await auth.unauthorized(res.status, res.headers.get("www-authenticate")))) break;
      }
      const session = res.headers.get("mcp-session-id");
      if (session && msg.method === "initialize") this.sessionId = session;
      const type = res.headers.get("content-type") ?? "";
      if (id === null || res.status === 202) {
        await res.discard();
        return { ok: true, result: {} };
      }
      if (demandsAuth(res)) {
        await res.discard();
        const error = auth
          ? auth.refusal(res.status)
          : `the server refused the Authorization header from its config (HTTP ${res.status}); check the token it expands to`;
        return { ok: false, kind: "http", status: res.status, body: "", error };
      }
      if (type.includes("text/event-stream") && res.body) return await this.streamed(res, id, opts, controller.signal);
      // One reply may be as large as one stdio message; a body that never ends is stopped there.
      const read = await res.readText(MAX_LINE_BYTES);
      if (opts.signal.aborted) return this.cancelled(id);
      if (!read.ok && read.kind === "too_large") return { ok: false, kind: "invalid", error: read.error };
      const text = read.ok ? read.value : "";
      let raw: unknown;
      try {
        raw = text === "" ? undefined : JSON.parse(text);
      } catch {
        raw = undefined;
      }
      const decoded = raw === undefined ? null : decodeServerMessage(raw);
      if (decoded?.ok && decoded.message.kind === "error") return { ok: false, kind: "rpc", error: decoded.message.error, status: res.status };
      if (!res.ok) return { ok: false, kind: "http", status: res.status, body: text.slice(0, 2000), error: `HTTP ${res.status} from ${this.spec.url}` };
      if (!decoded) return { ok: false, kind: "invalid", error: `the reply is neither JSON nor an event stream (content-type ${type || "missing"})` };
      if (!decoded.ok) return { ok: false, kind: "invalid", error: `the reply is ${decoded.error}` };
      if (decoded.message.kind === "response") return { ok: true, result: decoded.message.result };
      return { ok: false, kind: "invalid", error: "the reply is not a JSON-RPC response" };
    } finally {
      unlisten();
      this.inflight.delete(controller);
    }
  }

  /**
   * A request's answer on an event stream. A stream that ends before the answer is resumed as
   * Streamable HTTP says: after the server's `retry` delay, a GET with `Last-Event-ID` picks the
   * stream up where it broke, as often as it brings new events, until `MAX_IDLE_RESUMES`
   * reconnections in a row bring none.
   */
  private async streamed(first: HttpResponse, id: RpcId | null, opts: SendOptions, signal: AbortSignal): Promise<SendOutcome> {
    let answer: SendOutcome | null = null;
    const onEvent = (e: SseEvent) => {
      const a = this.inbound(e.data, id, opts.onRelated);
      if (a) answer = a;
      return answer !== null || signal.aborted;
    };
    let res = first;
    let sse = new SseDecoder(MAX_LINE_BYTES);
    let idle = 0;
    for (;;) {
      const before = sse.lastEventId;
      const stopped = await readEvents(res, signal, onEvent, sse);
      if (answer) return answer;
      if (opts.signal.aborted) return this.cancelled(id);
      if (stopped) return { ok: false, kind: "invalid", error: stopped };
      const last = sse.lastEventId;
      if (last === undefined || last === "")
        return { ok: false, kind: "invalid", error: "the server closed the event stream before answering, without an event id to resume it from" };
      idle = last === before ? idle + 1 : 0;
      if (idle >= MAX_IDLE_RESUMES)
        return {
          ok: false,
          kind: "invalid",
          error: `the server closed the event stream before answering, and ${MAX_IDLE_RESUMES} reconnections in a row (GET with Last-Event-ID ${last}) brought nothing new; giving up`,
        };
      const delay = sse.retryMs ?? DEFAULT_RETRY_MS;
      await abortableSleep(delay, opts.signal);
      if (opts.signal.aborted) return this.cancelled(id);
      const sent = await send(this.spec.url, { method: "GET", headers: this.headers(null, { Accept: "text/event-stream", "Last-Event-ID": last }), signal });
      if (!sent.ok) {
        if (opts.signal.aborted) return this.cancelled(id);
        return {
          ok: false,
          kind: "gone",
          error: `the server closed the event stream before answering, and resuming it failed: cannot reach ${this.spec.url}: ${sent.cause ?? sent.error}`,
        };
      }
      res = sent.response;
      if (!res.ok || !res.body || !(res.headers.get("content-type") ?? "").includes("text/event-stream")) {
        await res.discard();
        return {
          ok: false,
          kind: "invalid",
          error: `the server closed the event stream before answering, and answered the GET to resume it (Last-Event-ID ${last}) with HTTP ${res.status}${res.ok ? " without an event stream" : ""}`,
        };
      }
      const retry = sse.retryMs;
      sse = new SseDecoder(MAX_LINE_BYTES);
      sse.resumeFrom(last, retry);
    }
  }

  /** Our answer to a server's request, in a POST of its own (the server acknowledges it with 202). */
  private async reply(body: JsonObject): Promise<void> {
    if (this.closed) return;
    const headers = { ...this.headers(null), "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    const sent = await send(this.spec.url, { method: "POST", headers, body: JSON.stringify(body), headerTimeoutMs: 10_000 });
    if (sent.ok) await sent.response.discard();
  }

  /** One SSE event: the answer to `id` (returned), or a notification or server request (dispatched). */
  private inbound(data: string, id: RpcId | null, onRelated: ((n: Inbound) => void) | undefined): SendOutcome | null {
    // A priming event (an id and maybe a retry delay, no data) only makes the stream resumable.
    if (data.trim() === "") return null;
    let raw: unknown;
    try {
      raw = JSON.parse(data);
    } catch {
      this.onWarning(`ignored an event that is not JSON: ${data.slice(0, 120)}`);
      return null;
    }
    const decoded = decodeServerMessage(raw);
    if (!decoded.ok) {
      this.onWarning(`ignored ${decoded.error}`);
      return null;
    }
    const m: ServerMessage = decoded.message;
    if (m.kind === "response" && id !== null && String(m.id) === String(id)) return { ok: true, result: m.result };
    if (m.kind === "error" && id !== null && (m.id === null || String(m.id) === String(id))) return { ok: false, kind: "rpc", error: m.error };
    if (m.kind === "notification") {
      const related = relatedId(m);
      if (onRelated && (related === null || related === String(id))) onRelated(m);
      else this.onNotification(m);
    } else if (m.kind === "request") {
      void this.onRequest(m.method, m.params).then((answer) => this.reply({ jsonrpc: "2.0", id: m.id, ...answer }));
    }
    return null;
  }

  private async cancelled(id: RpcId | null): Promise<SendOutcome> {
    // Closing the stream is the cancellation in 2026-07-28; servers of the older era want it said.
    if (id !== null && this.sessionId) await this.notify(notification("notifications/cancelled", { requestId: id, reason: "cancelled by zot" }));
    return { ok: false, kind: "cancelled", error: "the request was cancelled" };
  }
}

function demandsAuth(res: HttpResponse): boolean {
  return res.status === 401 || (res.status === 403 && res.headers.get("www-authenticate") !== null);
}

/** Header-safe text: plain visible ASCII as is, anything else in the spec's Base64 sentinel. */
export function headerValue(v: string): string {
  const plain = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(v) && !v.startsWith(SENTINEL);
  return plain ? v : `${SENTINEL}${Buffer.from(v, "utf8").toString("base64")}?=`;
}

/** `Mcp-Param-*` headers for a tool call, from the `x-mcp-header` annotations of its schema (top-level and nested `properties`). */
export function paramHeaders(schema: JsonObject, args: JsonObject): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (s: JsonObject, value: JsonObject) => {
    const props = isObject(s.properties) ? s.properties : {};
    for (const [key, sub] of Object.entries(props)) {
      if (!isObject(sub)) continue;
      const v = value[key];
      if (typeof sub["x-mcp-header"] === "string" && (typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isSafeInteger(v))))
        out[`Mcp-Param-${sub["x-mcp-header"]}`] = headerValue(String(v));
      if (isObject(v)) walk(sub, v);
    }
  };
  walk(schema, args);
  return out;
}

/**
 * Calls `onEvent` for each event of an event-stream response until it returns true or the stream
 * ends. One event may be as large as one stdio message, no larger: a server that never ends a line
 * or an event is stopped there instead of growing zot's memory; that is returned as a clause.
 */
async function readEvents(
  res: HttpResponse,
  signal: AbortSignal,
  onEvent: (e: SseEvent) => boolean | void,
  sse = new SseDecoder(MAX_LINE_BYTES),
): Promise<string | undefined> {
  if (!res.body) return undefined;
  try {
    for await (const e of parseSse(res.body, signal, MAX_LINE_BYTES, sse)) if (onEvent(e) === true) break;
  } catch (e) {
    if (e instanceof SseEventTooLarge) {
      await res.discard();
      return `${origin(res.url)} sent an event larger than ${sizeText(MAX_LINE_BYTES)}, so the stream was stopped`;
    }
    // A broken connection ends the stream; the caller decides what a missing answer means.
  }
  return undefined;
}
