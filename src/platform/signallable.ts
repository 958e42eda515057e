// Which pids zot may signal as a process group's leader. kill(-0) is zot's own group and kill(-1)
// every process zot may signal, so a pid that is 0 or 1 by a bug (an unparsed number, a frame from
// a broken command server) must never reach process.kill. No imports: the launcher loads it.

/** A positive integer other than init's. */
export function signallable(pid: number): boolean {
  return Number.isInteger(pid) && pid > 1;
}
