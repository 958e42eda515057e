// The slash-command popup: built-ins first, then extension commands under a divider (sorted by
// name, with description and owner), filtered case-insensitively as the user types.
import type { BuiltinCommand } from "../ext/policy.ts";
import type { ActiveCommand } from "../ext/types.ts";
import type { CustomCommand } from "../agent/custom-commands.ts";
import { fuzzyScore } from "./fuzzy.ts";
import { SelectList } from "./list.ts";
import type { Component, StyleRef } from "./component.ts";

/** `markdown`: a command from a Markdown file (custom-commands.ts), run as its expanded prompt. */
export type SlashItem = { name: string; description: string; extension: string | null; markdown?: CustomCommand };

/** One description per built-in command (the host's policy owns the names), in popup order. */
const DESCRIPTIONS: Record<BuiltinCommand, string> = {
  help: "keys and commands",
  model: "switch provider/model",
  sessions: "resume a session of this directory",
  session: "export [path] · import <path> · fork · tree",
  study: "read and understand everything in this directory",
  btw: "side question about the chat, not saved",
  jump: "scroll to an earlier turn (filter by text)",
  skills: "list the skills found here and preview them",
  jail: "confine read/write/edit to this directory (a guardrail, not a sandbox)",
  unjail: "lift /jail",
  ps: "background commands: their state; enter stops one",
  clear: "start a fresh session",
  init: "have the model study the project and write AGENTS.md",
  compact: "summarise the conversation into one message",
  "reload-ext": "reload extensions (all, or one by name)",
  "ext-config": "an extension's settings (all with settings, or one by name)",
  trust: "review this folder's pending project code, then trust it and reload",
  yolo: "stop asking before tool calls this session",
  permissions: "list and revoke standing tool approvals",
  reasoning: "thinking level (those the model takes), or off",
  theme: "pick a colour theme",
  login: "store an API key for a provider",
  logout: "remove a stored API key",
  exit: "quit zot",
};

export const BUILTIN_COMMANDS: readonly SlashItem[] = Object.entries(DESCRIPTIONS).map(([name, description]) => ({ name, description, extension: null }));

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
  return [...BUILTIN_COMMANDS, ...md, ...ext];
}

export function findCommand(items: readonly SlashItem[], name: string): SlashItem | undefined {
  const lower = name.toLowerCase();
  return items.find((i) => i.extension === null && i.name === lower) ?? items.find((i) => i.name.toLowerCase() === lower);
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
