// The `zot ext test` script format: one JSON object per line.
//   {"send": {...host frame...}}                  ids filled in: missing or "$auto" → a fresh id
//   {"expect": {...subset...}, "within_ms": N}    an extension frame matching the subset arrives in time
//   {"expect_none": {...subset...}, "within_ms": N}  no matching frame arrives for N ms
//   {"sleep_ms": N}
// Any step may carry "name" (a label for the report). "$last_id" anywhere in a step stands for the id
// of the last frame sent. Blank lines and lines starting with # or // are comments.
import type { Result } from "../result.ts";
import { isObject, kind, type Json, type JsonObject } from "../json.ts";

const DEFAULT_WITHIN_MS = 5000;
const DEFAULT_NONE_MS = 500;

export type ScriptStep =
  | { kind: "send"; line: number; name: string | null; frame: JsonObject }
  | { kind: "expect"; line: number; name: string | null; match: JsonObject; withinMs: number }
  | { kind: "expect_none"; line: number; name: string | null; match: JsonObject; withinMs: number }
  | { kind: "sleep"; line: number; name: string | null; ms: number };

/** Host frames that are requests: the harness gives them an id when the script leaves it out. */
const NEEDS_ID = new Set(["command_invoked", "tool_call", "event_intercept"]);
const STEP_KEYS = ["send", "expect", "expect_none", "sleep_ms"] as const;
const KNOWN_KEYS = new Set<string>([...STEP_KEYS, "within_ms", "name"]);

export function parseScript(text: string, source: string): Result<{ steps: ScriptStep[] }> {
  const steps: ScriptStep[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const trimmed = (lines[i] ?? "").trim();
    if (trimmed === "" || trimmed.startsWith("#") || trimmed.startsWith("//")) continue;
    const where = `${source}:${lineNo}`;
    let raw: unknown;
    try {
      raw = JSON.parse(trimmed);
    } catch (e) {
      return { ok: false, error: `${where} is not valid JSON (${e instanceof Error ? e.message : String(e)}); each line must be one JSON object.` };
    }
    if (!isObject(raw)) return { ok: false, error: `${where} must be a JSON object, not ${kind(raw)}.` };
    const unknown = Object.keys(raw).filter((k) => !KNOWN_KEYS.has(k));
    if (unknown.length) return { ok: false, error: `${where} has unknown key ${JSON.stringify(unknown[0])}; use send, expect, expect_none or sleep_ms.` };
    const [key, ...others] = STEP_KEYS.filter((k) => raw[k] !== undefined);
    if (key === undefined || others.length > 0) return { ok: false, error: `${where} must have exactly one of send, expect, expect_none or sleep_ms.` };
    const name = raw.name === undefined ? null : raw.name;
    if (name !== null && typeof name !== "string") return { ok: false, error: `${where}: "name" must be a string.` };
    const within = raw.within_ms;
    if (within !== undefined && (typeof within !== "number" || !(within >= 0) || !Number.isFinite(within)))
      return { ok: false, error: `${where}: "within_ms" must be a non-negative number of milliseconds.` };

    if (key === "send") {
      const frame = raw.send;
      if (!isObject(frame) || typeof frame.type !== "string") return { ok: false, error: `${where}: "send" must be a frame object with a string "type".` };
      if (within !== undefined) return { ok: false, error: `${where}: "within_ms" belongs to expect lines, not send.` };
      steps.push({ kind: "send", line: lineNo, name, frame });
    } else if (key === "sleep_ms") {
      const ms = raw.sleep_ms;
      if (typeof ms !== "number" || !(ms >= 0) || !Number.isFinite(ms)) return { ok: false, error: `${where}: "sleep_ms" must be a non-negative number.` };
      steps.push({ kind: "sleep", line: lineNo, name, ms });
    } else {
      const match = raw[key];
      if (!isObject(match)) return { ok: false, error: `${where}: "${key}" must be an object (the fields to match).` };
      const withinMs = (within as number | undefined) ?? (key === "expect" ? DEFAULT_WITHIN_MS : DEFAULT_NONE_MS);
      steps.push({ kind: key, line: lineNo, name, match, withinMs });
    }
  }
  return { ok: true, steps };
}

/** Replaces every "$last_id" string in `v`. */
export function substitute(v: Json, lastId: string | null): Json {
  if (v === "$last_id") return lastId;
  if (Array.isArray(v)) return v.map((x) => substitute(x, lastId));
  if (isObject(v)) {
    const out: JsonObject = {};
    for (const [k, x] of Object.entries(v)) out[k] = substitute(x, lastId);
    return out;
  }
  return v;
}

/**
 * The frame to write for a send step: "$last_id" substituted, the id generated where needed, and
 * `type` then `id` first (line-oriented extensions, like the sh scaffold, rely on that order).
 */
export function prepareSend(frame: JsonObject, lastId: string | null, nextId: () => string): { frame: JsonObject; id: string | null } {
  const filled = substitute(frame, lastId) as JsonObject;
  const { type, id, ...rest } = filled;
  let finalId: Json | undefined = id;
  if (id === "$auto" || (id === undefined && NEEDS_ID.has(String(type)))) finalId = nextId();
  const out: JsonObject = { type: type ?? null };
  if (finalId !== undefined) out.id = finalId;
  Object.assign(out, rest);
  return { frame: out, id: typeof finalId === "string" ? finalId : null };
}

/**
 * Subset match: every field in `want` must be in `got` with a matching value. Objects match
 * recursively as subsets; arrays must have the same length, element by element; scalars compare equal.
 */
export function matches(want: Json, got: unknown): boolean {
  if (isObject(want)) {
    if (!isObject(got)) return false;
    return Object.entries(want).every(([k, v]) => Object.hasOwn(got, k) && matches(v, got[k]));
  }
  if (Array.isArray(want)) {
    if (!Array.isArray(got) || got.length !== want.length) return false;
    return want.every((v, i) => matches(v, got[i]));
  }
  return want === got;
}
