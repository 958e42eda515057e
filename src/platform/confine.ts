// The launcher's second form, for the agent's own commands: `zot __sandbox --confine SPEC EXEC
// ARGS…`. It isolates itself in namespaces (hidden paths, no network), then restricts itself with
// Landlock, then execs the command, so every rule holds for the command and all it starts,
// background jobs included. Anything going wrong stops here with one `[zot] sandbox:` line on
// stdout, which the bash tool merges with the command's output: a confined command never runs
// unconfined.
import { blockingStdio, isolate, type Isolation } from "./namespaces.ts";
import { applyRuleset, decodeRuleset, encodeRuleset, execve, type Ruleset } from "./landlock.ts";

export const CONFINE_ARG = "--confine";

/** Exit status when the sandbox could not be set up (as a shell reports a command it cannot run). */
export const CANNOT_CONFINE = 126;

/** The first words of every line the launcher writes about itself. */
export const LAUNCHER_PREFIX = "[zot] sandbox:";

export type Confinement = { ruleset: Ruleset; isolation: Isolation };

export function encodeConfinement(c: Confinement): string {
  return JSON.stringify({ ruleset: encodeRuleset(c.ruleset), isolation: c.isolation });
}

export function decodeConfinement(text: string): Confinement | null {
  try {
    const raw = JSON.parse(text) as { ruleset?: unknown; isolation?: Partial<Record<keyof Isolation, unknown>> };
    const ruleset = typeof raw.ruleset === "string" ? decodeRuleset(raw.ruleset) : null;
    const i = raw.isolation;
    const strings = (v: unknown): string[] | null => (Array.isArray(v) && v.every((s) => typeof s === "string") ? v : null);
    if (!ruleset || !i) return null;
    const hideDirs = strings(i.hideDirs);
    const hideFiles = strings(i.hideFiles);
    const reveal = strings(i.reveal);
    if (!hideDirs || !hideFiles || !reveal || typeof i.network !== "boolean" || typeof i.entered !== "boolean") return null;
    return { ruleset, isolation: { hideDirs, hideFiles, reveal, network: i.network, entered: i.entered } };
  } catch {
    return null;
  }
}

export function runConfined(argv: string[]): number {
  const [specText, ...command] = argv;
  const spec = specText === undefined ? null : decodeConfinement(specText);
  const say = (line: string): number => {
    process.stdout.write(`${LAUNCHER_PREFIX} ${line}\n`);
    return CANNOT_CONFINE;
  };
  if (!spec || command.length === 0) return say("the launcher was started without a valid confinement and command; this is a zot bug.");
  const isolated = isolate(spec.isolation);
  if (!isolated.ok) return say(`could not set up the sandbox (${isolated.error}); the command was not run.`);
  const applied = applyRuleset(spec.ruleset);
  if (!applied.ok) return say(`could not set up the sandbox (${applied.error}); the command was not run.`);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  blockingStdio();
  return say(`could not execute ${command[0]}: ${execve(command, env)}`);
}
