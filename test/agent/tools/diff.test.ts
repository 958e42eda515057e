import { describe, expect, test } from "bun:test";
import { unifiedDiff } from "../../../src/agent/tools/diff.ts";

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `l${i + 1}`).join("\n") + "\n";

describe("unifiedDiff", () => {
  test("shows one changed line with three lines of context", () => {
    const before = lines(10);
    const after = before.replace("l5\n", "five\n");
    expect(unifiedDiff(before, after, { oldLabel: "f", newLabel: "f" })).toBe(
      ["--- f", "+++ f", "@@ -2,7 +2,7 @@", " l2", " l3", " l4", "-l5", "+five", " l6", " l7", " l8"].join("\n"),
    );
  });

  test("keeps distant changes in separate hunks and merges near ones", () => {
    const before = lines(30);
    const after = before.replace("l2\n", "two\n").replace("l4\n", "four\n").replace("l25\n", "x\n");
    const d = unifiedDiff(before, after);
    expect(d.match(/^@@/gm)?.length).toBe(2);
    expect(d).toContain("@@ -1,7 +1,7 @@");
    expect(d).toContain("@@ -22,7 +22,7 @@");
  });

  test("numbers pure insertions and deletions like diff -u", () => {
    expect(unifiedDiff("", "a\nb\n")).toBe("--- a\n+++ b\n@@ -0,0 +1,2 @@\n+a\n+b");
    expect(unifiedDiff("a\nb\nc\n", "a\nc\n")).toBe("--- a\n+++ b\n@@ -1,3 +1,2 @@\n a\n-b\n c");
  });

  test("finds a minimal script between interleaved changes", () => {
    const d = unifiedDiff("a\nb\nc\nd\ne\n", "a\nx\nc\ny\ne\n", { context: 0 });
    expect(d).toBe("--- a\n+++ b\n@@ -2,1 +2,1 @@\n-b\n+x\n@@ -4,1 +4,1 @@\n-d\n+y");
  });

  test("returns nothing for identical texts", () => {
    expect(unifiedDiff("same\n", "same\n")).toBe("");
  });

  test("handles a complete rewrite of a large file", () => {
    const before = Array.from({ length: 5000 }, (_, i) => `a${i}`).join("\n");
    const after = Array.from({ length: 5000 }, (_, i) => `b${i}`).join("\n");
    const d = unifiedDiff(before, after);
    expect(d.split("\n").filter((l) => l.startsWith("-a")).length).toBe(5000);
    expect(d.split("\n").filter((l) => l.startsWith("+b")).length).toBe(5000);
  });
});
