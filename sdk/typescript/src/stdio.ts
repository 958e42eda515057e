// Frames over the process's own stdin/stdout using only node: APIs, so the same code runs under Bun
// and Node. stdout belongs to the protocol: once taken, stray console output goes to stderr.
import type { ExtensionWireFrame } from "../../../src/protocol.ts";

export type Stdio = {
  send(frame: ExtensionWireFrame): void;
  /** Resolves once everything written so far has been handed to the OS. */
  flush(): Promise<void>;
};

let taken: Stdio | null = null;

/**
 * Takes over stdout: the returned writer is the only path to it. `console.log/info/debug` and direct
 * `process.stdout.write` calls are redirected to stderr so a debugging print cannot corrupt the stream.
 * Idempotent, so a second Extension in the process still writes to the real stdout.
 */
export function takeStdout(): Stdio {
  if (taken) return taken;
  const out = process.stdout;
  const write = out.write.bind(out) as (chunk: string, cb?: (err?: Error | null) => void) => boolean;
  // A host that has gone away makes writes fail with EPIPE; end of input then ends the process.
  out.on("error", () => {});
  const toStderr = (...args: unknown[]): void => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  out.write = ((chunk: string | Uint8Array, ...rest: unknown[]): boolean =>
    (process.stderr.write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest)) as typeof out.write;
  taken = {
    send(frame) {
      write(JSON.stringify(frame) + "\n");
    },
    flush() {
      return new Promise((resolve) => write("", () => resolve()));
    },
  };
  return taken;
}

/** Calls `onLine` for each complete line on stdin and `onEnd` once at end of input. */
export function readLines(onLine: (line: string) => void, onEnd: () => void): void {
  let buffer = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk: string) => {
    buffer += chunk;
    let nl = buffer.indexOf("\n");
    while (nl >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (line) onLine(line);
      nl = buffer.indexOf("\n");
    }
  });
  process.stdin.on("end", () => {
    const rest = buffer.trim();
    buffer = "";
    if (rest) onLine(rest);
    onEnd();
  });
}
