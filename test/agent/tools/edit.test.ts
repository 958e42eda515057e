import { beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { editTool } from "../../../src/agent/tools/edit.ts";
import type { ToolContext, ToolOutput } from "../../../src/agent/tool.ts";
import { tempDir } from "../../helpers/temp.ts";

let dir: string;
beforeEach(() => {
  dir = tempDir("zot-edit-");
});

const ctx = (): ToolContext => ({ cwd: dir, signal: new AbortController().signal, progress: () => {}, home: dir });
const text = (out: ToolOutput): string => out.content.map((c) => (c.type === "text" ? c.text : "")).join("");
const file = (name: string, content: string | Buffer): string => {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
};

describe("edit", () => {
  test("replaces a unique match and returns a unified diff", async () => {
    const p = file("a.ts", "const a = 1;\nconst b = 2;\nconst c = 3;\n");
    const out = await editTool.execute({ path: "a.ts", edits: [{ oldText: "const b = 2;", newText: "const b = 20;" }] }, ctx());
    expect(out.isError).toBe(false);
    expect(readFileSync(p, "utf8")).toBe("const a = 1;\nconst b = 20;\nconst c = 3;\n");
    expect(text(out)).toContain(`Edited ${p}: 1 replacement applied.`);
    expect(text(out)).toContain(`--- ${p}\n+++ ${p}\n@@ -1,3 +1,3 @@\n const a = 1;\n-const b = 2;\n+const b = 20;\n const c = 3;`);
  });

  test("applies several edits together", async () => {
    const p = file("m.txt", "alpha\nbeta\ngamma\ndelta\n");
    const out = await editTool.execute(
      {
        path: p,
        edits: [
          { oldText: "delta", newText: "DELTA" },
          { oldText: "alpha", newText: "ALPHA" },
        ],
      },
      ctx(),
    );
    expect(out.isError).toBe(false);
    expect(readFileSync(p, "utf8")).toBe("ALPHA\nbeta\ngamma\nDELTA\n");
  });

  test("refuses an ambiguous match, names the count and changes nothing", async () => {
    const p = file("dup.txt", "x = 1\nx = 1\nkeep\n");
    const out = await editTool.execute(
      {
        path: p,
        edits: [
          { oldText: "keep", newText: "changed" },
          { oldText: "x = 1", newText: "x = 2" },
        ],
      },
      ctx(),
    );
    expect(out.isError).toBe(true);
    expect(text(out)).toContain("edits[1].oldText occurs 2 times");
    expect(text(out)).toContain("No edits were applied");
    expect(readFileSync(p, "utf8")).toBe("x = 1\nx = 1\nkeep\n");
  });

  test("refuses a missing match and changes nothing", async () => {
    const p = file("m.txt", "hello\n");
    const out = await editTool.execute(
      {
        path: p,
        edits: [
          { oldText: "hello", newText: "bye" },
          { oldText: "absent", newText: "x" },
        ],
      },
      ctx(),
    );
    expect(out.isError).toBe(true);
    expect(text(out)).toContain("edits[1].oldText was not found");
    expect(readFileSync(p, "utf8")).toBe("hello\n");
  });

  test("refuses overlapping edits", async () => {
    const p = file("o.txt", "one two three\n");
    const out = await editTool.execute(
      {
        path: p,
        edits: [
          { oldText: "one two", newText: "1 2" },
          { oldText: "two three", newText: "2 3" },
        ],
      },
      ctx(),
    );
    expect(out.isError).toBe(true);
    expect(text(out)).toContain("overlap");
    expect(readFileSync(p, "utf8")).toBe("one two three\n");
  });

  test("keeps CRLF line endings and matches LF text against them", async () => {
    const p = file("w.txt", "first\r\nsecond\r\nthird\r\n");
    const out = await editTool.execute({ path: p, edits: [{ oldText: "first\nsecond", newText: "1st\n2nd\nextra" }] }, ctx());
    expect(out.isError).toBe(false);
    expect(readFileSync(p, "utf8")).toBe("1st\r\n2nd\r\nextra\r\nthird\r\n");
  });

  test("keeps a UTF-8 byte-order mark", async () => {
    const p = file("bom.txt", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("a\nb\n")]));
    await editTool.execute({ path: p, edits: [{ oldText: "a", newText: "A" }] }, ctx());
    const bytes = readFileSync(p);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString()).toBe("A\nb\n");
  });

  test("numbers hunks deep in a file by its lines, with a BOM, CRLF and multi-byte text around them", async () => {
    const lines = Array.from({ length: 400 }, (_, i) => `línea ${i} — 日本`);
    const p = file("deep.txt", `\uFEFF${lines.join("\r\n")}\r\n`);
    const out = await editTool.execute(
      {
        path: p,
        edits: [
          { oldText: "línea 300 — 日本\nlínea 301", newText: "línea 300 — 日本\nnueva\nlínea 301" },
          { oldText: "línea 10 —", newText: "línea diez —" },
        ],
      },
      ctx(),
    );
    expect(out.isError).toBe(false);
    const next = [...lines];
    next[10] = "línea diez — 日本";
    next.splice(301, 0, "nueva");
    expect(readFileSync(p, "utf8")).toBe(`\uFEFF${next.join("\r\n")}\r\n`);
    expect(text(out)).toContain("@@ -8,7 +8,7 @@\n línea 7 — 日本\n línea 8 — 日本\n línea 9 — 日本\n-línea 10 — 日本\n+línea diez — 日本\n línea 11 — 日本");
    expect(text(out)).toContain("@@ -299,6 +299,7 @@\n línea 298 — 日本\n línea 299 — 日本\n línea 300 — 日本\n+nueva\n línea 301 — 日本");
  });

  test("keeps the file's permissions", async () => {
    const p = file("x.sh", "echo a\n");
    chmodSync(p, 0o755);
    await editTool.execute({ path: p, edits: [{ oldText: "echo a", newText: "echo b" }] }, ctx());
    expect(statSync(p).mode & 0o777).toBe(0o755);
  });

  test("points to write when the file does not exist", async () => {
    const out = await editTool.execute({ path: "new.txt", edits: [{ oldText: "a", newText: "b" }] }, ctx());
    expect(out.isError).toBe(true);
    expect(text(out)).toContain(`File not found: ${join(dir, "new.txt")}`);
    expect(text(out)).toContain("write");
  });

  test("rejects malformed edits", async () => {
    file("f.txt", "a\n");
    expect((await editTool.execute({ path: "f.txt", edits: [] }, ctx())).isError).toBe(true);
    const out = await editTool.execute({ path: "f.txt", edits: [{ oldText: "a" }] }, ctx());
    expect(text(out)).toContain("edits[0] must be an object with string fields oldText and newText");
  });
});

describe("edit on files it must not touch", () => {
  test("refuses a file that is not valid UTF-8 instead of corrupting it", async () => {
    const latin1 = Buffer.from("caf\xe9 au lait\n", "latin1");
    const p = file("latin1.txt", latin1);
    const out = await editTool.execute({ path: p, edits: [{ oldText: "au lait", newText: "noir" }] }, ctx());
    expect(out.isError).toBe(true);
    expect(text(out)).toContain("not valid UTF-8");
    expect(readFileSync(p).equals(latin1)).toBe(true);
  });
});
