// A read-only text box above the editor (a skill's body for /skills, the side chat of /btw):
// markdown rendered to the width, scrolled with the arrows and page keys, closed with esc.
import type { StyleRef } from "./component.ts";
import { modalHeader, type Modal } from "./pickers.ts";
import { renderMarkdown } from "./markdown.ts";
import { truncate } from "../terminal/wrap.ts";

export type TextOverlayOptions = {
  title: string;
  /** The text, read on every frame, so it may grow while the box is open (a streamed answer). */
  text: () => string;
  /** The line under the title (what the keys do). */
  hint: string;
  /** Rows of text shown at once. */
  height?: number;
  onClose?: () => void;
};

export class TextOverlay implements Modal {
  /** Lines scrolled down from the top; follows the end while `follow` holds. */
  private top = 0;
  private follow = true;
  private lastCount = 0;

  constructor(
    private readonly theme: StyleRef,
    private readonly opts: TextOverlayOptions,
  ) {}

  handle(label: string): boolean {
    const page = this.height() - 1;
    switch (label) {
      case "esc":
      case "ctrl+c":
      case "q":
        this.opts.onClose?.();
        return true;
      case "up":
        this.scroll(-1);
        return false;
      case "down":
        this.scroll(1);
        return false;
      case "pageup":
        this.scroll(-page);
        return false;
      case "pagedown":
        this.scroll(page);
        return false;
      default:
        return false;
    }
  }

  render(width: number): string[] {
    const style = this.theme.style;
    const body = renderMarkdown(this.opts.text(), Math.max(10, width - 2), style);
    this.lastCount = body.length;
    const h = this.height();
    const maxTop = Math.max(0, body.length - h);
    if (this.follow) this.top = maxTop;
    this.top = Math.min(this.top, maxTop);
    const shown = body.slice(this.top, this.top + h).map((l) => truncate(" " + l, width));
    const more = body.length > h ? style.fg("muted", `  ${this.top + 1}–${Math.min(body.length, this.top + h)} of ${body.length} lines`) : "";
    return [...modalHeader(style, width, this.opts.title, style.fg("muted", this.opts.hint) + more), ...shown];
  }

  invalidate(): void {}

  private height(): number {
    return this.opts.height ?? 12;
  }

  private scroll(by: number): void {
    const maxTop = Math.max(0, this.lastCount - this.height());
    this.top = Math.max(0, Math.min(maxTop, this.top + by));
    this.follow = this.top >= maxTop;
  }
}
