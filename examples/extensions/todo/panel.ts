// The interactive panel as a small state machine: keys in, lines out. Browsing mode moves a cursor,
// toggles and deletes; adding mode collects typed characters until enter (or esc to cancel).
import type { PanelKey, PanelUpdate } from "../../../sdk/typescript/src/index.ts";
import type { Store } from "./store.ts";

export const PANEL_ID = "todo-main";
const BROWSE_FOOTER = "↑/↓ move · space/x toggle · a add · d delete · esc close";
const ADD_FOOTER = "type the new todo · enter save · esc cancel";

export class TodoPanel {
  cursor = 0;
  draft: string | null = null;
  /** Drawable rows, from panel_resize; the list scrolls to keep the cursor visible. */
  height = 20;

  constructor(private readonly store: Store) {}

  key({ key, text }: PanelKey): void {
    const count = this.store.items.length;
    if (this.draft !== null) {
      if (key === "enter") {
        if (this.draft.trim()) {
          this.store.add(this.draft);
          this.cursor = this.store.items.length - 1;
        }
        this.draft = null;
      } else if (key === "esc") this.draft = null;
      else if (key === "backspace") this.draft = this.draft.slice(0, -1);
      else if (key === "rune" && text) this.draft += text;
      return;
    }
    if (key === "up") this.cursor = Math.max(0, this.cursor - 1);
    else if (key === "down") this.cursor = Math.min(Math.max(0, count - 1), this.cursor + 1);
    else if (key === "home") this.cursor = 0;
    else if (key === "end") this.cursor = Math.max(0, count - 1);
    else if (key === "enter" || (key === "rune" && (text === " " || text === "x"))) this.store.toggle(this.cursor);
    else if (key === "delete" || (key === "rune" && text === "d")) {
      this.store.remove(this.cursor);
      this.cursor = Math.min(this.cursor, Math.max(0, this.store.items.length - 1));
    } else if (key === "rune" && text === "a") this.draft = "";
  }

  view(): Required<PanelUpdate> {
    const items = this.store.items;
    const done = items.filter((t) => t.done).length;
    const lines = items.length
      ? items.map((t, i) => `${i === this.cursor && this.draft === null ? "›" : " "} ${t.done ? "✓" : "□"} ${t.text}`)
      : ["  (empty — press a to add)"];
    const rows = Math.max(1, this.height - (this.draft === null ? 0 : 2));
    const first = Math.min(Math.max(0, this.cursor - rows + 1), Math.max(0, lines.length - rows));
    const visible = lines.slice(first, first + rows);
    if (this.draft !== null) visible.push("", `  new: ${this.draft}▏`);
    return { title: `Todos (${done}/${items.length} done)`, lines: visible, footer: this.draft === null ? BROWSE_FOOTER : ADD_FOOTER };
  }
}
