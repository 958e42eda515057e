// Notes under a flood: merged per extension past the rate, and never taller than the cap.
import { describe, expect, test } from "bun:test";
import { MAX_NOTE_LINES, NOTE_RATE, Notes } from "../../src/tui/components/notes.ts";
import { createStyle, dark } from "../../src/tui/terminal/theme.ts";

const style = createStyle(dark, "none", false);

describe("a flood of notes", () => {
  test(`up to ${NOTE_RATE} notes a second from one extension are shown one by one; the rest merge into one showing the latest and the count`, () => {
    const n = new Notes({ style });
    for (let i = 0; i < 5000; i++) n.add({ extension: "flood", level: "info", text: `flood ${i}` }, 1000 + (i % 500));
    expect(n.list).toHaveLength(NOTE_RATE + 1);
    const lines = n.render(80);
    expect(lines.slice(0, NOTE_RATE)).toEqual(Array.from({ length: NOTE_RATE }, (_, i) => `[flood] flood ${i}`));
    expect(lines.slice(NOTE_RATE)).toEqual(["[flood] flood 4999", `        +${5000 - NOTE_RATE - 1} more notes (more than ${NOTE_RATE} a second)`]);
  });

  test("the merged note keeps absorbing while the flood goes on, and a quiet extension is shown normally again", () => {
    const n = new Notes({ style });
    let t = 0;
    for (let s = 0; s < 3; s++) for (let i = 0; i < 100; i++) n.add({ extension: "flood", level: "info", text: `s${s} n${i}` }, (t = s * 1000 + i));
    expect(n.list).toHaveLength(NOTE_RATE + 1);
    expect(n.list[NOTE_RATE]).toMatchObject({ text: "s2 n99", merged: 300 - NOTE_RATE });
    // Two quiet seconds later it is an ordinary note again.
    n.add({ extension: "flood", level: "info", text: "one" }, t + 1500);
    n.add({ extension: "flood", level: "warn", text: "calm again" }, t + 2600);
    expect(n.list.at(-1)).toEqual({ extension: "flood", level: "warn", text: "calm again" });
  });

  test("one extension's flood does not merge another extension's notes", () => {
    const n = new Notes({ style });
    for (let i = 0; i < 200; i++) n.add({ extension: "flood", level: "info", text: `f${i}` }, 5);
    n.add({ extension: "quiet", level: "info", text: "hello" }, 6);
    expect(n.render(80).at(-1)).toBe("[quiet] hello");
  });

  test(`a note of 100 000 lines takes ${MAX_NOTE_LINES} lines, the last saying how many more there are`, () => {
    const n = new Notes({ style });
    n.add({ extension: "big", level: "info", text: Array.from({ length: 100_000 }, (_, i) => `line ${i}`).join("\n") });
    const lines = n.render(80);
    expect(lines).toHaveLength(MAX_NOTE_LINES);
    expect(lines[0]).toBe("[big] line 0");
    expect(lines[MAX_NOTE_LINES - 2]).toBe(`      line ${MAX_NOTE_LINES - 2}`);
    expect(lines[MAX_NOTE_LINES - 1]).toBe(`      +${100_000 - (MAX_NOTE_LINES - 1)} lines`);
  });

  test("a single long line that wraps past the cap is cut the same way; a note that fits is not", () => {
    const n = new Notes({ style });
    n.add({ extension: "w", level: "info", text: "x".repeat(40 * 30) }, 0);
    const lines = n.render(40);
    expect(lines).toHaveLength(MAX_NOTE_LINES);
    expect(lines.at(-1)).toMatch(/^ {4}\+\d+ lines$/);
    const fits = new Notes({ style });
    fits.add({ extension: "w", level: "info", text: Array.from({ length: MAX_NOTE_LINES }, (_, i) => `l${i}`).join("\n") }, 0);
    expect(fits.render(40)).toHaveLength(MAX_NOTE_LINES);
    expect(fits.render(40).at(-1)).toBe(`    l${MAX_NOTE_LINES - 1}`);
  });
});
