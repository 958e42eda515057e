// The JSON text of what each history message becomes on a wire, kept per message. A long session
// sends the same history with every request, and serialising it again costs ~7 ms a megabyte (a
// resumed 48 MB transcript: 300 ms of CPU every step); joining cached texts costs a copy. Keyed by
// the message object, which is never changed once it is in the history, and by what else the wire
// form depends on (the provider and model a request goes to); a message that leaves the history
// takes its text with it.
import type { JsonObject, Message } from "../messages.ts";

export class WireCache {
  private readonly texts = new WeakMap<Message, { key: string; json: string[] }>();

  /** The JSON texts of `build()`'s values for `m` under `key`, built once per message and key. */
  json(m: Message, key: string, build: () => JsonObject[]): string[] {
    const hit = this.texts.get(m);
    if (hit?.key === key) return hit.json;
    const json = build().map((v) => JSON.stringify(v));
    this.texts.set(m, { key, json });
    return json;
  }
}

/**
 * A request body: `fields`, then `list` under `key`, whose elements are given as JSON texts (each
 * element the concatenation of its texts). Encoded straight into one buffer: joining the texts
 * into a string first would make a second copy of the whole history for every request.
 */
export function requestBody(fields: JsonObject, key: string, list: readonly (readonly string[])[]): Uint8Array {
  const head = JSON.stringify(fields);
  const texts = [`${head.slice(0, -1)}${head === "{}" ? "" : ","}${JSON.stringify(key)}:[`];
  list.forEach((element, i) => {
    if (i > 0) texts.push(",");
    for (const t of element) texts.push(t);
  });
  texts.push("]}");
  let size = 0;
  for (const t of texts) size += Buffer.byteLength(t);
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const t of texts) at += out.write(t, at);
  return out;
}
