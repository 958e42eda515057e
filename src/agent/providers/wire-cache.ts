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
 * A request body: `fields`, then `list` under `key`, whose elements are given as pieces of JSON
 * (each element the concatenation of its pieces), copied once into one buffer.
 */
export function requestBody(fields: JsonObject, key: string, list: readonly (readonly JsonBytes[])[]): Uint8Array {
  const head = JSON.stringify(fields);
  const pieces = [jsonBytes(`${head.slice(0, -1)}${head === "{}" ? "" : ","}${JSON.stringify(key)}:[`)];
  list.forEach((element, i) => {
    if (i > 0) pieces.push(COMMA);
    for (const p of element) pieces.push(p);
  });
  pieces.push(CLOSE);
  return Buffer.concat(pieces);
}
