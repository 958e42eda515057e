import { describe, expect, test } from "bun:test";
import { stripAnsi } from "../../src/tui/ansi.ts";
import { Renderer } from "../../src/tui/renderer.ts";
import { VTerm } from "../helpers/vterm.ts";

function setup() {
  const writes: string[] = [];
  const r = new Renderer((s) => writes.push(s));
  return { r, writes, last: () => writes[writes.length - 1] ?? "" };
}

/** Rows that a frame rewrites, from its cursor-position + erase-line pairs (0-based). */
function rewrittenRows(out: string): number[] {
  return [...out.matchAll(/\x1b\[(\d+);1H\x1b\[2K/g)].map((m) => Number(m[1]) - 1);
}

describe("Renderer", () => {
  test("draws the first frame in full inside synchronized output", () => {
    const { r, last } = setup();
    const bytes = r.render(["one", "two", "three"], null, 3);
    const out = last();
    expect(out.startsWith("\x1b[?2026h")).toBe(true);
    expect(out.endsWith("\x1b[?2026l")).toBe(true);
    expect(out).toContain("\x1b[2J");
    expect(rewrittenRows(out)).toEqual([0, 1, 2]);
    expect(bytes).toBe(Buffer.byteLength(out));
  });

  test("writes nothing when the frame and cursor are unchanged", () => {
    const { r, writes } = setup();
    r.render(["a", "b"], { row: 1, col: 1 }, 2);
    expect(r.render(["a", "b"], { row: 1, col: 1 }, 2)).toBe(0);
    expect(writes.length).toBe(1);
  });

  test("rewrites only the lines that changed", () => {
    const { r, last } = setup();
    const frame = Array.from({ length: 40 }, (_, i) => `line ${i}`);
    r.render(frame, null, 40);
    const next = [...frame];
    next[7] = "changed 7";
    next[39] = "changed 39";
    const bytes = r.render(next, null, 40);
    const out = last();
    expect(rewrittenRows(out)).toEqual([7, 39]);
    expect(out).not.toContain("\x1b[2J");
    expect(out).toContain("changed 7");
    expect(out).not.toContain("line 8");
    expect(bytes).toBeLessThan(100);
  });

  test("blanks rows the new frame no longer fills", () => {
    const { r, last } = setup();
    r.render(["a", "b", "c"], null, 3);
    r.render(["a"], null, 3);
    expect(rewrittenRows(last())).toEqual([1, 2]);
  });

  test("redraws everything after invalidate or a change of size", () => {
    const { r, last } = setup();
    r.render(["a", "b"], null, 2);
    r.invalidate();
    r.render(["a", "b"], null, 2);
    expect(last()).toContain("\x1b[2J");
    r.render(["a", "b", "c"], null, 3);
    expect(rewrittenRows(last())).toEqual([0, 1, 2]);
    r.render(["a", "b", "c"], null, 3, 10);
    expect(last()).toContain("\x1b[2J");
  });

  test("cuts lines to the column count without breaking styles", () => {
    const { r, last } = setup();
    r.render(["\x1b[31mabcdefghij\x1b[0m", "日本語テキスト"], null, 2, 5);
    const out = last();
    expect(out).toContain("\x1b[31mabcde\x1b[0m");
    expect(out).toContain("日本\x1b[0m");
    expect(out).not.toContain("f");
  });

  test("places and shows the cursor, and hides it when there is none", () => {
    const { r, last } = setup();
    r.render(["> hi"], { row: 0, col: 4 }, 1);
    expect(last()).toContain("\x1b[1;5H\x1b[?25h");
    r.render(["> hi!"], { row: 0, col: 5 }, 1);
    expect(last()).toContain("\x1b[1;6H");
    expect(last()).not.toContain("\x1b[?25h");
    r.render(["> hi!"], null, 1);
    expect(last()).toContain("\x1b[?25l");
  });

  test("moves only the cursor when just the cursor moved", () => {
    const { r, last } = setup();
    r.render(["abc"], { row: 0, col: 0 }, 1);
    r.render(["abc"], { row: 0, col: 2 }, 1);
    expect(rewrittenRows(last())).toEqual([]);
    expect(last()).toBe("\x1b[?2026h\x1b[1;3H\x1b[?2026l");
  });

  test("resets styles at the end of each rewritten line so colours never leak", () => {
    const { r, last } = setup();
    r.render(["\x1b[31munclosed", "next"], null, 2);
    expect(last()).toContain("\x1b[31munclosed\x1b[0m");
  });

  test("scrolls the terminal instead of rewriting every line when content moves up", () => {
    const { r, last } = setup();
    const content = Array.from({ length: 30 }, (_, i) => `message line ${i}`);
    r.render([...content.slice(0, 20), "status", "> editor"], null, 22);
    const bytes = r.render([...content.slice(1, 21), "status", "> editor"], null, 22);
    const out = last();
    expect(out).toContain("\x1b[1;20r\x1b[1S\x1b[r");
    expect(rewrittenRows(out)).toEqual([19]);
    expect(bytes).toBeLessThan(80);
  });

  test("scrolls down when content moves down, as after page up", () => {
    const { r, last } = setup();
    const content = Array.from({ length: 40 }, (_, i) => `message line ${i}`);
    r.render([...content.slice(20, 40), "status"], null, 21);
    r.render([...content.slice(15, 35), "status"], null, 21);
    const out = last();
    expect(out).toContain("\x1b[1;20r\x1b[5T\x1b[r");
    expect(rewrittenRows(out)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe("Renderer output applied to a virtual terminal", () => {
  test("leaves the screen equal to the frame, colours included, after any sequence of scrolls and edits", () => {
    const rows = 24;
    const screen = new VTerm(80, rows);
    const r = new Renderer((s) => screen.write(s));
    const pool = Array.from({ length: 500 }, (_, i) => (i % 7 === 0 ? "" : `\x1b[3${i % 8}mline ${i}\x1b[0m 日本`));
    let seed = 3;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    let offset = 100;
    for (let step = 0; step < 1500; step++) {
      const op = rand(6);
      if (op === 0) offset += 1 + rand(3);
      else if (op === 1) offset -= 1 + rand(10);
      else if (op === 2) offset += rand(30) - 15;
      offset = Math.max(0, Math.min(pool.length - rows, offset));
      const frame = pool.slice(offset, offset + rows - 2);
      if (op === 3) frame[rand(frame.length)] = `\x1b[1medited ${step}\x1b[0m`;
      frame.push(`status ${rand(3)}`, "> input");
      if (op === 4 && rand(10) === 0) r.invalidate();
      r.render(frame, rand(2) ? { row: rows - 1, col: 7 } : null, rows, 80);
      expect(screen.inSync).toBe(false);
      expect(screen.lines()).toEqual(frame.map(stripAnsi));
      frame.forEach((line, row) => {
        const colour = /^\x1b\[(3\d)m/.exec(line);
        expect(screen.cell(row, 0).fg).toBe(colour ? colour[1]! : null);
        expect(screen.cell(row, 0).bold).toBe(line.startsWith("\x1b[1m"));
      });
    }
  });
});

describe("Renderer safety", () => {
  test("drops control characters that would move the cursor inside a line", () => {
    const { r, last } = setup();
    r.render(["a\nb\rc\x08d\te"], null, 1);
    expect(last()).toContain("abcde");
  });
});
