// The in-process virtual terminal itself: each sequence zot emits lands the cursor and the cells
// where a real terminal would, and anything it does not know is an error, never ignored.
import { describe, expect, test } from "bun:test";
import { VTerm } from "../helpers/vterm.ts";

describe("text and cursor movement", () => {
  test("prints text at the cursor and trims trailing blanks from lines", () => {
    const vt = new VTerm(10, 3);
    vt.write("hi  ");
    expect(vt.lines()).toEqual(["hi", "", ""]);
    expect(vt.cursor).toEqual({ row: 0, col: 4 });
  });

  test("CUP places the cursor 1-based and clamps to the screen", () => {
    const vt = new VTerm(10, 3);
    vt.write("\x1b[2;3Hx\x1b[Hy\x1b[99;99Hz");
    expect(vt.lines()).toEqual(["y", "  x", "         z"]);
  });

  test("relative moves, column and row absolute go where they say", () => {
    const vt = new VTerm(10, 4);
    vt.write("\x1b[3;5H\x1b[2Aa\x1b[Bb\x1b[3Cc\x1b[10Dd\x1b[4Ge\x1b[4df");
    expect(vt.lines()).toEqual(["    a", "d  e b   c", "", "    f"]);
  });

  test("CR returns to the first column and LF moves down", () => {
    const vt = new VTerm(10, 3);
    vt.write("abc\r\ndef\rX");
    expect(vt.lines()).toEqual(["abc", "Xef", ""]);
  });

  test("writing past the last column wraps onto the next line", () => {
    const vt = new VTerm(4, 3);
    vt.write("abcd");
    expect(vt.cursor).toEqual({ row: 0, col: 3 });
    vt.write("ef");
    expect(vt.lines()).toEqual(["abcd", "ef", ""]);
  });

  test("a line feed on the bottom row scrolls the screen up", () => {
    const vt = new VTerm(5, 2);
    vt.write("one\r\ntwo\r\nthree");
    expect(vt.lines()).toEqual(["two", "three"]);
  });
});

describe("erasing", () => {
  test("CSI K erases to the end, to the start, or the whole line", () => {
    const vt = new VTerm(6, 3);
    vt.write("abcdef\x1b[1;3H\x1b[K\x1b[2;1Habcdef\x1b[2;3H\x1b[1K\x1b[3;1Habcdef\x1b[2K");
    expect(vt.lines()).toEqual(["ab", "   def", ""]);
  });

  test("CSI J erases below, above, or the whole display", () => {
    const vt = new VTerm(3, 3);
    const fill = "\x1b[1;1Haaa\x1b[2;1Hbbb\x1b[3;1Hccc";
    vt.write(fill + "\x1b[2;2H\x1b[J");
    expect(vt.lines()).toEqual(["aaa", "b", ""]);
    vt.write(fill + "\x1b[2;2H\x1b[1J");
    expect(vt.lines()).toEqual(["", "  b", "ccc"]);
    vt.write(fill + "\x1b[2J");
    expect(vt.lines()).toEqual(["", "", ""]);
  });
});

describe("scroll regions", () => {
  test("CSI S and CSI T scroll only the rows inside the region", () => {
    const vt = new VTerm(4, 5);
    vt.write(["r0", "r1", "r2", "r3", "r4"].map((t, i) => `\x1b[${i + 1};1H${t}`).join(""));
    vt.write("\x1b[2;4r\x1b[1S\x1b[r");
    expect(vt.lines()).toEqual(["r0", "r2", "r3", "", "r4"]);
    vt.write("\x1b[2;4r\x1b[2T\x1b[r");
    expect(vt.lines()).toEqual(["r0", "", "", "r2", "r4"]);
  });

  test("setting a region homes the cursor and a line feed at its bottom scrolls only the region", () => {
    const vt = new VTerm(4, 4);
    vt.write("\x1b[1;1Ha\x1b[2;1Hb\x1b[3;1Hc\x1b[4;1Hd\x1b[2;3r");
    expect(vt.cursor).toEqual({ row: 0, col: 0 });
    expect(vt.scrollRegion).toEqual({ top: 1, bottom: 2 });
    vt.write("\x1b[3;1H\nx");
    expect(vt.lines()).toEqual(["a", "c", "x", "d"]);
    vt.write("\x1b[r");
    expect(vt.scrollRegion).toEqual({ top: 0, bottom: 3 });
  });

  test("an impossible region is an error", () => {
    expect(() => new VTerm(4, 4).write("\x1b[3;2r")).toThrow("scroll region 3;2 is invalid for 4 rows");
  });
});

describe("modes", () => {
  test("synchronized output, cursor visibility and bracketed paste are tracked", () => {
    const vt = new VTerm(4, 2);
    vt.write("\x1b[?2026h\x1b[?25l\x1b[?2004h");
    expect(vt.inSync).toBe(true);
    expect(vt.cursorVisible).toBe(false);
    expect(vt.modes.has(2004)).toBe(true);
    vt.write("\x1b[?25h\x1b[?2026l");
    expect(vt.inSync).toBe(false);
    expect(vt.syncedFrames).toBe(1);
    expect(vt.cursorVisible).toBe(true);
  });

  test("the alternate screen starts blank and leaving it restores the main screen and cursor", () => {
    const vt = new VTerm(6, 2);
    vt.write("shell\x1b[?1049h");
    expect(vt.altScreen).toBe(true);
    expect(vt.lines()).toEqual(["", ""]);
    vt.write("\x1b[2;1Hzot");
    vt.write("\x1b[?1049l");
    expect(vt.lines()).toEqual(["shell", ""]);
    expect(vt.cursor).toEqual({ row: 0, col: 5 });
  });

  test("title stack, kitty keyboard flags and the background query are understood", () => {
    const vt = new VTerm(4, 2);
    vt.write("\x1b[22;0t\x1b[>1u\x1b]11;?\x1b\\\x1b[c");
    expect(vt.titleStack).toBe(1);
    expect(vt.kittyStack).toBe(1);
    vt.write("\x1b[<u\x1b[23;0t");
    expect(vt.titleStack).toBe(0);
    expect(vt.kittyStack).toBe(0);
    expect(vt.lines()).toEqual(["", ""]);
  });
});

describe("SGR attributes and colours", () => {
  test("bold and foreground colours are recorded per cell and reset by SGR 0", () => {
    const vt = new VTerm(10, 1);
    vt.write("\x1b[1ma\x1b[31mb\x1b[22mc\x1b[39md\x1b[38;5;75me\x1b[38;2;1;2;3mf\x1b[0mg");
    const cells = [0, 1, 2, 3, 4, 5, 6].map((c) => vt.cell(0, c));
    expect(cells.map((c) => c.bold)).toEqual([true, true, false, false, false, false, false]);
    expect(cells.map((c) => c.fg)).toEqual([null, "31", "31", null, "38;5;75", "38;2;1;2;3", null]);
  });

  test("background, dim, italic, underline, inverse and strike are recorded", () => {
    const vt = new VTerm(4, 1);
    vt.write("\x1b[2;3;4;7;9;48;5;238mx\x1b[23;24;27;29;49my");
    const x = vt.cell(0, 0);
    expect([x.dim, x.italic, x.underline, x.inverse, x.strike, x.bg]).toEqual([true, true, true, true, true, "48;5;238"]);
    const y = vt.cell(0, 1);
    expect([y.dim, y.italic, y.underline, y.inverse, y.strike, y.bg]).toEqual([true, false, false, false, false, null]);
  });

  test("an erased cell loses its attributes", () => {
    const vt = new VTerm(4, 1);
    vt.write("\x1b[1;31mab\x1b[1;1H\x1b[2K");
    expect(vt.cell(0, 0)).toMatchObject({ ch: " ", bold: false, fg: null });
  });
});

describe("OSC sequences", () => {
  test("the title is kept and prints nothing", () => {
    const vt = new VTerm(10, 1);
    vt.write("\x1b]2;zot · repo\x07ok");
    expect(vt.title).toBe("zot · repo");
    expect(vt.lines()).toEqual(["ok"]);
  });

  test("hyperlink targets are kept on the cells they cover", () => {
    const vt = new VTerm(10, 1);
    vt.write("a\x1b]8;;https://example.com\x1b\\bc\x1b]8;;\x1b\\d");
    expect([0, 1, 2, 3].map((c) => vt.cell(0, c).link)).toEqual([null, "https://example.com", "https://example.com", null]);
    expect(vt.lines()).toEqual(["abcd"]);
  });

  test("desktop notifications are collected", () => {
    const vt = new VTerm(10, 1);
    vt.write("\x1b]9;done\x07\x1b]777;notify;zot;finished\x07");
    expect(vt.notifications).toEqual(["done", "zot;finished"]);
  });
});

describe("wide characters", () => {
  test("a wide character takes two cells and the cursor moves by two", () => {
    const vt = new VTerm(6, 1);
    vt.write("日本x");
    expect(vt.cell(0, 0).ch).toBe("日");
    expect(vt.cell(0, 1).ch).toBe("");
    expect(vt.cell(0, 2).ch).toBe("本");
    expect(vt.cell(0, 4).ch).toBe("x");
    expect(vt.cursor.col).toBe(5);
    expect(vt.lines()).toEqual(["日本x"]);
  });

  test("an emoji sequence is one cluster as wide as zot measures it", () => {
    const vt = new VTerm(6, 1);
    vt.write("👍🏽!");
    expect(vt.cell(0, 0).ch).toBe("👍🏽");
    expect(vt.cell(0, 4).ch).toBe("!");
  });

  test("a wide character that does not fit in the last column wraps whole", () => {
    const vt = new VTerm(3, 2);
    vt.write("ab日");
    expect(vt.lines()).toEqual(["ab", "日"]);
  });

  test("overwriting half of a wide character blanks the other half", () => {
    const vt = new VTerm(4, 1);
    vt.write("日本\x1b[1;2Hx");
    expect(vt.lines()).toEqual([" x本"]);
  });
});

describe("strictness", () => {
  test("an unknown CSI sequence throws with the sequence quoted", () => {
    expect(() => new VTerm(4, 1).write("a\x1b[5n")).toThrow('unsupported escape sequence "\\u001b[5n"');
  });

  test("an unknown private mode throws", () => {
    expect(() => new VTerm(4, 1).write("\x1b[?1000h")).toThrow('"\\u001b[?1000h"');
  });

  test("an unknown SGR parameter throws", () => {
    expect(() => new VTerm(4, 1).write("\x1b[5m")).toThrow('"\\u001b[5m"');
  });

  test("an unknown OSC or two-byte escape throws", () => {
    expect(() => new VTerm(4, 1).write("\x1b]52;c;aGk=\x07")).toThrow("unsupported OSC sequence");
    expect(() => new VTerm(4, 1).write("\x1b7")).toThrow('"\\u001b7"');
  });

  test("a control character the TUI never sends throws", () => {
    expect(() => new VTerm(4, 1).write("a\tb")).toThrow('unsupported control character "\\t"');
  });

  test("a sequence split across writes is completed by the next write", () => {
    const vt = new VTerm(4, 1);
    vt.write("\x1b[3");
    vt.write("1mx\x1b]2;t");
    vt.write("\x07");
    expect(vt.cell(0, 0).fg).toBe("31");
    expect(vt.title).toBe("t");
  });
});

describe("resizing", () => {
  test("keeps the top-left of the screen, blanks a wide character cut at the new edge, clamps the cursor and resets the region", () => {
    const vt = new VTerm(6, 3);
    vt.write("abc日\x1b[2;1Hline2\x1b[3;1Hline3\x1b[1;2r\x1b[3;6H");
    vt.resize(4, 2);
    expect(vt.lines()).toEqual(["abc", "line"]);
    expect(vt.scrollRegion).toEqual({ top: 0, bottom: 1 });
    expect(vt.cursor).toEqual({ row: 1, col: 3 });
    vt.resize(8, 3);
    expect(vt.lines()).toEqual(["abc", "line", ""]);
  });
});
