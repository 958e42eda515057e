// Messages waiting while a turn runs. `enter` steers: the message reaches the model at the next tool
// boundary (between the tool results and the next model call), or starts the next turn if the model
// finishes first. `alt+enter`, extensions' `submit` frames and `prompt` command responses wait for
// the turn to end. Everything runs in order, never as a second concurrent turn; `↑` on an empty
// editor takes the last one back for editing, and esc puts them all back in the editor.
import { sanitize } from "../terminal/ansi.ts";
import type { Component, StyleRef } from "./component.ts";
import { truncate } from "../terminal/wrap.ts";

/** `steer`: at the next tool boundary; `after`: once the turn has ended. */
export type Queued = { text: string; from: string | null; when: "steer" | "after" };

const SHOWN = 3;

export class PromptQueue implements Component {
  private items: Queued[] = [];

  constructor(private readonly theme: StyleRef) {}

  get length(): number {
    return this.items.length;
  }

  push(text: string, from: string | null, when: Queued["when"] = "after"): void {
    this.items.push({ text, from, when });
  }

  shift(): Queued | undefined {
    return this.items.shift();
  }

  /** Removes and returns the steering messages, for the tool boundary the loop reached. */
  takeSteering(): Queued[] {
    const steer = this.items.filter((i) => i.when === "steer");
    this.items = this.items.filter((i) => i.when !== "steer");
    return steer;
  }

  /** Removes and returns the newest item (to edit it in the editor). */
  pop(): Queued | undefined {
    return this.items.pop();
  }

  /** Removes everything and returns it, oldest first. */
  drain(): Queued[] {
    const all = this.items;
    this.items = [];
    return all;
  }

  /** Drops everything; returns how many prompts were dropped. */
  clear(): number {
    return this.drain().length;
  }

  render(width: number): string[] {
    const style = this.theme.style;
    const out: string[] = [];
    for (const item of this.items.slice(0, SHOWN)) {
      const source = item.from ? `[${sanitize(item.from)}] ` : "";
      const text = sanitize(item.text).replace(/\s*\n\s*/g, " ⏎ ");
      const label = item.when === "steer" ? "⏵ next tool boundary: " : "⏵ after this turn: ";
      out.push(truncate(style.fg("muted", label + source) + text, width));
    }
    if (this.items.length > SHOWN) out.push(style.fg("muted", `  … ${this.items.length - SHOWN} more queued`));
    if (this.items.length > 0) out.push(style.fg("muted", truncate("  ↑ on an empty editor edits the last one · esc puts them back in the editor", width)));
    return out;
  }

  invalidate(): void {}
}
