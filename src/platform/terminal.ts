// What the terminal zot runs in can do, and whether a stream is one at all.
import { fstatSync } from "node:fs";

/**
 * TERM=dumb: no cursor movement, colours or attributes. The interactive mode runs as line mode
 * there: prompts and answers as plain lines, no full screen, no panels or dialogs.
 */
export function isDumbTerminal(env: Record<string, string | undefined>): boolean {
  return env.TERM === "dumb";
}

/** Linux's major number of the memory devices: /dev/null, /dev/zero, /dev/full, /dev/random. */
const LINUX_MEM_MAJOR = 1;

/**
 * Whether `fd` is a terminal. A pipe or a file is told apart by one fstat. On Linux a character
 * device other than the memory devices is a terminal (pts, tty, serial and console devices) —
 * decided without loading node:tty, whose first use costs ~2.7 MiB of peak memory in a `zot -p`
 * typed at a terminal (bench/RESULTS.md); elsewhere isatty decides. Asking
 * `process.stdout.isTTY` instead would build Node's stream objects (~3 ms, ~4 MiB).
 */
export function isTerminal(fd: number): boolean {
  let rdev: number;
  try {
    const st = fstatSync(fd);
    if (!st.isCharacterDevice()) return false;
    rdev = Number(st.rdev);
  } catch {
    return false;
  }
  if (process.platform === "linux") return rdev >> 8 !== LINUX_MEM_MAJOR;
  return process.getBuiltinModule("node:tty").isatty(fd);
}
