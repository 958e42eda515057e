// Real components laid out and drawn by the real renderer into the in-process virtual terminal:
// what the screen shows, where the cursor is, and which theme colours land on which cells.
import { describe, expect, test } from "bun:test";
import type { ApprovalDetail } from "../../src/agent/events.ts";
import { ApprovalDialog } from "../../src/tui/components/approval-dialog.ts";
import { Container, type Component } from "../../src/tui/components/component.ts";
import { Editor } from "../../src/tui/components/editor.ts";
import { EditorBox } from "../../src/tui/components/editor-box.ts";
import { History } from "../../src/tui/history.ts";
import { layout } from "../../src/tui/layout.ts";
import { Renderer } from "../../src/tui/terminal/renderer.ts";
import { Terminal, type TermInput, type TermOutput } from "../../src/tui/terminal/terminal.ts";
import { createStyle, dark, toXterm256 } from "../../src/tui/terminal/theme.ts";
import { chatOf, fixed } from "../helpers/components.ts";
import { VTerm } from "../helpers/vterm.ts";

const colour = createStyle(dark, "256");
const theme = { style: colour };
const fg = (role: keyof typeof dark) => `38;5;${toXterm256(dark[role] as string)}`;

type Over = { editor?: Editor; overlay?: Component; editorFocused?: boolean };

/** The full-screen frame `layout` composes around the given parts (an empty editor by default). */
function frameOf(width: number, rows: number, over: Over) {
  const editor = new EditorBox(over.editor ?? new Editor(new History(null), theme), theme, () => "ask anything");
  return layout(
    {
      chat: chatOf(["you: hello", "zot: hi there"]),
      notes: fixed([]),
      offset: 0,
      above: new Container(over.overlay ? [over.overlay] : []),
      panel: null,
      editor,
      status: fixed(["model · 0 tokens"]),
      focused: over.editorFocused === false ? null : editor,
      style: colour,
    },
    width,
    rows,
  );
}

function draw(width: number, rows: number, over: Over) {
  const vt = new VTerm(width, rows);
  const frame = frameOf(width, rows, over);
  new Renderer((s) => vt.write(s)).render(frame.lines, frame.cursor, rows, width);
  return vt;
}

describe("the main screen", () => {
  test("shows the chat on top and the rule, editor and status bar at the bottom, cursor in the editor", () => {
    const vt = draw(30, 8, {});
    expect(vt.lines()).toEqual(["you: hello", "zot: hi there", "", "", "", "─".repeat(30), "› ask anything", "model · 0 tokens"]);
    expect(vt.cursor).toEqual({ row: 6, col: 2 });
    expect(vt.cursorVisible).toBe(true);
  });

  test("the theme's border colour is on every cell of the rule and the accent on the prompt", () => {
    const vt = draw(30, 8, {});
    for (let c = 0; c < 30; c++) expect(vt.cell(5, c).fg).toBe(fg("border"));
    expect(vt.cell(6, 0)).toMatchObject({ ch: "›", fg: fg("accent") });
    expect(vt.cell(6, 2)).toMatchObject({ ch: "a", dim: true, fg: null });
    expect(vt.cell(7, 0).fg).toBeNull();
  });

  test("a draft taller than the editor box says on the rule how many lines are above it", () => {
    const editor = new Editor(new History(null), theme);
    editor.setText(Array.from({ length: 10 }, (_, i) => `draft line ${i + 1}`).join("\n"));
    const vt = draw(40, 12, { editor });
    expect(vt.lines().slice(6)).toEqual([
      `── ↑ 6 more lines ${"─".repeat(22)}`,
      "  draft line 7",
      "  draft line 8",
      "  draft line 9",
      "  draft line 10",
      "model · 0 tokens",
    ]);
    expect(vt.cell(6, 3)).toMatchObject({ ch: "↑", fg: fg("border") });
    expect(vt.cursor).toEqual({ row: 10, col: 15 });
  });
});

describe("the approval dialog", () => {
  const command = "rm -rf build\nmake all";
  const detail: ApprovalDetail = { kind: "command", command };
  const dialog = () => new ApprovalDialog(theme, { id: "1", name: "bash", preview: "", args: { command }, detail, scope: null }, () => {});

  test("is drawn above the editor with every line of the command and the choices", () => {
    const d = dialog();
    const vt = draw(60, 20, { overlay: d, editorFocused: false });
    const text = vt.lines();
    const at = text.findIndex((l) => l.startsWith("Allow bash?"));
    expect(at).toBeGreaterThan(0);
    expect(text[at]).toBe("Allow bash?  2 lines");
    expect(text[at + 1]).toContain("$ rm -rf build");
    expect(text[at + 2]).toContain("make all");
    expect(text[at + 3]).toBe("› 1. Yes");
    expect(text.some((l) => l.includes("No, and tell the model why"))).toBe(true);
    expect(text.at(-1)).toBe("model · 0 tokens");
    expect(vt.cursorVisible).toBe(false);
  });

  test("the question is bold in the warning colour with the tool name in the tool colour, and the selection is highlighted", () => {
    const d = dialog();
    const vt = draw(60, 20, { overlay: d, editorFocused: false });
    const row = vt.lines().findIndex((l) => l.startsWith("Allow bash?"));
    expect(vt.cell(row, 0)).toMatchObject({ ch: "A", bold: true, fg: fg("warning") });
    expect(vt.cell(row, 6)).toMatchObject({ ch: "b", bold: true, fg: fg("tool") });
    expect(vt.cell(row, 10)).toMatchObject({ ch: "?", bold: true, fg: fg("warning") });
    expect(vt.cell(row + 3, 0)).toMatchObject({ ch: "›", bold: true, bg: `48;5;${toXterm256(dark.selection as string)}` });
    expect(vt.cell(row + 4, 0).bg).toBeNull();
  });

  test("moving the selection repaints the highlight onto the next choice", () => {
    const d = dialog();
    const vt = new VTerm(60, 20);
    const r = new Renderer((s) => vt.write(s));
    const frameFor = () => frameOf(60, 20, { overlay: d, editorFocused: false });
    let f = frameFor();
    r.render(f.lines, f.cursor, 20, 60);
    d.handle("down", null);
    f = frameFor();
    r.render(f.lines, f.cursor, 20, 60);
    const row = vt.lines().findIndex((l) => l.startsWith("  1. Yes"));
    expect(row).toBeGreaterThan(0);
    expect(vt.lines()[row + 1]!.startsWith("› 4. ")).toBe(true);
    expect(vt.cell(row, 0).bg).toBeNull();
    expect(vt.cell(row + 1, 0).bg).toBe(`48;5;${toXterm256(dark.selection as string)}`);
  });
});

describe("the terminal session", () => {
  test("entering draws on the alternate screen and restoring brings back the shell's screen with a visible cursor", () => {
    const vt = new VTerm(20, 4);
    vt.write("$ zot");
    const stdin: TermInput = { on: () => stdin, off: () => stdin, resume: () => stdin, pause: () => stdin };
    const stdout: TermOutput = { columns: 20, rows: 4, write: (s: string) => vt.write(s), on: () => stdout, off: () => stdout };
    const term = new Terminal(stdin, stdout);
    term.enter({ altScreen: true });
    expect(vt.altScreen).toBe(true);
    expect(vt.cursorVisible).toBe(false);
    expect(vt.modes.has(2004)).toBe(true);
    new Renderer((s) => term.write(s)).render(["inside zot"], { row: 0, col: 10 }, 4, 20);
    expect(vt.lines()).toEqual(["inside zot", "", "", ""]);
    term.restore();
    expect(vt.lines()).toEqual(["$ zot", "", "", ""]);
    expect(vt.altScreen).toBe(false);
    expect(vt.cursorVisible).toBe(true);
    expect([...vt.modes]).toEqual([]);
    expect(vt.titleStack).toBe(0);
    expect(vt.kittyStack).toBe(0);
  });
});
