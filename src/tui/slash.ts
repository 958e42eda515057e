// The slash-command popup: built-ins first, then extension commands under a divider (sorted by
// name, with description and owner), filtered case-insensitively as the user types.
import type { ActiveCommand } from "../ext/types.ts";
import { fuzzyScore } from "./fuzzy.ts";
import { SelectList } from "./list.ts";
import type { Style } from "./theme.ts";

export type SlashItem = { name: string; description: string; extension: string | null };

export const BUILTIN_COMMANDS: readonly SlashItem[] = [
  { name: "help", description: "keys and commands", extension: null },
  { name: "model", description: "switch provider/model", extension: null },
  { name: "sessions", description: "resume a session of this directory", extension: null },
  { name: "clear", description: "start a fresh session", extension: null },
  { name: "init", description: "have the model study the project and write AGENTS.md", extension: null },
  { name: "compact", description: "summarise the conversation into one message", extension: null },
  { name: "reload-ext", description: "reload extensions (all, or one by name)", extension: null },
  { name: "yolo", description: "stop asking before tool calls this session", extension: null },
  { name: "permissions", description: "list and revoke standing tool approvals", extension: null },
  { name: "reasoning", description: "thinking level: low, medium, high or off", extension: null },
  { name: "theme", description: "pick a colour theme", extension: null },
  { name: "login", description: "store an API key for a provider", extension: null },
  { name: "logout", description: "remove a stored API key", extension: null },
  { name: "exit", description: "quit zot", extension: null },
];

export function slashItems(extensionCommands: readonly ActiveCommand[]): SlashItem[] {
  const ext = [...extensionCommands]
    .sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()))
    .map((c) => ({ name: c.name, description: c.description, extension: c.extension }));
  return [...BUILTIN_COMMANDS, ...ext];
}

/** `/name rest of line` → the name and the trimmed args; null when the text is not a command. */
export function parseSlash(text: string): { name: string; args: string } | null {
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return null;
  return { name: m[1]!, args: (m[2] ?? "").trim() };
}

export function findCommand(items: readonly SlashItem[], name: string): SlashItem | undefined {
  const lower = name.toLowerCase();
  return items.find((i) => i.extension === null && i.name === lower) ?? items.find((i) => i.name.toLowerCase() === lower);
}

export class SlashPopup {
  readonly list = new SelectList<SlashItem>(
    (item) => ({
      label: "/" + item.name,
      detail: item.extension ? `${item.description} [${item.extension}]` : item.description,
      dividerBefore: item === this.firstExtension ? "extensions" : undefined,
    }),
    10,
  );
  private firstExtension: SlashItem | undefined;
  open = false;

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

  render(width: number, style: Style): string[] {
    return this.list.render(width, style, "no matching command");
  }
}
