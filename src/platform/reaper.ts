// The reaper: what zot starts dies with zot, however zot dies (kill -9 included). A graceful exit
// already stops every extension and command; this covers the exits that run no code at all.
//
// A tiny POSIX sh process, started with the first child (whose group it gets as an argument: the
// first write to a fresh pipe may still be queued when zot dies), reads `+PGID` and `-PGID` lines
// on its stdin, a pipe only zot holds. When that pipe closes (zot exited, crashed or was killed), it
// sends SIGKILL to every process group still registered, then exits. It leads a session of its
// own and ignores the terminal's signals, so neither Ctrl-C nor zot's own group kills reach it,
// and it is unref'd, so it never keeps zot running. A process that leaves its group on purpose
// (`setsid`) is not in any registered group and survives.
import type { FileSink, Subprocess } from "bun";

const SCRIPT = `trap '' INT TERM HUP QUIT PIPE
g=" $* "
while IFS= read -r l; do
  case $l in
    +*) g="$g\${l#+} " ;;
    -*) i=\${l#-}; case $g in *" $i "*) g="\${g%%" $i "*} \${g#*" $i "}" ;; esac ;;
  esac
done
for i in $g; do kill -KILL -"$i" 2>/dev/null; done`;

/** Process groups to kill if zot dies; kept here too, so a replacement reaper can be told them all. */
const groups = new Set<number>();
let reaper: { proc: Subprocess<"pipe", "ignore", "ignore">; sink: FileSink } | null = null;

function start(): void {
  try {
    const proc = Bun.spawn(["/bin/sh", "-c", SCRIPT, "zot-reaper", ...[...groups].map(String)], {
      stdin: "pipe",
      stdout: "ignore",
      stderr: "ignore",
      detached: true,
    });
    proc.unref();
    const sink = proc.stdin;
    sink.unref();
    reaper = { proc, sink };
    void proc.exited.then(() => {
      if (reaper?.proc === proc) reaper = null;
    });
  } catch {
    // No /bin/sh: children are still reaped on every exit that runs code.
  }
}

/** A new reaper learns every group from its arguments; a running one is told the change. */
function tell(line: string): void {
  if (!reaper) {
    start();
    return;
  }
  try {
    reaper.sink.write(`${line}\n`);
    reaper.sink.flush();
  } catch {
    reaper = null;
  }
}

/** Registers a process group (its leader's pid) to be killed if zot dies before unregistering it. */
export function registerGroup(pgid: number): void {
  // Windows has neither process groups nor /bin/sh; its trees are ended with taskkill on exit.
  if (process.platform === "win32") return;
  groups.add(pgid);
  tell(`+${pgid}`);
}

/** The group is gone (killed with SIGKILL): its id may be reused, so the reaper must forget it. */
export function unregisterGroup(pgid: number): void {
  if (!groups.delete(pgid) || !reaper) return;
  tell(`-${pgid}`);
}
