// An extension-owned panel: a bordered box above the editor (or the whole screen for tall
// content) showing the extension's title, lines and footer. Text is sanitized and cut to the
// width; the box scrolls locally when the extension leaves pgup/pgdn unhandled.
import type { PanelContent } from "../protocol.ts";
import { sanitize } from "./ansi.ts";
import type { Component, StyleRef } from "./component.ts";
import { padRight, truncate } from "./wrap.ts";
import { visibleWidth } from "./width.ts";

export type PanelSize = { width: number; height: number };

export class Panel implements Component {
  title: string;
  lines: string[];
  footer: string;
  scroll = 0;
  /** The size last announced with `panel_resize`, so it is sent only when it changes. */
  announced: PanelSize | null = null;
  /** The inner size from the latest frame. */
  size: PanelSize = { width: 0, height: 0 };
  /** Esc goes to the extension as a key instead of closing the panel (open_panel's `esc_key`). */
  readonly takesEsc: boolean;

  constructor(
    private readonly theme: StyleRef,
    readonly extension: string,
    readonly id: string,
    content: PanelContent,
  ) {
    this.title = content.title;
    this.lines = content.lines;
    this.footer = content.footer;
    this.takesEsc = content.esc_key === true;
  }

  update(change: { title?: string | undefined; lines?: string[] | undefined; footer?: string | undefined }): void {
    if (change.title !== undefined) this.title = change.title;
    if (change.lines !== undefined) this.lines = change.lines;
    if (change.footer !== undefined) this.footer = change.footer;
    this.clampScroll();
  }

  scrollBy(delta: number): void {
    this.scroll += delta;
    this.clampScroll();
  }

  /** Box lines for `width` columns and at most `room` rows (without one, as tall as its lines). */
  render(width: number, room?: number): string[] {
    const style = this.theme.style;
    const inner = Math.max(1, width - 4);
    const chrome = 2 + (this.footer ? 1 : 0);
    const maxHeight = room ?? (this.lines.length || 1) + chrome;
    const height = Math.max(1, Math.min(this.lines.length || 1, maxHeight - chrome));
    this.size = { width: inner, height: Math.max(1, maxHeight - chrome) };
    this.clampScroll();
    const b = (s: string): string => style.fg("panel_border", s);
    const title = truncate(sanitize(this.title).replace(/\n/g, " "), Math.max(0, width - 6));
    const more = this.lines.length > height ? ` ${this.scroll + 1}-${Math.min(this.lines.length, this.scroll + height)}/${this.lines.length} ` : "";
    const titleText = title ? ` ${title} ` : "";
    const fill = Math.max(0, width - 3 - visibleWidth(titleText) - more.length);
    const out = [b("╭─") + style.bold(style.fg("panel_title", titleText)) + b("─".repeat(fill) + more + "╮")];
    const shown = this.lines.slice(this.scroll, this.scroll + height);
    while (shown.length < height) shown.push("");
    for (const line of shown) out.push(b("│ ") + padRight(truncate(sanitize(line).replace(/\n/g, " "), inner), inner) + b(" │"));
    if (this.footer) {
      const footer = padRight(truncate(sanitize(this.footer).replace(/\n/g, " "), inner), inner);
      out.push(b("│ ") + style.fg("muted", footer) + b(" │"));
    }
    out.push(b("╰" + "─".repeat(Math.max(0, width - 2)) + "╯"));
    return out;
  }

  invalidate(): void {}

  private clampScroll(): void {
    const height = Math.max(1, this.size.height);
    this.scroll = Math.max(0, Math.min(this.scroll, this.lines.length - height));
  }
}
