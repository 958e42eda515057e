// Sending one provider request attempt: a connect/header timeout, redirects followed only within
// the origin the credentials are for, and each failure classified as worth retrying or final.
// The retry loop itself lives in http-stream.ts, because only it knows whether anything streamed.
import { redactSecrets } from "../../redact.ts";
import { seconds } from "../../duration.ts";
import type { StreamLimits } from "./limits.ts";
import { origin, send, type HttpRequest, type HttpResponse } from "../../platform/http.ts";

export type RetryPolicy = {
  /** Extra attempts after the first (default 2). */
  retries?: number;
  /** Backoff before retry n (0-based) is baseDelayMs * 2^n unless the server says otherwise (default 1000). */
  baseDelayMs?: number;
  /** Injected by tests to skip real waiting; must reject or resolve early when the signal fires. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
};

export type SendContext = {
  /** Provider name as the user knows it ("anthropic", "openai", …). */
  provider: string;
  /** How the user supplies a key, for the rejected-key message (e.g. "ANTHROPIC_API_KEY"). */
  keyHint?: string | undefined;
  /** Values that must never appear in a message (the API key). */
  secrets: readonly string[];
  signal: AbortSignal;
  policy?: RetryPolicy | undefined;
  /** The model asked for, and the provider's current default, for explaining a retired model's 404. */
  model?: string;
  defaultModel?: string;
  /** Timeouts and caps; unset fields take DEFAULT_LIMITS. */
  limits?: Partial<StreamLimits>;
};

/** A failure worth another attempt: `reason` is what the retry notice says, `error` the sentence if none is left. */
export type Transient = { reason: string; error: (attempts: number) => string; delayMs?: number };

export type AttemptResult =
  | { kind: "response"; response: HttpResponse /** Aborts this attempt's connection (idle timeout, cap). */; cancel: () => void }
  | { kind: "aborted" }
  | { kind: "transient"; failure: Transient }
  /** `routeMissing`: a 404 that does not name the model, so the URL itself is not served (a server without that API). */
  | { kind: "error"; error: string; routeMissing?: true };

const RETRYABLE = new Set([408, 409, 429, 529]);

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE.has(status) || (status >= 500 && status <= 599);
}

/** Delay asked for by `retry-after-ms` or `retry-after` (seconds or an HTTP date); never negative. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const after = headers.get("retry-after");
  if (after === null || after.trim() === "") return undefined;
  if (Number.isFinite(Number(after))) return Math.max(0, Number(after) * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * One attempt. The response headers must arrive within `connectTimeoutMs`; an error status has its
 * body read under the same clock. Redirects are the HTTP door's (platform/http.ts): followed only
 * within the origin, since anywhere else would receive the API key and the conversation.
 */
export async function sendOnce(url: string, init: HttpRequest, ctx: SendContext, connectTimeoutMs: number): Promise<AttemptResult> {
  const clean = (text: string) => redactSecrets(text, ctx.secrets);
  const noAnswer: Transient = {
    reason: `no response from ${ctx.provider} within ${seconds(connectTimeoutMs)}`,
    error: (n) =>
      clean(
        `${ctx.provider} at ${origin(url)} did not answer within ${seconds(connectTimeoutMs)}${tries(n)}; check your network and --base-url, or raise connect_timeout in config.json`,
      ),
  };
  const attempt = new AbortController();
  const signal = AbortSignal.any([ctx.signal, attempt.signal]);
  const sent = await send(url, { ...init, signal, headerTimeoutMs: connectTimeoutMs });
  if (!sent.ok) {
    if (ctx.signal.aborted || sent.kind === "aborted") return { kind: "aborted" };
    if (sent.kind === "timeout") return { kind: "transient", failure: noAnswer };
    if (sent.kind === "redirect") return { kind: "error", error: clean(`${ctx.provider} at ${sent.error}; check --base-url`) };
    const why = sent.cause ?? sent.error;
    return {
      kind: "transient",
      failure: {
        reason: `could not connect to ${ctx.provider} (${why})`,
        error: (n) => clean(`could not connect to ${ctx.provider} at ${origin(sent.url)}${tries(n)} (${why}); check your network and --base-url`),
      },
    };
  }
  const response = sent.response;
  if (response.ok) return { kind: "response", response, cancel: () => attempt.abort() };
  // The error body is read under the same clock as the headers.
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    attempt.abort();
  }, connectTimeoutMs);
  const body = await response
    .readStart(MAX_BODY_BYTES)
    .catch((e: unknown) => (signal.aborted ? "" : `(the error body could not be read: ${e instanceof Error ? e.message : String(e)})`));
  clearTimeout(timer);
  if (ctx.signal.aborted) return { kind: "aborted" };
  if (timedOut) return { kind: "transient", failure: noAnswer };
  const status = response.status;
  const target = response.url;
  const msg = errorMessage(body);
  if (!isRetryableStatus(status)) {
    const error = clean(describeStatus(target, status, msg, ctx, 1));
    return status === 404 && !namesModel(msg, ctx) ? { kind: "error", error, routeMissing: true } : { kind: "error", error };
  }
  const delayMs = retryAfterMs(response.headers);
  return {
    kind: "transient",
    failure: {
      reason: `${ctx.provider} answered HTTP ${status}${msg ? `: ${msg}` : ""}`,
      error: (n) => clean(describeStatus(target, status, msg, ctx, n)),
      ...(delayMs !== undefined ? { delayMs } : {}),
    },
  };
}

function tries(attempts: number): string {
  return attempts > 1 ? ` after ${attempts} attempts` : "";
}

/** An error body is only ever quoted in part: more than this is not read (nor held in memory). */
export const MAX_BODY_BYTES = 64 * 1024;

/** The provider's own explanation from an error body (both wire formats use `error.message`). */
export function errorMessage(body: string): string {
  const trimmed = body.trim();
  if (trimmed === "") return "";
  try {
    const parsed: unknown = JSON.parse(trimmed);
    const msg = pickMessage(parsed);
    if (msg) return msg;
  } catch {
    // Not JSON (an HTML error page from a proxy, plain text): show the start of it.
  }
  const flat = trimmed.replace(/\s+/g, " ");
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}

function pickMessage(v: unknown): string | undefined {
  if (typeof v !== "object" || v === null) return undefined;
  const o = v as Record<string, unknown>;
  const err = o.error;
  if (typeof err === "string") return err;
  if (typeof err === "object" && err !== null) {
    const e = err as Record<string, unknown>;
    if (typeof e.message === "string") return typeof e.type === "string" && e.type !== "" ? `${e.message} (${e.type})` : e.message;
  }
  if (typeof o.message === "string") return o.message;
  if (typeof o.detail === "string") return o.detail;
  return undefined;
}

function describeStatus(url: string, status: number, msg: string, ctx: SendContext, attempts: number): string {
  const p = ctx.provider;
  const detail = msg === "" ? "" : `: ${msg}`;
  const tries = attempts > 1 ? ` after ${attempts} attempts` : "";
  if (status === 401 || status === 403) {
    const hint = ctx.keyHint ? `; check --api-key or ${ctx.keyHint}` : "; check --api-key";
    return `the API key was rejected by ${p} (HTTP ${status}${detail})${hint}`;
  }
  if (status === 400) return `${p} rejected the request (HTTP 400${detail})`;
  if (status === 404 && ctx.model && namesModel(msg, ctx)) return retiredModel(p, ctx.model, ctx.defaultModel, detail);
  if (status === 404 && (url.split("?")[0] ?? "").endsWith("/responses"))
    return `${p} returned HTTP 404 for ${url}${detail}; check --base-url and --model, or pass --wire chat if the server has no Responses API`;
  if (status === 404) return `${p} returned HTTP 404 for ${url}${detail}; check --base-url and --model`;
  if (status === 413) return `${p} rejected the request as too large (HTTP 413${detail}); compact the conversation or start a new session`;
  if (status === 429) return `${p} is rate limiting requests (HTTP 429${detail})${tries}; wait a moment and try again`;
  if (status === 529) return `${p} is overloaded (HTTP 529${detail})${tries}; try again later`;
  if (status >= 500) return `${p} had a server error (HTTP ${status}${detail})${tries}; try again later`;
  return `${p} request failed (HTTP ${status}${detail})${tries}`;
}

function namesModel(msg: string, ctx: SendContext): boolean {
  return ctx.model !== undefined && ctx.model !== "" && msg.includes(ctx.model);
}

/** A 404 that names the model: it is most likely retired, and the current default is the way on. */
function retiredModel(provider: string, model: string, fallback: string | undefined, detail: string): string {
  const offer =
    fallback && fallback !== model
      ? `; switch to the current default with --model ${fallback} (in the TUI: /model ${fallback})`
      : "; pick another model from zot --list-models (in the TUI: /model)";
  return `${provider} does not serve the model "${model}" (HTTP 404${detail}); it may have been retired${offer}`;
}
