// Extension notes: one-shot `[extension] message` lines below the transcript. They are cleared when
// the user sends a prompt, on esc and on /clear; `clear_notes` drops one extension's notes only.
// Notes are screen-only: never sent to the model, never saved.
import type { NotifyLevel } from "../ext/protocol.ts";
import { sanitize } from "./ansi.ts";
import type { ThemeRole } from "../ext/types.ts";
import type { Style } from "./theme.ts";
import { wrap } from "./wrap.ts";

export const MAX_NOTES = 50;

export type Note = { extension: string; level: NotifyLevel | "display"; text: string };

const ROLE: Record<Note["level"], ThemeRole> = {
  info: "accent",
  success: "success",
  warn: "warning",
  error: "error",
  display: "text",
};

export class Notes {
  private items: Note[] = [];
  /** Bumped on every change so the frame can tell when to recompose. */
  version = 0;

  get list(): readonly Note[] {
    return this.items;
  }

  add(note: Note): void {
    this.items.push(note);
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
  render(width: number, style: Style): string[] {
    const c = this.cache;
    if (c && c.width === width && c.version === this.version && c.style === style) return c.lines;
    const lines = this.draw(width, style);
    this.cache = { width, version: this.version, style, lines };
    return lines;
  }

  private draw(width: number, style: Style): string[] {
    const out: string[] = [];
    for (const note of this.items) {
      const label = `[${sanitize(note.extension)}] `;
      sanitize(note.text)
        .split("\n")
        .forEach((line, i) => {
          const lead = i === 0 ? label : " ".repeat(label.length);
          const text = note.level === "display" ? style.fg("muted", lead) + line : style.fg(ROLE[note.level], lead + line);
          out.push(...wrap(text, Math.max(1, width)));
        });
    }
    return out;
  }
}
