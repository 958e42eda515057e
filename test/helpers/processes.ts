// Whether a process the test started is still there, the one check every leak test makes.
import { readFileSync } from "node:fs";

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
