// stdout and stderr for the command line. Writes go through Bun's file sinks: each one is handed to
// the kernel at once, and `drain` waits until a slow reader has taken everything. Plain
// process.stdout writes followed by process.exit() drop whatever a full pipe has not accepted yet
// (a long JSON or RPC stream, `zot ext logs | less`).
//
// What is written here is often untrusted (model answers, tool output, extension notes and logs).
// When the stream is a terminal, escape sequences and control characters are removed so none of
// it can retitle the window, write the clipboard (OSC 52) or rewrite the screen; a pipe or a file
// gets the bytes as they are.
import type { FileSink } from "bun";
import { sanitizeControls } from "../platform/controls.ts";
import { isTerminal } from "../platform/terminal.ts";
import type { ModeOutput } from "../modes/output.ts";

type Stream = { write(text: string): void; drain(): Promise<void> };

/** A reader that went away (`zot --json … | head`: EPIPE) is no crash: the rest is dropped. */
function stream(sink: FileSink, fd: 1 | 2): Stream {
  let gone = false;
  let terminal: boolean | undefined;
  const guard = (op: () => number | Promise<number>): void => {
    if (gone) return;
    try {
      const r = op();
      if (r instanceof Promise) r.catch(() => (gone = true));
    } catch {
      gone = true;
    }
  };
  return {
    write(text) {
      // Decided on the first write: the check costs nothing for runs that print nothing.
      terminal ??= isTerminal(fd);
      const safe = terminal ? sanitizeControls(text) : text;
      guard(() => sink.write(safe));
      guard(() => sink.flush());
    },
    async drain() {
      if (gone) return;
      try {
        await sink.flush();
      } catch {
        gone = true;
      }
    },
  };
}

const stdout = stream(Bun.stdout.writer(), 1);
const stderr = stream(Bun.stderr.writer(), 2);

export const io: ModeOutput = { out: (text) => stdout.write(text), err: (text) => stderr.write(text) };

export async function drain(): Promise<void> {
  await stdout.drain();
  await stderr.drain();
}
