// stdout and stderr for the command line. Writes go through Bun's file sinks: each one is handed to
// the kernel at once, and `drain` waits until a slow reader has taken everything. Plain
// process.stdout writes followed by process.exit() drop whatever a full pipe has not accepted yet
// (a long JSON or RPC stream, `zot ext logs | less`).
import type { FileSink } from "bun";
import type { ModeOutput } from "../modes/output.ts";

type Stream = { write(text: string): void; drain(): Promise<void> };

/** A reader that went away (`zot --json … | head`: EPIPE) is no crash: the rest is dropped. */
function stream(sink: FileSink): Stream {
  let gone = false;
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
      guard(() => sink.write(text));
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

const stdout = stream(Bun.stdout.writer());
const stderr = stream(Bun.stderr.writer());

export const io: ModeOutput = { out: (text) => stdout.write(text), err: (text) => stderr.write(text) };

export async function drain(): Promise<void> {
  await stdout.drain();
  await stderr.drain();
}
