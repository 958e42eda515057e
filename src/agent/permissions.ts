// Which tool calls run without asking: the permission mode (cycled with shift+tab in the TUI) and the
// standing "don't ask again" rules, for this session or remembered per project in
// $ZOT_HOME/permissions.json. A bash rule names a command prefix and matches only simple commands,
// so an approved `git status` never lets `git status; rm -rf ~` through.
import type { JsonObject } from "../ext/protocol.ts";
import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative } from "node:path";
import { readProjectPermissions, writeProjectPermissions } from "./config.ts";
import { resolvePath } from "./tools/common.ts";
import type { PermissionRule } from "./events.ts";

/** ask: every call asks; edits: file reads and edits inside the project run, the rest asks; yolo: all run; plan: only read-only tools run. */
export type PermissionMode = "ask" | "edits" | "yolo" | "plan";

/** The shift+tab cycle order. */
export const PERMISSION_MODES: readonly PermissionMode[] = ["ask", "edits", "yolo", "plan"];

export const MODE_LABELS: Readonly<Record<PermissionMode, string>> = {
  ask: "ask",
  edits: "auto-edit",
  yolo: "yolo",
  plan: "plan",
};

/** Built-in tools that change nothing. */
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set(["read", "skill", "bash_output", "todo"]);
const EDIT_TOOLS: ReadonlySet<string> = new Set(["edit", "write"]);

/**
 * Simple bash commands that only look (plan mode lets them run): listing, reading, searching and
 * git's read-only subcommands. Tools that can run other programs (find -exec, rg --pre, awk, sed)
 * are not on it.
 */
const LOOKING_COMMANDS: readonly string[] = [
  "ls", "cat", "head", "tail", "wc", "pwd", "tree", "file", "stat", "du", "grep", "rg",
  "git status", "git log", "git diff", "git show", "git branch", "git blame", "git ls-files", "git grep",
];

export function isLookingCommand(command: string): boolean {
  if (!isSimpleCommand(command) || /(^|\s)--pre\b/.test(command)) return false;
  const have = words(command);
  return LOOKING_COMMANDS.some((c) => words(c).every((w, i) => have[i] === w));
}

export const PLAN_REFUSAL =
  "plan mode: only read-only tools run (read, skill, and bash commands that only look: ls, cat, grep, rg, git status/log/diff/show …). Finish studying, then present your plan; the user will approve it before anything is changed.";

export const PLAN_INSTRUCTION =
  "You are in plan mode. Only read-only tools run: read, skill, and simple bash commands that only look (ls, cat, head, tail, wc, grep, rg, tree, git status/log/diff/show/blame/grep); anything else is refused. Study what the task needs, then reply with a concrete, numbered plan (files to change, commands to run) and stop. The user approves the plan before you carry it out.";

export function nextMode(mode: PermissionMode): PermissionMode {
  return PERMISSION_MODES[(PERMISSION_MODES.indexOf(mode) + 1) % PERMISSION_MODES.length]!;
}

/**
 * What the mode alone says about a call of `tool`. Auto-approved edits stay inside the project
 * (`root`): an edit or write of a path outside it (`~/.bashrc`) still asks.
 */
export function modeVerdict(mode: PermissionMode, tool: string, args: JsonObject, cwd: string, root: string): "run" | "ask" | "refuse" {
  switch (mode) {
    case "yolo":
      return "run";
    case "plan":
      return READ_ONLY_TOOLS.has(tool) || (tool === "bash" && typeof args.command === "string" && isLookingCommand(args.command)) ? "run" : "refuse";
    case "edits":
      if (READ_ONLY_TOOLS.has(tool)) return "run";
      return EDIT_TOOLS.has(tool) && typeof args.path === "string" && inside(resolvePath(cwd, args.path), root) ? "run" : "ask";
    case "ask":
      return "ask";
  }
}

/** Whether `path` is under `root`, symlinks followed (a link inside the project to `~/.bashrc` is outside). */
function inside(path: string, root: string): boolean {
  const rel = relative(real(root), real(path));
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** The real path of `path`, or of its nearest existing parent joined with the rest (for a file not yet written). */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(real(parent), basename(path));
  }
}

/** Anything that chains, substitutes or redirects makes a command more than its first words. */
const COMPOUND = /[\n\r;&|`<>]|\$\(|\$\{/;

/** Tools whose second word names what they do (`git status`, `npm test`), so a prefix keeps it. */
const SUBCOMMAND_TOOLS: ReadonlySet<string> = new Set([
  "git", "npm", "pnpm", "yarn", "bun", "npx", "bunx", "cargo", "go", "docker", "kubectl", "make",
  "pip", "pip3", "uv", "deno", "gh", "mvn", "gradle", "dotnet", "poetry", "just", "terraform",
]);

const words = (command: string): string[] => command.trim().split(/\s+/).filter((w) => w !== "");

/** A simple command: one program and its arguments, nothing chained, substituted or redirected. */
export function isSimpleCommand(command: string): boolean {
  return !COMPOUND.test(command) && words(command).length > 0;
}

/** The prefix a "don't ask again" for this command would cover, or null when the command is not simple. */
export function commandPrefix(command: string): string | null {
  if (!isSimpleCommand(command)) return null;
  const [first, second] = words(command);
  if (first === undefined) return null;
  if (second !== undefined && SUBCOMMAND_TOOLS.has(first) && /^[A-Za-z][\w:.-]*$/.test(second)) return `${first} ${second}`;
  return first;
}

export function ruleMatches(rule: PermissionRule, tool: string, args: JsonObject): boolean {
  if (rule.tool !== tool) return false;
  if (rule.prefix === undefined) return true;
  const command = args.command;
  if (typeof command !== "string" || !isSimpleCommand(command)) return false;
  const want = words(rule.prefix);
  const have = words(command);
  return want.length > 0 && want.every((w, i) => have[i] === w);
}

export function ruleLabel(rule: PermissionRule): string {
  return rule.prefix !== undefined ? `${rule.tool}: ${rule.prefix} …` : `${rule.tool} (every call)`;
}

const sameRule = (a: PermissionRule, b: PermissionRule): boolean => a.tool === b.tool && a.prefix === b.prefix;

export type ListedRule = { rule: PermissionRule; always: boolean };

/** The rules of one project: this session's and the remembered ones (read from disk on first use). */
export class PermissionRules {
  private session: PermissionRule[] = [];
  private saved: PermissionRule[] | null = null;

  /** `warn` hears about a permissions.json that can't be used (once, when it is first read). */
  constructor(
    private readonly home: string,
    readonly project: string,
    private readonly warn: (message: string) => void,
  ) {}

  allows(tool: string, args: JsonObject): boolean {
    return [...this.session, ...this.remembered()].some((r) => ruleMatches(r, tool, args));
  }

  list(): ListedRule[] {
    return [...this.remembered().map((rule) => ({ rule, always: true })), ...this.session.map((rule) => ({ rule, always: false }))];
  }

  /** Adds a rule; `always` also writes it to permissions.json (an error sentence if that fails; the rule holds for the session anyway). */
  add(rule: PermissionRule, always: boolean): { ok: true } | { ok: false; error: string } {
    if (!always) {
      if (!this.session.some((r) => sameRule(r, rule))) this.session.push(rule);
      return { ok: true };
    }
    const saved = this.remembered();
    if (saved.some((r) => sameRule(r, rule))) return { ok: true };
    const next = [...saved, rule];
    const w = writeProjectPermissions(this.home, this.project, next);
    if (!w.ok) {
      this.session.push(rule);
      return w;
    }
    this.saved = next;
    return { ok: true };
  }

  revoke(entry: ListedRule): { ok: true } | { ok: false; error: string } {
    if (!entry.always) {
      this.session = this.session.filter((r) => !sameRule(r, entry.rule));
      return { ok: true };
    }
    const next = this.remembered().filter((r) => !sameRule(r, entry.rule));
    const w = writeProjectPermissions(this.home, this.project, next);
    if (w.ok) this.saved = next;
    return w;
  }

  clearSession(): void {
    this.session = [];
  }

  private remembered(): PermissionRule[] {
    if (this.saved === null) {
      const r = readProjectPermissions(this.home, this.project);
      this.saved = r.rules;
      if (r.warning) this.warn(r.warning);
    }
    return this.saved;
  }
}
