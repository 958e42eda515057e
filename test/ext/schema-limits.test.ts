import { describe, expect, test } from "bun:test";
import type { Json } from "../../src/protocol.ts";
import { MAX_SCHEMA_BYTES, MAX_SCHEMA_DEPTH, schemaLimitProblem } from "../../src/ext/schema-limits.ts";

/** An object schema whose objects and arrays nest `depth` levels, the root included. */
function nested(depth: number): Json {
  let v: Json = {};
  for (let i = 1; i < depth; i++) v = i % 2 ? { type: "array", items: v } : [v];
  return v;
}

describe("schema limits", () => {
  test("ordinary schemas pass", () => {
    expect(schemaLimitProblem({ type: "object", properties: { city: { type: "string" }, days: { type: "array", items: { type: "number" } } } })).toBeNull();
  });

  test(`nesting up to ${MAX_SCHEMA_DEPTH} levels passes; one more is refused`, () => {
    expect(schemaLimitProblem(nested(MAX_SCHEMA_DEPTH))).toBeNull();
    expect(schemaLimitProblem(nested(MAX_SCHEMA_DEPTH + 1))).toBe(`is nested more than ${MAX_SCHEMA_DEPTH} levels deep`);
  });

  test("a schema nested 100 000 levels deep is refused without overflowing the stack", () => {
    expect(schemaLimitProblem(JSON.parse('{"a":'.repeat(100_000) + "1" + "}".repeat(100_000)))).toContain("levels deep");
  });

  test("the size counts as compact JSON: just under the limit passes, just over is refused", () => {
    const overhead = JSON.stringify({ d: "" }).length;
    const at = { d: "x".repeat(MAX_SCHEMA_BYTES - overhead) };
    expect(JSON.stringify(at).length).toBe(MAX_SCHEMA_BYTES);
    expect(schemaLimitProblem(at)).toBeNull();
    expect(schemaLimitProblem({ d: "x".repeat(MAX_SCHEMA_BYTES - overhead + 1) })).toBe("is larger than 256 KiB as JSON");
  });

  test("many small properties add up", () => {
    const props: Record<string, Json> = {};
    for (let i = 0; i < 20_000; i++) props[`p${i}`] = { type: "string" };
    expect(schemaLimitProblem({ type: "object", properties: props })).toBe("is larger than 256 KiB as JSON");
  });
});
