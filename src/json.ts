// JSON values as every layer sees them (the protocol, providers, transcripts, RPC), and the two
// checks their hand-written decoders start from.
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The JSON kind of a value, for error messages ("got array"). */
export function kind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}
