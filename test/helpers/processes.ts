// Whether a process the test started is still there, the one check every leak test makes; and the
// one way a test signals a process (test/architecture/test-signals.test.ts keeps it so).
import { readdirSync, readFileSync } from "node:fs";

/** Alive and not a zombie (a re-parented zombie waits for init, but runs nothing). */
export function alive(pid: number): boolean {
  if (process.platform === "linux") {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The live processes whose command line is exactly `argv` (Linux: read from /proc). */
export function running(argv: string[]): number[] {
  const want = `${argv.join("\0")}\0`;
  return readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8") === want && alive(pid);
      } catch {
        return false;
      }
    });
}

/** True once no process runs `argv`, waiting up to five seconds for the kill to land. */
export async function noneRunning(argv: string[]): Promise<boolean> {
  for (let i = 0; i < 100 && running(argv).length > 0; i++) await Bun.sleep(50);
  return running(argv).length === 0;
}

/**
 * Sends `sig` to a process the test started (`group`: to its process group). Only a positive pid
 * other than init's: process.kill(0, …) reaches the test's own process group and process.kill(-1, …)
 * every process the user may signal, and a pid read from an empty file, or of a command server that
 * was never started, is just that (one such call, on a machine where the sandbox was not enforced,
 * killed the test run and the shell that ran it).
 */
export function signal(pid: number, sig: NodeJS.Signals, { group = false } = {}): void {
  if (!Number.isInteger(pid) || pid <= 1) throw new Error(`refusing to send ${sig} to pid ${pid}: not a process the test started`);
  process.kill(group ? -pid : pid, sig);
}

/** `parent`'s living children with `word` among their arguments (Linux: read from /proc), in pid order. */
export function childrenWith(parent: number, word: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2);
      if (fields[0] !== "Z" && Number(fields.split(" ")[1]) === parent && readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").includes(word))
        found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found.sort((x, y) => x - y);
}

/** The reaper `parent` started (src/platform/reaper.ts): its child running the reaper script, whose $0 is `zot-reaper`. */
export function reaperOf(parent: number): number | undefined {
  return childrenWith(parent, "zot-reaper")[0];
}

/** The process groups on a reaper's list: the group file it holds as its fd 3. */
export function reaperList(reaper: number): number[] {
  return readFileSync(`/proc/${reaper}/fd/3`, "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .map(Number);
}
