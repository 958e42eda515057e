import { describe, expect, test } from "bun:test";
import { pendingSecretPrefix, redactSecrets } from "../../src/redact.ts";

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

describe("pendingSecretPrefix", () => {
  const key = "sk-ant-api03-abcdefghijklmnop";

  test("counts the end of the text that could begin a secret", () => {
    expect(pendingSecretPrefix("the key is sk-ant-ap", [key])).toBe("sk-ant-ap".length);
    expect(pendingSecretPrefix("ends with s", [key])).toBe(1);
    expect(pendingSecretPrefix("nothing here", [key])).toBe(0);
  });

  test("does not hold a whole secret (that is masked at once) or short non-secrets", () => {
    expect(pendingSecretPrefix(`x ${key}`, [key])).toBe(0);
    expect(pendingSecretPrefix("ab", ["abc"])).toBe(0);
  });
});
