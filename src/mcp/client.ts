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
import { onAbort } from "../abort.ts";

export const MODERN_VERSION = "2026-07-28";
/** What zot offers in `initialize` unless the server named another version. */
const NEWEST_LEGACY = "2025-11-25";
/** Newest first: what zot accepts back from `initialize`. */
export const LEGACY_VERSIONS: readonly [string, ...string[]] = [NEWEST_LEGACY, "2025-06-18", "2025-03-26", "2024-11-05"];

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

export type Answer =
  | { ok: true; result: JsonObject }
  | { ok: false; error: string; kind: "rpc" | "timeout" | "cancelled" | "gone" | "invalid" | "http"; code?: number; data?: Json };

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
      const r = await this.initialize(NEWEST_LEGACY);
      if (r.ok) return r;
      this.opts.log(`the remembered initialize era failed (${r.error}); probing again`);
    }
    const probe = await this.discover();
    if (probe.kind === "modern") return { ok: true };
    if (probe.kind === "failed") return { ok: false, error: probe.error };
    return this.initialize(probe.version);
  }

  /**
   * `server/discover`: modern when the reply is a DiscoverResult listing 2026-07-28 (or an error of
   * the modern era), legacy otherwise. An `UnsupportedProtocolVersion` error lists what the server
   * speaks: zot goes on with the newest of those it speaks too.
   */
  private async discover(): Promise<{ kind: "modern" } | { kind: "legacy"; version: string } | { kind: "failed"; error: string }> {
    this.negotiated = { era: "modern", version: MODERN_VERSION };
    this.transport.setProtocolVersion(MODERN_VERSION);
    for (let attempt = 0; ; attempt++) {
      const r = await this.raw("server/discover", {}, { timeoutMs: Math.min(PROBE_MS, this.left()) });
      if (r.ok) {
        const versions = stringList(r.result.supportedVersions);
        // Some servers answer every unknown method with an empty result: that is no DiscoverResult.
        if (versions === null || versions.length === 0 || !isObject(r.result.capabilities)) {
          this.opts.log(
            "server/discover was answered with something that is not a DiscoverResult (no supportedVersions or capabilities); using the initialize handshake",
          );
          return { kind: "legacy", version: NEWEST_LEGACY };
        }
        if (versions.includes(MODERN_VERSION)) {
          this.adopt(r.result);
          return { kind: "modern" };
        }
        return this.choose(versions, "server/discover");
      }
      if (r.kind === "gone" || (r.kind === "http" && (r.code === 401 || r.code === 403))) return { kind: "failed", error: r.error };
      if (r.kind === "rpc" && r.code !== undefined && MODERN_ERROR_CODES.includes(r.code)) {
        if (r.code !== UNSUPPORTED_PROTOCOL_VERSION) return { kind: "failed", error: `server/discover failed: ${r.error}` };
        const supported = isObject(r.data) ? (stringList(r.data.supported) ?? []) : [];
        // It lists the version it just refused: a server between deployments, say. One more try.
        if (supported.includes(MODERN_VERSION) && attempt === 0) {
          this.opts.log(`server/discover was refused as an unsupported protocol version although the server lists ${MODERN_VERSION}; asking once more`);
          continue;
        }
        if (supported.includes(MODERN_VERSION))
          return {
            kind: "failed",
            error: `the server refused protocol version ${MODERN_VERSION} twice although it lists it among its supported versions (${supported.join(", ")})`,
          };
        return this.choose(supported, "its UnsupportedProtocolVersion error");
      }
      this.opts.log(`server/discover was not understood (${r.error}); using the initialize handshake`);
      return { kind: "legacy", version: NEWEST_LEGACY };
    }
  }

  /** The newest initialize-era version the server listed that zot speaks, or a sentence saying there is none. */
  private choose(versions: string[], where: string): { kind: "legacy"; version: string } | { kind: "failed"; error: string } {
    const version = LEGACY_VERSIONS.find((v) => versions.includes(v));
    if (version) {
      this.opts.log(`${where} lists protocol versions ${versions.join(", ")}; using ${version} with the initialize handshake`);
      return { kind: "legacy", version };
    }
    const listed = versions.length ? `only protocol versions ${versions.join(", ")}` : "no protocol version it names";
    return { kind: "failed", error: `the server supports ${listed} (said in ${where}); zot speaks ${MODERN_VERSION}, ${LEGACY_VERSIONS.join(", ")}` };
  }

  /** `initialize` offering `version` (the newest zot speaks, or one the server named), then `notifications/initialized`. */
  private async initialize(version: string): Promise<Result> {
    this.negotiated = { era: "legacy", version };
    this.transport.setProtocolVersion("");
    const r = await this.raw(
      "initialize",
      { protocolVersion: version, capabilities: this.capabilitiesSent, clientInfo: { name: "zot", version: ZOT_VERSION } },
      { timeoutMs: this.left() },
    );
    if (!r.ok)
      return {
        ok: false,
        error: r.kind === "timeout" ? `no answer to initialize within ${this.opts.startupMs / 1000} s of the start` : `initialize failed: ${r.error}`,
      };
    const answered = r.result.protocolVersion;
    if (typeof answered !== "string" || !LEGACY_VERSIONS.includes(answered))
      return {
        ok: false,
        error: `the server answered initialize with protocol version ${JSON.stringify(answered)}, which zot does not speak (${LEGACY_VERSIONS.join(", ")})`,
      };
    this.negotiated = { era: "legacy", version: answered };
    this.transport.setProtocolVersion(answered);
    this.adopt(r.result);
    await this.transport.notify(notification("notifications/initialized"));
    return { ok: true };
  }

  private adopt(result: JsonObject): void {
    if (isObject(result.capabilities)) this.capabilities = result.capabilities;
    if (typeof result.instructions === "string") this.instructions = result.instructions;
    const meta = isObject(result._meta) ? result._meta : {};
    const info = isObject(result.serverInfo)
      ? result.serverInfo
      : isObject(meta["io.modelcontextprotocol/serverInfo"])
        ? meta["io.modelcontextprotocol/serverInfo"]
        : null;
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
        if (!isObject(req) || typeof req.method !== "string")
          return { ok: false, kind: "invalid", error: `the server asked for input "${key}" without a method` };
        const answer = await this.answerServer(req.method, isObject(req.params) ? req.params : {});
        if ("error" in answer)
          return { ok: false, kind: "invalid", error: `the server asked for ${req.method}, which zot cannot answer: ${answer.error.message}` };
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
      timer = setTimeout(
        () => {
          // The user filling in a server's form is not the server being slow.
          if (this.asking > 0) return arm();
          timedOut = true;
          controller.abort();
        },
        Math.max(0, left),
      );
    };
    if (opts.signal?.aborted) return { ok: false, kind: "cancelled", error: "cancelled before it was sent" };
    const unlisten = onAbort(opts.signal, () => controller.abort());
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
      unlisten();
    }
    if (outcome.ok) return outcome;
    if (outcome.kind === "cancelled" && timedOut) return { ok: false, kind: "timeout", error: `no answer to ${method} within ${seconds(opts.timeoutMs)}` };
    if (outcome.kind === "rpc")
      return {
        ok: false,
        kind: "rpc",
        error: describeRpcError(outcome.error),
        code: outcome.error.code,
        ...(outcome.error.data !== undefined ? { data: outcome.error.data } : {}),
      };
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

/** The strings of a JSON array; null when it is not an array. */
function stringList(v: Json | undefined): string[] | null {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : null;
}

function progressText(p: JsonObject): string {
  if (typeof p.message === "string" && p.message !== "") return p.message;
  const n: Json | undefined = p.progress;
  const total: Json | undefined = p.total;
  return typeof total === "number" ? `${n}/${total}` : `${n}`;
}
