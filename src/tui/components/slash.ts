// The slash-command popup: built-ins first, then extension commands under a divider (sorted by
// name, with description and owner), filtered case-insensitively as the user types.
import { BUILTIN_COMMANDS } from "../../ext/name-rules.ts";
import type { ActiveCommand } from "../../ext/types.ts";
import type { CustomCommand } from "../../runtime/api.ts";
import { fuzzyScore } from "../fuzzy.ts";
import { SelectList } from "./list.ts";
import type { Component, StyleRef } from "./component.ts";

/** `markdown`: a command from a Markdown file (custom-commands.ts), run as its expanded prompt. */
export type SlashItem = { name: string; description: string; extension: string | null; markdown?: CustomCommand };

/** Built-ins, then Markdown commands (by name, their scope and argument hint shown), then extension commands. */
export function slashItems(extensionCommands: readonly ActiveCommand[], markdown: readonly CustomCommand[] = []): SlashItem[] {
  const byName = (a: { name: string }, b: { name: string }) => a.name.toLowerCase().localeCompare(b.name.toLowerCase());
  const md = [...markdown].sort(byName).map((c) => ({
    name: c.name,
    description: `${c.argumentHint ? `${c.argumentHint} · ` : ""}${c.description} (${c.scope})`,
    extension: null,
    markdown: c,
  }));
  const ext = [...extensionCommands].sort(byName).map((c) => ({ name: c.name, description: c.description, extension: c.extension }));
  return [...BUILTIN_COMMANDS.map((c) => ({ name: c.name, description: c.description, extension: null })), ...md, ...ext];
}

export function findCommand(items: readonly SlashItem[], name: string): SlashItem | undefined {
  const lower = name.toLowerCase();
  return items.find((i) => i.extension === null && i.name === lower) ?? items.find((i) => i.name.toLowerCase() === lower);
}

/** The command a mistyped `name` most likely meant: one containing it, else one a couple of edits away. */
export function nearestCommand(items: readonly SlashItem[], name: string): SlashItem | undefined {
  const lower = name.toLowerCase();
  let best: { item: SlashItem; score: number } | undefined;
  for (const item of items) {
    const n = item.name.toLowerCase();
    const score = n.includes(lower) || lower.includes(n) ? 0.5 : editDistance(lower, n);
    if (score <= Math.max(1, Math.floor(lower.length / 3)) && (!best || score < best.score)) best = { item, score };
  }
  return best?.item;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length]!;
}

export class SlashPopup implements Component {
  readonly list: SelectList<SlashItem>;
  private firstExtension: SlashItem | undefined;
  open = false;

  constructor(theme: StyleRef) {
    this.list = new SelectList<SlashItem>(
      theme,
      (item) => ({
        label: "/" + item.name,
        detail: item.extension ? `${item.description} [${item.extension}]` : item.description,
        dividerBefore: item === this.firstExtension ? "extensions" : undefined,
      }),
      10,
      "no matching command",
    );
  }

  /** Re-filters for the editor text; the popup shows while a command name is being typed. */
  update(text: string, all: readonly SlashItem[]): void {
    const m = /^\/(\S*)$/.exec(text);
    if (!m) {
      this.open = false;
      return;
    }
    const query = m[1]!;
    // Filtering keeps each group's order (built-ins as listed, extensions by name) so entries
    // do not jump around while typing.
    const matches = all.filter((i) => fuzzyScore(query, i.name) !== null);
    const builtins = matches.filter((i) => i.extension === null);
    const ext = matches.filter((i) => i.extension !== null);
    this.firstExtension = ext[0];
    // A freshly opened popup starts at the top; while it stays open the selection follows the filter.
    this.list.setItems([...builtins, ...ext], this.open);
    this.open = true;
  }

  close(): void {
    this.open = false;
  }

  render(width: number): string[] {
    return this.list.render(width);
  }

  invalidate(): void {}
}
