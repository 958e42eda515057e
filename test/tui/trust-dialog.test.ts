// The /trust box rendered to lines: the listing fits the room it gets (scrolling when long), and
// each key gives one answer exactly once.
import { expect, test } from "bun:test";
import { TrustDialog } from "../../src/tui/components/trust-dialog.ts";
import { createStyle, dark } from "../../src/tui/terminal/theme.ts";
import { visibleWidth } from "../../src/tui/terminal/width.ts";

const style = createStyle(dark, "none", false);
const LISTING = Array.from({ length: 30 }, (_, i) => `  line ${i + 1}`);

function dialog(listing = LISTING): { d: TrustDialog; answers: string[] } {
  const answers: string[] = [];
  return { d: new TrustDialog({ style }, listing, (a) => answers.push(a)), answers };
}

test("a long listing fits the room, says how much is below, and pgdn scrolls to its end", () => {
  const { d } = dialog();
  const first = d.render(60, 20);
  expect(first.length).toBeLessThanOrEqual(20);
  expect(first).toContain("  line 1");
  expect(first).not.toContain("  line 30");
  expect(first.some((l) => /lines 1–\d+ of 30 · ↓ \d+ more/.test(l))).toBe(true);
  for (let i = 0; i < 5; i++) d.handle("pagedown", null);
  const last = d.render(60, 20);
  expect(last).toContain("  line 30");
  expect(last.at(-2)).toContain("t  trust this folder (and its subfolders) and reload");
  expect(last.at(-1)).toContain("c  cancel");
});

test("long lines wrap to the width instead of losing their end", () => {
  const { d } = dialog([`    runs:         /a/very/long/path/${"x".repeat(80)} --flag`]);
  const lines = d.render(50);
  expect(lines.every((l) => visibleWidth(l) <= 50)).toBe(true);
  expect(lines.join("")).toContain("--flag");
});

test("enter takes the selected answer, trust first; down then enter cancels", () => {
  const a = dialog();
  expect(a.d.handle("enter", null)).toBe(true);
  expect(a.answers).toEqual(["trust"]);
  const b = dialog();
  expect(b.d.handle("down", null)).toBe(false);
  expect(b.d.handle("enter", null)).toBe(true);
  expect(b.answers).toEqual(["cancel"]);
});

test("t trusts; c, esc and ctrl+c cancel; other keys answer nothing", () => {
  for (const [label, text, answer] of [
    ["t", "t", "trust"],
    ["T", "T", "trust"],
    ["c", "c", "cancel"],
    ["esc", null, "cancel"],
    ["ctrl+c", null, "cancel"],
  ] as const) {
    const { d, answers } = dialog();
    expect(d.handle(label, text)).toBe(true);
    expect(answers).toEqual([answer]);
  }
  const { d, answers } = dialog();
  expect(d.handle("x", "x")).toBe(false);
  expect(d.handle("left", null)).toBe(false);
  expect(answers).toEqual([]);
});
