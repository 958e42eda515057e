// The editor on screen: a rule, then as much of the draft as the box's room holds, scrolled so the
// cursor stays in sight. A draft taller than the box says on the rule how much of it is out of sight.
import type { Component, Cursor, StyleRef } from "./component.ts";
import type { Editor } from "./editor.ts";
import { truncate } from "../terminal/wrap.ts";

export class EditorBox implements Component {
  private at: Cursor = { row: 1, col: 0 };

  constructor(
    private readonly editor: Pick<Editor, "view">,
    private readonly theme: StyleRef,
    /** What the empty editor says (who has the keys, what enter does now). */
    private readonly placeholder: () => string,
  ) {}

  /** The rule and the draft's lines, at most `room` rows in all. */
  render(width: number, room?: number): string[] {
    const view = this.editor.view(width, this.placeholder());
    const max = room === undefined ? view.lines.length : Math.max(1, room - 1);
    const start = Math.max(0, Math.min(view.cursorRow - max + 1, view.lines.length - max));
    const shown = view.lines.slice(start, start + max);
    const below = view.lines.length - start - shown.length;
    const hidden = [start > 0 ? `↑ ${start} more line${start === 1 ? "" : "s"}` : "", below > 0 ? `↓ ${below} more line${below === 1 ? "" : "s"}` : ""]
      .filter(Boolean)
      .join(" · ");
    const rule = this.theme.style.fg("border", hidden ? truncate(`── ${hidden} ${"─".repeat(width)}`, width, "") : "─".repeat(width));
    this.at = { row: 1 + view.cursorRow - start, col: Math.min(view.cursorCol, width - 1) };
    return [rule, ...shown];
  }

  invalidate(): void {}

  cursor(): Cursor {
    return this.at;
  }
}
