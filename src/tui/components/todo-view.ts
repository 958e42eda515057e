// The model's todo list above the editor while a turn runs: done items ticked and struck through,
// the one in progress highlighted, pending ones muted. A long list shows a window that starts just
// before the first unfinished item, so what is happening now is always in view.
import type { TodoItem } from "../../runtime/api.ts";
import { sanitize } from "../terminal/ansi.ts";
import type { Component, StyleRef } from "./component.ts";
import { truncate } from "../terminal/wrap.ts";

const SHOWN = 8;

export class TodoView implements Component {
  /** `items` gives the list to draw now (empty when it should not show). */
  constructor(
    private readonly theme: StyleRef,
    private readonly items: () => readonly TodoItem[],
  ) {}

  render(width: number): string[] {
    const items = this.items();
    if (items.length === 0) return [];
    const style = this.theme.style;
    const done = items.filter((t) => t.status === "done").length;
    const firstOpen = items.findIndex((t) => t.status !== "done");
    const start = items.length <= SHOWN ? 0 : Math.max(0, Math.min((firstOpen === -1 ? items.length : firstOpen) - 1, items.length - SHOWN));
    const out = [truncate(style.fg("muted", `Todo · ${done}/${items.length} done`), width)];
    if (start > 0) out.push(style.fg("muted", `  … ${start} done above`));
    for (const t of items.slice(start, start + SHOWN)) {
      const text = sanitize(t.text).replace(/\s*\n\s*/g, " ");
      if (t.status === "done") out.push(truncate(style.fg("success", "  ✓ ") + style.fg("muted", style.strike(text)), width));
      else if (t.status === "in_progress") out.push(truncate(style.fg("accent", "  ▸ ") + style.bold(text), width));
      else out.push(truncate(style.fg("muted", `  ○ ${text}`), width));
    }
    const after = items.length - start - SHOWN;
    if (after > 0) out.push(style.fg("muted", `  … ${after} more`));
    return out;
  }

  invalidate(): void {}
}
