// Transient status lines above the editor (command errors, "Press ctrl+c again to exit."): each
// set replaces the previous one and expires on its own; esc dismisses them early.
import { sanitize } from "../terminal/ansi.ts";
import type { Component, StyleRef } from "./component.ts";
import type { InfoLevel } from "./chat-log.ts";
import { wrap } from "../terminal/wrap.ts";

type StatusLine = { text: string; level: InfoLevel; until: number };

const ROLE = { info: "muted", success: "success", warn: "warning", error: "error" } as const;

export class TransientMessages implements Component {
  private lines: StatusLine[] = [];

  constructor(private readonly theme: StyleRef) {}

  set(lines: { text: string; level: InfoLevel }[], ttlMs: number): void {
    const until = Date.now() + ttlMs;
    this.lines = lines.map((l) => ({ ...l, until }));
  }

  /** Drops every line; true when there was something to drop. */
  clear(): boolean {
    if (this.lines.length === 0) return false;
    this.lines = [];
    return true;
  }

  /** Drops the lines whose time is up; true when any went. */
  expire(now: number): boolean {
    const before = this.lines.length;
    this.lines = this.lines.filter((s) => s.until > now);
    return this.lines.length !== before;
  }

  render(width: number): string[] {
    const style = this.theme.style;
    // Wrapped, not cut: a reload error's log path is at the end of its line.
    // Status text can come from extensions (command errors, load errors): sanitized like notes.
    return this.lines.flatMap((s) => wrap(sanitize(s.text), width).map((l) => style.fg(ROLE[s.level], l)));
  }

  invalidate(): void {}
}
