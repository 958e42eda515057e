// The one door for outbound HTTP. Every request zot makes goes through `send` (or `fetchPage`, for
// a page nobody is signed in to), so the rules that keep credentials and memory safe hold for all
// of them:
// - redirects are followed by hand: within the origin always, to another origin only when the
//   request carries nothing that is meant for the first server (no credential header, no body),
//   never to anything but http(s), and at most MAX_REDIRECTS times;
// - the response headers must arrive within the header timeout; a body that sends nothing for the
//   idle timeout fails, and is only read up to a cap (`readText`, `readBytes`, `lines`);
// - failures are values whose `error` is a clause naming the origin, for the caller to finish.
export const MAX_REDIRECTS = 5;

/**
 * Headers that say nothing about who is asking. Any other header (authorization, x-api-key,
 * cookie, a server's configured custom header, a protocol header) makes the request credentialed:
 * it was written for one server and must not be replayed to another.
 */
const PLAIN_HEADERS = new Set(["accept", "accept-language", "accept-encoding", "cache-control", "content-type", "pragma", "user-agent"]);

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * A body sent as a stream of known length (its content-length set), opened afresh for every
 * attempt and redirect: a large body need not exist in memory as one buffer, nor be copied by fetch.
 */
export type StreamedBody = { length: number; open(): ReadableStream<Uint8Array> };

export type HttpRequest = {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | URLSearchParams | StreamedBody;
  signal?: AbortSignal;
  /** From sending to the response headers, redirects included; unset: only `signal` ends the wait. */
  headerTimeoutMs?: number;
  /** Longest silence while the body is read; unset: none. */
  idleTimeoutMs?: number;
  /**
   * "refuse": any redirect is a failure (OAuth, whose redirects would carry a code along).
   * "manual": a redirect is the response, for a caller that checks every hop itself (web_fetch).
   */
  redirects?: "follow" | "refuse" | "manual";
};

export type HttpFailure = {
  ok: false;
  kind: "aborted" | "timeout" | "network" | "redirect";
  /** A clause naming the origin ("http://x:1 did not answer within 5 s"); the caller adds what to do. */
  error: string;
  /** Where it failed (the last hop). */
  url: string;
  /** The transport's own words, for "network". */
  cause?: string;
};

export type Sent = { ok: true; response: HttpResponse } | HttpFailure;

/** Thrown by a body read that fails: too large, idle, or a transport error; `message` is a clause. */
export class BodyError extends Error {
  constructor(
    readonly kind: "too_large" | "idle" | "network" | "aborted",
    message: string,
  ) {
    super(message);
  }
}

export type Read<T> =
  | { ok: true; value: T }
  | { ok: false; kind: BodyError["kind"]; error: string /** Bytes that arrived before the failure. */; received: number };

/** A response whose body is watched by the idle timeout and read only through the capped readers. */
export class HttpResponse {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: Headers;
  /** The URL that answered (after redirects). */
  readonly url: string;
  private readonly stream: ReadableStream<Uint8Array> | null;

  constructor(
    raw: Response,
    url: string,
    private readonly controller: AbortController,
    idleTimeoutMs: number | undefined,
  ) {
    this.status = raw.status;
    this.ok = raw.ok;
    this.headers = raw.headers;
    this.url = url;
    // Without an idle limit the body is read as fetch gives it: a wrapping stream per response
    // would only add a read and a promise per chunk (the provider calls keep their own watchdog).
    this.stream = raw.body && idleTimeoutMs !== undefined ? watched(raw.body, controller, idleTimeoutMs, origin(url)) : raw.body;
  }

  /** The body as a stream (for a caller that reads it in its own way); chunks are unbounded in number, so read with a cap. */
  get body(): ReadableStream<Uint8Array> | null {
    return this.stream;
  }

  /** Drops the body and closes the connection. */
  async discard(): Promise<void> {
    await this.stream?.cancel().catch(() => undefined);
    this.controller.abort();
  }

  /** The whole body, failing once it passes `maxBytes` (nothing beyond is downloaded). */
  async readBytes(maxBytes: number): Promise<Read<Uint8Array>> {
    const chunks: Uint8Array[] = [];
    let got = 0;
    if (!this.stream) return { ok: true, value: new Uint8Array(0) };
    const reader = this.stream.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        got += value.length;
        if (got > maxBytes) {
          this.controller.abort();
          return { ok: false, kind: "too_large", error: `the answer from ${origin(this.url)} passed ${sizeText(maxBytes)} and was stopped`, received: got };
        }
        chunks.push(value);
      }
    } catch (e) {
      const err = bodyError(e, this.url, got);
      return { ok: false, kind: err.kind, error: err.message, received: got };
    } finally {
      reader.releaseLock();
    }
    return { ok: true, value: Buffer.concat(chunks) };
  }

  async readText(maxBytes: number): Promise<Read<string>> {
    const r = await this.readBytes(maxBytes);
    return r.ok ? { ok: true, value: Buffer.from(r.value).toString("utf8") } : r;
  }

  /** The first `maxBytes` of the body as text, the rest never downloaded (an error body quoted in part); throws a BodyError when reading fails. */
  async readStart(maxBytes: number): Promise<string> {
    if (!this.stream) return "";
    const reader = this.stream.getReader();
    const chunks: Uint8Array[] = [];
    let got = 0;
    try {
      while (got < maxBytes) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        got += value.length;
      }
    } catch (e) {
      throw bodyError(e, this.url, got);
    } finally {
      reader.cancel().catch(() => undefined);
    }
    return Buffer.concat(chunks).subarray(0, maxBytes).toString("utf8");
  }

  /**
   * The body's lines ("\n" or "\r\n" ended, blank lines kept, the last unterminated one included),
   * throwing a BodyError once one line passes `maxLineBytes`. Each byte is scanned once.
   */
  async *lines(maxLineBytes: number): AsyncGenerator<string> {
    if (!this.stream) return;
    const reader = this.stream.getReader();
    const decoder = new TextDecoder();
    let parts: string[] = [];
    let held = 0;
    let finished = false;
    try {
      for (;;) {
        const chunk = await reader.read().catch((e: unknown) => {
          throw bodyError(e, this.url, 0);
        });
        if (chunk.done) break;
        const text = decoder.decode(chunk.value, { stream: true });
        let start = 0;
        for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", start)) {
          parts.push(text.slice(start, nl));
          const line = parts.join("");
          parts = [];
          held = 0;
          start = nl + 1;
          if (Buffer.byteLength(line) > maxLineBytes) throw this.tooLong(maxLineBytes);
          yield line.endsWith("\r") ? line.slice(0, -1) : line;
        }
        if (start < text.length) {
          const rest = text.slice(start);
          parts.push(rest);
          held += rest.length;
          if (held > maxLineBytes) throw this.tooLong(maxLineBytes);
        }
      }
      const last = parts.join("") + decoder.decode();
      finished = true;
      if (last !== "") yield last.endsWith("\r") ? last.slice(0, -1) : last;
    } finally {
      if (!finished) this.controller.abort();
      reader.cancel().catch(() => undefined);
    }
  }

  private tooLong(max: number): BodyError {
    this.controller.abort();
    return new BodyError("too_large", `${origin(this.url)} sent a line longer than ${sizeText(max)}, so the stream was stopped`);
  }
}

/** True when the request carries something meant for its server alone: a non-plain header or a body. */
export function isCredentialed(req: Pick<HttpRequest, "headers" | "body">): boolean {
  if (req.body !== undefined) return true;
  return Object.keys(req.headers ?? {}).some((name) => !PLAIN_HEADERS.has(name.toLowerCase()));
}

function isStreamed(body: HttpRequest["body"]): body is StreamedBody {
  return typeof body === "object" && "open" in body;
}

const PROXY_VARS = ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"];

/**
 * Opens a connection to `base`'s origin (DNS, TCP, TLS) ahead of the first request, which Bun's
 * fetch then takes from its pool: the start-up work before a model call overlaps the handshake
 * instead of preceding it. Sends nothing. Not where a proxy variable is set: fetch would go through
 * the proxy, not this connection.
 */
export function preconnect(base: string, env: Record<string, string | undefined>): void {
  if (PROXY_VARS.some((v) => env[v])) return;
  try {
    const url = new URL(base);
    if (url.protocol === "https:" || url.protocol === "http:") fetch.preconnect(url.origin);
  } catch {
    // Not a URL: the request itself says so.
  }
}

/** One request through the door. Never throws. */
export async function send(url: string, req: HttpRequest = {}): Promise<Sent> {
  const controller = new AbortController();
  const signal = req.signal ? AbortSignal.any([req.signal, controller.signal]) : controller.signal;
  let timedOut = false;
  const timer =
    req.headerTimeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, req.headerTimeoutMs);
  const credentialed = isCredentialed(req);
  let method = req.method ?? "GET";
  let body = req.body;
  let target = url;
  try {
    for (let hop = 0; ; hop++) {
      let raw: Response;
      try {
        const init: RequestInit = isStreamed(body)
          ? { headers: { ...req.headers, "content-length": String(body.length) }, body: body.open() }
          : { ...(req.headers ? { headers: req.headers } : {}), ...(body !== undefined ? { body } : {}) };
        raw = await fetch(target, { ...init, method, signal, redirect: "manual" });
      } catch (e) {
        if (req.signal?.aborted) return { ok: false, kind: "aborted", error: `the request to ${origin(target)} was cancelled`, url: target };
        if (timedOut) return { ok: false, kind: "timeout", error: `${origin(target)} did not answer within ${seconds(req.headerTimeoutMs ?? 0)}`, url: target };
        const cause = describeError(e);
        return { ok: false, kind: "network", error: `cannot reach ${origin(target)} (${cause})`, url: target, cause };
      }
      const location = raw.headers.get("location");
      if (!REDIRECT_STATUSES.has(raw.status) || location === null || req.redirects === "manual") {
        clearTimeout(timer);
        return { ok: true, response: new HttpResponse(raw, target, controller, req.idleTimeoutMs) };
      }
      await raw.body?.cancel().catch(() => undefined);
      const refused = (why: string): HttpFailure => {
        controller.abort();
        return { ok: false, kind: "redirect", error: `${origin(target)} redirected the request (HTTP ${raw.status}) ${why}`, url: target };
      };
      let next: URL;
      try {
        next = new URL(location, target);
      } catch {
        return refused(`to an invalid address (${location.slice(0, 200)})`);
      }
      if (req.redirects === "refuse") return refused(`to ${next.href}; zot does not follow redirects here`);
      if (next.protocol !== "http:" && next.protocol !== "https:") return refused(`to ${next.href}, which is not http(s); zot does not follow it`);
      if (next.origin !== origin(target) && credentialed) {
        return refused(`to ${next.href}, another origin; zot does not follow it (it would send the request's credentials there)`);
      }
      if (hop >= MAX_REDIRECTS) return refused(`more than ${MAX_REDIRECTS} times (last to ${next.href})`);
      // As browsers do: 303, and 301/302 of a POST, continue as a GET without the body.
      if (raw.status === 303 || ((raw.status === 301 || raw.status === 302) && method === "POST")) {
        if (method !== "HEAD") method = "GET";
        body = undefined;
      }
      target = next.href;
    }
  } finally {
    clearTimeout(timer);
  }
}

export type Page = { status: number; url: string; contentType: string; text: string };

/**
 * A page fetched with no credentials: GET, redirects followed (bounded, http(s) only), the body
 * capped. For tools that read the web on the model's behalf.
 */
export async function fetchPage(
  url: string,
  opts: { maxBytes: number; timeoutMs: number; signal?: AbortSignal; accept?: string },
): Promise<{ ok: true; page: Page } | { ok: false; error: string }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, error: `${JSON.stringify(url)} is not a valid URL` };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return { ok: false, error: `${url} is not an http(s) URL` };
  const sent = await send(parsed.href, {
    headers: { accept: opts.accept ?? "text/html, text/plain, application/json;q=0.9, */*;q=0.5" },
    headerTimeoutMs: opts.timeoutMs,
    idleTimeoutMs: opts.timeoutMs,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  if (!sent.ok) return { ok: false, error: sent.error };
  const res = sent.response;
  const text = await res.readText(opts.maxBytes);
  if (!text.ok) return { ok: false, error: text.error };
  return { ok: true, page: { status: res.status, url: res.url, contentType: res.headers.get("content-type") ?? "", text: text.value } };
}

/** The body, read on demand; a chunk must arrive within the idle timeout of being asked for. */
function watched(body: ReadableStream<Uint8Array>, controller: AbortController, idleTimeoutMs: number, from: string): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let idle = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(out) {
        const timer = setTimeout(() => {
          idle = true;
          controller.abort();
        }, idleTimeoutMs);
        try {
          const { done, value } = await reader.read();
          if (done) out.close();
          else out.enqueue(value);
        } catch (e) {
          out.error(idle ? new BodyError("idle", `${from} sent nothing for ${seconds(idleTimeoutMs)}`) : e);
        } finally {
          clearTimeout(timer);
        }
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

function bodyError(e: unknown, url: string, got: number): BodyError {
  if (e instanceof BodyError) return e;
  if (e instanceof Error && e.name === "AbortError") return new BodyError("aborted", `the answer from ${origin(url)} was cancelled`);
  return new BodyError("network", `the answer from ${origin(url)} was cut short${got > 0 ? ` after ${got} bytes` : ""} (${describeError(e)})`);
}

/** A transport error as a short phrase (Bun appends advice about `verbose: true`, useless to users). */
export function describeError(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/\.? For more information, pass `verbose: true`.*$/s, "");
}

export function origin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** A byte count as people read it ("64 MiB", "512 KiB", "5 bytes"). */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MiB`;
  return bytes >= 1024 ? `${Number((bytes / 1024).toFixed(1))} KiB` : `${bytes} bytes`;
}
