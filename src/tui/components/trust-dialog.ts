// The /trust box: the project code pending workspace trust, listed as the start-up question lists
// it (scrollable when long), and two answers: trust and reload, or cancel.
import type { Component, StyleRef } from "./component.ts";
import { highlight } from "./list.ts";
import { modalHeader, type Modal } from "./pickers.ts";
import { ScrollWindow } from "./scroll-window.ts";
import { truncate, wrap } from "../terminal/wrap.ts";

type Answer = "trust" | "cancel";

const CHOICES: { answer: Answer; key: string; label: string }[] = [
  { answer: "trust", key: "t", label: "trust this folder (and its subfolders) and reload" },
  { answer: "cancel", key: "c", label: "cancel" },
];

/** Rows besides the listing: rule, title, scroll line. */
const CHROME = 3;

export class TrustDialog implements Modal, Component {
  selected = 0;
  private readonly scroll = new ScrollWindow();

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
      case "enter":
        return this.choose(CHOICES[this.selected]!.answer);
      case "esc":
      case "ctrl+c":
        return this.choose("cancel");
    }
    if (this.scroll.key(label)) return false;
    const keyed = CHOICES.find((c) => c.key === text?.toLowerCase());
    return keyed ? this.choose(keyed.answer) : false;
  }

  render(width: number, room = Number.POSITIVE_INFINITY): string[] {
    const style = this.theme.style;
    const w = Math.max(10, width);
    const body = this.listing.flatMap((line) => (line === "" ? [""] : wrap(line, w)));
    const height = Math.min(body.length, Math.max(3, room - CHOICES.length - CHROME - 4));
    const out = [
      ...modalHeader(style, w, "Trust this folder?", style.fg("muted", "↑↓ move · enter choose · t trust · esc cancel")),
      ...this.scroll.show(style, body, height, w),
    ];
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
