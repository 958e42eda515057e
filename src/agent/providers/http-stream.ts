// The part of a streaming HTTP provider call that does not depend on the wire format: send with
// retries, read server-sent events, turn transport failures into a finished message. Each wire
// format supplies an Assembler that understands its events.
import type { ProviderEvent, ModelInfo } from "../provider.ts";
import type { TextPart, ThinkingPart, ToolCallPart, Usage } from "../messages.ts";
import type { CostDetail } from "../catalog.ts";
import { finishMessage, type Outcome } from "./assemble.ts";
import { describeError, errorMessage, send, type RetryPolicy, type SendContext } from "./retry.ts";
import { parseSse, type SseEvent } from "./sse.ts";
import { redactSecrets } from "../redact.ts";

/** What an HTTP provider client is built with (see createProvider). */
export type ClientOptions = { apiKey?: string; baseUrl?: string; catalog: readonly ModelInfo[]; retry?: RetryPolicy };

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

export type HttpCall = {
  url: string;
  init: RequestInit;
  ctx: SendContext;
  assembler: Assembler;
  model: string;
  info: ModelInfo | undefined;
  /** Names the end marker in the message for a stream that stops early ("message_stop", "[DONE]"). */
  endMarker: string;
};

export async function* runHttpStream(call: HttpCall): AsyncGenerator<ProviderEvent> {
  const { ctx, assembler: asm } = call;
  const provider = ctx.provider;
  const finish = (outcome: Outcome): ProviderEvent[] => {
    // Whatever the provider echoed into an error (its own message included) must not carry the key.
    const safe: Outcome = outcome.kind === "error" ? { kind: "error", error: redactSecrets(outcome.error, ctx.secrets) } : outcome;
    const message = finishMessage(asm.content(), safe, { provider, model: call.model, usage: asm.usage, info: call.info, detail: asm.costDetail });
    return [{ type: "usage", usage: message.usage }, { type: "done", message }];
  };
  const sent = await send(call.url, call.init, ctx);
  if (!sent.ok) {
    yield* finish(sent.aborted ? { kind: "aborted" } : { kind: "error", error: sent.error });
    return;
  }
  const res = sent.response;
  const type = res.headers.get("content-type") ?? "";
  if (!type.includes("text/event-stream") && type.includes("json")) {
    // A proxy that ignored `stream: true`, or one that reports errors with status 200.
    const body = await res.text().catch(() => "");
    const msg = errorMessage(body);
    yield* finish({ kind: "error", error: `${provider} answered with JSON instead of a stream${msg ? `: ${msg}` : ""}; check --base-url` });
    return;
  }
  if (!res.body) {
    yield* finish({ kind: "error", error: `${provider} sent an empty response; try again` });
    return;
  }
  let outcome: Outcome | undefined;
  try {
    for await (const ev of parseSse(res.body, ctx.signal)) {
      const out = asm.handle(ev);
      for (const e of out) yield e;
      if (asm.outcome) break;
    }
    outcome = asm.outcome;
  } catch (err) {
    if (!ctx.signal.aborted) {
      const why = describeError(err);
      outcome = { kind: "error", error: `the connection to ${provider} was lost mid-response (${why}); try again` };
    }
  }
  if (ctx.signal.aborted && outcome?.kind !== "complete") outcome = { kind: "aborted" };
  outcome ??= { kind: "error", error: `the ${provider} stream ended before the response was complete (no ${call.endMarker}); try again` };
  for (const e of asm.close()) yield e;
  yield* finish(outcome);
}
