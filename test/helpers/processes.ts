// Whether a process the test started is still there, the one check every leak test makes.
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
