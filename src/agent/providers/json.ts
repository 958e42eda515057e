// Tiny readers for provider JSON: the payloads are untrusted input, so every field is checked for
// its type where it is used and anything unexpected reads as absent.

export type Rec = Record<string, unknown>;

export function rec(v: unknown): Rec | undefined {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Rec) : undefined;
}

export function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

export function num(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

export function arr(v: unknown): unknown[] | undefined {
  return Array.isArray(v) ? v : undefined;
}

/** Parses one SSE data payload; undefined when it is not a JSON object. */
export function parseObject(text: string): Rec | undefined {
  try {
    return rec(JSON.parse(text));
  } catch {
    return undefined;
  }
}
