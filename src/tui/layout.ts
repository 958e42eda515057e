// Composes one full-screen frame from components: the scrollable chat (transcript, then notes) on
// top, and the bottom stack (what sits above the editor, the panel, the editor box, the status
// bar) below it. Returns exactly `rows` lines and where the focused component's cursor goes.
import type { Component, Cursor, Scrollable } from "./components/component.ts";
import type { Style } from "./terminal/theme.ts";
import { truncate } from "./terminal/wrap.ts";

export type LayoutParts = {
  chat: Scrollable;
  /** Below the transcript, scrolling with it (extension notes). */
  notes: Component;
  /** Lines scrolled up from the bottom of transcript + notes. */
  offset: number;
  /** Stacked right above the panel (status messages, queued prompts, a popup, picker or dialog); gets the screen's height as its room. */
  above: Component;
  /** Gets the rows the rest leaves (at least 3), above the editor; null when no panel is open. */
  panel: Component | null;
  /** The editor box: gets a third of the screen. */
  editor: Component;
  status: Component;
  /** The part of the bottom stack whose cursor shows (the editor, unless something else has the keys); null hides it. */
  focused: Component | null;
  /** For the scroll hint drawn over the chat's last row. */
  style: Style;
};

export type Frame = { lines: string[]; cursor: Cursor | null; chatHeight: number; offset: number };

const MIN_CHAT = 3;

export function layout(parts: LayoutParts, width: number, rows: number): Frame {
  const { style } = parts;
  const above = parts.above.render(width, rows);
  const editor = parts.editor.render(width, Math.max(1, Math.floor(rows / 3)) + 1);
  const status = parts.status.render(width);
  const panel = parts.panel ? parts.panel.render(width, Math.max(3, rows - above.length - editor.length - status.length - MIN_CHAT)) : [];
  const stack: [Component | null, string[]][] = [
    [parts.above, above],
    [parts.panel, panel],
    [parts.editor, editor],
    [parts.status, status],
  ];
  let bottom = stack.flatMap(([, lines]) => lines);
  const cut = Math.max(0, bottom.length - (rows - 1));
  if (cut > 0) bottom = bottom.slice(cut);
  const chatHeight = Math.max(0, rows - bottom.length);

  const notes = parts.notes.render(width);
  // Scrolled up, the chat is counted back as far as the window reaches: the lines above it, or all
  // of them when the window would pass the top (then the offset stops there). At the bottom no count is needed.
  const below = notes.length > 0 ? notes.length + 1 : 0;
  const total = parts.offset > 0 ? parts.chat.reach(width, parts.offset + chatHeight + 1 - below) + below : 0;
  const offset = Math.max(0, Math.min(parts.offset, total - chatHeight));
  let chat = chatWindow(parts.chat, width, notes, chatHeight, offset);
  if (offset > 0 && chatHeight > 0) {
    const hint = style.inverse(truncate(` ↓ ${offset} more line${offset === 1 ? "" : "s"} below · pgdn/shift+↓ scroll · ctrl+end catches up `, width));
    chat = [...chat.slice(0, chatHeight - 1), hint];
  }
  while (chat.length < chatHeight) chat.push("");

  const lines = [...chat, ...bottom].slice(0, rows);
  return { lines, cursor: cursorOf(parts.focused, stack, chat.length - cut, rows), chatHeight, offset };
}

/** The focused component's cursor on the screen, when it is in the stack starting at row `top` and in sight. */
function cursorOf(focused: Component | null, stack: [Component | null, string[]][], top: number, rows: number): Cursor | null {
  let row = top;
  for (const [part, lines] of stack) {
    if (part !== null && part === focused) {
      const at = part.cursor?.() ?? null;
      if (!at || row + at.row < 0 || row + at.row >= rows) return null;
      return { row: row + at.row, col: at.col };
    }
    row += lines.length;
  }
  return null;
}

function chatWindow(chat: Scrollable, width: number, notes: string[], height: number, offset: number): string[] {
  if (height <= 0) return [];
  if (notes.length === 0) return chat.window(width, height, offset);
  const tail = ["", ...notes];
  if (offset >= tail.length) return chat.window(width, height, offset - tail.length);
  const shownNotes = tail.slice(0, tail.length - offset).slice(-height);
  const above = height - shownNotes.length;
  return [...(above > 0 ? chat.window(width, above, 0) : []), ...shownNotes];
}
