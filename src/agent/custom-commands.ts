// Custom slash commands from Markdown files, in Claude Code's format: `<dir>/review.md` is
// `/review`, `<dir>/git/commit.md` is `/git:commit`. The body is the prompt, with `$ARGUMENTS`
// (everything after the name) and `$1`…`$9` (the arguments split like a shell's words) filled in;
// front matter may give `description`, `argument-hint`, `allowed-tools` (calls that run without
// asking while the command's prompt runs) and `model`. Folders, first wins: the project's
// `.zot/commands` and `.claude/commands` (only when workspace trust lets project code run), then
// `$ZOT_HOME/commands` and `~/.claude/commands`.
import { homedir } from "node:os";
import { join, relative } from "node:path";
import { BUILTIN_COMMANDS, SLASH_NAME_PATTERN } from "../names.ts";
import type { PermissionRule } from "./events.ts";
import { projectRoot } from "../platform/project-root.ts";
import { frontMatter, markdownFiles, readMarkdown } from "./front-matter.ts";

export type CommandScope = "project" | "user";

export type CustomCommand = {
  name: string;
  description: string;
  argumentHint: string | null;
  /** Calls these rules match run without asking while the command's prompt runs. */
  allowedTools: PermissionRule[];
  /** `provider/model` or a model id of the current provider, used for the command's prompt. */
  model: string | null;
  body: string;
  path: string;
  scope: CommandScope;
};

export type LoadedCommands = {
  commands: CustomCommand[];
  /** One sentence each: unreadable files, bad names, duplicates, entries of allowed-tools that were ignored. */
  warnings: string[];
  /** Project command folders that exist but were not read because the folder is not trusted. */
  untrusted: string[];
};

/** The folders, in precedence order. */
export function commandDirs(cwd: string, home: string): { dir: string; scope: CommandScope }[] {
  const root = projectRoot(cwd);
  return [
    { dir: join(root, ".zot", "commands"), scope: "project" },
    { dir: join(root, ".claude", "commands"), scope: "project" },
    { dir: join(home, "commands"), scope: "user" },
    { dir: join(homedir(), ".claude", "commands"), scope: "user" },
  ];
}

const MAX_DEPTH = 4;

export function loadCustomCommands(cwd: string, home: string, projectTrusted: boolean): LoadedCommands {
  const out: LoadedCommands = { commands: [], warnings: [], untrusted: [] };
  const seen = new Map<string, string>();
  for (const { dir, scope } of commandDirs(cwd, home)) {
    const files = markdownFiles(dir, MAX_DEPTH);
    if (files.length === 0) continue;
    if (scope === "project" && !projectTrusted) {
      out.untrusted.push(dir);
      continue;
    }
    for (const file of files) {
      const name = relative(dir, file).slice(0, -".md".length).split(/[\\/]/).join(":");
      if (!SLASH_NAME_PATTERN.test(name)) {
        out.warnings.push(`Skipped the command file ${file}: "/${name}" is not a command name (letters, digits, - and _, folders joined by ":").`);
        continue;
      }
      const key = name.toLowerCase();
      const earlier = seen.get(key);
      if (earlier !== undefined) {
        out.warnings.push(`Skipped the command file ${file}: /${name} is already defined by ${earlier}.`);
        continue;
      }
      const cmd = readCommand(file, name, scope, out.warnings);
      if (!cmd) continue;
      seen.set(key, file);
      out.commands.push(cmd);
    }
  }
  return out;
}

function readCommand(path: string, name: string, scope: CommandScope, warnings: string[]): CustomCommand | null {
  const read = readMarkdown(path);
  if ("error" in read) {
    warnings.push(`Skipped the command file ${path}: ${read.error}.`);
    return null;
  }
  const { fields, body } = frontMatter(read.text);
  const scalar = (key: string): string | null => {
    const v = fields.get(key);
    return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
  };
  const tools = fields.get("allowed-tools");
  const entries = tools === undefined ? [] : Array.isArray(tools) ? tools : tools.split(",");
  const allowedTools: PermissionRule[] = [];
  for (const entry of entries.map((e) => e.trim()).filter((e) => e !== "")) {
    const rule = toolRule(entry);
    if (typeof rule === "string") warnings.push(`In ${path}, allowed-tools entry "${entry}" is ignored: ${rule}.`);
    else allowedTools.push(rule);
  }
  const firstLine =
    body
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.replace(/^#+\s*/, "")
      .trim() ?? "";
  return {
    name,
    description: scalar("description") ?? (firstLine.length > 80 ? `${firstLine.slice(0, 79)}…` : firstLine),
    argumentHint: scalar("argument-hint"),
    allowedTools,
    model: scalar("model"),
    body,
    path,
    scope,
  };
}

/** Claude Code's tool names, as zot names them. */
export const TOOL_NAMES: Readonly<Record<string, string>> = {
  bash: "bash",
  read: "read",
  write: "write",
  edit: "edit",
  multiedit: "edit",
  webfetch: "web_fetch",
  web_fetch: "web_fetch",
  todowrite: "todo",
  todo: "todo",
  bashoutput: "bash_output",
  bash_output: "bash_output",
  killshell: "bash_kill",
  bash_kill: "bash_kill",
};

/** `Bash(git add:*)` → bash calls of simple commands starting with `git add`; `Read` → every read; else why not. */
export function toolRule(entry: string): PermissionRule | string {
  const m = /^([\w.-]+)\s*(?:\((.*)\))?$/.exec(entry);
  if (!m) return "it is not a tool name or Tool(pattern)";
  const tool = TOOL_NAMES[m[1]!.toLowerCase()] ?? m[1]!;
  const pattern = m[2]?.trim();
  if (pattern === undefined || pattern === "" || pattern === "*") return { tool };
  if (tool !== "bash") return `zot matches ${tool} calls by tool only, and allowing all of them would be broader than "${pattern}"`;
  const command = pattern
    .replace(/:\*$/, "")
    .replace(/\s*\*$/, "")
    .trim();
  return command === "" ? { tool } : { tool, command, more: command !== pattern };
}

/** Shell-like words: quotes group, backslashes escape. */
function words(args: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(args); m; m = re.exec(args)) out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : (m[2] ?? m[3]!));
  return out;
}

/** The command's prompt for `args`. A body that uses no placeholder gets the arguments appended. */
export function expandCommand(cmd: CustomCommand, args: string): string {
  const positional = words(args);
  let used = false;
  const text = cmd.body.replace(/\$(ARGUMENTS|[1-9])/g, (_, key: string) => {
    used = true;
    return key === "ARGUMENTS" ? args : (positional[Number(key) - 1] ?? "");
  });
  return used || args === "" ? text : `${text}\n\nARGUMENTS: ${args}`;
}

/**
 * The commands that are usable beside the built-in and extension commands (`taken`, compared
 * case-insensitively): those win, and each loser is named in `shadowed`, to be reported once.
 */
export function usableCommands(loaded: LoadedCommands, taken: readonly string[]): { commands: CustomCommand[]; shadowed: string[] } {
  const names = new Set([...BUILTIN_COMMANDS.map((c) => c.name), ...taken].map((n) => n.toLowerCase()));
  const commands = loaded.commands.filter((c) => !names.has(c.name.toLowerCase()));
  const shadowed = loaded.commands
    .filter((c) => names.has(c.name.toLowerCase()))
    .map((c) => `The command file ${c.path} is not used: /${c.name} is already a built-in or extension command.`);
  return { commands, shadowed };
}
