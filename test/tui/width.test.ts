import { describe, expect, test } from "bun:test";
import { charWidth, nextCluster, visibleWidth } from "../../src/tui/terminal/width.ts";

describe("charWidth", () => {
  test("printable ASCII is one column and controls are zero", () => {
    expect(charWidth(0x41)).toBe(1);
    expect(charWidth(0x20)).toBe(1);
    expect(charWidth(0x00)).toBe(0);
    expect(charWidth(0x1b)).toBe(0);
    expect(charWidth(0x7f)).toBe(0);
    expect(charWidth(0x9b)).toBe(0);
  });

  test("CJK ideographs, kana, hangul syllables and fullwidth forms are two columns", () => {
    for (const ch of ["中", "日", "の", "カ", "한", "Ａ", "！", "𠀀"]) expect(charWidth(ch.codePointAt(0)!)).toBe(2);
  });

  test("combining marks, zero-width joiner, variation selectors and format characters are zero columns", () => {
    for (const cp of [0x0301, 0x200d, 0xfe0f, 0xfe0e, 0x200b, 0x2060, 0xfeff, 0x1160, 0xe0041, 0xe0100]) expect(charWidth(cp)).toBe(0);
  });

  test("emoji with emoji presentation are two columns and latin letters with accents one", () => {
    expect(charWidth(0x1f600)).toBe(2);
    expect(charWidth(0x1f44d)).toBe(2);
    expect(charWidth(0x1f9e0)).toBe(2);
    expect(charWidth(0x00e9)).toBe(1);
    expect(charWidth(0x03b1)).toBe(1);
  });
});

describe("visibleWidth", () => {
  test("counts plain ASCII by length", () => {
    expect(visibleWidth("")).toBe(0);
    expect(visibleWidth("hello world")).toBe(11);
  });

  test("counts CJK text at two columns per character", () => {
    expect(visibleWidth("日本語")).toBe(6);
    expect(visibleWidth("a中b")).toBe(4);
    expect(visibleWidth("한국어")).toBe(6);
  });

  test("counts emoji sequences as wide as the widest terminal draws them, so no line overflows", () => {
    expect(visibleWidth("👍")).toBe(2);
    // tmux 3.3 draws the skin tone as two more columns; xterm draws each joined emoji on its own.
    expect(visibleWidth("👍🏽")).toBe(4);
    expect(visibleWidth("👨‍👩‍👧‍👦")).toBe(8);
    expect(visibleWidth("🏳️‍🌈")).toBe(4);
    expect(visibleWidth("🇯🇵🇫🇷")).toBe(4);
    expect(visibleWidth("ok 🎉!")).toBe(6);
  });

  test("widens a text-presentation symbol followed by the emoji variation selector", () => {
    expect(visibleWidth("❤")).toBe(1);
    expect(visibleWidth("❤️")).toBe(2);
  });

  test("does not count combining marks or decomposed hangul jamo", () => {
    expect(visibleWidth("e\u0301")).toBe(1);
    expect(visibleWidth("a\u0308\u0304b")).toBe(2);
    expect(visibleWidth("\u1100\u1161\u11a8")).toBe(2);
  });

  test("skips SGR, cursor and OSC hyperlink sequences", () => {
    expect(visibleWidth("\x1b[1;31mred\x1b[0m")).toBe(3);
    expect(visibleWidth("\x1b[38;2;1;2;3m日本\x1b[39m")).toBe(4);
    expect(visibleWidth("\x1b]8;;https://x.y\x1b\\link\x1b]8;;\x1b\\")).toBe(4);
    expect(visibleWidth("\x1b]0;title\x07x")).toBe(1);
    expect(visibleWidth("a\x1b[2Kb")).toBe(2);
  });

  test("gives controls no width", () => {
    expect(visibleWidth("a\tb\r\n")).toBe(2);
  });
});

describe("nextCluster", () => {
  test("keeps a ZWJ family together as one cluster, counting every member's columns", () => {
    const s = "👨‍👩‍👧x";
    const c = nextCluster(s, 0);
    expect(s.slice(0, c.end)).toBe("👨‍👩‍👧");
    expect(c.width).toBe(6);
    expect(nextCluster(s, c.end)).toEqual({ end: s.length, width: 1 });
  });

  test("pairs regional indicators into flags", () => {
    const s = "🇯🇵🇫🇷";
    const c = nextCluster(s, 0);
    expect(c.end).toBe(4);
    expect(nextCluster(s, 4).end).toBe(8);
  });

  test("attaches combining marks to their base", () => {
    expect(nextCluster("e\u0301\u0302z", 0)).toEqual({ end: 3, width: 1 });
  });
});
