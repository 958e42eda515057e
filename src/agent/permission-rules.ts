// The standing "don't ask again" rules, scoped to what the user approved: one file, or the
// directory of a file inside the project, for write and edit; one simple command with its
// arguments' shape for bash (`git status …`, `npm test …`), one rule per part of a chain; the
// tool itself for the rest. A rule never grows past what was shown: a destructive or
// code-running program (rm, dd, mkfs, chmod -R, git push --force, sh, python, xargs …) gets a rule
// for exactly that command, and the further arguments a rule lets follow never name a path outside
// the project. Held for this session or remembered per project in $ZOT_HOME/permissions.json.
import { realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative } from "node:path";
import type { JsonObject } from "../protocol.ts";
import { readProjectPermissions, writeProjectPermissions } from "./config.ts";
import type { PermissionRule } from "./events.ts";
import { isReadOnlyPart } from "./read-only-command.ts";
import { commandParts, partText, type CommandPart } from "./shell-words.ts";
import { resolvePath } from "./tools/common.ts";

/** Where calls happen: the cwd paths are resolved from, and the project root rules stay inside. */
export type RuleScope = { cwd: string; root: string };

const FILE_TOOLS: ReadonlySet<string> = new Set(["write", "edit"]);

/** Tools whose second word names what they do (`git status`, `npm test`), so a rule keeps it. */
const SUBCOMMAND_TOOLS: ReadonlySet<string> = new Set([
  "git",
  "npm",
  "pnpm",
  "yarn",
  "bun",
  "npx",
  "bunx",
  "cargo",
  "go",
  "docker",
  "kubectl",
  "make",
  "pip",
  "pip3",
  "uv",
  "deno",
  "gh",
  "mvn",
  "gradle",
  "dotnet",
  "poetry",
  "just",
  "terraform",
]);

/** Programs that destroy data, act on processes or the machine, or run whatever their arguments say. */
const EXACT_ONLY: ReadonlySet<string> = new Set([
  "rm",
  "rmdir",
  "shred",
  "dd",
  "wipefs",
  "fdisk",
  "sfdisk",
  "parted",
  "truncate",
  "mkswap",
  "kill",
  "pkill",
  "killall",
  "sudo",
  "su",
  "doas",
  "reboot",
  "shutdown",
  "halt",
  "poweroff",
  "systemctl",
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "fish",
  "eval",
  "exec",
  "source",
  ".",
  "xargs",
  "env",
  "nohup",
  "timeout",
  "nice",
  "ionice",
  "time",
  "watch",
  "command",
  "builtin",
  "chroot",
  "nsenter",
  "unshare",
  "setsid",
  "python",
  "python2",
  "python3",
  "node",
  "perl",
  "ruby",
  "php",
  "lua",
  "osascript",
  "ssh",
]);

/** git subcommands that rewrite or discard work, always or with the given options. */
const GIT_DESTRUCTIVE: ReadonlyMap<string, readonly string[] | "always"> = new Map<string, readonly string[] | "always">([
  ["push", ["-f", "--force", "--force-with-lease", "--force-if-includes", "-d", "--delete", "--mirror", "--prune"]],
  ["reset", ["--hard", "--merge", "--keep"]],
  ["branch", ["-d", "-D", "--delete", "-f", "--force", "-M", "-C"]],
  ["checkout", ["-f", "--force", "--", "."]],
  ["stash", ["drop", "clear"]],
  ["clean", "always"],
  ["restore", "always"],
  ["rm", "always"],
  ["filter-branch", "always"],
  ["update-ref", "always"],
  ["reflog", "always"],
  ["gc", "always"],
  ["prune", "always"],
]);

const FIND_ACTIONS: ReadonlySet<string> = new Set(["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"]);

/** Whether a rule for this part must be the exact command: a further argument could make it destroy or run anything. */
export function exactOnly(part: CommandPart): boolean {
  const [program, sub] = part;
  if (program === undefined) return true;
  const name = program.text;
  const args = part.slice(1).map((w) => w.text);
  if (EXACT_ONLY.has(name) || name.startsWith("mkfs") || name.includes("/")) return true;
  if (name === "chmod" || name === "chown" || name === "chgrp") return args.some((a) => a === "--recursive" || /^-[a-zA-Z]*R/.test(a));
  if (name === "find") return args.some((a) => FIND_ACTIONS.has(a));
  if (name === "git" && sub !== undefined) {
    const danger = GIT_DESTRUCTIVE.get(sub.text);
    if (danger === "always") return true;
    if (danger !== undefined) return args.slice(1).some((a) => danger.includes(a) || (sub.text === "push" && /^[+:]/.test(a)));
    // Global options (`git -C dir`, `git -c k=v`) come before the subcommand and change what it does.
    return sub.text.startsWith("-");
  }
  return false;
}

/** The rules a "don't ask again" for this call would add (one per part of a chain not already allowed), or [] when none can be scoped. */
export function suggestRules(tool: string, args: JsonObject, scope: RuleScope, held: readonly PermissionRule[]): PermissionRule[] {
  if (FILE_TOOLS.has(tool)) {
    if (typeof args.path !== "string") return [];
    const path = real(resolvePath(scope.cwd, args.path));
    // A file outside the project: that file only; the user never named its directory.
    return [inside(path, scope.root) ? { tool, dir: dirname(path) === path ? path : dirname(path) } : { tool, path }];
  }
  if (tool !== "bash") return [{ tool }];
  const parts = typeof args.command === "string" ? commandParts(args.command) : null;
  if (parts === null) return [];
  const rules: PermissionRule[] = [];
  for (const part of parts) {
    if (isReadOnlyPart(part) || held.some((r) => partMatches(r, part, scope))) continue;
    const rule = partRule(part);
    if (!rules.some((r) => sameRule(r, rule))) rules.push(rule);
  }
  return rules;
}

function partRule(part: CommandPart): PermissionRule {
  if (exactOnly(part)) return { tool: "bash", command: partText(part), more: false };
  const [program, sub] = part;
  const keep = sub !== undefined && !sub.glob && SUBCOMMAND_TOOLS.has(program!.text) && /^[A-Za-z][\w:.-]*$/.test(sub.text) ? 2 : 1;
  return { tool: "bash", command: partText(part.slice(0, keep)), more: true };
}

/** Whether the rules allow the call: for bash, every part of the command is read-only or matched by a rule. */
export function rulesAllow(rules: readonly PermissionRule[], tool: string, args: JsonObject, scope: RuleScope): boolean {
  if (rules.some((r) => r.tool === tool && toolWide(r))) return true;
  if (FILE_TOOLS.has(tool)) {
    if (typeof args.path !== "string") return false;
    const path = real(resolvePath(scope.cwd, args.path));
    return rules.some((r) => r.tool === tool && (("path" in r && r.path === path) || ("dir" in r && inside(path, r.dir))));
  }
  if (tool !== "bash") return false;
  const parts = typeof args.command === "string" ? commandParts(args.command) : null;
  return parts?.every((part) => isReadOnlyPart(part) || rules.some((r) => partMatches(r, part, scope))) === true;
}

function partMatches(rule: PermissionRule, part: CommandPart, scope: RuleScope): boolean {
  if (rule.tool !== "bash" || !("command" in rule)) return false;
  const want = commandParts(rule.command);
  if (want === null || want.length !== 1) return false;
  const fixed = want[0]!;
  const same = (a: CommandPart, b: CommandPart): boolean => a.length === b.length && a.every((w, i) => w.text === b[i]!.text && w.glob === b[i]!.glob);
  if (!rule.more) return same(fixed, part);
  if (part.length < fixed.length || !same(fixed, part.slice(0, fixed.length))) return false;
  // What follows the approved words: nothing that makes the command destructive, no path outside the project.
  return !exactOnly(part) && part.slice(fixed.length).every((w) => !namesOutside(w.text, scope));
}

/** Whether an argument (or an option's `=value`) is a path that leaves the project. */
function namesOutside(arg: string, scope: RuleScope): boolean {
  const values = arg.startsWith("-") && arg.includes("=") ? [arg.slice(arg.indexOf("=") + 1)] : [arg];
  return values.some((v) => {
    if (!(v.includes("/") || v.startsWith("~") || v === "..")) return false;
    if (v.startsWith("~") && v !== "~" && !v.startsWith("~/")) return true;
    const plain = v.split(/[*?[]/)[0]!;
    return !inside(real(resolvePath(scope.cwd, plain === "" ? "." : plain)), scope.root);
  });
}

/** A rule for every call of its tool (extension and MCP tools; rules of earlier versions for bash or edit). */
const toolWide = (r: PermissionRule): boolean => !("command" in r) && !("path" in r) && !("dir" in r);

/** How a rule reads in the dialog and in /permissions; paths inside the project are shown relative to it. */
export function ruleLabel(rule: PermissionRule, root: string): string {
  if ("command" in rule) return `${rule.tool}: \`${rule.command}${rule.more ? " …" : ""}\``;
  if ("path" in rule) return `${rule.tool}: ${shown(rule.path, root)}`;
  if ("dir" in rule) return `${rule.tool}: ${rule.dir === root ? "any file in this project" : `files under ${shown(rule.dir, root)}/`}`;
  return `${rule.tool} (every call)`;
}

/** What a "don't ask again" for `rules` covers, for the dialog: "`npm test …` and `tail …`", "edits to files under src/". */
export function scopeLabel(rules: readonly PermissionRule[], root: string): string {
  const one = (rule: PermissionRule): string => {
    const verb = rule.tool === "edit" ? "edits" : rule.tool === "write" ? "writes" : rule.tool;
    if ("command" in rule) return `\`${rule.command}${rule.more ? " …" : ""}\``;
    if ("path" in rule) return `${verb} to ${shown(rule.path, root)}`;
    if ("dir" in rule) return `${verb} to ${rule.dir === root ? "any file in this project" : `files under ${shown(rule.dir, root)}/`}`;
    return rule.tool;
  };
  const all = rules.map(one);
  return all.length <= 1 ? all.join("") : `${all.slice(0, -1).join(", ")} and ${all[all.length - 1]}`;
}

function shown(path: string, root: string): string {
  return inside(path, root) ? relative(root, path) || "." : path;
}

export const sameRule = (a: PermissionRule, b: PermissionRule): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Whether `path` is under `root`, symlinks followed (a link inside the project to `~/.bashrc` is outside). */
export function inside(path: string, root: string): boolean {
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

/** A rule as /permissions lists it; `label` is `ruleLabel`'s. */
export type ListedRule = { rule: PermissionRule; always: boolean; label: string };

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

  all(): PermissionRule[] {
    return [...this.session, ...this.remembered()];
  }

  list(): ListedRule[] {
    const listed = (rule: PermissionRule, always: boolean): ListedRule => ({ rule, always, label: ruleLabel(rule, this.project) });
    return [...this.remembered().map((rule) => listed(rule, true)), ...this.session.map((rule) => listed(rule, false))];
  }

  /** Adds rules; `always` also writes them to permissions.json (an error sentence if that fails; the rules hold for the session anyway). */
  add(rules: readonly PermissionRule[], always: boolean): { ok: true } | { ok: false; error: string } {
    if (!always) {
      for (const rule of rules) if (!this.session.some((r) => sameRule(r, rule))) this.session.push(rule);
      return { ok: true };
    }
    const saved = this.remembered();
    const next = [...saved, ...rules.filter((rule, i) => !saved.some((r) => sameRule(r, rule)) && rules.findIndex((r) => sameRule(r, rule)) === i)];
    if (next.length === saved.length) return { ok: true };
    const w = writeProjectPermissions(this.home, this.project, next);
    if (!w.ok) {
      this.add(rules, false);
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
