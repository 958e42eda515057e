// The launcher: zot re-executed as `zot __sandbox RULESET EXEC ARGS…`. It restricts itself with
// Landlock and then execs the extension, so the rules hold for the extension and all it starts.
// Anything going wrong stops here with one `[zot]` line on stderr (the extension's log): an
// extension promised a sandbox never runs without one.
import { applyRuleset, execve } from "./landlock.ts";
import { decodeRuleset } from "./policy.ts";
import { CONFINE_ARG, runConfined } from "./confine.ts";

export const LAUNCHER_ARG = "__sandbox";

/** Exit status when the sandbox could not be set up (as a shell reports a command it cannot run). */
const CANNOT_RUN = 126;

export function runLauncher(argv: string[]): number {
  // The agent's own commands (src/agent/sandbox) are confined by mode, not by a declaration.
  if (argv[0] === CONFINE_ARG) return runConfined(argv.slice(1));
  const [rulesetText, ...command] = argv;
  const ruleset = rulesetText === undefined ? null : decodeRuleset(rulesetText);
  if (!ruleset || command.length === 0) {
    process.stderr.write(`[zot] sandbox: the launcher was started without a valid ruleset and command; this is a zot bug.\n`);
    return CANNOT_RUN;
  }
  const applied = applyRuleset(ruleset);
  if (!applied.ok) {
    process.stderr.write(`[zot] sandbox: could not enforce the declared permissions (${applied.error}); the extension was not started.\n`);
    return CANNOT_RUN;
  }
  const skipped = applied.skipped.length > 0 ? `; not found, so not granted: ${applied.skipped.join(", ")}` : "";
  process.stderr.write(`[zot] sandbox: Landlock ABI ${applied.abi} enforced${skipped}\n`);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  const why = execve(command, env);
  process.stderr.write(`[zot] sandbox: could not execute ${command[0]}: ${why}\n`);
  return CANNOT_RUN;
}

if (import.meta.main) process.exit(runLauncher(process.argv.slice(2)));
