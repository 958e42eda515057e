// Extension notes: one-shot `[extension] message` lines below the transcript. They are cleared when
// the user sends a prompt, on esc and on /clear; `clear_notes` drops one extension's notes only.
// Notes are screen-only: never sent to the model, never saved. A flood cannot take the screen: an
// extension's notes beyond NOTE_RATE a second are merged into one note that shows the latest text
// and how many it stands for, and a note taller than MAX_NOTE_LINES ends in a "+N lines" marker.
import type { NotifyLevel } from "../../protocol.ts";
import { sanitize } from "../terminal/ansi.ts";
import type { ThemeRole } from "../../ext/types.ts";
import type { Component, StyleRef } from "./component.ts";
import type { Style } from "../terminal/theme.ts";
import { truncate, wrap } from "../terminal/wrap.ts";

export const MAX_NOTES = 50;
/** Notes one extension may add per second before the rest are merged. */
export const NOTE_RATE = 10;
/** Screen lines of one note, its marker line included. */
export const MAX_NOTE_LINES = 20;

export type Note = {
  extension: string;
  level: NotifyLevel | "display";
  text: string;
  /** Notes merged into this one during a flood (it shows the latest); absent for an ordinary note. */
  merged?: number;
};

/** One extension's notes in the current one-second window, and the note a flood is merged into. */
type Window = { start: number; count: number; flood: Note | null };

const ROLE: Record<Note["level"], ThemeRole> = {
  info: "accent",
  success: "success",
  warn: "warning",
  error: "error",
  display: "text",
};

export class Notes implements Component {
  private items: Note[] = [];
  /** Bumped on every change so the frame can tell when to recompose. */
  version = 0;

  constructor(private readonly theme: StyleRef) {}

  get list(): readonly Note[] {
    return this.items;
  }

  private readonly windows = new Map<string, Window>();

  add(note: Note, now: number = Date.now()): void {
    let w = this.windows.get(note.extension);
    if (!w) this.windows.set(note.extension, (w = { start: now, count: 0, flood: null }));
    if (now - w.start >= 1000) {
      // A flood lasts while every second brings more than NOTE_RATE notes.
      if (w.count <= NOTE_RATE) w.flood = null;
      w.start = now;
      w.count = 0;
    }
    w.count++;
    if (w.flood && this.items.includes(w.flood)) {
      w.flood.level = note.level;
      w.flood.text = note.text;
      w.flood.merged = (w.flood.merged ?? 1) + 1;
    } else if (w.count <= NOTE_RATE) {
      this.items.push({ ...note });
    } else {
      w.flood = { ...note, merged: 1 };
      this.items.push(w.flood);
    }
    if (this.items.length > MAX_NOTES) this.items.splice(0, this.items.length - MAX_NOTES);
    this.version++;
  }

  /** Drops every note; true when there was something to drop. */
  clear(): boolean {
    if (this.items.length === 0) return false;
    this.items = [];
    this.version++;
    return true;
  }

  clearExtension(extension: string): void {
    const kept = this.items.filter((n) => n.extension !== extension);
    if (kept.length === this.items.length) return;
    this.items = kept;
    this.version++;
  }

  private cache: { width: number; version: number; style: Style; lines: string[] } | null = null;

  /** The notes' lines; drawn again only when the notes, the width or the theme changed. */
  render(width: number): string[] {
    const style = this.theme.style;
    const c = this.cache;
    if (c && c.width === width && c.version === this.version && c.style === style) return c.lines;
    const lines = this.draw(width, style);
    this.cache = { width, version: this.version, style, lines };
    return lines;
  }

  invalidate(): void {
    this.cache = null;
  }

  private draw(width: number, style: Style): string[] {
    const out: string[] = [];
    for (const note of this.items) {
      const label = `[${sanitize(note.extension)}] `;
      const pad = " ".repeat(label.length);
      const { head, rest } = firstLines(note.text, MAX_NOTE_LINES);
      const lines: string[] = [];
      sanitize(head)
        .split("\n")
        .forEach((line, i) => {
          const lead = i === 0 ? label : pad;
          const text = note.level === "display" ? style.fg("muted", lead) + line : style.fg(ROLE[note.level], lead + line);
          lines.push(...wrap(text, Math.max(1, width)));
        });
      if (lines.length <= MAX_NOTE_LINES && rest === 0) out.push(...lines);
      else {
        // The marker takes the note's last line; it counts wrapped lines shown nowhere plus the lines never drawn.
        out.push(...lines.slice(0, MAX_NOTE_LINES - 1));
        out.push(truncate(style.fg("muted", `${pad}+${lines.length - (MAX_NOTE_LINES - 1) + rest} lines`), Math.max(1, width)));
      }
      if (note.merged !== undefined && note.merged > 1)
        out.push(truncate(style.fg("muted", `${pad}+${note.merged - 1} more notes (more than ${NOTE_RATE} a second)`), Math.max(1, width)));
    }
    return out;
  }
}

/** The first `max` lines of `text` and how many lines follow them, without splitting all of it. */
function firstLines(text: string, max: number): { head: string; rest: number } {
  let end = -1;
  for (let i = 0; i < max; i++) {
    end = text.indexOf("\n", end + 1);
    if (end < 0) return { head: text, rest: 0 };
  }
  let rest = 1;
  for (let at = text.indexOf("\n", end + 1); at >= 0; at = text.indexOf("\n", at + 1)) rest++;
  return { head: text.slice(0, end), rest };
}
