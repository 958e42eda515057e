// Starting one extension subprocess. On POSIX each extension leads its own process group (setsid
// via `detached`) so a signal to the group also reaches what it started (`npx` → `node`); on
// Windows the tree is ended with taskkill (platform/process-tree.ts) and .cmd shims run under cmd.
import type { Result } from "../../result.ts";
import { resolve } from "node:path";
import { spawnCommand } from "../../platform/command-line.ts";
import { childEnv } from "../../platform/env.ts";
import { ownsProcessGroup } from "../../platform/process-tree.ts";
import { registerGroup } from "../../platform/reaper.ts";

export type SpawnSpec = {
  exec: string;
  args: string[];
  /** The extension directory. */
  cwd: string;
  env: Record<string, string>;
};

export type ExitInfo = { code: number | null; signal: string | null };

export type ChildProcess = {
  pid: number;
  stdin: import("bun").FileSink;
  stdout: ReadableStream<Uint8Array>;
  /** Read by zot and masked on the way to the log (src/ext/stderr-log.ts). */
  stderr: ReadableStream<Uint8Array>;
  exited: Promise<ExitInfo>;
};

/** The variables zot itself sets for an extension (docs/ext-host.md); a scope passes only these `ZOT_*` names. */
export const EXTENSION_ZOT_VARS = ["ZOT_HOME", "ZOT_EXTENSION_DIR", "ZOT_DATA_DIR", "ZOT_CWD"];

/**
 * What an extension runs with: the user's environment (it is the user's program, API keys and all)
 * plus zot's variables — minus zot's own RPC credential, since whoever holds it can drive zot.
 */
export function extensionEnv(base: Record<string, string | undefined>, at: { home: string; dir: string; cwd: string }): Record<string, string> {
  const env = childEnv(base);
  env.ZOT_HOME = at.home;
  env.ZOT_EXTENSION_DIR = at.dir;
  env.ZOT_DATA_DIR = at.dir;
  env.ZOT_CWD = resolve(at.cwd);
  return env;
}

export function spawnExtension(spec: SpawnSpec): Result<{ child: ChildProcess }> {
  try {
    const command = spawnCommand(spec.exec, spec.args, process.platform, spec.env.ComSpec ?? spec.env.COMSPEC);
    const proc = Bun.spawn(command.argv, {
      cwd: spec.cwd,
      env: spec.env,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      detached: ownsProcessGroup(),
      windowsVerbatimArguments: command.windowsVerbatimArguments,
    });
    if (ownsProcessGroup()) registerGroup(proc.pid);
    const info = (): ExitInfo => {
      const sig = proc.signalCode;
      return sig == null ? { code: proc.exitCode, signal: null } : { code: null, signal: String(sig) };
    };
    const exited = proc.exited.then(info, info);
    return { ok: true, child: { pid: proc.pid, stdin: proc.stdin, stdout: proc.stdout, stderr: proc.stderr, exited } };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

/** "exit code 3" / "signal SIGKILL": how an exit reads in an error sentence. */
export function describeExit(exit: ExitInfo): string {
  if (exit.signal) return `signal ${exit.signal}`;
  return `exit code ${exit.code ?? "unknown"}`;
}
