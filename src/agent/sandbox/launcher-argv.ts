// How zot starts its launcher for the agent's commands (the one-shot `--confine` form and the
// command server): directly, or, for a user who is not root and needs namespaces, under util-linux
// `unshare`, which makes the user namespace a multi-threaded Bun process cannot make for itself.
import { existsSync } from "node:fs";
import { SERVE_ARG } from "../../platform/command-server.ts";
import { launcherCommand } from "../../platform/launcher-command.ts";

export const UNSHARE = "/usr/bin/unshare";

export const isRoot = (): boolean => (process.getuid?.() ?? 0) === 0;

/** A user who is not root confines under a user namespace, which only util-linux `unshare` makes here: without it nothing is confined. */
export const unshareMissing = (): boolean => !isRoot() && !existsSync(UNSHARE);

/** `direct`: the launcher makes what namespaces it needs itself (root), or needs none; `network`: the commands keep it. */
export function launcherArgv(direct: boolean, network: boolean): string[] {
  if (direct) return launcherCommand(true);
  // Mapped to root inside, the launcher may mount; Landlock then keeps the command from unmounting.
  return [UNSHARE, "--user", "--map-root-user", "--mount", ...(network ? [] : ["--net"]), "--", ...launcherCommand(false)];
}

/** The command server's argv (src/platform/command-server.ts); its confinement follows as its first frame. */
export function serverArgv(direct: boolean, network: boolean): string[] {
  return [...launcherArgv(direct, network), SERVE_ARG];
}
