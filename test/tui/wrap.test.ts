import { describe, expect, test } from "bun:test";
import { stripAnsi } from "../../src/tui/terminal/ansi.ts";
import { visibleWidth } from "../../src/tui/terminal/width.ts";
import { padRight, truncate, wrap } from "../../src/tui/terminal/wrap.ts";

const RED = "\x1b[31m";
const RESET = "\x1b[0m";

describe("wrap", () => {
  test("breaks at spaces and drops the spaces at the break", () => {
    expect(wrap("the quick brown fox jumps", 10)).toEqual(["the quick", "brown fox", "jumps"]);
  });

  test("returns a short line unchanged and keeps empty lines", () => {
    expect(wrap("short", 20)).toEqual(["short"]);
    expect(wrap("", 20)).toEqual([""]);
    expect(wrap("a\n\nb", 20)).toEqual(["a", "", "b"]);
  });

  test("hard-breaks words longer than the width", () => {
    expect(wrap("abcdefghijkl xy", 5)).toEqual(["abcde", "fghij", "kl xy"]);
  });

  test("plain prose, long words and runs of spaces break where one character at a time would break them", () => {
    expect(wrap("  indented words that run past the width", 12)).toEqual(["  indented", "words that", "run past the", "width"]);
    expect(wrap("averyveryverylongwordwithoutspaces and more", 10)).toEqual(["averyveryv", "erylongwor", "dwithoutsp", "aces and", "more"]);
    expect(wrap("word   spaced    out     words", 7)).toEqual(["word", "spaced", "out", "words"]);
  });

  test("spaces that do not fit end the line, so the word after them never joins the word before", () => {
    expect(wrap("abcdefgh   x", 10)).toEqual(["abcdefgh", "x"]);
    expect(wrap("k~éé   中", 3)).toEqual(["k~é", "é", "中"]);
    expect(wrap(`${RED}abcdefgh${RESET}   x`, 10).map(stripAnsi)).toEqual(["abcdefgh", "x"]);
    // Spaces at the very end are just dropped: no empty line after them.
    expect(wrap("abcdefgh   ", 10)).toEqual(["abcdefgh"]);
  });

  test("a plain line breaks exactly where the same line breaks once a style is in it", () => {
    // A plain ASCII line is wrapped on the string, any other through tokens: both must keep one rule.
    let seed = 9;
    const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const pieces = ["a", "word", "longerwordthanwidth", " ", "  ", "    ", "a.b-c"];
    for (let k = 0; k < 3000; k++) {
      let line = "";
      for (let i = Math.floor(next() * 16); i > 0; i--) line += pieces[Math.floor(next() * pieces.length)];
      const w = 1 + Math.floor(next() * 14);
      // A reset opens no style: the text and its breaks stay the same, only the path changes.
      expect(wrap(`${RESET}${line}`, w).map(stripAnsi)).toEqual(wrap(line, w));
    }
  });

  test("an ASCII letter keeps the combining mark after it, and styled words break as plain ones", () => {
    expect(wrap("abcde\u0301 fghij", 5)).toEqual(["abcde\u0301", "fghij"]);
    expect(wrap("abcd \u0301x", 4)).toEqual(["abcd", " \u0301x"]);
    expect(wrap("ab👍🏽cd efgh", 4)).toEqual(["ab", "👍🏽", "cd", "efgh"]);
    expect(wrap("plain \x1b[1mbold words\x1b[0m plain again", 9)).toEqual([
      "plain\x1b[1m\x1b[0m",
      "\x1b[1mbold\x1b[0m",
      "\x1b[1mwords\x1b[0m",
      "plain",
      "again",
    ]);
  });

  test("keeps leading indentation of a source line", () => {
    expect(wrap("    code here", 20)).toEqual(["    code here"]);
    expect(wrap("  one two three", 9)).toEqual(["  one two", "three"]);
  });

  test("never splits a wide character across lines", () => {
    const lines = wrap("日本語のテキスト", 5);
    expect(lines).toEqual(["日本", "語の", "テキ", "スト"]);
    for (const l of lines) expect(visibleWidth(l)).toBeLessThanOrEqual(5);
  });

  test("keeps emoji ZWJ sequences and combining marks whole", () => {
    const lines = wrap("👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧", 12);
    expect(lines).toEqual(["👨‍👩‍👧👨‍👩‍👧", "👨‍👩‍👧"]);
    expect(wrap("e\u0301e\u0301e\u0301", 2)).toEqual(["e\u0301e\u0301", "e\u0301"]);
  });

  test("closes styles at the end of a line and re-opens them on the next", () => {
    const lines = wrap(`${RED}red words that wrap${RESET} plain`, 9);
    expect(lines).toEqual([`${RED}red words${RESET}`, `${RED}that wrap${RESET}`, "plain"]);
  });

  test("carries combined attributes across source newlines", () => {
    const lines = wrap("\x1b[1m\x1b[38;5;75mone\ntwo\x1b[39m\x1b[22m three", 40);
    expect(lines[0]).toBe("\x1b[1m\x1b[38;5;75mone\x1b[0m");
    expect(lines[1]).toBe("\x1b[1;38;5;75mtwo\x1b[39m\x1b[22m three");
  });

  test("keeps every line within the width and loses no visible text", () => {
    const words = ["alpha", "日本語", "👍", `${RED}red${RESET}`, "\x1b[1mbold\x1b[22m", "x", "longerwordthanwidth", "é"];
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    for (let n = 0; n < 300; n++) {
      const parts: string[] = [];
      for (let k = 0; k < 12; k++) parts.push(words[rand() % words.length]!);
      const text = parts.join(" ");
      const width = 3 + (rand() % 20);
      const lines = wrap(text, width);
      for (const l of lines) expect(visibleWidth(l)).toBeLessThanOrEqual(width);
      expect(lines.map(stripAnsi).join("").replace(/ /g, "")).toBe(stripAnsi(text).replace(/ /g, ""));
    }
  });
});

describe("truncate", () => {
  test("returns text that fits unchanged", () => {
    expect(truncate("hello", 5)).toBe("hello");
  });

  test("cuts with an ellipsis inside the width", () => {
    expect(truncate("hello world", 8)).toBe("hello w…");
    expect(truncate("hello world", 8, "...")).toBe("hello...");
    expect(truncate("hello world", 5, "")).toBe("hello");
  });

  test("keeps styles and closes them after the cut", () => {
    const out = truncate(`${RED}hello world${RESET}`, 6);
    expect(out).toBe(`${RED}hello…${RESET}`);
    expect(visibleWidth(out)).toBe(6);
  });

  test("does not cut a wide character in half", () => {
    expect(truncate("日本語", 4)).toBe("日…");
    expect(truncate("日本語", 5)).toBe("日本…");
    expect(visibleWidth(truncate("a日本語", 4, ""))).toBe(3);
  });

  test("drops the ellipsis when even it does not fit", () => {
    expect(truncate("hello", 0)).toBe("");
    expect(truncate("hello", 1, "...")).toBe("h");
  });
});

describe("padRight", () => {
  test("pads by visible width, ignoring escapes and counting wide characters", () => {
    expect(padRight("ab", 4)).toBe("ab  ");
    expect(padRight(`${RED}ab${RESET}`, 4)).toBe(`${RED}ab${RESET}  `);
    expect(padRight("日本", 6)).toBe("日本  ");
    expect(padRight("toolong", 3)).toBe("toolong");
  });
});

describe("Chinese, Japanese and Korean text", () => {
  test("Chinese and Japanese break between characters to fill the line, not at the last space before it; Korean at its spaces", () => {
    expect(wrap("Hello 这是一个很长的中文句子，用来测试换行的行为是否正确", 20)).toEqual(["Hello 这是一个很长的", "中文句子，用来测试换", "行的行为是否正确"]);
    expect(wrap("日本語のテキストは単語の間にスペースがありません", 16)).toEqual(["日本語のテキスト", "は単語の間にスペ", "ースがありません"]);
    expect(wrap("한국어 문장도 글자 사이에서 줄을 바꿉니다", 13)).toEqual(["한국어 문장도", "글자 사이에서", "줄을 바꿉니다"]);
  });

  test("latin words beside them still wrap whole, and no line is wider than asked", () => {
    const lines = wrap("see 文件 parseConfig 和 readFileSync 的说明", 14);
    expect(lines).toEqual(["see 文件", "parseConfig 和", "readFileSync", "的说明"]);
    for (const l of lines) expect(visibleWidth(l)).toBeLessThanOrEqual(14);
  });
});
