import { expect, test } from "bun:test";
import { layout, type LayoutInput } from "../../src/tui/layout.ts";
import { createStyle, dark } from "../../src/tui/theme.ts";

const style = createStyle(dark, "none", false);
const chat = (n: number) => {
  const all = Array.from({ length: n }, (_, i) => `line ${i + 1}`);
  return {
    window: (h: number, off: number) => all.slice(Math.max(0, n - off - h), n - off),
    total: () => n,
  };
};
const base = (over: Partial<LayoutInput> = {}): LayoutInput => ({
  width: 20,
  rows: 10,
  chat: chat(3),
  notes: [],
  offset: 0,
  messages: [],
  queue: [],
  panel: null,
  overlay: [],
  editor: { lines: ["› hi"], cursorRow: 0, cursorCol: 4 },
  editorFocused: true,
  status: "status",
  style,
  ...over,
});

test("fills the screen: chat on top, then the rule, the editor and the status bar", () => {
  const f = layout(base());
  expect(f.lines).toHaveLength(10);
  expect(f.lines.slice(0, 3)).toEqual(["line 1", "line 2", "line 3"]);
  expect(f.lines.slice(-3)).toEqual(["─".repeat(20), "› hi", "status"]);
  expect(f.cursor).toEqual({ row: 8, col: 4 });
});

test("notes sit below the transcript and the view stays pinned to the bottom", () => {
  const f = layout(base({ chat: chat(50), notes: ["[x] note"] }));
  expect(f.lines.slice(0, 7)).toEqual(["line 46", "line 47", "line 48", "line 49", "line 50", "", "[x] note"]);
});

test("scrolled up, the last chat row says how to catch up", () => {
  const f = layout(base({ chat: chat(50), offset: 5, width: 60 }));
  expect(f.lines[6]).toContain("↓ 5 more lines below");
  expect(f.lines[5]).toBe("line 44");
});

test("the scroll offset is clamped to the transcript", () => {
  expect(layout(base({ chat: chat(50), offset: 999 })).offset).toBe(43);
  expect(layout(base({ offset: 10 })).offset).toBe(0);
});

test("queued prompts, messages, a panel and an overlay stack above the editor", () => {
  const f = layout(
    base({
      rows: 14,
      messages: ["msg"],
      queue: ["⏵ queued x"],
      panel: (h) => [`panel ${h}`],
      overlay: ["popup"],
      editorFocused: false,
    }),
  );
  expect(f.lines.slice(-7)).toEqual(["msg", "⏵ queued x", "popup", "panel 5", "─".repeat(20), "› hi", "status"]);
  expect(f.cursor).toBeNull();
});

test("a draft taller than the editor box says how many lines are out of sight", () => {
  const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
  const f = layout(base({ width: 30, rows: 15, chat: chat(0), editor: { lines, cursorRow: 19, cursorCol: 0 } }));
  expect(f.lines.slice(-7)).toEqual(["── ↑ 15 more lines " + "─".repeat(11), "line 16", "line 17", "line 18", "line 19", "line 20", "status"]);
});
