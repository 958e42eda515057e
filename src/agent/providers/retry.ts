// Sending one provider request: silent retries for transient failures, one clear sentence for the
// rest. Only failures before the response starts are retried; once bytes have been streamed to the
// user, a retry would duplicate them.
import { redactSecrets } from "../redact.ts";

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
};

export type SendResult =
  | { ok: true; response: Response }
  | { ok: false; aborted: true }
  | { ok: false; aborted: false; error: string };

const RETRYABLE = new Set([408, 409, 429, 529]);
const MAX_DELAY_MS = 60_000;

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE.has(status) || (status >= 500 && status <= 599);
}

/** Delay asked for by `retry-after-ms` or `retry-after` (seconds or an HTTP date), capped at 60 s. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms))) return clampDelay(Number(ms));
  const after = headers.get("retry-after");
  if (after === null || after.trim() === "") return undefined;
  if (Number.isFinite(Number(after))) return clampDelay(Number(after) * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : clampDelay(date - now);
}

function clampDelay(ms: number): number {
  return Math.min(MAX_DELAY_MS, Math.max(0, ms));
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

export async function send(url: string, init: RequestInit, ctx: SendContext): Promise<SendResult> {
  const retries = ctx.policy?.retries ?? 2;
  const base = ctx.policy?.baseDelayMs ?? 1000;
  const sleep = ctx.policy?.sleep ?? abortableSleep;
  const clean = (text: string) => redactSecrets(text, ctx.secrets);
  for (let attempt = 0; ; attempt++) {
    if (ctx.signal.aborted) return { ok: false, aborted: true };
    let response: Response;
    try {
      response = await fetch(url, { ...init, signal: ctx.signal });
    } catch (err) {
      if (ctx.signal.aborted) return { ok: false, aborted: true };
      if (attempt < retries) {
        await sleep(base * 2 ** attempt, ctx.signal);
        continue;
      }
      const why = describeError(err);
      return {
        ok: false,
        aborted: false,
        error: clean(`could not connect to ${ctx.provider} at ${origin(url)} after ${attempt + 1} attempts (${why}); check your network and --base-url`),
      };
    }
    if (response.ok) return { ok: true, response };
    const body = await readBody(response, ctx.signal);
    if (ctx.signal.aborted) return { ok: false, aborted: true };
    if (isRetryableStatus(response.status) && attempt < retries) {
      await sleep(retryAfterMs(response.headers) ?? base * 2 ** attempt, ctx.signal);
      continue;
    }
    return { ok: false, aborted: false, error: clean(describeStatus(url, response.status, errorMessage(body), ctx, attempt + 1)) };
  }
}

async function readBody(response: Response, signal: AbortSignal): Promise<string> {
  try {
    return await response.text();
  } catch (err) {
    return signal.aborted ? "" : `(the error body could not be read: ${err instanceof Error ? err.message : String(err)})`;
  }
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
