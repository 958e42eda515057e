// The component contract on the virtual terminal: a container stacks real components, the layout
// composes them (room for the panel, the cursor of whichever part has focus), and a component's
// cached lines are drawn again after invalidate or a width change.
import { describe, expect, test } from "bun:test";
import { Container } from "../../src/tui/components/component.ts";
import { Editor } from "../../src/tui/components/editor.ts";
import { EditorBox } from "../../src/tui/components/editor-box.ts";
import { History } from "../../src/tui/history.ts";
import { layout, type LayoutParts } from "../../src/tui/layout.ts";
import { Notes } from "../../src/tui/components/notes.ts";
import { Panel } from "../../src/tui/components/panel.ts";
import { Renderer } from "../../src/tui/terminal/renderer.ts";
import { createStyle, dark, light, toXterm256, type Style } from "../../src/tui/terminal/theme.ts";
import { ChatLog } from "../../src/tui/components/chat-log.ts";
import { TransientMessages } from "../../src/tui/components/transient-messages.ts";
import { chatOf, fixed } from "../helpers/components.ts";
import { VTerm } from "../helpers/vterm.ts";

const plain = { style: createStyle(dark, "none", false) };

const messages = (...texts: string[]) => {
  const m = new TransientMessages(plain);
  m.set(
    texts.map((text) => ({ text, level: "info" as const })),
    60_000,
  );
  return m;
};

const panelOf = (n: number) =>
  new Panel(plain, "todo", "p1", { id: "p1", title: "Todos", lines: Array.from({ length: n }, (_, i) => `item ${i + 1}`), footer: "" });

const editorBox = (text: string) => {
  const editor = new Editor(new History(null), plain);
  editor.setText(text);
  return new EditorBox(editor, plain, () => "ask anything");
};

/** Draws lines and a cursor on a fresh virtual terminal through the real renderer. */
function screen(width: number, rows: number, lines: string[], cursor: { row: number; col: number } | null = null): VTerm {
  const vt = new VTerm(width, rows);
  new Renderer((s) => vt.write(s)).render(lines, cursor, rows, width);
  return vt;
}

function parts(over: Partial<LayoutParts>): LayoutParts {
  const editor = editorBox("hi");
  return {
    chat: chatOf(["line 1", "line 2", "line 3"]),
    notes: fixed([]),
    offset: 0,
    above: new Container([]),
    panel: null,
    editor,
    status: fixed(["status"]),
    focused: editor,
    style: plain.style,
    ...over,
  };
}

function drawLayout(width: number, rows: number, p: LayoutParts): VTerm {
  const f = layout(p, width, rows);
  return screen(width, rows, f.lines, f.cursor);
}

describe("a container", () => {
  test("stacks its children top to bottom, and a child that can shrink gets the rows the ones above it left", () => {
    const c = new Container([messages("saved"), panelOf(10)]);
    const vt = screen(20, 6, c.render(20, 6));
    expect(vt.lines()).toEqual([
      "saved",
      "╭─ Todos ── 1-3/10 ╮",
      "│ item 1           │",
      "│ item 2           │",
      "│ item 3           │",
      "╰──────────────────╯",
    ]);
  });

  test("reports the cursor of the child that has one, below the lines above that child", () => {
    const c = new Container([messages("one", "two"), editorBox("hello")]);
    const lines = c.render(30);
    const vt = screen(30, 6, lines, c.cursor());
    expect(vt.lines().slice(0, 4)).toEqual(["one", "two", "─".repeat(30), "› hello"]);
    expect(vt.cursor).toEqual({ row: 3, col: 7 });
    expect(vt.cursorVisible).toBe(true);
  });

  test("without a child that has a cursor, it reports none", () => {
    const c = new Container([messages("one"), panelOf(2)]);
    c.render(30);
    expect(c.cursor()).toBeNull();
  });
});

describe("the layout of components", () => {
  test("gives the open panel the rows the rest of the screen leaves, keeping three for the chat", () => {
    const panel = panelOf(30);
    const vt = drawLayout(30, 14, parts({ panel }));
    const text = vt.lines();
    expect(text.slice(0, 3)).toEqual(["line 1", "line 2", "line 3"]);
    expect(text[3]!.startsWith("╭─ Todos")).toBe(true);
    expect(text[3]).toContain(" 1-6/30 ");
    expect(text[10]!.startsWith("╰")).toBe(true);
    expect(text.slice(11)).toEqual(["─".repeat(30), "› hi", "status"]);
    expect(panel.size).toEqual({ width: 26, height: 6 });
  });

  test("shows the cursor of the focused part wherever it sits in the stack", () => {
    const prompt = new Container([messages("answer below"), editorBox("typed")]);
    const editor = editorBox("draft");
    const vt = drawLayout(30, 10, parts({ above: prompt, editor, focused: prompt }));
    const row = vt.lines().indexOf("› typed");
    expect(row).toBeGreaterThan(0);
    expect(vt.cursor).toEqual({ row, col: 7 });
    expect(vt.lines().at(-2)).toBe("› draft");
  });

  test("keeps the cursor on the editor's line when the bottom stack is cut to fit a short screen", () => {
    const above = new Container([messages("m1", "m2", "m3", "m4", "m5", "m6")]);
    const vt = drawLayout(20, 6, parts({ above }));
    expect(vt.lines()).toEqual(["line 3", "m5", "m6", "─".repeat(20), "› hi", "status"]);
    expect(vt.cursor).toEqual({ row: 4, col: 4 });
  });

  test("hides the cursor when nothing has focus", () => {
    const vt = drawLayout(20, 6, parts({ focused: null }));
    expect(vt.cursorVisible).toBe(false);
  });
});

describe("invalidation", () => {
  test("notes reuse their drawn lines until invalidated, and draw again for a new width", () => {
    const notes = new Notes(plain);
    notes.add({ extension: "git", level: "info", text: "the working tree has changes" });
    const first = notes.render(40);
    expect(notes.render(40)).toBe(first);
    notes.invalidate();
    const again = notes.render(40);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    expect(screen(20, 3, notes.render(20)).lines()).toEqual(["[git] the working", "tree has changes", ""]);
  });

  test("after a theme change the invalidated transcript is drawn in the new theme's colours", () => {
    const theme: { style: Style } = { style: createStyle(dark, "256") };
    const transcript = new ChatLog(theme, () => 0);
    transcript.addUser("hello");
    const colourAt = (lines: string[]) => screen(20, 2, lines).cell(0, 2).fg;
    expect(colourAt(transcript.window(20, 1, 0))).toBe(`38;5;${toXterm256(dark.user as string)}`);
    theme.style = createStyle(light, "256");
    transcript.invalidate();
    expect(colourAt(transcript.window(20, 1, 0))).toBe(`38;5;${toXterm256(light.user as string)}`);
  });

  test("the transcript wraps its lines again for a new width", () => {
    const transcript = new ChatLog(plain, () => 0);
    transcript.addUser("one two three four five");
    expect(screen(30, 1, transcript.render(30)).lines()).toEqual(["› one two three four five"]);
    expect(screen(12, 3, transcript.render(12)).lines()).toEqual(["› one two", "  three four", "  five"]);
  });
});
