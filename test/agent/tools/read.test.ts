import { beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readTool, READ_MAX_BYTES, READ_WHOLE_MAX_BYTES } from "../../../src/agent/tools/read.ts";
import type { JsonObject } from "../../../src/protocol.ts";
import type { ToolContext, ToolOutput } from "../../../src/agent/tool.ts";
import { tempDir } from "../../helpers/temp.ts";

let dir: string;
beforeEach(() => {
  dir = tempDir("zot-read-");
});

const ctx = (): ToolContext => ({ cwd: dir, signal: new AbortController().signal, progress: () => {}, home: dir });
const text = (out: ToolOutput): string => out.content.map((c) => (c.type === "text" ? c.text : `<image ${c.mimeType}>`)).join("\n");
const numbered = (n: number, width = 0): string => Array.from({ length: n }, (_, i) => `line ${i + 1}`.padEnd(width, ".")).join("\n") + "\n";

describe("read", () => {
  test("returns a small text file whole, relative to the session cwd", async () => {
    writeFileSync(join(dir, "a.txt"), "hello\nworld\n");
    const out = await readTool.execute({ path: "a.txt" }, ctx());
    expect(out.isError).toBe(false);
    expect(text(out)).toBe("hello\nworld");
  });

  test("stops at 2000 lines and says how to continue", async () => {
    writeFileSync(join(dir, "big.txt"), numbered(2500));
    const out = await readTool.execute({ path: "big.txt" }, ctx());
    const t = text(out);
    expect(t.split("\n")[1999]).toBe("line 2000");
    expect(t).not.toContain("line 2001\n");
    expect(t).toContain("[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]");
  });

  test("stops at 50 KiB when lines are long and names the byte limit", async () => {
    writeFileSync(join(dir, "wide.txt"), numbered(1000, 200));
    const out = await readTool.execute({ path: "wide.txt" }, ctx());
    const t = text(out);
    const body = t.slice(0, t.indexOf("\n\n["));
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(READ_MAX_BYTES);
    expect(t).toMatch(/\[Showing lines 1-\d+ of 1000 \(50 KiB per call\)\. Use offset=\d+ to continue\.\]/);
  });

  test("reaches offsets far beyond the first 50 KiB", async () => {
    writeFileSync(join(dir, "huge.txt"), numbered(200_000, 40));
    const out = await readTool.execute({ path: "huge.txt", offset: 150_000, limit: 3 }, ctx());
    const lines = text(out).split("\n");
    expect(lines[0]).toStartWith("line 150000.");
    expect(lines[2]).toStartWith("line 150002.");
    expect(text(out)).toContain("Use offset=150003 to continue.");
  });

  test("reports an offset past the end with the file's line count", async () => {
    writeFileSync(join(dir, "short.txt"), "one\ntwo\nthree");
    const out = await readTool.execute({ path: "short.txt", offset: 10 }, ctx());
    expect(out.isError).toBe(true);
    expect(text(out)).toContain("beyond the end");
    expect(text(out)).toContain("3 lines");
  });

  test("cuts very long lines and says which", async () => {
    writeFileSync(join(dir, "min.js"), "short\n" + "x".repeat(5000) + "\nafter\n");
    const t = text(await readTool.execute({ path: "min.js" }, ctx()));
    expect(t).toContain("x".repeat(2000) + " … [line cut: 3000 more characters]");
    expect(t).toContain("after");
    expect(t).toContain("Line 2 was longer than 2000 characters");
  });

  test("strips CR from CRLF lines", async () => {
    writeFileSync(join(dir, "crlf.txt"), "a\r\nb\r\n");
    expect(text(await readTool.execute({ path: "crlf.txt" }, ctx()))).toBe("a\nb");
  });

  test("returns PNG, JPEG, GIF and WebP as image blocks, recognised by content not name", async () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    const cases: [string, Buffer, string][] = [
      ["pic.dat", png, "image/png"],
      ["j", Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]), "image/jpeg"],
      ["g.gif", Buffer.from("GIF89a\x01\x00\x01\x00", "latin1"), "image/gif"],
      ["w.webp", Buffer.concat([Buffer.from("RIFF"), Buffer.from([1, 0, 0, 0]), Buffer.from("WEBPVP8 ")]), "image/webp"],
    ];
    for (const [name, bytes, mime] of cases) {
      writeFileSync(join(dir, name), bytes);
      const out = await readTool.execute({ path: name }, ctx());
      expect(out.isError).toBe(false);
      const img = out.content.find((c) => c.type === "image");
      expect(img).toEqual({ type: "image", mimeType: mime, data: bytes.toString("base64") });
    }
  });

  test("refuses binary files clearly", async () => {
    writeFileSync(join(dir, "blob.bin"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2, 3]));
    const out = await readTool.execute({ path: "blob.bin" }, ctx());
    expect(out.isError).toBe(true);
    expect(text(out)).toContain("binary");
  });

  test("refuses directories and suggests ls", async () => {
    mkdirSync(join(dir, "sub"));
    const out = await readTool.execute({ path: "sub" }, ctx());
    expect(out.isError).toBe(true);
    expect(text(out)).toContain("is a directory");
    expect(text(out)).toContain("ls");
  });

  test("names the resolved path of a missing file", async () => {
    const out = await readTool.execute({ path: "nope/missing.txt" }, ctx());
    expect(out.isError).toBe(true);
    expect(text(out)).toBe(`File not found: ${join(dir, "nope/missing.txt")}`);
  });

  test("rejects a bad offset argument", async () => {
    writeFileSync(join(dir, "a.txt"), "a\n");
    const out = await readTool.execute({ path: "a.txt", offset: 0 }, ctx());
    expect(out.isError).toBe(true);
    expect(text(out)).toContain('"offset" must be a positive whole number');
  });

  test("accepts numbers sent as strings", async () => {
    writeFileSync(join(dir, "n.txt"), numbered(10));
    expect(text(await readTool.execute({ path: "n.txt", offset: "9", limit: "1" }, ctx()))).toStartWith("line 9\n");
  });

  test("says a file is empty instead of returning nothing", async () => {
    writeFileSync(join(dir, "empty.txt"), "");
    const out = await readTool.execute({ path: "empty.txt" }, ctx());
    expect(out.isError).toBe(false);
    expect(text(out)).toContain("is empty");
  });

  test("a file at the read-whole limit and one a byte over it read the same", async () => {
    // Lines of mixed width (some cut), no newline at the end; the longer file adds only that newline,
    // which changes neither the lines nor the line count, so every page must come out identical.
    const lines: string[] = [];
    let size = 0;
    for (let i = 1; size < READ_WHOLE_MAX_BYTES; i++) {
      const line = `${i} ` + "é".repeat(i % 7 === 0 ? 1500 : i % 40);
      lines.push(line);
      size += Buffer.byteLength(line) + 1;
    }
    const body = Buffer.from(lines.join("\n")).subarray(0, READ_WHOLE_MAX_BYTES);
    expect(body.length).toBe(READ_WHOLE_MAX_BYTES);
    writeFileSync(join(dir, "at.txt"), body);
    writeFileSync(join(dir, "over.txt"), Buffer.concat([body, Buffer.from("\n")]));
    const total = body.toString().split("\n").length;
    const cases: JsonObject[] = [{}, { offset: 2001 }, { offset: total - 2 }, { offset: total }, { offset: total + 1 }, { offset: 1234, limit: 5 }];
    for (const args of cases) {
      const at = await readTool.execute({ path: "at.txt", ...args }, ctx());
      const over = await readTool.execute({ path: "over.txt", ...args }, ctx());
      expect(text(over).replaceAll("over.txt", "at.txt")).toBe(text(at));
      expect(over.isError).toBe(at.isError);
    }
    expect(text(await readTool.execute({ path: "at.txt" }, ctx()))).toContain(` of ${total} (50 KiB per call)`);
  });

  test("says the read was aborted when the signal fired, for small and large files", async () => {
    writeFileSync(join(dir, "small.txt"), "a\nb\n");
    writeFileSync(join(dir, "large.txt"), numbered(100_000, 20));
    const controller = new AbortController();
    controller.abort();
    for (const name of ["small.txt", "large.txt"]) {
      const out = await readTool.execute({ path: name }, { ...ctx(), signal: controller.signal });
      expect(out.isError).toBe(true);
      expect(text(out)).toBe(`Reading ${join(dir, name)} was aborted.`);
    }
  });

  test("returns an image over the read-whole limit whole", async () => {
    const png = Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(READ_WHOLE_MAX_BYTES, 7)]);
    writeFileSync(join(dir, "big.png"), png);
    const out = await readTool.execute({ path: "big.png" }, ctx());
    expect(out.content[0]).toEqual({ type: "text", text: `Image ${join(dir, "big.png")} (image/png, 1.0 MiB)` });
    expect(out.content[1]).toEqual({ type: "image", mimeType: "image/png", data: png.toString("base64") });
  });
});
