// `zot ext …`: the extension management CLI. Parses the subcommand and its options, builds the
// context (ZOT_HOME, --cwd, output streams) and hands off to one module per subcommand. Tests call
// runExtCli with their own `io`; zot's main passes nothing and gets the real process.
import { config } from "./ext/config.ts";
import type { CliIo } from "./kit/context.ts";
import { doctor } from "./ext/doctor.ts";
import { init } from "./ext/init.ts";
import { install } from "./ext/install.ts";
import { list } from "./ext/list.ts";
import { prepareSub, requiredPositional, type Sub } from "./kit/subcommand.ts";
import { logs } from "./ext/logs.ts";
import { remove } from "./ext/remove.ts";
import { rollback } from "./ext/rollback.ts";
import { sync } from "./ext/sync.ts";
import { update } from "./ext/update.ts";
import { verify } from "./ext/verify.ts";
import { test } from "./ext/test.ts";
import { toggle } from "./ext/toggle.ts";
import { trust, untrust } from "./ext/trust.ts";

export type { CliIo } from "./kit/context.ts";

const SUBS: Record<string, Sub> = {
  list: { usage: "list [--json]", about: "list installed extensions and their state (spawns nothing)", spec: { flags: ["--json"] }, positionals: [0, 0] },
  doctor: {
    usage: "doctor [--json] [-e PATH]... [--no-ext]",
    about: "load extensions like startup, report status, registrations, conflicts, warnings",
    spec: { flags: ["--json", "--no-ext"], multi: ["--ext"], aliases: { "-e": "--ext" } },
    positionals: [0, 0],
  },
  install: {
    usage: "install <path|git-url[#ref]> [--force] [--project] [--yes]",
    about: "copy a directory or shallow-clone a git repository into the extensions root (asks before granting declared permissions)",
    spec: { flags: ["--force", "--project", "--yes"], aliases: { "-y": "--yes" } },
    positionals: [1, 1],
  },
  remove: {
    usage: "remove <name> [--yes]",
    about: "delete an installed extension (asks first unless --yes)",
    spec: { flags: ["--yes"], aliases: { "-y": "--yes" } },
    positionals: [1, 1],
  },
  enable: { usage: "enable <name>", about: 'set "enabled": true in its manifest', spec: {}, positionals: [1, 1] },
  disable: { usage: "disable <name>", about: 'set "enabled": false in its manifest (keeps it installed)', spec: {}, positionals: [1, 1] },
  trust: {
    usage: "trust [DIR] | trust --list",
    about: "trust DIR (default: the project) and its subfolders, so their project extensions run",
    spec: { flags: ["--list"] },
    positionals: [0, 1],
  },
  untrust: { usage: "untrust [DIR]", about: "take the trust of DIR (default: the project) back", spec: {}, positionals: [0, 1] },
  config: {
    usage: "config <name> [key=value…] [--unset key]… [--json]",
    about: "show an extension's settings, or set them (key=- reads the value from stdin)",
    spec: { flags: ["--json"], multi: ["--unset"] },
    positionals: [1, 64],
  },
  update: {
    usage: "update [name…] [--check] [--yes] [--project]",
    about: "fetch locked extensions again from their source, show what changed, swap in (keeps the old copy)",
    spec: { flags: ["--check", "--yes", "--project"], aliases: { "-y": "--yes" } },
    positionals: [0, 64],
  },
  rollback: { usage: "rollback <name> [--project]", about: "restore the copy the last update replaced", spec: { flags: ["--project"] }, positionals: [1, 1] },
  verify: {
    usage: "verify [--project] [--json]",
    about: "re-hash installed extensions against the lockfile and report changes made behind zot's back",
    spec: { flags: ["--project", "--json"] },
    positionals: [0, 0],
  },
  sync: {
    usage: "sync [--yes]",
    about: "install exactly the extensions pinned in the project's .zot/extensions.lock.json (trusted folders only)",
    spec: { flags: ["--yes"], aliases: { "-y": "--yes" } },
    positionals: [0, 0],
  },
  logs: {
    usage: "logs <name> [-f]",
    about: "print the extension's log; -f keeps following it",
    spec: { flags: ["--follow"], aliases: { "-f": "--follow" } },
    positionals: [1, 1],
  },
  init: {
    usage: "init <name> [--lang ts|python|go|node|sh|sh-posix] [--sdk PATH]",
    about: "scaffold a working extension in ./<name>/ (default language: ts; --sdk PATH: on zot's SDK)",
    spec: { values: ["--lang", "--sdk"] },
    positionals: [1, 1],
  },
  test: {
    usage: "test <dir> <script.jsonl> [--json]",
    about: "check the handshake and play a scripted scenario against an extension",
    spec: { flags: ["--json"] },
    positionals: [2, 2],
  },
};

function extHelp(): string {
  const width = Math.max(...Object.values(SUBS).map((s) => s.usage.length)) + 2;
  return [
    "usage: zot ext <command> [options]",
    "",
    "commands:",
    ...Object.values(SUBS).map((s) => `  ${s.usage.padEnd(width)}${s.about}`),
    "",
    "every command takes --cwd DIR (the project whose .zot/extensions is the project root)",
    "and uses $ZOT_HOME (default: $XDG_STATE_HOME/zot, else the platform's state directory).",
    "",
    "extensions are found in: --ext/-e paths (doctor), <cwd>/.zot/extensions/*/, $ZOT_HOME/extensions/*/",
    "(in that order; the first extension with a given name wins, later ones are shadowed).",
    "project extensions run only in folders you trust (zot ext trust); elsewhere they are untrusted.",
    "",
    "zot ext test script lines (JSONL):",
    '  {"send": {"type":"tool_call","name":"echo","args":{"text":"hi"}}}      ids are filled in',
    '  {"expect": {"type":"tool_result","id":"$last_id"}, "within_ms": 2000}  subset match',
    '  {"expect_none": {"type":"notify"}, "within_ms": 300}                   nothing matching arrives',
    '  {"sleep_ms": 100}',
    "",
  ].join("\n");
}

/** Runs `zot ext <argv…>`; returns the exit code. */
export async function runExtCli(argv: string[], io: CliIo = {}): Promise<number> {
  const prepared = prepareSub("zot ext", SUBS, extHelp, argv, io);
  if (!prepared.ok) return prepared.code;
  const { name, args, ctx } = prepared;
  const [a, b, ...more] = args.positionals;
  const need = (i: number) => requiredPositional(args, i);
  const flag = (f: string) => args.flags.has(f);
  switch (name) {
    case "list":
      return list(ctx, flag("--json"));
    case "doctor":
      return doctor(ctx, { json: flag("--json"), extPaths: args.multi.get("--ext") ?? [], noExt: flag("--no-ext") });
    case "install":
      return install(ctx, need(0), { force: flag("--force"), project: flag("--project"), yes: flag("--yes") });
    case "remove":
      return remove(ctx, need(0), flag("--yes"));
    case "enable":
    case "disable":
      return toggle(ctx, need(0), name === "enable");
    case "trust":
      return trust(ctx, a, flag("--list"));
    case "untrust":
      return untrust(ctx, a);
    case "logs":
      return logs(ctx, need(0), flag("--follow"));
    case "update":
      return update(ctx, args.positionals, { check: flag("--check"), yes: flag("--yes"), project: flag("--project") });
    case "rollback":
      return rollback(ctx, need(0), { project: flag("--project") });
    case "verify":
      return verify(ctx, { project: flag("--project"), json: flag("--json") });
    case "sync":
      return sync(ctx, { yes: flag("--yes") });
    case "config":
      return config(ctx, need(0), { assignments: [b, ...more].filter((x) => x !== undefined), unset: args.multi.get("--unset") ?? [], json: flag("--json") });
    case "init":
      return init(ctx, need(0), args.values.get("--lang") ?? "ts", args.values.get("--sdk"));
    default:
      return test(ctx, need(0), need(1), flag("--json"));
  }
}
