// The part of a streaming HTTP provider call that does not depend on the wire format: the retry
// loop, reading server-sent events under an idle watchdog and a size cap, and turning transport
// failures into a finished message. Each wire format supplies an Assembler that understands its
// events. A failure is retried only while nothing of the response has arrived: once events have
// been streamed to the user, a retry would duplicate them.
import type { ProviderEvent, ModelInfo, ProviderRequest } from "../provider.ts";
import { emptyUsage, type TextPart, type ThinkingPart, type ToolCallPart, type Usage } from "../messages.ts";
import { defaultModel, findModel, type CostDetail } from "../catalog.ts";
import type { ProviderName } from "../choices.ts";
import { requestTarget } from "./endpoints.ts";
import { bodyBuffers } from "./wire-cache.ts";
import { finishMessage, type Outcome } from "./assemble.ts";
import { seconds } from "../../duration.ts";
import { DEFAULT_LIMITS, MAX_RETRY_WAIT_MS, type StreamLimits } from "./limits.ts";
import { errorMessage, MAX_BODY_BYTES, sendOnce, type RetryPolicy, type SendContext, type Transient } from "./retry.ts";
import { describeError, sizeText, type HttpRequest, type HttpResponse, type StreamedBody } from "../../platform/http.ts";
import { SseDecoder, SseEventTooLarge, sseChunks, type SseEvent } from "../../platform/sse.ts";
import { redactSecrets } from "../../redact.ts";
import { abortableSleep } from "../../abort.ts";

/** What an HTTP provider client is built with (see createProvider). */
export type ClientOptions = {
  apiKey?: string | undefined;
  baseUrl?: string | undefined;
  catalog: readonly ModelInfo[];
  retry?: RetryPolicy | undefined;
  limits?: Partial<StreamLimits> | undefined;
  /**
   * Another way to answer a request whose URL the server does not serve (a 404 that does not name
   * the model), given the base URL it went to; undefined keeps the 404 as the answer.
   */
  routeMissing?: (req: ProviderRequest, signal: AbortSignal, base: string) => AsyncIterable<ProviderEvent> | undefined;
};
export interface Assembler {
  /** Handles one event and returns what to stream to the caller. */
  handle(ev: SseEvent): ProviderEvent[];
  /** Set once the end marker or an in-stream error arrived; reading stops there. */
  readonly outcome: Outcome | undefined;
  /** Events that close what is still open (a tool call whose block never ended). */
  close(): ProviderEvent[];
  content(): (TextPart | ThinkingPart | ToolCallPart)[];
  readonly usage: Usage;
  /** What the usage cannot carry but the cost depends on (long-TTL cache writes). */
  readonly costDetail?: CostDetail;
}

/** What one wire format adds to a streaming call: where it goes, how the key travels, its body, and how its events are read. */
export type WireRequest = {
  /** Which family's endpoints and credentials the call uses (see requestTarget). */
  family: "anthropic" | "openai";
  /** The request URL for the resolved base URL. */
  url(base: string): string;
  /** Headers beyond content-type and accept, for the key ("" when the server takes none). */
  headers(key: string): Record<string, string>;
  /** The request body: JSON, UTF-8, streamed (see requestBody). */
  body(info: ModelInfo | undefined): Uint8Array | StreamedBody;
  assembler: Assembler;
  /** Names the end marker in the message for a stream that stops early ("message_stop", "[DONE]"). */
  endMarker: string;
};

/** The key as a bearer token, the OpenAI family's way. */
export const bearerAuth = (key: string): Record<string, string> => (key !== "" ? { authorization: `Bearer ${key}` } : {});

/**
 * One streaming model call: looks up the model's catalog entry and where the request goes with
 * which key, sends it and streams the answer — or, when it cannot be sent (no key for an
 * official base), yields the finished error message instead.
 */
export async function* streamCall(
  provider: Exclude<ProviderName, "mock">,
  opts: ClientOptions,
  req: ProviderRequest,
  signal: AbortSignal,
  wire: WireRequest,
): AsyncGenerator<ProviderEvent> {
  const info = findModel(opts.catalog, provider, req.model);
  const target = requestTarget(provider, wire.family, opts, info);
  if ("error" in target) {
    yield { type: "done", message: finishMessage([], { kind: "error", error: target.error }, { provider, model: req.model, usage: emptyUsage(), info }) };
    return;
  }
  const { base, key, hint } = target;
  const body = wire.body(info);
  try {
    const batches = runHttpStream({
      url: wire.url(base),
      init: { method: "POST", headers: { "content-type": "application/json", accept: "text/event-stream", ...wire.headers(key) }, body },
      ctx: {
        provider,
        keyHint: hint,
        secrets: key ? [key] : [],
        signal,
        policy: opts.retry,
        model: req.model,
        defaultModel: defaultModel(provider),
        ...(opts.limits ? { limits: opts.limits } : {}),
      },
      assembler: wire.assembler,
      model: req.model,
      info,
      endMarker: wire.endMarker,
      ...(opts.routeMissing ? { routeMissing: () => opts.routeMissing?.(req, signal, base) } : {}),
    });
    for await (const batch of batches) for (const e of batch) yield e;
  } finally {
    // Every attempt is over; the next request may write over these bytes.
    if (body instanceof Uint8Array) bodyBuffers.give(body);
  }
}

type HttpCall = {
  url: string;
  init: HttpRequest;
  ctx: SendContext;
  assembler: Assembler;
  model: string;
  info: ModelInfo | undefined;
  /** Names the end marker in the message for a stream that stops early ("message_stop", "[DONE]"). */
  endMarker: string;
  routeMissing?: () => AsyncIterable<ProviderEvent> | undefined;
};

/** The call's events, a batch per chunk of the response (see sseChunks). */
async function* runHttpStream(call: HttpCall): AsyncGenerator<ProviderEvent[]> {
  const { ctx } = call;
  const limits: StreamLimits = { ...DEFAULT_LIMITS, ...ctx.limits };
  const retries = ctx.policy?.retries ?? 2;
  const base = ctx.policy?.baseDelayMs ?? 1000;
  const sleep = ctx.policy?.sleep ?? abortableSleep;
  const finish = (outcome: Outcome) => finishEvents(call, outcome);
  for (let attempt = 0; ; attempt++) {
    if (ctx.signal.aborted) return yield finish({ kind: "aborted" });
    const sent = await sendOnce(call.url, call.init, ctx, limits.connectTimeoutMs);
    let failure: Transient;
    if (sent.kind === "aborted") return yield finish({ kind: "aborted" });
    if (sent.kind === "error") {
      const instead = sent.routeMissing ? call.routeMissing?.() : undefined;
      if (instead) {
        for await (const e of instead) yield [e];
        return;
      }
      return yield finish({ kind: "error", error: sent.error });
    }
    if (sent.kind === "transient") failure = sent.failure;
    else {
      const read = yield* readResponse(call, sent.response, sent.cancel, limits);
      if (read === "finished") return;
      failure = read;
    }
    if (attempt >= retries) return yield finish({ kind: "error", error: failure.error(attempt + 1) });
    const delayMs = failure.delayMs ?? base * 2 ** attempt;
    if (delayMs > MAX_RETRY_WAIT_MS) {
      return yield finish({
        kind: "error",
        error: `${ctx.provider} asked to wait ${seconds(delayMs)} before trying again (${failure.reason}); zot does not wait that long on its own, try again later`,
      });
    }
    yield [{ type: "retry", attempt: attempt + 2, attempts: retries + 1, delayMs, reason: failure.reason }];
    await sleep(delayMs, ctx.signal);
  }
}

function finishEvents(call: HttpCall, outcome: Outcome): ProviderEvent[] {
  const { ctx, assembler: asm } = call;
  // Whatever the provider echoed into an error (its own message included) must not carry the key.
  const safe: Outcome = outcome.kind === "error" ? { kind: "error", error: redactSecrets(outcome.error, ctx.secrets) } : outcome;
  const message = finishMessage(asm.content(), safe, { provider: ctx.provider, model: call.model, usage: asm.usage, info: call.info, detail: asm.costDetail });
  return [
    { type: "usage", usage: message.usage },
    { type: "done", message },
  ];
}

/**
 * Streams one response to its end ("finished", after the final events), or returns the transient
 * failure of a response that delivered no event at all, which the caller may retry.
 */
async function* readResponse(
  call: HttpCall,
  res: HttpResponse,
  cancel: () => void,
  limits: StreamLimits,
): AsyncGenerator<ProviderEvent[], "finished" | Transient> {
  const { ctx, assembler: asm } = call;
  const provider = ctx.provider;
  const finish = (outcome: Outcome) => finishEvents(call, outcome);
  const type = res.headers.get("content-type") ?? "";
  if (!type.includes("text/event-stream") && (type.includes("json") || type.includes("html"))) {
    // A proxy that ignored `stream: true`, one that reports errors with status 200, or a web page
    // (a captive portal, a wrong --base-url) where the API should be.
    // Read under the idle watchdog and only in part: a server can stall or flood here too.
    const watch = new Watchdog(limits, provider, cancel);
    const body = await res.readStart(MAX_BODY_BYTES).catch(() => "");
    watch.stop();
    const msg = errorMessage(body);
    const what = type.includes("html") ? `an HTML page (HTTP ${res.status}, ${type.split(";")[0]})` : "JSON";
    const then = watch.failure ? `, then ${watch.failure}` : "";
    yield finish({ kind: "error", error: `${provider} answered with ${what} instead of an event stream${msg ? `: ${msg}` : ""}${then}; check --base-url` });
    return "finished";
  }
  if (!res.body) {
    yield finish({ kind: "error", error: `${provider} sent an empty response; try again` });
    return "finished";
  }
  const watch = new Watchdog(limits, provider, cancel);
  let events = 0;
  let streamed = 0;
  let outcome: Outcome | undefined;
  let lost: string | undefined;
  try {
    for await (const evs of sseChunks(res.body, ctx.signal, new SseDecoder(limits.maxResponseBytes), () => watch.chunk())) {
      const out: ProviderEvent[] = [];
      for (const ev of evs) {
        events++;
        watch.event();
        for (const e of asm.handle(ev)) {
          if (e.type === "text_delta" || e.type === "thinking_delta") streamed += e.text.length;
          else if (e.type === "tool_use_args") streamed += e.delta.length;
          out.push(e);
        }
        if (asm.outcome || streamed > limits.maxResponseBytes) break;
      }
      if (out.length > 0) yield out;
      if (asm.outcome) break;
      if (streamed > limits.maxResponseBytes) {
        outcome = {
          kind: "error",
          error: `the ${provider} response passed ${sizeText(limits.maxResponseBytes)} of text and was stopped (raise max_response_mib in config.json if this is expected)`,
        };
        break;
      }
    }
    outcome ??= asm.outcome;
  } catch (err) {
    if (err instanceof SseEventTooLarge)
      outcome = {
        kind: "error",
        error: `${provider} sent one event larger than ${sizeText(err.limit)}, so the response was stopped (raise max_response_mib in config.json if this is expected)`,
      };
    else if (!ctx.signal.aborted) lost = describeError(err);
  } finally {
    watch.stop();
    if (outcome?.kind === "error") cancel();
  }
  const stalled = watch.failure;
  if (events === 0 && !ctx.signal.aborted && outcome === undefined) {
    const reason = stalled ?? (lost ? `the connection was lost before the response started (${lost})` : "the response ended before it started");
    return { reason, error: (n) => `${reason}${n > 1 ? ` (${n} attempts)` : ""}; try again` };
  }
  if (ctx.signal.aborted && outcome?.kind !== "complete") outcome = { kind: "aborted" };
  else if (stalled) outcome = { kind: "error", error: `${stalled} in the middle of the response, so it was stopped; try again` };
  else if (lost !== undefined) outcome = { kind: "error", error: `the connection to ${provider} was lost mid-response (${lost}); try again` };
  outcome ??= { kind: "error", error: `the ${provider} stream ended before the response was complete (no ${call.endMarker}); try again` };
  yield [...asm.close(), ...finish(outcome)];
  return "finished";
}

/**
 * Watches a response body: no byte for idleTimeoutMs, or only comment pings (bytes but no event)
 * for pingTimeoutMs, and the connection is cancelled with `failure` saying why. One timer, set for
 * the nearest deadline, so a fast stream costs two timestamps per chunk.
 */
class Watchdog {
  failure: string | undefined;
  private lastByte = Date.now();
  private lastEvent = Date.now();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly limits: StreamLimits,
    private readonly provider: string,
    private readonly cancel: () => void,
  ) {
    this.arm();
  }

  /** A chunk of the body arrived. */
  chunk(): void {
    this.lastByte = Date.now();
  }

  event(): void {
    this.lastEvent = Date.now();
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  private arm(): void {
    const now = Date.now();
    const idleAt = this.lastByte + this.limits.idleTimeoutMs;
    const pingAt = this.lastEvent + this.limits.pingTimeoutMs;
    if (now >= idleAt) return this.fail(`${this.provider} sent nothing for ${seconds(this.limits.idleTimeoutMs)}`);
    if (now >= pingAt) return this.fail(`${this.provider} sent only keep-alive pings for ${seconds(this.limits.pingTimeoutMs)}`);
    this.timer = setTimeout(() => this.arm(), Math.min(idleAt, pingAt) - now + 1);
  }

  private fail(why: string): void {
    if (this.failure !== undefined) return;
    this.failure = why;
    this.stop();
    this.cancel();
  }
}
