// The reaper: what zot starts dies with zot, however zot dies (kill -9 included). A graceful exit
// already stops every extension and command; this covers the exits that run no code at all.
//
// A tiny POSIX sh process, started with the first child (or beside a session's first model request
// where bash may run commands: prepareReaperSoon), waits for end of file on its stdin, a
// pipe only zot holds: it closes when zot exits, crashes or is killed. Then it sends SIGKILL to
// every process group listed in the group file and exits. The group file is an unlinked temporary
// file zot keeps open and the reaper has as fd 3; zot rewrites the whole list in it at every
// change (one positional write, padded over the old list, so even a write cut short by zot's death
// leaves whole lines). Nothing is ever written to the pipe, so a command's start and end do not
// wake the reaper (through a pipe that was two wake-ups and context switches per bash call). It
// leads a session of its own and ignores the terminal's signals, so neither Ctrl-C nor zot's own
// group kills reach it, and it is unref'd, so it never keeps zot running. A process that leaves
// its group on purpose (`setsid`) is not in any registered group and survives.
import { closeSync, openSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { FileSink, Subprocess } from "bun";
import { randomHex } from "../random.ts";

const SCRIPT = `trap '' INT TERM HUP QUIT PIPE
while IFS= read -r l; do :; done
while read -r i; do
  case $i in ""|*[!0-9]*) ;; *) kill -KILL -"$i" 2>/dev/null ;; esac
done <&3`;

/** Process groups to kill if zot dies; the group file lists exactly these. */
const groups = new Set<number>();
let reaper: { proc: Subprocess<"pipe", "ignore", "ignore">; sink: FileSink } | null = null;
/** The group file (unlinked), or null when it could not be made. */
let file: number | null = null;
/** Bytes of the list last written: a shorter list is padded to this, so no old line survives whole. */
let written = 0;

/** Where the group file may be made: $TMPDIR first, then the system's own temp directories (a $TMPDIR that is missing or read-only must not cost the reaper). */
function tempDirs(): string[] {
  return [...new Set([process.getBuiltinModule("node:os").tmpdir(), "/dev/shm", "/tmp", "/var/tmp"])];
}

function openGroupFile(): number | null {
  for (const dir of tempDirs()) {
    const path = join(dir, `zot-reaper-${process.pid}-${randomHex(8)}`);
    try {
      const fd = openSync(path, "wx+", 0o600);
      unlinkSync(path);
      return fd;
    } catch {
      // Not here: the next one.
    }
  }
  return null;
}

function writeGroups(): void {
  if (file === null) return;
  let text = "";
  for (const g of groups) text += `${g}\n`;
  // Blank padding lines are skipped by the reaper; the pad covers every byte the last list used.
  const padded = text.length >= written ? text : text + " ".repeat(written - text.length - 1) + "\n";
  try {
    writeSync(file, padded, 0);
    written = padded.length;
  } catch {
    // A full disk: the exits that run code still stop every child.
  }
}

function start(): void {
  if (file === null) return;
  try {
    const proc = Bun.spawn(["/bin/sh", "-c", SCRIPT, "zot-reaper"], {
      stdio: ["pipe", "ignore", "ignore", file],
      detached: true,
    }) as Subprocess<"pipe", "ignore", "ignore">;
    proc.unref();
    const sink = proc.stdin;
    sink.unref();
    reaper = { proc, sink };
    void proc.exited.then(() => {
      if (reaper?.proc === proc) reaper = null;
    });
  } catch {
    // No /bin/sh: children are still reaped on every exit that runs code.
    closeSync(file);
    file = null;
  }
}

/** Starts the reaper before any group is listed, so the first one's registration does not wait for its start. */
export function prepareReaper(): void {
  if (process.platform === "win32" || reaper) return;
  file ??= openGroupFile();
  start();
}

/**
 * prepareReaper once the work at hand yields: a session's start calls it, and its spawn (~0.7 ms
 * of the main thread, bench/RESULTS.md) then runs while the first model request is out instead of
 * before it is sent or before the first command's go. Whoever registers a group first still starts
 * it then, if the timer has not run yet.
 */
export function prepareReaperSoon(): void {
  if (process.platform === "win32" || reaper) return;
  setTimeout(prepareReaper, 0).unref();
}

/** Registers a process group (its leader's pid) to be killed if zot dies before unregistering it. */
export function registerGroup(pgid: number): void {
  // Windows has neither process groups nor /bin/sh; its trees are ended with taskkill on exit.
  if (process.platform === "win32") return;
  groups.add(pgid);
  file ??= openGroupFile();
  // Written before a (replacement) reaper starts, so it can only find the list complete.
  writeGroups();
  if (!reaper) start();
}

/** The group is gone (killed with SIGKILL): its id may be reused, so the reaper must forget it. */
export function unregisterGroup(pgid: number): void {
  if (!groups.delete(pgid)) return;
  writeGroups();
}
