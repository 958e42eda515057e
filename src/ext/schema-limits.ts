// How deep and how large a tool's JSON schema may be. Every model call serialises every active
// tool's schema, so one schema nested 100 000 levels deep (or megabytes long) would break every
// call; such tools are refused when they register instead. Extension and MCP tools share the rule.
import type { Json } from "../protocol.ts";

/** Nesting of objects and arrays, the root counting as 1. Real schemas stay far below. */
export const MAX_SCHEMA_DEPTH = 64;
/** The schema's size as compact JSON. */
export const MAX_SCHEMA_BYTES = 256 * 1024;

/**
 * Why `schema` is too deep or too large to send to a model, as a clause ("is nested more than 64
 * levels deep"), or null when it is within the limits. Walks the value without recursion, so any
 * depth is safe to check, and stops as soon as a limit is passed.
 */
export function schemaLimitProblem(schema: Json): string | null {
  const stack: [Json, number][] = [[schema, 1]];
  // A close estimate of JSON.stringify(schema).length (string escapes aside), counted in UTF-16 units.
  let bytes = 0;
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") {
      bytes += typeof v === "string" ? v.length + 2 : String(v).length;
    } else {
      if (depth > MAX_SCHEMA_DEPTH) return `is nested more than ${MAX_SCHEMA_DEPTH} levels deep`;
      if (Array.isArray(v)) {
        bytes += 2 + Math.max(0, v.length - 1);
        for (const item of v) stack.push([item, depth + 1]);
      } else {
        const keys = Object.keys(v);
        bytes += 2 + Math.max(0, keys.length - 1);
        for (const k of keys) {
          bytes += k.length + 3;
          stack.push([v[k]!, depth + 1]);
        }
      }
    }
    if (bytes > MAX_SCHEMA_BYTES) return `is larger than ${MAX_SCHEMA_BYTES / 1024} KiB as JSON`;
  }
  return null;
}
