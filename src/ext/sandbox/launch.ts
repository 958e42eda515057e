// The launcher: zot re-executed as `zot __sandbox RULESET EXEC ARGS…`. It restricts itself with
// Landlock and then execs the extension, so the rules hold for the extension and all it starts.
// Anything going wrong stops here with one `[zot]` line on stderr (the extension's log): an
// extension promised a sandbox never runs without one.
// Nothing it imports loads node:fs (main.ts says why; test/architecture/launcher.test.ts keeps it so).
import { armExecGuard, execGuardAvailable, EXEC_GUARD_ARG, runExecGuard } from "./exec-guard.ts";
import { applyRuleset, decodeRuleset, execve, FS } from "../../platform/landlock.ts";
import { CONFINE_ARG, runConfined } from "../../platform/confine.ts";
import { runCommandServer, SERVE_ARG } from "../../platform/command-server.ts";
import { EMBEDDED_RUNTIME_ENV } from "../../platform/launcher-command.ts";
import { realPath } from "../../platform/real-path.ts";

/** Exit status when the sandbox could not be set up (as a shell reports a command it cannot run). */
const CANNOT_RUN = 126;

export async function runLauncher(argv: string[]): Promise<number> {
  if (argv[0] === EXEC_GUARD_ARG) return runExecGuard(argv.slice(1));
  // The agent's own commands (src/agent/sandbox) are confined by mode, not by a declaration.
  if (argv[0] === CONFINE_ARG) return runConfined(argv.slice(1));
  if (argv[0] === SERVE_ARG) return runCommandServer();
  const [rulesetText, ...command] = argv;
  const ruleset = rulesetText === undefined ? null : decodeRuleset(rulesetText);
  if (!ruleset || command.length === 0) {
    process.stderr.write(`[zot] sandbox: the launcher was started without a valid ruleset and command; this is a zot bug.\n`);
    return CANNOT_RUN;
  }
  // Landlock handles EXECUTE exactly when the scope says `exec: false` (policy.ts).
  const guarded = (ruleset.handledFs & FS.EXECUTE) !== 0n && execGuardAvailable();
  if (guarded) {
    const armed = await armExecGuard();
    if (!armed.ok) {
      process.stderr.write(`[zot] sandbox: could not forbid starting programs (${armed.error}); the extension was not started.\n`);
      return CANNOT_RUN;
    }
  }
  const applied = applyRuleset(ruleset);
  if (!applied.ok) {
    process.stderr.write(`[zot] sandbox: could not enforce the declared permissions (${applied.error}); the extension was not started.\n`);
    return CANNOT_RUN;
  }
  const skipped = applied.skipped.length > 0 ? `; not found, so not granted: ${applied.skipped.join(", ")}` : "";
  process.stderr.write(`[zot] sandbox: Landlock ABI ${applied.abi} enforced${guarded ? ", seccomp exec guard on" : ""}${skipped}\n`);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  // The plan refuses zot's binary as a scoped extension's program unless it stands in for bun or
  // node, so its own binary here is that runtime: Bun, and never this launcher again.
  if (command[0] !== undefined && realPath(command[0]) === realPath(process.execPath)) env[EMBEDDED_RUNTIME_ENV] = "1";
  const why = execve(command, env);
  process.stderr.write(`[zot] sandbox: could not execute ${command[0]}: ${why}\n`);
  return CANNOT_RUN;
}

if (import.meta.main) process.exit(await runLauncher(process.argv.slice(2)));
