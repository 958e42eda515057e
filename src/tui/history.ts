// Prompt history, persisted in one file per project directory (the runtime names it) so up-arrow
// recall in one project never surfaces prompts typed in another. One JSON value per line, appends
// only: a string, or `{"text", "pastes"}` when the prompt held paste chips (their contents come back).
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateDir } from "../platform/home.ts";

const MAX_ENTRIES = 500;

/** A recalled prompt: its text as typed, with any paste chips it holds mapped to their content. */
export type HistoryEntry = { text: string; pastes?: Record<string, string> };

export class History {
  private entries: HistoryEntry[] = [];
  private index: number;
  private draft = "";

  constructor(private readonly path: string | null) {
    if (path) this.entries = readEntries(path);
    this.index = this.entries.length;
  }

  get size(): number {
    return this.entries.length;
  }

  /** Every entry, newest first, each text once (for ctrl+r search). */
  recent(): HistoryEntry[] {
    const seen = new Set<string>();
    const out: HistoryEntry[] = [];
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i]!;
      if (seen.has(e.text)) continue;
      seen.add(e.text);
      out.push(e);
    }
    return out;
  }

  /** Records a submitted prompt (consecutive duplicates are kept once) and resets browsing. */
  add(text: string, pastes?: Record<string, string>): void {
    this.index = this.entries.length;
    const last = this.entries[this.entries.length - 1];
    if (text.trim() === "" || (last?.text === text && !pastes && !last.pastes)) return;
    const entry: HistoryEntry = pastes ? { text, pastes } : { text };
    this.entries.push(entry);
    if (this.entries.length > MAX_ENTRIES) this.entries.splice(0, this.entries.length - MAX_ENTRIES);
    this.index = this.entries.length;
    if (!this.path) return;
    try {
      ensurePrivateDir(join(this.path, ".."));
      appendFileSync(this.path, JSON.stringify(pastes ? entry : text) + "\n", { mode: 0o600 });
    } catch {
      // History is a convenience; a read-only home must not break prompting.
    }
  }

  get browsing(): boolean {
    return this.index < this.entries.length;
  }

  /** The previous entry, remembering `current` as the draft when browsing starts; null at the oldest. */
  prev(current: string): HistoryEntry | null {
    if (this.index === 0) return null;
    if (!this.browsing) this.draft = current;
    this.index--;
    return this.entries[this.index] ?? null;
  }

  /** The next entry, or the saved draft past the newest; null when not browsing. */
  next(): HistoryEntry | null {
    if (!this.browsing) return null;
    this.index++;
    return this.browsing ? (this.entries[this.index] ?? { text: "" }) : { text: this.draft };
  }

  reset(): void {
    this.index = this.entries.length;
  }
}

function readEntries(path: string): HistoryEntry[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return [];
  }
  const out: HistoryEntry[] = [];
  for (const line of text.split("\n")) {
    if (!line) continue;
    try {
      const v: unknown = JSON.parse(line);
      if (typeof v === "string") out.push({ text: v });
      else if (isEntry(v)) out.push(v.pastes ? { text: v.text, pastes: v.pastes } : { text: v.text });
    } catch {
      // A torn last line from a crash is skipped, not fatal.
    }
  }
  return out.slice(-MAX_ENTRIES);
}

function isEntry(v: unknown): v is HistoryEntry {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  if (typeof o.text !== "string") return false;
  if (o.pastes === undefined) return true;
  if (o.pastes === null || typeof o.pastes !== "object" || Array.isArray(o.pastes)) return false;
  return Object.values(o.pastes).every((x) => typeof x === "string");
}
