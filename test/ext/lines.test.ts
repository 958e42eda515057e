import { describe, expect, test } from "bun:test";
import { LineReader } from "../../src/ext/connection/lines.ts";

function collect(maxLineBytes?: number) {
  const lines: string[] = [];
  const dropped: number[] = [];
  const reader = new LineReader({ onLine: (l) => lines.push(l), onOversize: (n) => dropped.push(n), maxLineBytes });
  return { reader, lines, dropped };
}

const bytes = (s: string) => new TextEncoder().encode(s);

describe("LineReader", () => {
  test("splits lines and skips blank ones", () => {
    const { reader, lines } = collect();
    reader.push(bytes('{"a":1}\n\n  \n{"b":2}\n'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
  });

  test("strips CRLF line endings, also when the CR and LF arrive in different chunks", () => {
    const { reader, lines } = collect();
    reader.push(bytes("one\r"));
    reader.push(bytes("\ntwo\r\n\r\n"));
    expect(lines).toEqual(["one", "two"]);
  });

  test("reassembles a multi-byte character split across chunks at every possible byte", () => {
    const text = "héllo → 世界 🎉";
    const all = bytes(text + "\n");
    for (let cut = 1; cut < all.length; cut++) {
      const { reader, lines } = collect();
      reader.push(all.slice(0, cut));
      reader.push(all.slice(cut));
      expect(lines).toEqual([text]);
    }
  });

  test("handles input delivered one byte at a time", () => {
    const { reader, lines } = collect();
    for (const b of bytes("ab\ncd\r\nef\n")) reader.push(Uint8Array.of(b));
    expect(lines).toEqual(["ab", "cd", "ef"]);
  });

  test("replaces invalid UTF-8 instead of failing", () => {
    const { reader, lines } = collect();
    reader.push(Uint8Array.of(0x61, 0xff, 0xfe, 0x62, 0x0a));
    expect(lines).toEqual(["a\uFFFD\uFFFDb"]);
  });

  test("emits a final line without a trailing newline at end of input", () => {
    const { reader, lines } = collect();
    reader.push(bytes("first\nlast"));
    expect(lines).toEqual(["first"]);
    reader.end();
    expect(lines).toEqual(["first", "last"]);
  });

  test("drops a line over the limit, reports its size, and keeps reading", () => {
    const { reader, lines, dropped } = collect(10);
    reader.push(bytes("short\n0123456"));
    reader.push(bytes("789abcdef"));
    reader.push(bytes("ghij\nafter\n"));
    expect(lines).toEqual(["short", "after"]);
    expect(dropped).toEqual([20]);
  });

  test("accepts a line exactly at the limit, with or without CR", () => {
    const { reader, lines, dropped } = collect(10);
    reader.push(bytes("0123456789\n0123456789\r\n01234567890\n"));
    expect(lines).toEqual(["0123456789", "0123456789"]);
    expect(dropped).toEqual([11]);
  });

  test("a line spread over many chunks arrives whole", () => {
    const { reader, lines } = collect();
    const piece = "x".repeat(1000);
    for (let i = 0; i < 100; i++) reader.push(bytes(piece));
    reader.push(bytes("\n"));
    expect(lines.length).toBe(1);
    expect(lines[0]).toBe(piece.repeat(100));
  });
});
