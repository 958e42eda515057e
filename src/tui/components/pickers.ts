// Modal pickers above the editor: a filterable list (/model, /sessions, /theme, /login's provider
// choice) and a one-line text prompt (/login's key, shown masked). Each calls back on its outcome.
import { fuzzyFilter } from "../fuzzy.ts";
import { highlight, SelectList, type Row } from "./list.ts";
import type { Component, StyleRef } from "./component.ts";
import type { Style } from "../terminal/theme.ts";
import { truncate } from "../terminal/wrap.ts";

export interface Modal extends Component {
  /** Handles a key; true when the modal is finished and should be removed. */
  handle(label: string, text: string | null): boolean;
}

/** The top of every box above the editor: a rule, then the title and what the keys do (`detail`, styled). */
export function modalHeader(style: Style, width: number, title: string, detail: string): string[] {
  return [style.fg("border", "─".repeat(width)), truncate(style.bold(style.fg("accent", title)) + "  " + detail, width)];
}

/** A box that takes typed text: the text goes to `type`, esc and ctrl+c cancel, other keys go to `key`. */
abstract class TypingBox implements Modal {
  constructor(
    protected readonly theme: StyleRef,
    private readonly onCancel: (() => void) | undefined,
  ) {}

  handle(label: string, text: string | null): boolean {
    if (text !== null) {
      this.type(text);
      return false;
    }
    if (label === "esc" || label === "ctrl+c") {
      this.onCancel?.();
      return true;
    }
    return this.key(label);
  }

  abstract render(width: number): string[];

  invalidate(): void {}

  protected abstract type(text: string): void;

  /** A key other than typed text and cancelling; true when the box is finished. */
  protected abstract key(label: string): boolean;
}

export type PickerOptions<T> = {
  title: string;
  items: T[];
  row: (item: T) => Row;
  /** The text the filter matches against. */
  key: (item: T) => string;
  initial?: number;
  onPick: (item: T) => void;
  /** Called as the selection moves (live preview). */
  onMove?: (item: T) => void;
  onCancel?: () => void;
  empty?: string;
};

export class Picker<T> extends TypingBox {
  query = "";
  readonly list: SelectList<T>;

  constructor(
    theme: StyleRef,
    private readonly opts: PickerOptions<T>,
  ) {
    super(theme, opts.onCancel);
    this.list = new SelectList(theme, opts.row, 10, opts.empty ?? "nothing matches");
    this.list.setItems(opts.items);
    if (opts.initial !== undefined) this.list.select(opts.initial);
  }

  protected type(text: string): void {
    this.query += text;
    this.refilter();
  }

  protected key(label: string): boolean {
    switch (label) {
      case "up":
      case "ctrl+p":
        this.list.move(-1);
        this.moved();
        return false;
      case "down":
      case "ctrl+n":
      case "tab":
        this.list.move(1);
        this.moved();
        return false;
      case "pageup":
        this.list.move(-10);
        this.moved();
        return false;
      case "pagedown":
        this.list.move(10);
        this.moved();
        return false;
      case "backspace":
        if (this.query === "") return false;
        this.query = this.query.slice(0, -1);
        this.refilter();
        return false;
      case "enter": {
        const item = this.list.current;
        if (item === undefined) return false;
        this.opts.onPick(item);
        return true;
      }
      default:
        return false;
    }
  }

  render(width: number): string[] {
    const style = this.theme.style;
    const out = modalHeader(style, width, this.opts.title, style.fg("muted", "type to filter · ↑↓ move · enter select · esc cancel"));
    if (this.query) out.push(truncate(style.fg("muted", "filter: ") + this.query, width));
    out.push(...this.list.render(width));
    return out;
  }

  private refilter(): void {
    this.list.setItems(fuzzyFilter(this.opts.items, this.query, this.opts.key));
    this.moved();
  }

  private moved(): void {
    const item = this.list.current;
    if (item !== undefined) this.opts.onMove?.(item);
  }
}

export type TextPromptOptions = {
  title: string;
  hint: string;
  secret: boolean;
  onSubmit: (value: string) => void;
  onCancel?: () => void;
};

export class TextPrompt extends TypingBox {
  value = "";

  constructor(
    theme: StyleRef,
    private readonly opts: TextPromptOptions,
  ) {
    super(theme, opts.onCancel);
  }

  protected type(text: string): void {
    this.value += text.replace(/[\r\n]/g, "");
  }

  protected key(label: string): boolean {
    switch (label) {
      case "backspace":
        this.value = this.value.slice(0, -1);
        return false;
      case "ctrl+u":
        this.value = "";
        return false;
      case "enter":
        this.opts.onSubmit(this.value.trim());
        return true;
      default:
        return false;
    }
  }

  render(width: number): string[] {
    const style = this.theme.style;
    const shown = this.opts.secret ? "•".repeat(Math.min(this.value.length, 40)) : this.value;
    return [...modalHeader(style, width, this.opts.title, style.fg("muted", this.opts.hint)), truncate("› " + shown, width - 1) + highlight(style, " ")];
  }
}
