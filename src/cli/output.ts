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

type Stream = { write(text: string): void; drain(): Promise<void>; writable(): Promise<void> };

/**
 * Past this much text waiting for a slow reader, `writable` holds producers back (RPC mode stops
 * reading commands and starting turns), so a client that stops reading costs this much, not GiBs.
 */
export const OUTPUT_HIGH_WATER = 16 * 1024 * 1024;

/**
 * A reader that went away (`zot --json … | head`: EPIPE) is no crash: the rest is dropped. The
 * sink is given one text at a time and the next only once the kernel took it, so what waits is
 * counted here, exactly.
 */
function stream(sink: FileSink, fd: 1 | 2): Stream {
  let gone = false;
  let terminal: boolean | undefined;
  const queue: string[] = [];
  let queued = 0;
  let busy = false;
  const waiters: (() => void)[] = [];
  const settled = (): void => {
    for (const w of waiters.splice(0)) w();
  };
  const pump = (): void => {
    while (!busy && !gone && queue.length > 0) {
      const text = queue.shift()!;
      try {
        // A write the kernel could not take at once is a promise, and so is its failure: a reader
        // that went away rejects it with EPIPE, an uncaught error unless handled here.
        const w = sink.write(text);
        const r = w instanceof Promise ? w : sink.flush();
        if (r instanceof Promise) {
          busy = true;
          r.then(
            () => {
              busy = false;
              queued -= text.length;
              pump();
            },
            () => {
              busy = false;
              gone = true;
              pump();
            },
          );
          return;
        }
      } catch {
        gone = true;
      }
      queued -= text.length;
    }
    if (gone) {
      queue.length = 0;
      queued = 0;
    }
    settled();
  };
  const until = async (done: () => boolean): Promise<void> => {
    while (!done()) await new Promise<void>((r) => waiters.push(r));
  };
  return {
    write(text) {
      if (gone) return;
      // Decided on the first write: the check costs nothing for runs that print nothing.
      terminal ??= isTerminal(fd);
      const safe = terminal ? sanitizeControls(text) : text;
      queue.push(safe);
      queued += safe.length;
      pump();
    },
    drain: () => until(() => gone || (!busy && queue.length === 0)),
    writable: () => until(() => gone || queued <= OUTPUT_HIGH_WATER),
  };
}

const stdout = stream(Bun.stdout.writer(), 1);
const stderr = stream(Bun.stderr.writer(), 2);

export const io: ModeOutput = { out: (text) => stdout.write(text), err: (text) => stderr.write(text), writable: () => stdout.writable() };

export async function drain(): Promise<void> {
  await stdout.drain();
  await stderr.drain();
}
