// The command server's process. It is told its confinement in its first frame, not in its argv, so
// it can be started before zot knows the session's policy: right after the command line is read,
// when the run will give the model bash under a sandbox (`prestartServer`). Its Bun start, ~12 ms
// of CPU, then runs while zot loads and reads its configuration, not beside the first model
// request (bench/RESULTS.md, "The command server started with the command line"). The session's
// first server takes it if its argv is the one guessed (`takeStarted`); else, or with no server,
// it is let go (`releaseStarted`), and, told nothing, it exits at the end of its stdin.
import type { Subprocess } from "bun";
import { offersShell } from "../../names.ts";
import type { SandboxMode } from "./policy.ts";
import { isRoot, serverArgv, unshareMissing } from "./launcher-argv.ts";

export type ServerProcess = Subprocess<"pipe", "pipe", "ignore">;

/** Its own session, so the terminal's Ctrl-C, meant for zot, does not end it. */
export function spawnServer(argv: string[]): ServerProcess {
  return Bun.spawn(argv, { stdin: "pipe", stdout: "pipe", stderr: "ignore", detached: true });
}

let started: { key: string; proc: ServerProcess } | null = null;

/**
 * Starts the server a run of `f` will most likely use: Linux, bash offered, the sandbox not turned
 * off on the command line, the network as the command line says (config.json may still change
 * both). It holds no handle that keeps zot running, and goes with zot like any server.
 */
export function prestartServer(f: {
  noTools: boolean;
  tools?: string[] | undefined;
  sandbox?: SandboxMode | undefined;
  sandboxNetwork?: boolean | undefined;
}): void {
  if (started || process.platform !== "linux" || f.sandbox === "off" || !offersShell(f) || unshareMissing()) return;
  // Root makes its namespaces itself; anyone else needs them (the network cut, or the hidden paths).
  const argv = serverArgv(isRoot(), f.sandboxNetwork === true);
  let proc: ServerProcess;
  try {
    proc = spawnServer(argv);
  } catch {
    // Not startable now (no such program, no processes left): the session starts its own, and says why if that fails too.
    return;
  }
  proc.unref();
  proc.stdin.unref();
  started = { key: argv.join("\0"), proc };
}

/** The server started early, if it was started with `argv`; it is then the caller's. */
export function takeStarted(argv: string[]): ServerProcess | null {
  if (!started || started.key !== argv.join("\0") || started.proc.exitCode !== null || started.proc.signalCode !== null) return null;
  const { proc } = started;
  started = null;
  return proc;
}

/** The session has its server, or needs none: one started early and not taken ends. */
export function releaseStarted(): void {
  if (!started) return;
  const { proc } = started;
  started = null;
  try {
    proc.stdin.end();
  } catch {
    // Gone already.
  }
}
