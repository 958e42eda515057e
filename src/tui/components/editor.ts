// The multi-line prompt editor: a text buffer with a cursor, readline-style keys, prompt history
// and paste chips (a large paste shows as one short token and is expanded when the prompt is sent).
import { sanitize } from "../terminal/ansi.ts";
import { nextCluster } from "../terminal/width.ts";
import { truncate } from "../terminal/wrap.ts";
import type { History, HistoryEntry } from "../history.ts";
import type { StyleRef } from "./component.ts";

const CHIP_MIN_LINES = 8;
/** Undo steps kept per draft. */
const UNDO_DEPTH = 200;
const CHIP_MIN_CHARS = 800;
const PROMPT = "› ";
const MOVES: ReadonlySet<string> = new Set([
  "left",
  "right",
  "ctrl+b",
  "ctrl+f",
  "alt+left",
  "alt+right",
  "ctrl+left",
  "ctrl+right",
  "alt+b",
  "alt+f",
  "home",
  "end",
  "ctrl+a",
  "ctrl+e",
  "up",
  "down",
]);

/** The draft wrapped to a width, and where the cursor is in it (the editor box shows a window of it). */
export type EditorView = { lines: string[]; cursorRow: number; cursorCol: number };

export class Editor {
  text = "";
  cursor = 0;
  private chips = new Map<string, string>();
  private chipCount = 0;
  /** States before each edit, newest last; typing a word is one step. */
  private undoStack: { text: string; cursor: number }[] = [];
  /** What the last edit was, so consecutive typing merges into one undo step. */
  private lastEdit: "type" | "other" | null = null;

  constructor(
    readonly history: History,
    private readonly theme: StyleRef,
  ) {}

  get empty(): boolean {
    return this.text === "";
  }

  setText(text: string, cursor = text.length): void {
    if (text !== this.text) this.snapshot("other");
    this.text = text;
    this.cursor = Math.max(0, Math.min(cursor, text.length));
  }

  /** Empties the draft; its paste chips stay known, so an undo (ctrl+_) brings back a draft that still sends them. */
  clear(): void {
    this.setText("");
    this.history.reset();
  }

  insert(s: string): void {
    // A word typed character by character is one undo step; a space or a paste starts a new one.
    this.snapshot(s.length === 1 && !/\s/.test(s) ? "type" : "other");
    this.text = this.text.slice(0, this.cursor) + s + this.text.slice(this.cursor);
    this.cursor += s.length;
  }

  /** Goes back one edit; false when there is nothing to undo. */
  undo(): boolean {
    const prev = this.undoStack.pop();
    if (!prev) return false;
    this.text = prev.text;
    this.cursor = prev.cursor;
    this.lastEdit = null;
    return true;
  }

  private snapshot(kind: "type" | "other"): void {
    if (!(kind === "type" && this.lastEdit === "type")) {
      this.undoStack.push({ text: this.text, cursor: this.cursor });
      if (this.undoStack.length > UNDO_DEPTH) this.undoStack.shift();
    }
    this.lastEdit = kind;
  }

  /** Bracketed paste: normalised to plain text; big pastes become a chip. */
  paste(raw: string): void {
    const text = cleanInput(raw);
    const lines = text.replace(/\n$/, "").split("\n").length;
    if (lines < CHIP_MIN_LINES && text.length < CHIP_MIN_CHARS) {
      this.insert(text);
      return;
    }
    this.chipCount++;
    const chip = `[paste #${this.chipCount} +${lines} lines]`;
    this.chips.set(chip, text);
    this.insert(chip);
  }

  /** The prompt with chips expanded; clears the editor and records history (chips and their content). */
  submit(): string {
    let out = this.text;
    const used: Record<string, string> = {};
    for (const [chip, text] of this.chips) {
      if (!out.includes(chip)) continue;
      used[chip] = text;
      out = out.split(chip).join(text);
    }
    this.history.add(this.text, Object.keys(used).length > 0 ? used : undefined);
    this.clear();
    this.chips.clear();
    // A sent prompt is not undone back into the editor.
    this.undoStack = [];
    this.lastEdit = null;
    return out;
  }

  get onFirstLine(): boolean {
    return !this.text.slice(0, this.cursor).includes("\n");
  }

  get onLastLine(): boolean {
    return !this.text.slice(this.cursor).includes("\n");
  }

  /** Applies an editing key; false when the key means nothing to the editor. */
  handle(id: string, text: string | null): boolean {
    // Typing after the cursor moved is a new undo step.
    if (text === null && MOVES.has(id)) this.lastEdit = null;
    if (text !== null) {
      this.insert(text);
      return true;
    }
    switch (id) {
      case "alt+enter":
      case "shift+enter":
      case "ctrl+j":
        this.insert("\n");
        return true;
      case "backspace":
      case "shift+backspace":
        if (this.cursor > 0) this.deleteRange(prevPos(this.text, this.cursor), this.cursor);
        return true;
      case "delete":
      case "ctrl+d":
        if (this.cursor < this.text.length) this.deleteRange(this.cursor, nextPos(this.text, this.cursor));
        return true;
      case "left":
      case "ctrl+b":
        this.cursor = prevPos(this.text, this.cursor);
        return true;
      case "right":
      case "ctrl+f":
        this.cursor = nextPos(this.text, this.cursor);
        return true;
      case "alt+left":
      case "ctrl+left":
      case "alt+b":
        this.cursor = wordStart(this.text, this.cursor);
        return true;
      case "alt+right":
      case "ctrl+right":
      case "alt+f":
        this.cursor = wordEnd(this.text, this.cursor);
        return true;
      case "home":
      case "ctrl+a":
        this.cursor = lineStart(this.text, this.cursor);
        return true;
      case "ctrl+_":
        this.undo();
        return true;
      case "end":
      case "ctrl+e":
        this.cursor = lineEnd(this.text, this.cursor);
        return true;
      case "ctrl+u":
        this.deleteRange(lineStart(this.text, this.cursor), this.cursor);
        return true;
      case "ctrl+k": {
        const end = lineEnd(this.text, this.cursor);
        // At the end of a line ctrl+k joins the next line, as in readline.
        this.deleteRange(this.cursor, end === this.cursor ? Math.min(end + 1, this.text.length) : end);
        return true;
      }
      case "ctrl+w":
      case "alt+backspace":
      case "ctrl+backspace":
        this.deleteRange(wordStart(this.text, this.cursor), this.cursor);
        return true;
      case "alt+d":
        this.deleteRange(this.cursor, wordEnd(this.text, this.cursor));
        return true;
      case "up":
        if (this.onFirstLine) return false;
        this.moveVertical(-1);
        return true;
      case "down":
        if (this.onLastLine) return false;
        this.moveVertical(1);
        return true;
      default:
        return false;
    }
  }

  /** Recalls an older prompt; false when there is none. */
  historyPrev(): boolean {
    return this.recall(this.history.prev(this.text));
  }

  historyNext(): boolean {
    return this.recall(this.history.next());
  }

  /** Shows a history entry; a recalled paste chip sends its content again. */
  recall(entry: HistoryEntry | null): boolean {
    if (entry === null) return false;
    for (const [chip, text] of Object.entries(entry.pastes ?? {})) this.chips.set(chip, text);
    this.setText(entry.text);
    return true;
  }

  get browsingHistory(): boolean {
    return this.history.browsing;
  }

  /** The token being typed at the cursor when it starts with `@` (for the file picker), else null. */
  atToken(): { start: number; query: string } | null {
    let i = this.cursor;
    while (i > 0 && !/\s/.test(this.text[i - 1] ?? "")) i--;
    if (this.text[i] !== "@") return null;
    return { start: i, query: this.text.slice(i + 1, this.cursor) };
  }

  /** Replaces text between `start` and the cursor. */
  replaceBeforeCursor(start: number, replacement: string): void {
    this.snapshot("other");
    this.text = this.text.slice(0, start) + replacement + this.text.slice(this.cursor);
    this.cursor = start + replacement.length;
  }

  /** The draft wrapped for `width` columns behind the prompt; the placeholder stands in for an empty one. */
  view(width: number, placeholder: string): EditorView {
    const style = this.theme.style;
    const inner = Math.max(1, width - PROMPT.length);
    const rows: string[] = [];
    let cursorRow = 0;
    let cursorCol = PROMPT.length;
    if (this.text === "") {
      return { lines: [style.fg("accent", PROMPT) + style.dim(truncate(placeholder, inner))], cursorRow: 0, cursorCol };
    }
    let offset = 0;
    for (const line of this.text.split("\n")) {
      let row = "";
      let col = 0;
      let pos = offset;
      const first = rows.length;
      const flush = (): void => {
        rows.push((rows.length === 0 ? style.fg("accent", PROMPT) : " ".repeat(PROMPT.length)) + row);
        row = "";
        col = 0;
      };
      let i = 0;
      while (i < line.length) {
        const cluster = nextCluster(line, i);
        const w = cluster.width;
        if (col + w > inner) flush();
        if (this.cursor >= pos && this.cursor < offset + cluster.end) {
          cursorRow = rows.length;
          cursorCol = PROMPT.length + col;
        }
        row += line.slice(i, cluster.end);
        col += w;
        i = cluster.end;
        pos = offset + i;
      }
      if (pos === this.cursor) {
        if (col >= inner) flush();
        cursorRow = rows.length;
        cursorCol = PROMPT.length + col;
      }
      if (row !== "" || rows.length === first || (pos === this.cursor && cursorRow === rows.length)) flush();
      offset = pos + 1;
    }
    return { lines: rows, cursorRow, cursorCol };
  }

  private deleteRange(from: number, to: number): void {
    if (to <= from) return;
    this.snapshot("other");
    this.text = this.text.slice(0, from) + this.text.slice(to);
    this.cursor = from;
  }

  private moveVertical(dir: -1 | 1): void {
    const start = lineStart(this.text, this.cursor);
    const column = this.cursor - start;
    if (dir < 0) {
      const prevStart = lineStart(this.text, start - 1);
      this.cursor = Math.min(prevStart + column, start - 1);
    } else {
      const nextStart = lineEnd(this.text, this.cursor) + 1;
      this.cursor = Math.min(nextStart + column, lineEnd(this.text, nextStart));
    }
  }
}

/** Text from outside the keyboard (a paste, an extension's insert) as plain characters. */
export function cleanInput(raw: string): string {
  // Escape sequences and control bytes must not reach the screen or the prompt; a lone \r is a
  // line break from an old Mac or a terminal that sends one for enter.
  return sanitize(raw.replace(/\r\n?/g, "\n"));
}

// The cursor moves and deletes by grapheme cluster, so an emoji with a skin tone or a ZWJ family
// is one step and is never split.
function prevPos(text: string, i: number): number {
  if (i <= 0) return 0;
  let p = lineStart(text, i);
  if (p === i) return i - 1;
  for (;;) {
    const next = nextCluster(text, p).end;
    if (next >= i) return p;
    p = next;
  }
}

function nextPos(text: string, i: number): number {
  if (i >= text.length) return text.length;
  return text[i] === "\n" ? i + 1 : Math.min(text.length, nextCluster(text, i).end);
}

const isWord = (ch: string | undefined): boolean => ch !== undefined && /[\p{L}\p{N}_]/u.test(ch);

function wordStart(text: string, i: number): number {
  let p = i;
  while (p > 0 && !isWord(text[p - 1])) p--;
  while (p > 0 && isWord(text[p - 1])) p--;
  return p;
}

function wordEnd(text: string, i: number): number {
  let p = i;
  while (p < text.length && !isWord(text[p])) p++;
  while (p < text.length && isWord(text[p])) p++;
  return p;
}

function lineStart(text: string, i: number): number {
  return text.lastIndexOf("\n", i - 1) + 1;
}

function lineEnd(text: string, i: number): number {
  const n = text.indexOf("\n", i);
  return n < 0 ? text.length : n;
}
