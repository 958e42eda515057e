// Which bash commands only look: the ones `ask` and `plan` let run without asking. A conservative
// allow-list of programs (listing, reading, searching, git's read-only subcommands), each with the
// options that would make it write a file or run another program refused, over commands that
// shell-words.ts can read whole (no substitution, variables or redirection to a file). A chain
// (`grep x f | head`) only looks when every part does.
import { commandParts, type CommandPart } from "./shell-words.ts";

/**
 * Options that make a program write a file or run another program: long options (refused also
 * abbreviated, since getopt and git accept any unique prefix), short option letters (refused
 * anywhere in a cluster such as `-ro`), and whole words (find's actions).
 */
type Refused = { long?: readonly string[]; letters?: string; words?: readonly string[] };

/**
 * The programs that only look, with what each must not be given. A program with refused options
 * also takes no glob: a file named `--pre=sh` would become one of its options.
 */
const LOOKING: ReadonlyMap<string, Refused> = new Map<string, Refused>([
  ["ls", {}],
  ["cat", {}],
  ["head", {}],
  ["tail", {}],
  ["wc", {}],
  ["pwd", {}],
  ["du", {}],
  ["stat", {}],
  ["grep", {}],
  ["egrep", {}],
  ["fgrep", {}],
  ["echo", {}],
  ["realpath", {}],
  ["basename", {}],
  ["dirname", {}],
  ["which", {}],
  ["cmp", {}],
  ["nl", {}],
  ["cut", {}],
  ["diff", {}],
  ["rg", { long: ["--pre"] }],
  // -o writes the listing to a file; -R (with -H) writes an index file into every directory.
  ["tree", { long: ["--output"], letters: "oR" }],
  ["sort", { long: ["--output", "--compress-program"], letters: "o" }],
  ["find", { words: ["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"] }],
]);

/** git subcommands that only look, and the options that make them write a file or run a pager or external diff. */
const GIT_LOOKING: ReadonlySet<string> = new Set(["status", "log", "diff", "show", "blame", "ls-files", "grep", "rev-parse", "describe", "shortlog"]);
const GIT_REFUSED: Refused = { long: ["--output", "--ext-diff", "--open-files-in-pager"], letters: "O" };
/** `git branch` lists only with these (any other argument creates, renames or deletes a branch). */
const GIT_BRANCH_LISTING: ReadonlySet<string> = new Set([
  "-a",
  "--all",
  "-r",
  "--remotes",
  "-v",
  "-vv",
  "--verbose",
  "--list",
  "-l",
  "--show-current",
  "--no-color",
  "--color",
]);

/** Whether `command` only reads: every part of it is a looking program with none of its refused options. */
export function isReadOnlyCommand(command: string): boolean {
  const parts = commandParts(command);
  return parts?.every(isReadOnlyPart) === true;
}

export function isReadOnlyPart(part: CommandPart): boolean {
  const [program, ...args] = part;
  if (program === undefined || program.glob) return false;
  if (program.text === "git") return gitLooks(args);
  const refused = LOOKING.get(program.text);
  return refused !== undefined && allowed(args, refused);
}

function gitLooks(args: CommandPart): boolean {
  // `git --no-pager log` is how a model keeps git from waiting on a pager; other global options (-c, -C) are not read here.
  const rest = args[0]?.text === "--no-pager" ? args.slice(1) : args;
  const [sub, ...opts] = rest;
  if (sub === undefined || sub.glob) return false;
  if (sub.text === "branch") return opts.every((o) => !o.glob && GIT_BRANCH_LISTING.has(o.text));
  return GIT_LOOKING.has(sub.text) && allowed(opts, GIT_REFUSED);
}

function allowed(args: CommandPart, refused: Refused): boolean {
  const strict = refused.long !== undefined || refused.letters !== undefined || refused.words !== undefined;
  // After `--` every word is a file name, never an option (not for find: its actions follow the paths).
  const end = refused.words ? -1 : args.findIndex((a) => !a.glob && a.text === "--");
  return (end < 0 ? args : args.slice(0, end)).every((a) => {
    if (a.glob) return !strict;
    const t = a.text;
    if ((refused.words ?? []).includes(t)) return false;
    if (t.startsWith("--")) {
      const name = t.split("=")[0]!;
      return !(refused.long ?? []).some((l) => l.startsWith(name) || name.startsWith(l));
    }
    return !(t.startsWith("-") && [...(refused.letters ?? "")].some((l) => t.includes(l)));
  });
}
