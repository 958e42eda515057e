// The agent's sandbox policy as the Linux launcher's confinement: Landlock lets the whole file
// system be read and executed and only the writable directories be written; namespaces hide the
// secret locations inside that readable tree and cut the network.
import { statSync } from "node:fs";
import { FS, KNOWN_FS_RIGHTS, READ_RIGHTS, SCOPE, type PathRule } from "../../platform/landlock.ts";
import type { Confinement } from "../../platform/confine.ts";
import type { SandboxPolicy } from "./policy.ts";

/** Devices every program writes to or asks about (terminals, the null device, randomness). */
const DEVICES = ["/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx", "/dev/pts"];

/**
 * `entered`: util-linux `unshare` makes the namespaces before the launcher runs (for a user who is
 * not root). Planned with every right zot knows, whatever the kernel's Landlock ABI: the launcher
 * keeps the rights its kernel has (applyRuleset), so zot's own process need not ask the kernel,
 * which would load bun:ffi (~1.8 ms of CPU and ~2 MiB at every sandboxed start).
 */
export function confinement(p: SandboxPolicy, entered: boolean): Confinement {
  const paths: PathRule[] = [
    { path: "/", access: READ_RIGHTS | FS.EXECUTE | FS.IOCTL_DEV },
    ...DEVICES.map((path) => ({ path, access: READ_RIGHTS | FS.WRITE_FILE | FS.IOCTL_DEV })),
    ...p.writable.map((path) => ({ path, access: KNOWN_FS_RIGHTS })),
  ];
  const hideDirs: string[] = [];
  const hideFiles: string[] = [];
  for (const path of p.hidden) {
    const kind = kindOf(path);
    if (kind === "dir") hideDirs.push(path);
    else if (kind === "file") hideFiles.push(path);
  }
  return {
    ruleset: { handledFs: KNOWN_FS_RIGHTS, handledNet: 0n, scoped: SCOPE.SIGNAL, paths, connectPorts: [] },
    isolation: { hideDirs, hideFiles, reveal: p.reveal.filter((r) => kindOf(r) === "dir"), network: p.network, entered },
  };
}

/**
 * What is there now: a hidden path that does not exist has nothing to hide (creating it is a write
 * outside the workspace). It is asked for each of the ~28 hidden paths at every command's start, so
 * that a secret created during the session is hidden from the next command; most do not exist, and
 * an ENOENT thrown costs three times a missing answer (bench/RESULTS.md, "The hidden paths' stat").
 */
function kindOf(path: string): "dir" | "file" | null {
  try {
    const s = statSync(path, { throwIfNoEntry: false });
    return s === undefined ? null : s.isDirectory() ? "dir" : "file";
  } catch {
    // Not readable (a parent without search permission): nothing this user could hide there either.
    return null;
  }
}
