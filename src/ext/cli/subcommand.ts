// The argument handling `zot ext` and `zot mcp` share: a subcommand's options merged with the
// common ones (`--cwd`, `--help`), parsed, `--help` answered, the positional count checked and the
// context built. Errors are the `zot: …` line and exit status 1 of both CLIs.
import { type ArgSpec, type ParsedArgs, parseArgs } from "./args.ts";
import { type CliIo, type Ctx, fail, makeCtx } from "./context.ts";

export type Sub = { usage: string; about: string; spec: ArgSpec; positionals: [number, number] };

const COMMON: ArgSpec = { values: ["--cwd"], flags: ["--help"], aliases: { "-h": "--help" } };

/** `prog` is "zot ext" or "zot mcp"; `hint` is added to a parse error (how to write the command). */
export function prepareSub(prog: string, name: string, sub: Sub, rest: string[], io: CliIo, hint = ""): { ok: true; args: ParsedArgs; ctx: Ctx } | { ok: false; code: number } {
  const out = io.stdout ?? process.stdout;
  const early = { err: io.stderr ?? process.stderr };
  const spec: ArgSpec = {
    flags: [...(COMMON.flags ?? []), ...(sub.spec.flags ?? [])],
    values: [...(COMMON.values ?? []), ...(sub.spec.values ?? [])],
    multi: sub.spec.multi,
    aliases: { ...COMMON.aliases, ...sub.spec.aliases },
  };
  const parsed = parseArgs(rest, spec);
  if (!parsed.ok) return { ok: false, code: fail(early, `${parsed.error} for ${prog} ${name}${hint}; usage: ${prog} ${sub.usage}`) };
  const args = parsed.args;
  if (args.flags.has("--help")) {
    out.write(`usage: ${prog} ${sub.usage} [--cwd DIR]\n  ${sub.about}\n`);
    return { ok: false, code: 0 };
  }
  const [min, max] = sub.positionals;
  if (args.positionals.length < min || args.positionals.length > max) return { ok: false, code: fail(early, `wrong number of arguments for ${prog} ${name}; usage: ${prog} ${sub.usage}`) };
  const made = makeCtx(io, args.values.get("--cwd"));
  if (!made.ok) return { ok: false, code: fail(early, made.error) };
  return { ok: true, args, ctx: made.ctx };
}
