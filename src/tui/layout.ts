// Composes one full-screen frame: the scrollable chat (transcript, then notes) on top, and the
// bottom stack (status messages, queued prompts, panel, popup or dialog, editor, status bar)
// below it. Returns exactly `rows` lines and where the cursor goes.
import type { Style } from "./theme.ts";
import type { EditorView } from "./editor.ts";
import { truncate } from "./wrap.ts";

export type ChatSource = {
  /** `height` lines of the transcript ending `offset` lines above its bottom. */
  window(height: number, offset: number): string[];
  /** Transcript length in lines (for clamping the scroll). */
  total(): number;
};

export type LayoutInput = {
  width: number;
  rows: number;
  chat: ChatSource;
  notes: string[];
  /** Lines scrolled up from the bottom of transcript + notes. */
  offset: number;
  messages: string[];
  queue: string[];
  /** Renders the panel for a height budget; null when no panel is open. */
  panel: ((maxHeight: number) => string[]) | null;
  /** A popup, picker or dialog shown right above the editor. */
  overlay: string[];
  editor: EditorView;
  /** Hides the editor's cursor (a panel or dialog has focus). */
  editorFocused: boolean;
  status: string;
  style: Style;
};

export type Frame = { lines: string[]; cursor: { row: number; col: number } | null; chatHeight: number; offset: number };

const MIN_CHAT = 3;

export function layout(input: LayoutInput): Frame {
  const { width, rows, style } = input;
  const rule = style.fg("border", "─".repeat(width));
  const maxEditor = Math.max(1, Math.floor(rows / 3));
  const ed = input.editor;
  const edStart = Math.max(0, Math.min(ed.cursorRow - maxEditor + 1, ed.lines.length - maxEditor));
  const editorLines = ed.lines.slice(edStart, edStart + maxEditor);
  const fixed = [...input.messages.map((m) => truncate(m, width)), ...input.queue, ...input.overlay];
  // A draft taller than its box says on the rule how much of it is out of sight.
  const below = ed.lines.length - edStart - editorLines.length;
  const hidden = [edStart > 0 ? `↑ ${edStart} more line${edStart === 1 ? "" : "s"}` : "", below > 0 ? `↓ ${below} more line${below === 1 ? "" : "s"}` : ""].filter(Boolean).join(" · ");
  const editorRule = hidden ? style.fg("border", truncate(`── ${hidden} ${"─".repeat(width)}`, width, "")) : rule;
  const tail = [editorRule, ...editorLines, input.status];

  let panelLines: string[] = [];
  if (input.panel) {
    const budget = Math.max(3, rows - fixed.length - tail.length - MIN_CHAT);
    panelLines = input.panel(budget);
  }
  let bottom = [...fixed, ...panelLines, ...tail];
  if (bottom.length > rows - 1) bottom = bottom.slice(bottom.length - (rows - 1));
  const chatHeight = Math.max(0, rows - bottom.length);

  const notes = input.notes;
  const total = input.chat.total() + (notes.length > 0 ? notes.length + 1 : 0);
  const offset = Math.max(0, Math.min(input.offset, total - chatHeight));
  let chat = chatWindow(input.chat, notes, chatHeight, offset);
  if (offset > 0 && chatHeight > 0) {
    const hint = style.inverse(truncate(` ↓ ${offset} more line${offset === 1 ? "" : "s"} below · pgdn/shift+↓ scroll · ctrl+end catches up `, width));
    chat = [...chat.slice(0, chatHeight - 1), hint];
  }
  while (chat.length < chatHeight) chat.push("");

  const lines = [...chat, ...bottom].slice(0, rows);
  const cursorRow = chat.length + fixed.length + panelLines.length + 1 + (ed.cursorRow - edStart);
  const cursor = input.editorFocused && cursorRow < rows ? { row: cursorRow, col: Math.min(ed.cursorCol, width - 1) } : null;
  return { lines, cursor, chatHeight, offset };
}

function chatWindow(chat: ChatSource, notes: string[], height: number, offset: number): string[] {
  if (height <= 0) return [];
  if (notes.length === 0) return chat.window(height, offset);
  const tail = ["", ...notes];
  if (offset >= tail.length) return chat.window(height, offset - tail.length);
  const shownNotes = tail.slice(0, tail.length - offset).slice(-height);
  const above = height - shownNotes.length;
  return [...(above > 0 ? chat.window(above, 0) : []), ...shownNotes];
}
