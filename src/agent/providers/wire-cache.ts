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

export class WireCache {
  private readonly texts = new WeakMap<Message, { key: string; json: JsonBytes[] }>();

  /** The JSON of `build()`'s values for `m` under `key`, built once per message and key. */
  json(m: Message, key: string, build: () => JsonObject[]): JsonBytes[] {
    const hit = this.texts.get(m);
    if (hit?.key === key) return hit.json;
    const json = build().map((v) => jsonBytes(JSON.stringify(v)));
    this.texts.set(m, { key, json });
    return json;
  }
}

const COMMA = jsonBytes(",");
const CLOSE = jsonBytes("]}");

/**
 * The buffers request bodies are written into, handed back when their call is over and reused by
 * the next. A body is the whole history, so a fresh one per step leaves the garbage of every
 * earlier step's body for the collector, which lets it pile up: over 2 000 steps the peak RSS grew
 * by ~25 KiB a step that way, against ~5 with the buffers reused (bench/step-memory.ts). Calls that
 * run at once (subagents) each hold their own buffer.
 */
class BodyBuffers {
  private readonly free: ArrayBuffer[] = [];

  take(size: number): Uint8Array {
    let best = -1;
    this.free.forEach((b, i) => {
      if (b.byteLength >= size && (best === -1 || b.byteLength < (this.free[best]?.byteLength ?? 0))) best = i;
    });
    const buffer = best === -1 ? new ArrayBuffer(Math.ceil(size * 1.25)) : (this.free.splice(best, 1)[0] ?? new ArrayBuffer(size));
    return new Uint8Array(buffer, 0, size);
  }

  /** `body` is no longer read by anyone (its request, with every retry, is over). */
  give(body: Uint8Array): void {
    if (!(body.buffer instanceof ArrayBuffer) || this.free.includes(body.buffer)) return;
    this.free.push(body.buffer);
    // Two are enough for a main loop and a subagent taking turns; the smallest goes first.
    if (this.free.length > 2) this.free.sort((a, b) => b.byteLength - a.byteLength).pop();
  }
}

export const bodyBuffers = new BodyBuffers();

/**
 * A request body: `fields`, then `list` under `key`, whose elements are given as pieces of JSON
 * (each element the concatenation of its pieces), copied once into a buffer of `bodyBuffers`.
 */
export function requestBody(fields: JsonObject, key: string, list: readonly (readonly JsonBytes[])[]): Uint8Array {
  const head = JSON.stringify(fields);
  const pieces = [jsonBytes(`${head.slice(0, -1)}${head === "{}" ? "" : ","}${JSON.stringify(key)}:[`)];
  list.forEach((element, i) => {
    if (i > 0) pieces.push(COMMA);
    for (const p of element) pieces.push(p);
  });
  pieces.push(CLOSE);
  let size = 0;
  for (const p of pieces) size += p.length;
  const body = bodyBuffers.take(size);
  let at = 0;
  for (const p of pieces) {
    body.set(p, at);
    at += p.length;
  }
  return body;
}
