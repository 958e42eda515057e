// The JSON of what each history message becomes on a wire, kept per message as UTF-8 bytes. A long
// session sends the same history with every request, and serialising it again costs ~7 ms a
// megabyte (a resumed 48 MB transcript: 300 ms of CPU every step); a request body is now one copy
// of the cached bytes. Keyed by the message object, which is never changed once it is in the
// history, and by what else the wire form depends on (the provider and model a request goes to);
// a message that leaves the history takes its bytes with it.
import type { JsonObject, Message } from "../messages.ts";

/** UTF-8 bytes of JSON text. */
export type JsonBytes = Uint8Array;

export const jsonBytes = (text: string): JsonBytes => Buffer.from(text, "utf8");

const EMPTY: JsonBytes = new Uint8Array(0);

export class WireCache {
  private readonly texts = new WeakMap<Message, { key: string; json: JsonBytes }>();

  /**
   * The JSON of `build(m)`'s values under `key`, comma-separated in one array (empty when there
   * are none), built once per message and key. One array per message and no list: a request walks
   * every message of the history, and a list per message per step was garbage the size of the
   * history on every step (so is a closure per message: `build` is made once per request).
   */
  json(m: Message, key: string, build: (m: Message) => JsonObject[]): JsonBytes {
    const hit = this.texts.get(m);
    if (hit?.key === key) return hit.json;
    const values = build(m);
    const json = values.length === 0 ? EMPTY : jsonBytes(values.length === 1 ? JSON.stringify(values[0]) : JSON.stringify(values).slice(1, -1));
    this.texts.set(m, { key, json });
    return json;
  }
}

export const COMMA = jsonBytes(",");
const CLOSE = jsonBytes("]}");

/**
 * The buffers request bodies are written into, handed back when their call is over and reused by
 * the next. A body is the whole history, so a fresh one per step leaves every earlier step's body
 * to the collector, which lets them pile up (a 2 000-step run peaked at 100 MiB that way, 91 MiB
 * with the buffers reused: bench/step-memory.ts). Calls that run at once (subagents) each hold their
 * own buffer.
 */
class BodyBuffers {
  /** Smallest first. */
  private readonly free: ArrayBuffer[] = [];

  take(size: number): Buffer {
    const fit = this.free.findIndex((b) => b.byteLength >= size);
    const buffer = fit === -1 ? new ArrayBuffer(Math.ceil(size * 1.25)) : this.free.splice(fit, 1)[0];
    return Buffer.from(buffer ?? new ArrayBuffer(size), 0, size);
  }

  /** `body` is no longer read by anyone (its request, with every retry, is over). */
  give(body: Uint8Array): void {
    if (!(body.buffer instanceof ArrayBuffer) || this.free.includes(body.buffer)) return;
    this.free.push(body.buffer);
    this.free.sort((a, b) => a.byteLength - b.byteLength);
    // Two are enough for a main loop and a subagent taking turns; the smallest goes.
    if (this.free.length > 2) this.free.shift();
  }
}

export const bodyBuffers = new BodyBuffers();

/**
 * Where a request body is written as the history is walked: the cached bytes of each message go
 * straight into a buffer of `bodyBuffers`. The walk runs twice, first only counting, so the buffer
 * is taken at its size (no list of pieces per step, no growing copies of a resumed history's body).
 */
export class BodyWriter {
  /** Null while counting. */
  private buf: Buffer | null = null;
  private at = 0;

  /** `bytes`, or its first `end` bytes. */
  put(bytes: Uint8Array, end = bytes.length): void {
    this.buf?.set(end === bytes.length ? bytes : bytes.subarray(0, end), this.at);
    this.at += end;
  }

  /** `text` as UTF-8. */
  text(text: string): void {
    this.at += this.buf ? this.buf.write(text, this.at, "utf8") : Buffer.byteLength(text, "utf8");
  }

  /** Counting is over: what is put from here on is written into a buffer of the size counted. */
  fill(): void {
    this.buf = bodyBuffers.take(this.at);
    this.at = 0;
  }

  body(): Uint8Array {
    return this.buf ?? new Uint8Array(0);
  }
}

/**
 * A request body: `fields`, then under `key` the list `write` puts into the writer it is given
 * (elements separated by COMMA). `write` is called twice (see BodyWriter) and must put the same both times.
 */
export function requestBody(fields: JsonObject, key: string, write: (out: BodyWriter) => void): Uint8Array {
  const json = JSON.stringify(fields);
  const head = `${json.slice(0, -1)}${json === "{}" ? "" : ","}${JSON.stringify(key)}:[`;
  const out = new BodyWriter();
  for (let pass = 0; pass < 2; pass++) {
    if (pass === 1) out.fill();
    out.text(head);
    write(out);
    out.put(CLOSE);
  }
  return out.body();
}

/** The elements of a list into a writer, each a JSON text or cached bytes (empty ones skipped), commas between them. */
export class ElementWriter {
  private first = true;

  constructor(private readonly out: BodyWriter) {}

  bytes(json: JsonBytes): void {
    if (json.length === 0) return;
    if (!this.first) this.out.put(COMMA);
    this.out.put(json);
    this.first = false;
  }

  text(json: string): void {
    if (!this.first) this.out.put(COMMA);
    this.out.text(json);
    this.first = false;
  }
}
