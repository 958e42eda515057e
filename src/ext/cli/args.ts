import type { Result } from "../../result.ts";
// A tiny argv parser for `zot ext` subcommands: boolean flags, single-value options, repeatable
// options, and positionals. Unknown options are errors so typos never pass silently.

export type ArgSpec = {
  /** Boolean flags. */
  flags?: string[];
  /** Options taking one value (`--cwd DIR` or `--cwd=DIR`). */
  values?: string[];
  /** Repeatable options taking a value. */
  multi?: string[] | undefined;
  /** Short spellings mapped to the canonical name (e.g. `{"-f": "--follow"}`). */
  aliases?: Record<string, string>;
};

export type ParsedArgs = {
  flags: Set<string>;
  values: Map<string, string>;
  multi: Map<string, string[]>;
  positionals: string[];
};

export function parseArgs(argv: string[], spec: ArgSpec): Result<{ args: ParsedArgs }> {
  const flags = new Set<string>();
  const values = new Map<string, string>();
  const multi = new Map<string, string[]>();
  const positionals: string[] = [];
  const canonical = (name: string) => spec.aliases?.[name] ?? name;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = canonical(eq > 0 && arg.startsWith("--") ? arg.slice(0, eq) : arg);
    const inline = eq > 0 && arg.startsWith("--") ? arg.slice(eq + 1) : undefined;
    const takesValue = spec.values?.includes(name) || spec.multi?.includes(name);
    if (!takesValue) {
      if (!spec.flags?.includes(name)) return { ok: false, error: `unknown option ${arg}` };
      if (inline !== undefined) return { ok: false, error: `option ${name} takes no value` };
      flags.add(name);
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) return { ok: false, error: `option ${name} needs a value` };
    if (spec.multi?.includes(name)) multi.set(name, [...(multi.get(name) ?? []), value]);
    else values.set(name, value);
  }
  return { ok: true, args: { flags, values, multi, positionals } };
}
