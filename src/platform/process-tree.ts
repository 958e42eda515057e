// Ending a child process together with everything it started. On POSIX each child leads its own
// process group (spawned `detached`, i.e. setsid) and the group is signalled. Windows has no
// process groups to signal: `taskkill /T` walks the tree from the child's pid (`/F` to force).
import { readFileSync } from "node:fs";
import { unregisterGroup } from "./reaper.ts";
import { signallable } from "./signallable.ts";

export type TreeSignal = "SIGTERM" | "SIGKILL";

/** Whether a child should be spawned as the leader of a new process group. */
export function ownsProcessGroup(platform: string = process.platform): boolean {
  return platform !== "win32";
}

/** The taskkill command that ends `pid` and its descendants on Windows. */
export function taskkillArgv(pid: number, signal: TreeSignal): string[] {
  return ["taskkill", "/T", ...(signal === "SIGKILL" ? ["/F"] : []), "/PID", String(pid)];
}

/** Signals `pid`'s whole tree; false when nothing was there. Synchronous, so it also works in an exit handler. */
export function killTree(pid: number, signal: TreeSignal, platform: string = process.platform): boolean {
  if (!signallable(pid)) return false;
  if (platform === "win32") {
    try {
      return Bun.spawnSync(taskkillArgv(pid, signal), { stdin: "ignore", stdout: "ignore", stderr: "ignore" }).exitCode === 0;
    } catch {
      return false;
    }
  }
  let sent = true;
  try {
    process.kill(-pid, signal);
  } catch {
    sent = false;
  }
  // After SIGKILL the group is gone and its id may be reused: the reaper must forget it.
  if (signal === "SIGKILL") unregisterGroup(pid);
  return sent;
}

/**
 * When `pid` started, in clock ticks since boot (Linux /proc); null when it is gone or unknown.
 * A pid seen again with the same start time is the same process, not a recycled pid.
 */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[0] === "Z" ? null : (fields[19] ?? null);
  } catch {
    return null;
  }
}
