// The real renderer's output fed into the in-process virtual terminal: after every frame the
// screen a user would see is exactly the frame, with colours on the right cells and nothing
// spilling past the edge.
import { describe, expect, test } from "bun:test";
import { Renderer } from "../../src/tui/terminal/renderer.ts";
import { visibleWidth } from "../../src/tui/terminal/width.ts";
import { VTerm } from "../helpers/vterm.ts";

function screen(width: number, height: number) {
  const vt = new VTerm(width, height);
  const r = new Renderer((s) => vt.write(s));
  const draw = (lines: string[], cursor: { row: number; col: number } | null = null) => {
    r.render(lines, cursor, vt.height, vt.width);
    // Every frame is a whole synchronized block: the terminal is never left mid-frame.
    expect(vt.inSync).toBe(false);
  };
  return { vt, draw };
}

const padTo = (lines: string[], rows: number) => [...lines, ...new Array<string>(Math.max(0, rows - lines.length)).fill("")];

describe("frames on screen", () => {
  test("the first frame is drawn in full with the cursor where it was asked for", () => {
    const { vt, draw } = screen(20, 4);
    draw(["hello", "world", "", "> typed"], { row: 3, col: 7 });
    expect(vt.lines()).toEqual(["hello", "world", "", "> typed"]);
    expect(vt.cursor).toEqual({ row: 3, col: 7 });
    expect(vt.cursorVisible).toBe(true);
    expect(vt.syncedFrames).toBe(1);
  });

  test("a frame without a cursor hides it", () => {
    const { vt, draw } = screen(10, 2);
    draw(["a", "b"], { row: 1, col: 1 });
    draw(["a", "b"]);
    expect(vt.cursorVisible).toBe(false);
  });

  test("changing one line repaints that line and leaves the rest of the screen as it was", () => {
    const { vt, draw } = screen(20, 5);
    const frame = ["one", "two", "three", "four", "five"];
    draw(frame);
    draw(["one", "two", "THREE!", "four", "five"]);
    expect(vt.lines()).toEqual(["one", "two", "THREE!", "four", "five"]);
  });

  test("a shorter line replaces a longer one without leftover characters", () => {
    const { vt, draw } = screen(20, 2);
    draw(["a long line of text", "x"]);
    draw(["short", "x"]);
    expect(vt.lines()).toEqual(["short", "x"]);
  });

  test("when content shrinks the rows it no longer fills are blank", () => {
    const { vt, draw } = screen(10, 4);
    draw(["a", "b", "c", "d"]);
    draw(["a"]);
    expect(vt.lines()).toEqual(["a", "", "", ""]);
  });

  test("content streaming up past the bottom scrolls and ends as the frame", () => {
    const { vt, draw } = screen(30, 12);
    const content = Array.from({ length: 40 }, (_, i) => `message line ${i}`);
    for (let top = 0; top < 20; top++) {
      const frame = [...content.slice(top, top + 10), "status", "> editor"];
      draw(frame);
      expect(vt.lines()).toEqual(frame);
    }
  });

  test("after a resize the next frame fills the new size with nothing stale", () => {
    const { vt, draw } = screen(30, 6);
    draw(["a wide first frame of text", "second", "third", "fourth", "fifth", "sixth"]);
    vt.resize(12, 4);
    draw(["narrow", "frame"]);
    expect(vt.lines()).toEqual(["narrow", "frame", "", ""]);
    vt.resize(40, 8);
    draw(["wider again"]);
    expect(vt.lines()).toEqual(padTo(["wider again"], 8));
  });

  test("lines longer than the screen are cut at its edge and never wrap onto the next row", () => {
    const { vt, draw } = screen(10, 3);
    draw(["x".repeat(25), "second", "third"]);
    expect(vt.lines()).toEqual(["x".repeat(10), "second", "third"]);
  });
});

describe("wide characters and emoji", () => {
  const lines = ["日本語のテキストがとても長い", "ab日本語", "👍🏽👍🏽👍🏽👍🏽👍🏽", "flags 🇯🇵🇫🇷🇩🇪🇬🇧", "👩‍💻 works 👨‍👩‍👧 here", "é combining ok é", "last"];

  for (const width of [5, 7, 9, 10, 11]) {
    test(`never overflow a ${width}-column line, so every row keeps its own text`, () => {
      const { vt, draw } = screen(width, lines.length);
      draw(lines);
      const shown = vt.lines();
      shown.forEach((row, i) => {
        expect(visibleWidth(row)).toBeLessThanOrEqual(width);
        // Each row shows a prefix of its own line: nothing from the row above spilled into it.
        expect(lines[i]!.startsWith(row)).toBe(true);
      });
      expect(shown.at(-1)).toBe("last");
    });
  }

  test("a wide character that would straddle the edge is left out rather than split", () => {
    const { vt, draw } = screen(3, 2);
    draw(["ab日", "next"]);
    expect(vt.lines()).toEqual(["ab", "nex"]);
  });
});

describe("styles on cells", () => {
  test("a colour ends with its line and never leaks onto the next one", () => {
    const { vt, draw } = screen(10, 2);
    draw(["\x1b[31mred", "plain"]);
    expect(vt.cell(0, 0).fg).toBe("31");
    expect(vt.cell(1, 0).fg).toBeNull();
  });
});
