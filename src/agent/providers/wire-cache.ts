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
 * the next. A body is the whole history, so a fresh one per step leaves every earlier step's body
 * to the collector, which lets them pile up (a 2 000-step run peaked at 100 MiB that way, 91 MiB
 * with the buffers reused: bench/step-memory.ts). Calls that run at once (subagents) each hold their
 * own buffer.
 */
class BodyBuffers {
  /** Smallest first. */
  private readonly free: ArrayBuffer[] = [];

  take(size: number): Uint8Array {
    const fit = this.free.findIndex((b) => b.byteLength >= size);
    const buffer = fit === -1 ? new ArrayBuffer(Math.ceil(size * 1.25)) : this.free.splice(fit, 1)[0];
    return new Uint8Array(buffer ?? new ArrayBuffer(size), 0, size);
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
