import { describe, expect, test } from "bun:test";
import { redactSecrets } from "../../src/agent/redact.ts";

describe("redactSecrets", () => {
  test("masks every occurrence of every secret", () => {
    const key = "sk-ant-api03-abcdefghijklmnop";
    const out = redactSecrets(`Authorization: Bearer ${key} and again ${key}; token tok-123456`, [key, "tok-123456"]);
    expect(out).not.toContain(key);
    expect(out).not.toContain("tok-123456");
    expect(out).toContain("sk-a…[redacted]");
    expect(out).toContain("token [redacted]");
  });

  test("ignores strings too short to be secrets", () => {
    expect(redactSecrets("a b c", ["a", ""])).toBe("a b c");
  });
});
