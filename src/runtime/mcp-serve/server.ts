// zot as an MCP server (`zot mcp serve`): the protocol of both eras zot's client speaks, over any
// transport. The initialize era (2025-11-25 and older) keeps a session (handshake, server-to-client
// elicitation requests, notifications at any time); 2026-07-28 is stateless (`_meta` on every
// request, `server/discover`, `subscriptions/listen`, elicitation as `input_required` rounds). Every
// tool call runs through `Runtime.serveCall`, so it passes the interceptors, permission mode, rules,
// jail and sandbox the model's calls pass. Transports (stdio.ts, http.ts) move the messages.
import { redactDeep } from "../../redact.ts";
import { isObject } from "../../json.ts";
import type { ContentBlock, Json, JsonObject } from "../../protocol.ts";
import { ZOT_VERSION } from "../../version.ts";
import { LEGACY_VERSIONS, MODERN_VERSION } from "../../mcp/client.ts";
import { decodeServerMessage, HEADER_MISMATCH, METHOD_NOT_FOUND, UNSUPPORTED_PROTOCOL_VERSION, type RpcError, type RpcId } from "../../mcp/jsonrpc.ts";
import type { ConfirmDecision, ConfirmRequest } from "../../agent/events.ts";
import type { Runtime } from "../runtime.ts";
import type { ServedTools } from "./tools.ts";
import { approvalQuestion, decisionOf } from "./approval.ts";
import { AGENT_TOOL, AgentTool } from "./agent-tool.ts";
import { onAbort } from "../../abort.ts";

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;
const META = "io.modelcontextprotocol/";
/** What `initialize` answers when the client asks for a version zot does not speak. */
const [NEWEST_LEGACY = "2025-11-25"] = LEGACY_VERSIONS;
/** How long a 2026-07-28 call waits for the client to come back with the input it asked for. */
const INPUT_WAIT_MS = 10 * 60_000;

/** Where the messages tied to one request go (its progress, its elicitation requests): its SSE stream on HTTP, stdout on stdio. */
export type Channel = { send(msg: JsonObject): void };

export type Reply = { result: JsonObject } | { error: RpcError };

type Era = "legacy" | "modern";

/** What one request runs under: its era, the client's name and whether it can be asked (elicitation). */
type Caller = { era: Era; client: string; canAsk: boolean };

/** One step of a running tool call: its end, or a question it waits on. */
type Step = { kind: "done"; reply: Reply } | { kind: "ask"; question: JsonObject; answer: (r: Json) => void };

/**
 * A tool call in flight. Its steps come in order; the request that waits on it (the first, or in
 * 2026-07-28 the retry carrying the answer) takes them and rebinds where its progress goes.
 */
class Flight {
  readonly controller = new AbortController();
  progress: (text: string) => void = () => {};
  private queue: Step[] = [];
  private waiter: ((s: Step) => void) | null = null;

  push(step: Step): void {
    const w = this.waiter;
    this.waiter = null;
    if (w) w(step);
    else this.queue.push(step);
  }

  next(): Promise<Step> {
    const s = this.queue.shift();
    return s ? Promise.resolve(s) : new Promise((r) => (this.waiter = r));
  }
}

export class McpServer {
  /** The initialize era's session: set by `initialize`. */
  private session: { version: string; client: string; canAsk: boolean; initialized: boolean } | null = null;
  private nextId = 0;
  /** Our requests to the client (elicitation), by id, waiting for its response. */
  private pending = new Map<string, (r: Reply) => void>();
  /** 2026-07-28 calls waiting for the input they asked for, by `requestState`. */
  private waiting = new Map<string, { flight: Flight; step: Extract<Step, { kind: "ask" }>; timer: ReturnType<typeof setTimeout> }>();
  /** Requests running now, by id, for `notifications/cancelled`. */
  private running = new Map<string, AbortController>();
  /** 2026-07-28 `subscriptions/listen` requests that asked for tool list changes. */
  private listeners = new Map<string, Channel>();
  private readonly flights = new Set<Flight>();
  private lastList: string;
  private readonly agent: AgentTool;
  private readonly notify: (msg: JsonObject) => void;

  constructor(
    private readonly runtime: Runtime,
    private readonly tools: ServedTools,
    /** Notifications tied to no request (list changes, extension notes): stdout, or the session's GET stream. */
    notify: (msg: JsonObject) => void,
  ) {
    this.notify = (msg) => notify(this.masked(msg));
    this.lastList = this.listed();
    this.agent = new AgentTool(runtime);
  }

  /** The initialize era's negotiated version, for the HTTP transport's header check; null before `initialize`. */
  get version(): string | null {
    return this.session?.version ?? null;
  }

  /**
   * One message from the client. Resolves with the reply to send for a request (null for
   * notifications and responses); `channel` carries what the request produces before its reply.
   */
  async handle(raw: unknown, channel: Channel, signal?: AbortSignal, header: string | null = null): Promise<JsonObject | null> {
    const reply = await this.dispatch(raw, { send: (msg) => channel.send(this.masked(msg)) }, signal, header);
    return reply && this.masked(reply);
  }

  /**
   * Known secrets (provider keys, extension secrets) are masked in everything sent to the client,
   * as every mode masks what it writes: a tool's output, a progress line, a question.
   */
  private masked(msg: JsonObject): JsonObject {
    return redactDeep(msg, this.runtime.secrets);
  }

  private async dispatch(raw: unknown, channel: Channel, signal: AbortSignal | undefined, header: string | null): Promise<JsonObject | null> {
    if (Array.isArray(raw))
      return failure(null, INVALID_REQUEST, "zot's MCP server takes one JSON-RPC message at a time; JSON-RPC batches were removed from MCP in 2025-06-18");
    const decoded = decodeServerMessage(raw);
    if (!decoded.ok) {
      const id = isObject(raw) && (typeof raw.id === "string" || typeof raw.id === "number") ? raw.id : null;
      return failure(
        id,
        INVALID_REQUEST,
        `zot's MCP server got ${decoded.error}; send JSON-RPC 2.0 requests like {"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
      );
    }
    const m = decoded.message;
    switch (m.kind) {
      case "response":
        this.pending.get(String(m.id))?.({ result: m.result });
        this.pending.delete(String(m.id));
        return null;
      case "error":
        if (m.id !== null) {
          this.pending.get(String(m.id))?.({ error: m.error });
          this.pending.delete(String(m.id));
        }
        return null;
      case "notification":
        this.notification(m.method, m.params);
        return null;
      case "request": {
        const controller = new AbortController();
        const unlisten = onAbort(signal, () => controller.abort());
        this.running.set(String(m.id), controller);
        try {
          const reply = await this.request(m.id, m.method, m.params, channel, controller.signal, header);
          return "result" in reply ? { jsonrpc: "2.0", id: m.id, result: reply.result } : { jsonrpc: "2.0", id: m.id, error: reply.error as unknown as Json };
        } finally {
          this.running.delete(String(m.id));
          unlisten();
        }
      }
    }
  }

  /** The extensions' tools changed (a reload, a late registration, an exit): tell the clients that listen, if the list did change. */
  toolsChanged(): void {
    const listed = this.listed();
    if (listed === this.lastList) return;
    this.lastList = listed;
    if (this.session?.initialized) this.notify({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    for (const [id, ch] of this.listeners)
      ch.send({ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: { [`${META}subscriptionId`]: id } } });
  }

  /** An extension's note, as an MCP log message (initialize era: the session's notifications). */
  log(level: "info" | "warning" | "error", logger: string, data: string): void {
    if (this.session?.initialized) this.notify({ jsonrpc: "2.0", method: "notifications/message", params: { level, logger, data } });
  }

  /** The client went away: every call it started stops (their processes with them). */
  stopAll(): void {
    for (const c of this.running.values()) c.abort();
    for (const f of this.flights) f.controller.abort();
    for (const w of this.waiting.values()) clearTimeout(w.timer);
    this.waiting.clear();
    for (const resolve of this.pending.values()) resolve({ error: { code: -32000, message: "the client disconnected" } });
    this.pending.clear();
  }

  /** Resolves once no call runs any more (after `stopAll`, their tools have ended). */
  async settled(): Promise<void> {
    while (this.flights.size > 0) await Bun.sleep(10);
  }

  /** The served list as the client sees it: a changed description or schema is a change too. */
  private listed(): string {
    return JSON.stringify(this.tools.list().map((t) => t.declaration));
  }

  private notification(method: string, params: JsonObject): void {
    switch (method) {
      case "notifications/initialized":
        if (this.session) this.session.initialized = true;
        return;
      case "notifications/cancelled": {
        const id = params.requestId;
        if (typeof id === "string" || typeof id === "number") this.running.get(String(id))?.abort();
        return;
      }
    }
  }

  /**
   * The era of one request and who sent it. `header`: the HTTP `MCP-Protocol-Version`, which must
   * agree with `_meta`; a 2026-07-28 request must carry its version and the client's capabilities.
   */
  private caller(method: string, params: JsonObject, header: string | null): Caller | RpcError {
    const meta = isObject(params._meta) ? params._meta : {};
    const version = meta[`${META}protocolVersion`];
    const unsupported = (requested: Json): RpcError => ({
      code: UNSUPPORTED_PROTOCOL_VERSION,
      message: `zot's MCP server does not speak protocol version ${JSON.stringify(requested)}; it speaks ${MODERN_VERSION} (with _meta) and ${LEGACY_VERSIONS.join(", ")} (through initialize)`,
      data: { supported: SUPPORTED, requested },
    });
    if (header !== null && version !== undefined && header !== version)
      return {
        code: HEADER_MISMATCH,
        message: `the MCP-Protocol-Version header (${header}) and params._meta's "${META}protocolVersion" (${String(version)}) differ; send the same version in both`,
      };
    if (header !== null && !SUPPORTED.includes(header)) return unsupported(header);
    if (version !== undefined || (header === MODERN_VERSION && !this.session)) {
      if (version === undefined) return { code: INVALID_PARAMS, message: `a ${MODERN_VERSION} request needs "${META}protocolVersion" in params._meta` };
      if (version !== MODERN_VERSION) return unsupported(version);
      if (!isObject(meta[`${META}clientCapabilities`]))
        return { code: INVALID_PARAMS, message: `a ${MODERN_VERSION} request needs "${META}clientCapabilities" (an object, {} for none) in params._meta` };
      return { era: "modern", client: clientName(meta[`${META}clientInfo`]), canAsk: canElicitForm(meta[`${META}clientCapabilities`]) };
    }
    if (this.session) return { era: "legacy", client: this.session.client, canAsk: this.session.canAsk };
    if (method === "initialize" || method === "ping") return { era: "legacy", client: "", canAsk: false };
    return {
      code: UNSUPPORTED_PROTOCOL_VERSION,
      message: `${method} before initialize: send initialize first (protocol ${NEWEST_LEGACY}), or put "${META}protocolVersion": "${MODERN_VERSION}" in the request's _meta`,
      data: { supported: SUPPORTED, requested: null },
    };
  }

  private async request(id: RpcId, method: string, params: JsonObject, channel: Channel, signal: AbortSignal, header: string | null): Promise<Reply> {
    const caller = this.caller(method, params, header);
    if (!("era" in caller)) return { error: caller };
    // 2026-07-28 dropped the handshake and its companions; discover and the per-request _meta replace them.
    if (caller.era === "modern" && LEGACY_ONLY.has(method))
      return { error: { code: METHOD_NOT_FOUND, message: `${method} is not part of protocol ${MODERN_VERSION} (use server/discover and _meta instead)` } };
    if (caller.era === "legacy" && MODERN_ONLY.has(method))
      return {
        error: {
          code: METHOD_NOT_FOUND,
          message: `${method} belongs to protocol ${MODERN_VERSION}; send it with "${META}protocolVersion": "${MODERN_VERSION}" in _meta`,
        },
      };
    const done = (result: JsonObject): Reply => ({ result: caller.era === "modern" ? { resultType: "complete", ...result } : result });
    switch (method) {
      case "initialize":
        return this.initialize(params);
      case "server/discover":
        return done({
          supportedVersions: SUPPORTED,
          capabilities: CAPABILITIES,
          instructions: INSTRUCTIONS,
          ...FRESH,
          _meta: { [`${META}serverInfo`]: SERVER_INFO },
        });
      case "ping":
        return done({});
      case "logging/setLevel":
        return done({});
      case "tools/list":
        return done({ tools: this.tools.list().map((t) => t.declaration), ...(caller.era === "modern" ? FRESH : {}) });
      case "tools/call":
        return this.call(id, params, caller, channel, signal, done);
      case "subscriptions/listen":
        return this.listen(id, params, channel, signal);
      default:
        return {
          error: {
            code: METHOD_NOT_FOUND,
            message: `zot's MCP server does not offer ${method} (in protocol ${caller.era === "modern" ? `${MODERN_VERSION} it offers server/discover, tools/list, tools/call, subscriptions/listen` : `${this.session?.version ?? NEWEST_LEGACY} it offers initialize, ping, logging/setLevel, tools/list, tools/call`})`,
          },
        };
    }
  }

  private initialize(params: JsonObject): Reply {
    const asked = params.protocolVersion;
    if (typeof asked !== "string")
      return { error: { code: INVALID_PARAMS, message: `initialize needs "protocolVersion" (a string such as "${NEWEST_LEGACY}")` } };
    // The client's version if zot speaks it, else zot's newest: the client then decides whether to go on.
    const version = LEGACY_VERSIONS.includes(asked) ? asked : NEWEST_LEGACY;
    this.session = { version, client: clientName(params.clientInfo), canAsk: canElicitForm(params.capabilities), initialized: false };
    return { result: { protocolVersion: version, capabilities: CAPABILITIES, serverInfo: SERVER_INFO, instructions: INSTRUCTIONS } };
  }

  private async listen(id: RpcId, params: JsonObject, channel: Channel, signal: AbortSignal): Promise<Reply> {
    const wanted = isObject(params.notifications) ? params.notifications : {};
    const key = String(id);
    channel.send({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { _meta: { [`${META}subscriptionId`]: key }, notifications: { toolsListChanged: wanted.toolsListChanged === true } },
    });
    if (wanted.toolsListChanged === true) this.listeners.set(key, channel);
    // Open until the client ends it (cancels, or closes the stream).
    await new Promise<void>((r) => onAbort(signal, r));
    this.listeners.delete(key);
    return { result: { resultType: "complete" } };
  }

  private async call(id: RpcId, params: JsonObject, caller: Caller, channel: Channel, signal: AbortSignal, done: (r: JsonObject) => Reply): Promise<Reply> {
    const token = isObject(params._meta) ? params._meta.progressToken : undefined;
    let flight: Flight;
    if (caller.era === "modern" && params.requestState !== undefined) {
      const state = typeof params.requestState === "string" ? params.requestState : "";
      const w = this.waiting.get(state);
      if (!w)
        return {
          error: {
            code: INVALID_PARAMS,
            message: `tools/call: requestState ${JSON.stringify(params.requestState)} names no call waiting for input (it ended, or waited longer than ${INPUT_WAIT_MS / 60_000} min)`,
          },
        };
      this.waiting.delete(state);
      clearTimeout(w.timer);
      flight = w.flight;
      const responses = isObject(params.inputResponses) ? params.inputResponses : {};
      w.step.answer(responses.approval ?? null);
    } else {
      const name = params.name;
      if (typeof name !== "string" || name === "")
        return { error: { code: INVALID_PARAMS, message: 'tools/call needs "name", the name of a tool from tools/list' } };
      const args = params.arguments ?? {};
      if (!isObject(args))
        return {
          error: {
            code: INVALID_PARAMS,
            message: `tools/call ${name}: "arguments" must be a JSON object, not ${Array.isArray(args) ? "an array" : typeof args}`,
          },
        };
      if (!this.tools.has(name)) {
        const names = this.tools.list().map((t) => t.name);
        return {
          error: {
            code: INVALID_PARAMS,
            message: `Unknown tool "${name}"; zot serves ${names.length ? names.join(", ") : "no tools (see zot mcp serve --help)"}`,
          },
        };
      }
      flight = this.start(`mcp-${String(id)}`, name, args, caller);
    }
    let n = 0;
    flight.progress =
      typeof token === "string" || typeof token === "number"
        ? (text) => channel.send({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token, progress: ++n, message: text } })
        : () => {};
    const unlisten = onAbort(signal, () => flight.controller.abort());
    try {
      for (;;) {
        const step = await flight.next();
        if (step.kind === "done") return "result" in step.reply ? done(step.reply.result) : step.reply;
        if (caller.era === "modern") {
          const state = `approval-${++this.nextId}`;
          const timer = setTimeout(() => {
            this.waiting.delete(state);
            flight.controller.abort();
          }, INPUT_WAIT_MS);
          timer.unref?.();
          this.waiting.set(state, { flight, step, timer });
          // This request ends here; the retry with the answer waits on the same flight.
          unlisten();
          return {
            result: { resultType: "input_required", inputRequests: { approval: { method: "elicitation/create", params: step.question } }, requestState: state },
          };
        }
        const answer = await this.ask(channel, step.question, signal);
        step.answer("result" in answer ? answer.result : null);
      }
    } finally {
      unlisten();
    }
  }

  /** Starts the call; its approval questions and its end arrive as the flight's steps. */
  private start(id: string, name: string, args: JsonObject, caller: Caller): Flight {
    const flight = new Flight();
    this.flights.add(flight);
    const ask = caller.canAsk
      ? (req: ConfirmRequest) =>
          new Promise<ConfirmDecision>((resolve) => {
            flight.push({ kind: "ask", question: approvalQuestion(req, caller.client), answer: (r) => resolve(decisionOf(r, caller.client)) });
          })
      : null;
    const who = caller.client || "the MCP client";
    const run =
      name === AGENT_TOOL && this.tools.agent
        ? this.agent.run({ args, signal: flight.controller.signal, onProgress: (text) => flight.progress(text), ask })
        : this.runtime.serveCall({
            id,
            name,
            args,
            client: caller.client || "unknown",
            builtins: this.tools.builtins(),
            tools: this.tools.hookTools(),
            signal: flight.controller.signal,
            onProgress: (text) => flight.progress(text),
            ask,
            refusal: `permission mode ${this.runtime.mode}: this call needs approval, and ${who} cannot be asked (it does not support form elicitation), so zot refused it. Start zot mcp serve with --permission-mode yolo (or auto-edit, for edits inside the project) to let such calls run, or use a client that supports elicitation.`,
          });
    void run
      .then(
        (r) => flight.push({ kind: "done", reply: { result: toolResult(r.content, r.isError, r.structured) } }),
        (err: unknown) =>
          flight.push({
            kind: "done",
            reply: { error: { code: -32603, message: `tool ${name} failed inside zot: ${err instanceof Error ? err.message : String(err)}` } },
          }),
      )
      .finally(() => this.flights.delete(flight));
    return flight;
  }

  /** The initialize era: an `elicitation/create` request to the client, answered on any channel. */
  private ask(channel: Channel, question: JsonObject, signal: AbortSignal): Promise<Reply> {
    const id = `zot-${++this.nextId}`;
    return new Promise((resolve) => {
      const unlisten = onAbort(signal, () => {
        this.pending.delete(id);
        resolve({ error: { code: -32000, message: "the call was cancelled" } });
      });
      if (signal.aborted) return;
      this.pending.set(id, (r) => {
        unlisten();
        resolve(r);
      });
      channel.send({ jsonrpc: "2.0", id, method: "elicitation/create", params: question });
    });
  }
}

const SUPPORTED: string[] = [MODERN_VERSION, ...LEGACY_VERSIONS];
const LEGACY_ONLY = new Set(["initialize", "ping", "logging/setLevel"]);
const MODERN_ONLY = new Set(["server/discover", "subscriptions/listen"]);
/** 2026-07-28 caching hints: tool lists change (reloads), so never reuse one, and never across tokens. */
const FRESH = { ttlMs: 0, cacheScope: "private" };
const SERVER_INFO = { name: "zot", title: "zot", version: ZOT_VERSION };
const CAPABILITIES = { tools: { listChanged: true }, logging: {} };
const INSTRUCTIONS =
  "zot's tools: its built-in file and shell tools (under zot's sandbox and permission rules) and the tools of its extensions and MCP servers. Calls zot's permission mode does not allow ask through elicitation.";

function failure(id: RpcId | null, code: number, message: string): JsonObject {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

function clientName(info: Json | undefined): string {
  return isObject(info) && typeof info.name === "string" ? info.name : "";
}

/** Form elicitation: `elicitation: {}` (before modes existed, form is meant) or `elicitation: {form: {}}`. */
function canElicitForm(caps: Json | undefined): boolean {
  const e = isObject(caps) ? caps.elicitation : undefined;
  if (!isObject(e)) return false;
  return Object.keys(e).length === 0 || isObject(e.form);
}

/** zot's content blocks as MCP's. */
export function toolResult(content: readonly ContentBlock[], isError: boolean, structured?: Json): JsonObject {
  const blocks = content.map((b): JsonObject => (b.type === "text" ? { type: "text", text: b.text } : { type: "image", data: b.data, mimeType: b.mime_type }));
  return { content: blocks, isError, ...(isObject(structured) ? { structuredContent: structured } : {}) };
}
