// Sending one provider request attempt: a connect/header timeout, redirects followed only within
// the origin the credentials are for, and each failure classified as worth retrying or final.
// The retry loop itself lives in http-stream.ts, because only it knows whether anything streamed.
import { redactSecrets } from "../../redact.ts";
import { seconds } from "../../duration.ts";
import type { StreamLimits } from "./limits.ts";

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
  keyHint?: string;
  /** Values that must never appear in a message (the API key). */
  secrets: readonly string[];
  signal: AbortSignal;
  policy?: RetryPolicy;
  /** The model asked for, and the provider's current default, for explaining a retired model's 404. */
  model?: string;
  defaultModel?: string;
  /** Timeouts and caps; unset fields take DEFAULT_LIMITS. */
  limits?: Partial<StreamLimits>;
};

/** A failure worth another attempt: `reason` is what the retry notice says, `error` the sentence if none is left. */
export type Transient = { reason: string; error: (attempts: number) => string; delayMs?: number };

export type AttemptResult =
  | { kind: "response"; response: Response; /** Aborts this attempt's connection (idle timeout, cap). */ cancel: () => void }
  | { kind: "aborted" }
  | { kind: "transient"; failure: Transient }
  | { kind: "error"; error: string };

const RETRYABLE = new Set([408, 409, 429, 529]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

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
 * body read under the same clock. Redirects are followed only to the same origin: anywhere else
 * would receive the API key and the conversation.
 */
export async function sendOnce(url: string, init: RequestInit, ctx: SendContext, connectTimeoutMs: number): Promise<AttemptResult> {
  const clean = (text: string) => redactSecrets(text, ctx.secrets);
  const attempt = new AbortController();
  const signal = AbortSignal.any([ctx.signal, attempt.signal]);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    attempt.abort();
  }, connectTimeoutMs);
  const noAnswer: Transient = {
    reason: `no response from ${ctx.provider} within ${seconds(connectTimeoutMs)}`,
    error: (n) => clean(`${ctx.provider} at ${origin(url)} did not answer within ${seconds(connectTimeoutMs)}${tries(n)}; check your network and --base-url, or raise connect_timeout in config.json`),
  };
  try {
    let target = url;
    for (let hop = 0; ; hop++) {
      let response: Response;
      try {
        response = await fetch(target, { ...init, signal, redirect: "manual" });
      } catch (err) {
        if (ctx.signal.aborted) return { kind: "aborted" };
        if (timedOut) return { kind: "transient", failure: noAnswer };
        const why = describeError(err);
        return {
          kind: "transient",
          failure: {
            reason: `could not connect to ${ctx.provider} (${why})`,
            error: (n) => clean(`could not connect to ${ctx.provider} at ${origin(target)}${tries(n)} (${why}); check your network and --base-url`),
          },
        };
      }
      const location = response.headers.get("location");
      if (REDIRECTS.has(response.status) && location !== null) {
        await response.body?.cancel().catch(() => undefined);
        let next: URL;
        try {
          next = new URL(location, target);
        } catch {
          return { kind: "error", error: clean(`${ctx.provider} redirected the request (HTTP ${response.status}) to an invalid address (${location.slice(0, 200)}); check --base-url`) };
        }
        if (next.origin !== new URL(target).origin) {
          return {
            kind: "error",
            error: clean(`${ctx.provider} at ${origin(target)} redirected the request (HTTP ${response.status}) to ${next.href}, another origin; zot does not follow it (it would send your API key and the conversation there); check --base-url`),
          };
        }
        if (hop >= MAX_REDIRECTS) return { kind: "error", error: clean(`${ctx.provider} redirected the request more than ${MAX_REDIRECTS} times (last to ${next.href}); check --base-url`) };
        target = next.href;
        continue;
      }
      if (response.ok) {
        clearTimeout(timer);
        return { kind: "response", response, cancel: () => attempt.abort() };
      }
      const body = await readBody(response, signal);
      if (ctx.signal.aborted) return { kind: "aborted" };
      if (timedOut) return { kind: "transient", failure: noAnswer };
      const status = response.status;
      const msg = errorMessage(body);
      if (!isRetryableStatus(status)) return { kind: "error", error: clean(describeStatus(target, status, msg, ctx, 1)) };
      const delayMs = retryAfterMs(response.headers);
      return {
        kind: "transient",
        failure: { reason: `${ctx.provider} answered HTTP ${status}${msg ? `: ${msg}` : ""}`, error: (n) => clean(describeStatus(target, status, msg, ctx, n)), ...(delayMs !== undefined ? { delayMs } : {}) },
      };
    }
  } finally {
    clearTimeout(timer);
  }
}

function tries(attempts: number): string {
  return attempts > 1 ? ` after ${attempts} attempts` : "";
}

/** An error body is only ever quoted in part: more than this is not read (nor held in memory). */
export const MAX_BODY_BYTES = 64 * 1024;

async function readBody(response: Response, signal: AbortSignal): Promise<string> {
  try {
    return await readStart(response, MAX_BODY_BYTES);
  } catch (err) {
    return signal.aborted ? "" : `(the error body could not be read: ${err instanceof Error ? err.message : String(err)})`;
  }
}

/** The first `max` bytes of a body as text; the rest is never downloaded. */
export async function readStart(response: Response, max: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let got = 0;
  try {
    while (got < max) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      got += value.length;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, max).toString("utf8");
}

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
  if (status === 404 && ctx.model && msg.includes(ctx.model)) return retiredModel(p, ctx.model, ctx.defaultModel, detail);
  if (status === 404) return `${p} returned HTTP 404 for ${url}${detail}; check --base-url and --model`;
  if (status === 413) return `${p} rejected the request as too large (HTTP 413${detail}); compact the conversation or start a new session`;
  if (status === 429) return `${p} is rate limiting requests (HTTP 429${detail})${tries}; wait a moment and try again`;
  if (status === 529) return `${p} is overloaded (HTTP 529${detail})${tries}; try again later`;
  if (status >= 500) return `${p} had a server error (HTTP ${status}${detail})${tries}; try again later`;
  return `${p} request failed (HTTP ${status}${detail})${tries}`;
}

/** A 404 that names the model: it is most likely retired, and the current default is the way on. */
function retiredModel(provider: string, model: string, fallback: string | undefined, detail: string): string {
  const offer =
    fallback && fallback !== model
      ? `; switch to the current default with --model ${fallback} (in the TUI: /model ${fallback})`
      : "; pick another model from zot --list-models (in the TUI: /model)";
  return `${provider} does not serve the model "${model}" (HTTP 404${detail}); it may have been retired${offer}`;
}

/** A transport error as a short phrase (Bun appends advice about `verbose: true`, useless to users). */
export function describeError(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/\.? For more information, pass `verbose: true`.*$/s, "");
}

function origin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
