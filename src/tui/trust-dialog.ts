// The /trust box: the project code pending workspace trust, listed as the start-up question lists
// it (scrollable when long), and two answers: trust and reload, or cancel.
import type { Component, StyleRef } from "./component.ts";
import { highlight } from "./list.ts";
import { modalHeader, type Modal } from "./pickers.ts";
import { truncate, wrap } from "./wrap.ts";

type Answer = "trust" | "cancel";

const CHOICES: { answer: Answer; key: string; label: string }[] = [
  { answer: "trust", key: "t", label: "trust this folder (and its subfolders) and reload" },
  { answer: "cancel", key: "c", label: "cancel" },
];

/** Rows besides the listing: rule, title, scroll line. */
const CHROME = 3;

export class TrustDialog implements Modal, Component {
  selected = 0;
  /** First listing line shown. */
  top = 0;
  private lastHeight = 10;

  constructor(
    private readonly theme: StyleRef,
    private readonly listing: string[],
    private readonly answer: (a: Answer) => void,
  ) {}

  handle(label: string, text: string | null): boolean {
    switch (label) {
      case "up":
      case "shift+tab":
      case "down":
      case "tab":
        this.selected = 1 - this.selected;
        return false;
      case "pageup":
        this.top -= this.lastHeight;
        return false;
      case "pagedown":
        this.top += this.lastHeight;
        return false;
      case "enter":
        return this.choose(CHOICES[this.selected]!.answer);
      case "esc":
      case "ctrl+c":
        return this.choose("cancel");
    }
    const keyed = CHOICES.find((c) => c.key === text?.toLowerCase());
    return keyed ? this.choose(keyed.answer) : false;
  }

  render(width: number, room = Number.POSITIVE_INFINITY): string[] {
    const style = this.theme.style;
    const w = Math.max(10, width);
    const body = this.listing.flatMap((line) => (line === "" ? [""] : wrap(line, w)));
    const height = Math.min(body.length, Math.max(3, room - CHOICES.length - CHROME - 4));
    this.lastHeight = height;
    this.top = Math.max(0, Math.min(this.top, body.length - height));
    const out = [...modalHeader(style, w, "Trust this folder?", style.fg("muted", "↑↓ move · enter choose · t trust · esc cancel")), ...body.slice(this.top, this.top + height)];
    if (body.length > height) {
      const below = body.length - this.top - height;
      out.push(style.inverse(truncate(` lines ${this.top + 1}–${this.top + height} of ${body.length}${below > 0 ? ` · ↓ ${below} more` : ""} · pgup/pgdn scroll `, w)));
    }
    CHOICES.forEach((c, i) => {
      const line = truncate(`${i === this.selected ? "›" : " "} ${c.key}  ${c.label}`, w);
      out.push(i === this.selected ? highlight(style, line) : line);
    });
    return out;
  }

  invalidate(): void {}

  private choose(a: Answer): boolean {
    this.answer(a);
    return true;
  }
}
