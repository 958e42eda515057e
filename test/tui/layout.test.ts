import { expect, test } from "bun:test";
import type { Component, Scrollable } from "../../src/tui/components/component.ts";
import { Container } from "../../src/tui/components/component.ts";
import type { EditorView } from "../../src/tui/components/editor.ts";
import { layout } from "../../src/tui/layout.ts";
import { createStyle, dark } from "../../src/tui/terminal/theme.ts";
import { chatOf, editorBoxOf, fixed } from "../helpers/components.ts";

const style = createStyle(dark, "none", false);
const chat = (n: number) => chatOf(Array.from({ length: n }, (_, i) => `line ${i + 1}`));
type Parts = {
  width: number;
  rows: number;
  chat: Scrollable;
  notes: string[];
  offset: number;
  messages: string[];
  queue: string[];
  panel: Component | null;
  overlay: string[];
  editor: EditorView;
  editorFocused: boolean;
  status: string;
};
const base = (over: Partial<Parts> = {}): Parts => ({
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
  ...over,
});
/** The frame for `p`, each part drawn by a component. */
const frameOf = (p: Parts) => {
  const editor = editorBoxOf(p.editor, style);
  const parts = {
    chat: p.chat,
    notes: fixed(p.notes),
    offset: p.offset,
    above: new Container([fixed(p.messages), fixed(p.queue), fixed(p.overlay)]),
    panel: p.panel,
    editor,
    status: fixed([p.status]),
    focused: p.editorFocused ? editor : null,
    style,
  };
  return layout(parts, p.width, p.rows);
};
/** A panel that says how many rows it was given. */
const panel = (say: (room: number) => string[]): Component => ({ render: (_w, room) => say(room ?? 0), invalidate() {} });

test("fills the screen: chat on top, then the rule, the editor and the status bar", () => {
  const f = frameOf(base());
  expect(f.lines).toHaveLength(10);
  expect(f.lines.slice(0, 3)).toEqual(["line 1", "line 2", "line 3"]);
  expect(f.lines.slice(-3)).toEqual(["─".repeat(20), "› hi", "status"]);
  expect(f.cursor).toEqual({ row: 8, col: 4 });
});

test("notes sit below the transcript and the view stays pinned to the bottom", () => {
  const f = frameOf(base({ chat: chat(50), notes: ["[x] note"] }));
  expect(f.lines.slice(0, 7)).toEqual(["line 46", "line 47", "line 48", "line 49", "line 50", "", "[x] note"]);
});

test("scrolled up, the last chat row says how to catch up", () => {
  const f = frameOf(base({ chat: chat(50), offset: 5, width: 60 }));
  expect(f.lines[6]).toContain("↓ 5 more lines below");
  expect(f.lines[5]).toBe("line 44");
});

test("the scroll offset is clamped to the transcript", () => {
  expect(frameOf(base({ chat: chat(50), offset: 999 })).offset).toBe(43);
  expect(frameOf(base({ offset: 10 })).offset).toBe(0);
});

test("queued prompts, messages, a panel and an overlay stack above the editor", () => {
  const f = frameOf(
    base({
      rows: 14,
      messages: ["msg"],
      queue: ["⏵ queued x"],
      panel: panel((h) => [`panel ${h}`]),
      overlay: ["popup"],
      editorFocused: false,
    }),
  );
  expect(f.lines.slice(-7)).toEqual(["msg", "⏵ queued x", "popup", "panel 5", "─".repeat(20), "› hi", "status"]);
  expect(f.cursor).toBeNull();
});

test("a draft taller than the editor box says how many lines are out of sight", () => {
  const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
  const f = frameOf(base({ width: 30, rows: 15, chat: chat(0), editor: { lines, cursorRow: 19, cursorCol: 0 } }));
  expect(f.lines.slice(-7)).toEqual(["── ↑ 15 more lines " + "─".repeat(11), "line 16", "line 17", "line 18", "line 19", "line 20", "status"]);
});
