// One MCP client session over one transport, for both protocol eras. The era is probed once per
// server: 2026-07-28 (`server/discover`, `_meta` on every request, `subscriptions/listen`, MRTR
// `input_required` retries) or the `initialize` revisions up to 2025-11-25 (handshake, server-to-
// client requests). Every request has a timeout; progress notifications extend it; an abort or a
// timeout cancels the request on the wire.
import type { Result } from "../result.ts";
import { pathToFileURL } from "node:url";
import { ZOT_VERSION } from "../version.ts";
import { isObject } from "../json.ts";
import type { Json, JsonObject } from "../protocol.ts";
import { METHOD_NOT_FOUND, MODERN_ERROR_CODES, UNSUPPORTED_PROTOCOL_VERSION, describeRpcError, notification, request } from "./jsonrpc.ts";
import type { RpcError } from "./jsonrpc.ts";
import type { Inbound, SendOutcome, Transport } from "./transport.ts";
import { seconds } from "../duration.ts";

export const MODERN_VERSION = "2026-07-28";
/** Newest first: what zot offers in `initialize` and accepts back. */
export const LEGACY_VERSIONS: readonly [string, ...string[]] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

export type Era = "modern" | "legacy";
export type Negotiated = { era: Era; version: string };

export type ElicitAnswer = { action: "accept" | "decline" | "cancel"; content?: JsonObject };
/** Answers a form-mode elicitation; headless modes decline. */
export type Elicitor = (message: string, schema: JsonObject) => Promise<ElicitAnswer>;

export type ClientOptions = {
  cwd: string;
  /** The era found on an earlier run: tried first, probed again if it fails. */
  remembered: Negotiated | null;
  /** Waits for the probe and the handshake. */
  startupMs: number;
  elicit: Elicitor | null;
  log: (text: string) => void;
  /** `notifications/message` from the server (its own log lines). */
  onServerLog: (params: JsonObject) => void;
};

export type CallOptions = {
  timeoutMs: number;
  signal?: AbortSignal;
  onProgress?: (text: string) => void;
  /** HTTP only: `Mcp-Param-*` headers. */
  headers?: Record<string, string>;
};

export type Answer = { ok: true; result: JsonObject } | { ok: false; error: string; kind: "rpc" | "timeout" | "cancelled" | "gone" | "invalid" | "http"; code?: number; data?: Json };

/** A result's `resultType` that asks for input, given at most this many times in a row. */
const MAX_INPUT_ROUNDS = 8;
/** Progress extends a call's timeout, but never beyond this. */
const MAX_CALL_MS = 30 * 60_000;
/**
 * How long `server/discover` may go unanswered before the server counts as the initialize era. An
 * initialize-era server answers unknown methods with an error once it runs, but `npx` may take
 * seconds to start it; the era found is remembered, so only the first contact waits.
 */
const PROBE_MS = 10_000;

export class McpClient {
  negotiated: Negotiated | null = null;
  serverInfo: { name: string; version: string } | null = null;
  capabilities: JsonObject = {};
  instructions = "";
  private nextId = 0;
  private deadline = 0;
  /** Elicitations waiting for the user; request timeouts wait while there are any. */
  private asking = 0;
  private readonly capabilitiesSent: JsonObject;

  constructor(
    readonly transport: Transport,
    private readonly opts: ClientOptions,
  ) {
    this.capabilitiesSent = { roots: {}, ...(opts.elicit ? { elicitation: { form: {} } } : {}) };
    transport.onRequest = async (method, params) => this.answerServer(method, params);
  }

  /** Probes and negotiates; the error is a sentence about what the server did. */
  async connect(): Promise<Result> {
    this.deadline = performance.now() + this.opts.startupMs;
    const remembered = this.opts.remembered;
    if (remembered?.era === "legacy") {
      const r = await this.initialize();
      if (r.ok) return r;
      this.opts.log(`the remembered initialize era failed (${r.error}); probing again`);
    }
    const probe = await this.discover();
    if (probe.kind === "modern") return { ok: true };
    if (probe.kind === "failed") return { ok: false, error: probe.error };
    return this.initialize();
  }

  /** `server/discover`: modern when it answers (or answers with a modern error), legacy otherwise. */
  private async discover(): Promise<{ kind: "modern" } | { kind: "legacy" } | { kind: "failed"; error: string }> {
    this.negotiated = { era: "modern", version: MODERN_VERSION };
    this.transport.setProtocolVersion(MODERN_VERSION);
    const r = await this.raw("server/discover", {}, { timeoutMs: Math.min(PROBE_MS, this.left()) });
    if (r.ok) {
      const versions = Array.isArray(r.result.supportedVersions) ? r.result.supportedVersions.filter((v): v is string => typeof v === "string") : [];
      if (versions.length > 0 && !versions.includes(MODERN_VERSION)) {
        const legacy = versions.find((v) => LEGACY_VERSIONS.includes(v));
        if (legacy) return { kind: "legacy" };
        return { kind: "failed", error: `the server supports protocol versions ${versions.join(", ")}, none of which zot speaks (${MODERN_VERSION}, ${LEGACY_VERSIONS.join(", ")})` };
      }
      this.adopt(r.result);
      return { kind: "modern" };
    }
    if (r.kind === "gone" || (r.kind === "http" && (r.code === 401 || r.code === 403))) return { kind: "failed", error: r.error };
    if (r.kind === "rpc" && r.code !== undefined && MODERN_ERROR_CODES.includes(r.code)) {
      if (r.code === UNSUPPORTED_PROTOCOL_VERSION) {
        const supported = isObject(r.data) && Array.isArray(r.data.supported) ? r.data.supported.filter((v): v is string => typeof v === "string") : [];
        if (supported.some((v) => LEGACY_VERSIONS.includes(v))) return { kind: "legacy" };
        return { kind: "failed", error: `the server supports protocol versions ${supported.join(", ") || "(none named)"}, none of which zot speaks (${MODERN_VERSION}, ${LEGACY_VERSIONS.join(", ")})` };
      }
      return { kind: "failed", error: `server/discover failed: ${r.error}` };
    }
    this.opts.log(`server/discover was not understood (${r.error}); using the initialize handshake`);
    return { kind: "legacy" };
  }

  private async initialize(): Promise<Result> {
    this.negotiated = { era: "legacy", version: LEGACY_VERSIONS[0] };
    this.transport.setProtocolVersion("");
    const r = await this.raw(
      "initialize",
      { protocolVersion: LEGACY_VERSIONS[0], capabilities: this.capabilitiesSent, clientInfo: { name: "zot", version: ZOT_VERSION } },
      { timeoutMs: this.left() },
    );
    if (!r.ok) return { ok: false, error: r.kind === "timeout" ? `no answer to initialize within ${this.opts.startupMs / 1000} s of the start` : `initialize failed: ${r.error}` };
    const version = r.result.protocolVersion;
    if (typeof version !== "string" || !LEGACY_VERSIONS.includes(version))
      return { ok: false, error: `the server answered initialize with protocol version ${JSON.stringify(version)}, which zot does not speak (${LEGACY_VERSIONS.join(", ")})` };
    this.negotiated = { era: "legacy", version };
    this.transport.setProtocolVersion(version);
    this.adopt(r.result);
    await this.transport.notify(notification("notifications/initialized"));
    return { ok: true };
  }

  private adopt(result: JsonObject): void {
    if (isObject(result.capabilities)) this.capabilities = result.capabilities;
    if (typeof result.instructions === "string") this.instructions = result.instructions;
    const meta = isObject(result._meta) ? result._meta : {};
    const info = isObject(result.serverInfo) ? result.serverInfo : isObject(meta["io.modelcontextprotocol/serverInfo"]) ? meta["io.modelcontextprotocol/serverInfo"] : null;
    if (info) this.serverInfo = { name: String(info.name ?? ""), version: String(info.version ?? "") };
  }

  /** What is left of the start-up time (probe and handshake share it); at least 1 ms. */
  private left(): number {
    return Math.max(1, this.deadline - performance.now());
  }

  has(capability: "tools" | "prompts" | "resources"): boolean {
    return isObject(this.capabilities[capability]);
  }

  /** A request with `input_required` rounds answered (elicitation, roots) and retried under new ids. */
  async call(method: string, params: JsonObject, opts: CallOptions): Promise<Answer> {
    let extra: JsonObject = {};
    for (let round = 0; round <= MAX_INPUT_ROUNDS; round++) {
      const r = await this.raw(method, { ...params, ...extra }, opts);
      if (!r.ok || r.result.resultType !== "input_required") return r;
      const requests = isObject(r.result.inputRequests) ? r.result.inputRequests : {};
      const responses: JsonObject = {};
      for (const [key, req] of Object.entries(requests)) {
        if (!isObject(req) || typeof req.method !== "string") return { ok: false, kind: "invalid", error: `the server asked for input "${key}" without a method` };
        const answer = await this.answerServer(req.method, isObject(req.params) ? req.params : {});
        if ("error" in answer) return { ok: false, kind: "invalid", error: `the server asked for ${req.method}, which zot cannot answer: ${answer.error.message}` };
        responses[key] = answer.result;
      }
      extra = { inputResponses: responses, ...(typeof r.result.requestState === "string" ? { requestState: r.result.requestState } : {}) };
    }
    return { ok: false, kind: "invalid", error: `the server asked for more input ${MAX_INPUT_ROUNDS} times in a row; giving up` };
  }

  /** Every page of a list method (`tools/list` → key "tools"). */
  async list(method: string, key: string, timeoutMs: number): Promise<Result<{ items: JsonObject[] }>> {
    const items: JsonObject[] = [];
    let cursor: string | null = null;
    const seen = new Set<string>();
    for (;;) {
      const r = await this.raw(method, cursor === null ? {} : { cursor }, { timeoutMs });
      if (!r.ok) return { ok: false, error: `${method} failed: ${r.error}` };
      const page = r.result[key];
      if (Array.isArray(page)) for (const item of page) if (isObject(item)) items.push(item);
      const next = r.result.nextCursor;
      if (typeof next !== "string" || next === "") return { ok: true, items };
      if (seen.has(next)) return { ok: false, error: `${method} repeated the cursor ${JSON.stringify(next)}; stopping to avoid a loop` };
      seen.add(next);
      cursor = next;
    }
  }

  /**
   * 2026-07-28: one long-lived `subscriptions/listen`; its list-change notifications call
   * `onChange`. Resolves when the server ends it or the signal aborts.
   */
  async listen(kinds: { tools: boolean; prompts: boolean; resources: boolean }, onChange: (method: string) => void, signal: AbortSignal): Promise<Answer> {
    const notifications: JsonObject = {};
    if (kinds.tools) notifications.toolsListChanged = true;
    if (kinds.prompts) notifications.promptsListChanged = true;
    if (kinds.resources) notifications.resourcesListChanged = true;
    return this.raw("subscriptions/listen", { notifications }, { timeoutMs: 0, signal }, (n) => {
      if (n.method !== "notifications/subscriptions/acknowledged") onChange(n.method);
    });
  }

  /** One request, one id: `_meta` in the modern era, a timeout that progress extends, cancellation on abort or timeout. */
  private async raw(method: string, params: JsonObject, opts: CallOptions, onRelated?: (n: Inbound) => void): Promise<Answer> {
    const id = `${++this.nextId}`;
    const meta: JsonObject = isObject(params._meta) ? { ...params._meta } : {};
    if (this.negotiated?.era === "modern") {
      meta["io.modelcontextprotocol/protocolVersion"] = this.negotiated.version;
      meta["io.modelcontextprotocol/clientCapabilities"] = this.capabilitiesSent;
      meta["io.modelcontextprotocol/clientInfo"] = { name: "zot", version: ZOT_VERSION };
    }
    if (opts.onProgress) meta.progressToken = id;
    const body: JsonObject = Object.keys(meta).length ? { ...params, _meta: meta } : params;
    const controller = new AbortController();
    let timedOut = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const started = performance.now();
    const arm = () => {
      clearTimeout(timer);
      if (opts.timeoutMs <= 0) return;
      const left = Math.min(opts.timeoutMs, MAX_CALL_MS - (performance.now() - started));
      timer = setTimeout(() => {
        // The user filling in a server's form is not the server being slow.
        if (this.asking > 0) return arm();
        timedOut = true;
        controller.abort();
      }, Math.max(0, left));
    };
    const onAbort = () => controller.abort();
    if (opts.signal?.aborted) return { ok: false, kind: "cancelled", error: "cancelled before it was sent" };
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    arm();
    let outcome: SendOutcome;
    try {
      outcome = await this.transport.send(request(id, method, body), {
        signal: controller.signal,
        ...(opts.headers ? { headers: opts.headers } : {}),
        onRelated: (n) => {
          if (n.method === "notifications/progress") {
            arm();
            opts.onProgress?.(progressText(n.params));
          } else if (onRelated) onRelated(n);
          else this.logNotification(n);
        },
      });
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
    }
    if (outcome.ok) return outcome;
    if (outcome.kind === "cancelled" && timedOut) return { ok: false, kind: "timeout", error: `no answer to ${method} within ${seconds(opts.timeoutMs)}` };
    if (outcome.kind === "rpc")
      return { ok: false, kind: "rpc", error: describeRpcError(outcome.error), code: outcome.error.code, ...(outcome.error.data !== undefined ? { data: outcome.error.data } : {}) };
    if (outcome.kind === "http") return { ok: false, kind: "http", error: outcome.error, code: outcome.status };
    return { ok: false, kind: outcome.kind, error: outcome.error };
  }

  private logNotification(n: Inbound): void {
    if (n.method === "notifications/message") this.opts.onServerLog(n.params);
  }

  /** What zot answers to a server's request: in the initialize era as a JSON-RPC reply, in 2026-07-28 as an `inputResponses` entry. */
  private async answerServer(method: string, params: JsonObject): Promise<{ result: JsonObject } | { error: RpcError }> {
    switch (method) {
      case "ping":
        return { result: {} };
      case "roots/list":
        return { result: { roots: [{ uri: pathToFileURL(this.opts.cwd).href, name: "project" }] } };
      case "elicitation/create": {
        const mode = params.mode ?? "form";
        if (mode !== "form" || !isObject(params.requestedSchema)) return { result: { action: "decline" } };
        if (!this.opts.elicit) return { result: { action: "decline" } };
        this.asking++;
        let answer: ElicitAnswer;
        try {
          answer = await this.opts.elicit(String(params.message ?? ""), params.requestedSchema);
        } finally {
          this.asking--;
        }
        return { result: answer.content ? { action: answer.action, content: answer.content } : { action: answer.action } };
      }
      default:
        return { error: { code: METHOD_NOT_FOUND, message: `zot does not offer ${method}` } };
    }
  }
}

function progressText(p: JsonObject): string {
  if (typeof p.message === "string" && p.message !== "") return p.message;
  const n: Json | undefined = p.progress;
  const total: Json | undefined = p.total;
  return typeof total === "number" ? `${n}/${total}` : `${n}`;
}
