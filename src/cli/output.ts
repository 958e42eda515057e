// stdout and stderr for the command line. Each text is handed to the kernel with an asynchronous
// write(2), the next one only once the kernel took the last, and `drain` waits until a slow reader
// has taken everything. Plain process.stdout writes followed by process.exit() drop whatever a full
// pipe has not accepted yet (a long JSON or RPC stream, `zot ext logs | less`); Bun's file sinks
// report a reader that went away (EPIPE) as an uncaught error, which no try/catch sees.
//
// What is written here is often untrusted (model answers, tool output, extension notes and logs).
// When the stream is a terminal, escape sequences and control characters are removed so none of
// it can retitle the window, write the clipboard (OSC 52) or rewrite the screen; a pipe or a file
// gets the bytes as they are.
import { write as writeFd } from "node:fs";
import { sanitizeControls } from "../platform/controls.ts";
import { isTerminal } from "../platform/terminal.ts";
import type { ModeOutput } from "../modes/output.ts";

type Stream = { write(text: string): void; drain(): Promise<void>; writable(): Promise<void> };

/**
 * Past this much text waiting for a slow reader, `writable` holds producers back (RPC mode stops
 * reading commands and starting turns), so a client that stops reading costs this much, not GiBs.
 */
export const OUTPUT_HIGH_WATER = 16 * 1024 * 1024;

/** Writes all of `bytes`, resuming after a short write and waiting out EAGAIN on a non-blocking descriptor. */
function writeAll(fd: number, bytes: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    const from = (off: number): void => {
      if (off >= bytes.length) return resolve();
      writeFd(fd, bytes, off, bytes.length - off, null, (err, n) => {
        if (err?.code === "EAGAIN") setTimeout(() => from(off), 2);
        else if (err) reject(err);
        else from(off + n);
      });
    };
    from(0);
  });
}

/**
 * A reader that went away (`zot --json … | head`: EPIPE) is no crash: the rest is dropped. One
 * write is in the kernel at a time and the next only starts once it took the last, so what waits is
 * counted here, exactly.
 */
function stream(fd: 1 | 2): Stream {
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
    if (!busy && !gone && queue.length > 0) {
      // What piled up while the last write was in the kernel goes out as one write.
      const text = queue.length === 1 ? queue[0]! : queue.join("");
      queue.length = 0;
      busy = true;
      writeAll(fd, Buffer.from(text)).then(
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

const stdout = stream(1);
const stderr = stream(2);

export const io: ModeOutput = { out: (text) => stdout.write(text), err: (text) => stderr.write(text), writable: () => stdout.writable() };

export async function drain(): Promise<void> {
  await stdout.drain();
  await stderr.drain();
}
