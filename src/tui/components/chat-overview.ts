// ctrl+t: the whole transcript on one screen, every block expanded, scrollable and searchable.
// `/` types a search, enter jumps to the first match, n / N go to the next / previous one; esc, q or
// ctrl+t go back to the chat.
import { stripAnsi } from "../terminal/ansi.ts";
import type { Component, StyleRef } from "./component.ts";
import type { ChatLog } from "./chat-log.ts";
import { truncate } from "../terminal/wrap.ts";

export class ChatOverview implements Component {
  /** First line shown; null follows the end. */
  private top: number | null = null;
  query = "";
  private typing = false;
  private current = -1;
  private lines: string[] = [];
  private plain: string[] = [];
  private height = 10;
  /** What `lines` were drawn for (the transcript's version and the width); null draws them again. */
  private drawnFor: string | null = null;

  constructor(
    private readonly theme: StyleRef,
    private readonly transcript: ChatLog,
  ) {}

  /** Handles a key; true when the view closes. */
  handle(label: string, text: string | null): boolean {
    if (this.typing) {
      if (text !== null) this.query += text;
      else if (label === "backspace") this.query = this.query.slice(0, -1);
      else if (label === "enter") {
        this.typing = false;
        this.current = -1;
        this.jump(1);
      } else if (label === "esc" || label === "ctrl+c") this.typing = false;
      return false;
    }
    const top = this.top ?? Math.max(0, this.lines.length - this.height);
    switch (text ?? label) {
      case "esc":
      case "q":
      case "ctrl+t":
      case "ctrl+c":
        return true;
      case "/":
        this.typing = true;
        this.query = "";
        return false;
      case "n":
        this.jump(1);
        return false;
      case "N":
        this.jump(-1);
        return false;
      case "up":
      case "k":
        this.top = top - 1;
        return false;
      case "down":
      case "j":
        this.top = top + 1;
        return false;
      case "pageup":
        this.top = top - (this.height - 1);
        return false;
      case "pagedown":
      case "space":
        this.top = top + (this.height - 1);
        return false;
      case "home":
      case "g":
        this.top = 0;
        return false;
      case "end":
      case "G":
        this.top = null;
        return false;
      default:
        return false;
    }
  }

  /** The full-screen frame of `rows` rows (without a limit, every line of the transcript). */
  render(width: number, rows?: number): string[] {
    const style = this.theme.style;
    const key = `${this.transcript.version}|${width}`;
    if (this.drawnFor !== key) {
      this.drawnFor = key;
      this.lines = this.transcript.allLines(width);
      this.plain = this.lines.map((l) => stripAnsi(l).toLowerCase());
    }
    const lines = this.lines;
    if (rows === undefined) rows = lines.length + 2;
    this.height = Math.max(1, rows - 2);
    const maxTop = Math.max(0, lines.length - this.height);
    const top = this.top === null ? maxTop : Math.max(0, Math.min(this.top, maxTop));
    if (this.top !== null) this.top = top;
    const shown = lines.slice(top, top + this.height).map((l, i) => (top + i === this.current ? style.inverse(truncate(stripAnsi(l), width)) : l));
    while (shown.length < this.height) shown.push("");
    const where = lines.length === 0 ? "empty" : `lines ${top + 1}–${Math.min(lines.length, top + this.height)} of ${lines.length}`;
    const head = style.inverse(truncate(` transcript · ${where} · ↑↓ pgup/pgdn scroll · / search · n/N next/prev · esc back `.padEnd(width), width));
    const matches = this.query ? this.plain.filter((l) => l.includes(this.query.toLowerCase())).length : 0;
    const foot = this.typing
      ? style.fg("accent", "/") + this.query + style.inverse(" ")
      : this.query
        ? style.fg("muted", `/${this.query}: ${matches === 0 ? "no match" : `${matches} matching line${matches === 1 ? "" : "s"}`}`)
        : "";
    return [head, ...shown, truncate(foot, width)];
  }

  invalidate(): void {
    this.drawnFor = null;
  }

  /** Moves to the next (1) or previous (-1) matching line after the current one (the first from the start). */
  private jump(dir: 1 | -1): void {
    if (!this.query) return;
    const q = this.query.toLowerCase();
    const n = this.plain.length;
    const start = this.current >= 0 ? this.current + dir : dir === 1 ? 0 : n - 1;
    for (let k = 0; k < n; k++) {
      const i = (((start + dir * k) % n) + n) % n;
      if (this.plain[i]!.includes(q)) {
        this.current = i;
        // The match sits a few lines below the top, with some context above it.
        this.top = Math.max(0, i - 3);
        return;
      }
    }
    this.current = -1;
  }
}
