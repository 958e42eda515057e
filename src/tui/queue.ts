// Prompts waiting for the running turn to end: typed with enter while busy, `submit` frames from
// extensions and `prompt` command responses all join this one queue and run in order, so there is
// never a second concurrent turn. Esc drops it.
import { sanitize } from "./ansi.ts";
import type { Style } from "./theme.ts";
import { truncate } from "./wrap.ts";

export type Queued = { text: string; from: string | null };

const SHOWN = 3;

export class PromptQueue {
  private items: Queued[] = [];

  get length(): number {
    return this.items.length;
  }

  push(text: string, from: string | null): void {
    this.items.push({ text, from });
  }

  shift(): Queued | undefined {
    return this.items.shift();
  }

  /** Drops everything; returns how many prompts were dropped. */
  clear(): number {
    const n = this.items.length;
    this.items = [];
    return n;
  }

  render(width: number, style: Style): string[] {
    const out: string[] = [];
    for (const item of this.items.slice(0, SHOWN)) {
      const source = item.from ? `[${sanitize(item.from)}] ` : "";
      const text = sanitize(item.text).replace(/\s*\n\s*/g, " ⏎ ");
      out.push(truncate(style.fg("muted", `⏵ queued ${source}`) + text, width));
    }
    if (this.items.length > SHOWN) out.push(style.fg("muted", `  … ${this.items.length - SHOWN} more queued`));
    return out;
  }
}
