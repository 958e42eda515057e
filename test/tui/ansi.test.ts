import { describe, expect, test } from "bun:test";
import { cursorTo, escapeLength, sanitize, stripAnsi } from "../../src/tui/terminal/ansi.ts";

const UNSAFE = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/;

describe("sanitize", () => {
  test("leaves ordinary text, unicode and newlines untouched", () => {
    const s = "hello 日本 👍\nsecond line é";
    expect(sanitize(s)).toBe(s);
  });

  test("removes CSI sequences: colours, cursor moves, erases, mode changes", () => {
    expect(sanitize("\x1b[31mred\x1b[0m")).toBe("red");
    expect(sanitize("a\x1b[2J\x1b[H\x1b[10;20Hb")).toBe("ab");
    expect(sanitize("x\x1b[?1049l\x1b[?25l\x1b[?2004ly")).toBe("xy");
    expect(sanitize("\x1b[>1u\x1b[<uz")).toBe("z");
  });

  test("removes OSC strings terminated by BEL or ST, including hyperlinks and title changes", () => {
    expect(sanitize("\x1b]0;evil title\x07ok")).toBe("ok");
    expect(sanitize("\x1b]8;;https://x\x1b\\link\x1b]8;;\x1b\\")).toBe("link");
    expect(sanitize("\x1b]52;c;Y29weQ==\x07paste")).toBe("paste");
  });

  test("removes DCS, APC, PM and SOS strings", () => {
    expect(sanitize("a\x1bPq#0;2;0;0;0\x1b\\b")).toBe("ab");
    expect(sanitize("a\x1b_Gf=100;AAAA\x1b\\b")).toBe("ab");
    expect(sanitize("a\x1b^privacy\x1b\\b")).toBe("ab");
    expect(sanitize("a\x1bXsos\x1b\\b")).toBe("ab");
  });

  test("removes two-byte escapes, charset selection and terminal reset", () => {
    expect(sanitize("a\x1bcb")).toBe("ab");
    expect(sanitize("a\x1b7\x1b8b")).toBe("ab");
    expect(sanitize("a\x1b(0qqq\x1b(Bb")).toBe("aqqqb");
    expect(sanitize("a\x1b#8b")).toBe("ab");
    expect(sanitize("a\x1bMb")).toBe("ab");
  });

  test("removes 8-bit C1 controls alone, so the text after them is kept as the inert text it is", () => {
    expect(sanitize("a\x9b31mb")).toBe("a31mb");
    expect(sanitize("a\x9d0;t\x9cb")).toBe("a0;tb");
    expect(sanitize("a\x85b\x84c")).toBe("abc");
    const json = JSON.stringify({ type: "text_delta", text: "x\x9b" }) + "\n";
    expect(JSON.parse(sanitize(json))).toEqual({ type: "text_delta", text: "x" });
  });

  test("removes bidirectional controls, so text reads on screen in the order it is stored", () => {
    expect(sanitize("admin\u202e\u2066txt.exe\u2069\u202c")).toBe("admintxt.exe");
    expect(sanitize("a\u200e\u200f\u061c\u202a\u202b\u202d\u2067\u2068b")).toBe("ab");
    // Joiners are not controls: emoji sequences keep them.
    expect(sanitize("👩\u200d💻")).toBe("👩\u200d💻");
  });

  test("removes C0 controls and DEL but keeps newlines", () => {
    expect(sanitize("a\x07b\x08c\x0bd\x0ce\x00f\x7fg\n")).toBe("abcdefg\n");
  });

  test("turns CRLF into LF and drops lone carriage returns so lines cannot be overwritten", () => {
    expect(sanitize("one\r\ntwo\rthree")).toBe("one\ntwothree");
    expect(sanitize("progress 10%\rprogress 100%\r\n")).toBe("progress 10%progress 100%\n");
  });

  test("expands tabs to the next tab stop, every four characters", () => {
    expect(sanitize("\tx")).toBe("    x");
    expect(sanitize("ab\tc\n\td")).toBe("ab  c\n    d");
  });

  test("drops an unterminated sequence at the end of the text", () => {
    expect(sanitize("ok\x1b[31")).toBe("ok");
    expect(sanitize("ok\x1b]0;never ends")).toBe("ok");
    expect(sanitize("ok\x1b")).toBe("ok");
  });

  test("never lets an escape or control through, whatever the input", () => {
    const parts = [
      "\x1b",
      "[",
      "]",
      "P",
      "_",
      "\\",
      "\x07",
      "\x9b",
      "\x9c",
      "\x9d",
      "\r",
      "\n",
      "\t",
      "1",
      ";",
      "m",
      "~",
      "a",
      "日",
      "\x00",
      "\x7f",
      "?",
      "2026h",
      "\x85",
    ];
    let seed = 42;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    for (let n = 0; n < 2000; n++) {
      let s = "";
      const len = rand() % 30;
      for (let k = 0; k < len; k++) s += parts[rand() % parts.length];
      const out = sanitize(s);
      expect(UNSAFE.test(out)).toBe(false);
    }
  });
});

describe("stripAnsi", () => {
  test("removes escape sequences and keeps other characters, controls included", () => {
    expect(stripAnsi("\x1b[1mbold\x1b[22m\tx")).toBe("bold\tx");
    expect(stripAnsi("plain")).toBe("plain");
  });
});

describe("escapeLength", () => {
  test("measures CSI, OSC and plain characters", () => {
    expect(escapeLength("\x1b[1;2Hx", 0)).toBe(6);
    expect(escapeLength("\x1b]8;;u\x1b\\x", 0)).toBe(8);
    expect(escapeLength("x", 0)).toBe(0);
  });
});

describe("cursorTo", () => {
  test("takes 0-based coordinates and emits 1-based CUP", () => {
    expect(cursorTo(0, 0)).toBe("\x1b[1;1H");
    expect(cursorTo(4, 9)).toBe("\x1b[5;10H");
  });
});
