// The scrolling part of a dialog above the editor (the approval dialog, /trust): which lines of a
// text too long for its room show, moved by pgup/pgdn and shift/alt+↑↓, and the line saying where
// the view is.
import type { Style } from "../terminal/theme.ts";
import { truncate } from "../terminal/wrap.ts";

const SCROLL_STEP = 3;

export class ScrollWindow {
  /** First line shown. */
  top = 0;
  private height = 10;

  /** Handles a scroll key; true when `label` was one. */
  key(label: string): boolean {
    switch (label) {
      case "pageup":
        this.top -= this.height;
        return true;
      case "pagedown":
        this.top += this.height;
        return true;
      case "shift+up":
      case "alt+up":
        this.top -= SCROLL_STEP;
        return true;
      case "shift+down":
      case "alt+down":
        this.top += SCROLL_STEP;
        return true;
    }
    return false;
  }

  /** The lines of `all` that fit `height` rows, then, when some do not, an inverse line saying where the view is (`hint` ends it). */
  show(style: Style, all: string[], height: number, width: number, hint = ""): string[] {
    this.height = height;
    this.top = Math.max(0, Math.min(this.top, all.length - height));
    const out = all.slice(this.top, this.top + height);
    if (all.length > height) {
      const below = all.length - this.top - height;
      const where = `lines ${this.top + 1}–${this.top + height} of ${all.length}${below > 0 ? ` · ↓ ${below} more` : ""}`;
      out.push(style.inverse(truncate(` ${where} · pgup/pgdn scroll${hint} `, width)));
    }
    return out;
  }
}
