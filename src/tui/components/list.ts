// A selectable list window: the shared body of the slash popup, the file picker and the pickers.
// It keeps the selection visible while scrolling and draws a divider where a row asks for one.
import { sanitize } from "../terminal/ansi.ts";
import type { Component, StyleRef } from "./component.ts";
import type { Style } from "../terminal/theme.ts";
import { padRight, truncate } from "../terminal/wrap.ts";
import { visibleWidth } from "../terminal/width.ts";

export type Row = { label: string; detail?: string; dividerBefore?: string | undefined };

export class SelectList<T> implements Component {
  items: T[] = [];
  selected = 0;
  private top = 0;

  constructor(
    private readonly theme: StyleRef,
    private readonly row: (item: T) => Row,
    private readonly maxRows: number,
    /** What the list says when it has no items. */
    private readonly empty: string,
  ) {}

  setItems(items: T[], keepSelection = false): void {
    const prev = this.current;
    this.items = items;
    const again = keepSelection && prev !== undefined ? items.indexOf(prev) : -1;
    this.selected = Math.max(again, 0);
    this.top = 0;
    this.reveal();
  }

  get current(): T | undefined {
    return this.items[this.selected];
  }

  move(delta: number): void {
    if (this.items.length === 0) return;
    this.selected = (this.selected + delta + this.items.length) % this.items.length;
    this.reveal();
  }

  select(index: number): void {
    this.selected = Math.max(0, Math.min(index, this.items.length - 1));
    this.reveal();
  }

  render(width: number): string[] {
    const style = this.theme.style;
    if (this.items.length === 0) return [style.fg("muted", truncate("  " + this.empty, width))];
    const out: string[] = [];
    const end = Math.min(this.items.length, this.top + this.maxRows);
    const labelWidth = Math.min(
      Math.max(...this.items.slice(this.top, end).map((item) => visibleWidth(sanitize(this.row(item).label)))) + 2,
      Math.floor(width * 0.6),
    );
    for (let i = this.top; i < end; i++) {
      const r = this.row(this.items[i]!);
      if (r.dividerBefore !== undefined) out.push(style.fg("border", truncate(`── ${r.dividerBefore} ${"─".repeat(width)}`, width, "")));
      const marker = i === this.selected ? "› " : "  ";
      const label = padRight(truncate(sanitize(r.label), labelWidth), labelWidth);
      // Label and detail are cut separately so the pair never passes the width.
      const detail = r.detail ? truncate(sanitize(r.detail), Math.max(0, width - 2 - labelWidth - 1)) : "";
      const rest = detail ? " " + detail : "";
      out.push(i === this.selected ? highlight(style, marker + label + rest) : marker + label + style.fg("muted", rest));
    }
    if (this.items.length > this.maxRows) out.push(style.fg("muted", `  ${this.selected + 1}/${this.items.length}`));
    return out;
  }

  invalidate(): void {}

  private reveal(): void {
    if (this.selected < this.top) this.top = this.selected;
    if (this.selected >= this.top + this.maxRows) this.top = this.selected - this.maxRows + 1;
  }
}

/** The selected row: the theme's selection background, or inverse video when colours are off. */
export function highlight(style: Style, text: string): string {
  return style.mode === "none" ? style.inverse(text) : style.bg("selection", style.bold(text));
}
