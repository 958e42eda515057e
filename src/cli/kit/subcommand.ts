// The argument handling `zot ext` and `zot mcp` share: the subcommand looked up (no name or
// `--help` prints the CLI's help), its options merged with the common ones (`--cwd`, `--help`),
// parsed, `--help` answered, the positional count checked and the context built. Errors are the `zot: …` line and exit status 1 of both CLIs.
import { type ArgSpec, type ParsedArgs, parseArgs } from "./args.ts";
import { type CliIo, type Ctx, fail, makeCtx } from "./context.ts";

export type Sub = { usage: string; about: string; spec: ArgSpec; positionals: [number, number] };

const COMMON: ArgSpec = { values: ["--cwd"], flags: ["--help"], aliases: { "-h": "--help" } };

export type Prepared = { ok: true; name: string; args: ParsedArgs; ctx: Ctx } | { ok: false; code: number };

/** The i-th positional argument, one the subcommand's minimum count guarantees (prepareSub checked it). */
export function requiredPositional(args: ParsedArgs, i: number): string {
  const v = args.positionals[i];
  if (v === undefined) throw new Error(`positional argument ${i + 1} is missing, though the subcommand requires it`);
  return v;
}

/**
 * `prog` is "zot ext" or "zot mcp"; `help` is its whole help text; `hint` adds to a parse error
 * how to write that subcommand.
 */
export function prepareSub(
  prog: string,
  subs: Readonly<Record<string, Sub>>,
  help: () => string,
  argv: string[],
  io: CliIo,
  hint: (name: string, rest: string[]) => string = () => "",
): Prepared {
  const out = io.stdout ?? process.stdout;
  // Errors before the context exists (usage, --cwd) go to the same stderr the subcommands use.
  const early = { err: io.stderr ?? process.stderr };
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    out.write(help());
    return { ok: false, code: 0 };
  }
  const sub = subs[name];
  if (!sub) return { ok: false, code: fail(early, `unknown command "${prog} ${name}"; run ${prog} --help to see the commands.`) };
  const spec: ArgSpec = {
    flags: [...(COMMON.flags ?? []), ...(sub.spec.flags ?? [])],
    values: [...(COMMON.values ?? []), ...(sub.spec.values ?? [])],
    multi: sub.spec.multi,
    aliases: { ...COMMON.aliases, ...sub.spec.aliases },
  };
  const parsed = parseArgs(rest, spec);
  if (!parsed.ok) return { ok: false, code: fail(early, `${parsed.error} for ${prog} ${name}${hint(name, rest)}; usage: ${prog} ${sub.usage}`) };
  const args = parsed.args;
  if (args.flags.has("--help")) {
    out.write(`usage: ${prog} ${sub.usage} [--cwd DIR]\n  ${sub.about}\n`);
    return { ok: false, code: 0 };
  }
  const [min, max] = sub.positionals;
  if (args.positionals.length < min || args.positionals.length > max)
    return { ok: false, code: fail(early, `wrong number of arguments for ${prog} ${name}; usage: ${prog} ${sub.usage}`) };
  const made = makeCtx(io, args.values.get("--cwd"));
  if (!made.ok) return { ok: false, code: fail(early, made.error) };
  return { ok: true, name, args, ctx: made.ctx };
}
