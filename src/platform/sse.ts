// Server-sent events over a byte stream, as the provider wire formats and MCP's Streamable HTTP use
// them. Follows the WHATWG event-stream rules (any line ending, comments, unknown fields, multi-line
// data) with one deliberate difference: a last event that is not followed by a blank line is still
// delivered at end of input, because real recordings end that way and the SDKs accept them. The one
// size cap is `maxEventChars` (an event, or the line being read, past it throws SseEventTooLarge).
// The decoder keeps the stream's last event id and the server's `retry` delay, which a client needs
// to reconnect (MCP's resumable streams).
import { onAbort } from "../abort.ts";

export type SseEvent = { event: string; data: string; id?: string };

/** Thrown by the decoder when one event (or one line) grows past its limit, before it is held in memory. */
export class SseEventTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`an event larger than ${limit} characters`);
  }
}

/**
 * Incremental decoder: feed text in any pieces, collect complete events. Each character is looked at
 * a constant number of times, so decoding is linear in the input however it is chunked.
 */
export class SseDecoder {
  private partial = "";
  /** The previous piece ended in "\r": a "\n" opening the next piece belongs to that line ending. */
  private skipLf = false;
  private event = "";
  private data: string[] = [];
  private id: string | undefined;
  /** Characters held for the event being built (its data lines and the unfinished line). */
  private held = 0;
  /** The reconnection delay the server asked for with `retry:` (ms), once it did. */
  private retry: number | undefined;

  constructor(private readonly maxEventChars = Infinity) {}

  /** The last `id:` seen (it stays across events, as WHATWG says), for a reconnection's `Last-Event-ID`. */
  get lastEventId(): string | undefined {
    return this.id;
  }

  get retryMs(): number | undefined {
    return this.retry;
  }

  /** A reconnected stream goes on from the last id and delay of the one that broke. */
  resumeFrom(id: string | undefined, retryMs: number | undefined): void {
    this.id = id;
    this.retry = retryMs;
  }

  push(text: string): SseEvent[] {
    const out: SseEvent[] = [];
    if (text === "") return out;
    let start = 0;
    if (this.skipLf && text.startsWith("\n")) start = 1;
    this.skipLf = false;
    // Line ends are found with indexOf, not by a loop over every character: the compiled binary
    // keeps code like this in the interpreter (--compile-jit-policy), where such a loop cost
    // ~0.1 ms per model response. Each search starts past the previous hit, so it stays linear.
    let cr = text.indexOf("\r", start);
    let lf = text.indexOf("\n", start);
    while (cr !== -1 || lf !== -1) {
      const end = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf);
      const line = this.partial + text.slice(start, end);
      this.partial = "";
      this.line(line, out);
      start = end + 1;
      if (end === cr) {
        if (start === text.length) this.skipLf = true;
        else if (lf === start) start++;
      }
      if (cr !== -1 && cr < start) cr = text.indexOf("\r", start);
      if (lf !== -1 && lf < start) lf = text.indexOf("\n", start);
    }
    if (start < text.length) this.partial += text.slice(start);
    if (this.held + this.partial.length > this.maxEventChars) throw new SseEventTooLarge(this.maxEventChars);
    return out;
  }

  /** End of input: an unterminated last line and an event without its blank line still count. */
  end(): SseEvent[] {
    const out: SseEvent[] = [];
    if (this.partial !== "") {
      const line = this.partial;
      this.partial = "";
      this.line(line, out);
    }
    this.line("", out);
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === "") {
      if (this.data.length > 0) {
        const ev: SseEvent = { event: this.event || "message", data: this.data.join("\n") };
        if (this.id !== undefined) ev.id = this.id;
        out.push(ev);
      }
      this.event = "";
      this.data = [];
      this.held = 0;
      return;
    }
    if (line.charCodeAt(0) === 58) return; // ":" comment
    // Nearly every line a provider sends is `data: …` or `event: …`: told by their prefix, without
    // cutting the field name out first.
    if (line.startsWith("data:")) {
      const value = line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5);
      this.data.push(value);
      this.held += value.length;
      return;
    }
    if (line.startsWith("event:")) {
      this.event = line.charCodeAt(6) === 32 ? line.slice(7) : line.slice(6);
      return;
    }
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === "data") {
      this.data.push(value);
      this.held += value.length;
    } else if (field === "event") this.event = value;
    else if (field === "id" && !value.includes("\u0000")) this.id = value;
    else if (field === "retry" && /^[0-9]+$/.test(value)) this.retry = Number(value);
  }
}

/**
 * Yields the events of a response body (decoded by `sse`, whose last id and retry delay the caller may
 * read afterwards). The abort signal cancels the underlying stream at once;
 * a consumer that stops early also cancels it. Read errors (and SseEventTooLarge) propagate to the caller.
 */
export async function* parseSse(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
  maxEventChars?: number,
  sse = new SseDecoder(maxEventChars),
): AsyncGenerator<SseEvent> {
  for await (const events of sseChunks(body, signal, sse)) for (const ev of events) yield ev;
}

/**
 * parseSse by the chunk: the events each chunk of the body completes, as one array (none for a
 * chunk that completes none). For a consumer that handles events in batches: each step of an
 * async generator costs a promise, so a long stream of small events pays it per chunk instead of per
 * event. `onChunk` sees each chunk arrive (an idle watchdog's clock).
 */
export async function* sseChunks(
  body: ReadableStream<Uint8Array>,
  signal: AbortSignal | undefined,
  sse: SseDecoder,
  onChunk?: () => void,
): AsyncGenerator<SseEvent[]> {
  const reader = body.getReader();
  const decoder = new TextDecoder("utf-8");
  const unlisten = onAbort(signal, () => {
    reader.cancel().catch(() => {});
  });
  try {
    if (signal?.aborted) return;
    for (;;) {
      const { done, value } = await reader.read();
      if (signal?.aborted) return;
      if (done) break;
      onChunk?.();
      const events = sse.push(decoder.decode(value, { stream: true }));
      if (events.length > 0) yield events;
    }
    const last = [...sse.push(decoder.decode()), ...sse.end()];
    if (last.length > 0) yield last;
  } finally {
    unlisten();
    reader.cancel().catch(() => {});
  }
}
