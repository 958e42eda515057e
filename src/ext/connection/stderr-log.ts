// An extension's stderr, read by zot and appended to its log through the log's mask. The mask sees
// whole lines: a key the extension wrote in two pieces is one string by the time it is masked, so a
// line is held until its newline (or the end of the output) and only then written down.
import type { ExtensionLog } from "./log.ts";
import { within } from "./within.ts";

/** Longest stderr line kept whole; the rest of a longer one is dropped, after a marker. */
export const MAX_STDERR_LINE_BYTES = 64 * 1024;
/**
 * Bytes past the cut that are masked with the kept part, so that a secret the cut falls inside is
 * still recognised (and masked) before the text is cut. Longer than any key.
 */
const CUT_SLACK_BYTES = 4096;
const NEWLINE = 0x0a;

export type StderrSink = {
  /** Complete lines, newline included, not yet masked. */
  write: (text: string) => void;
  mask: (text: string) => string;
};

/** Splits stderr bytes into whole lines; chunk boundaries may fall anywhere, inside UTF-8 too. */
export class StderrLines {
  private readonly decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
  private parts: Uint8Array[] = [];
  private partsBytes = 0;
  /** After a cut: bytes are thrown away until the next newline. */
  private dropping = false;

  constructor(
    private readonly sink: StderrSink,
    private readonly max = MAX_STDERR_LINE_BYTES,
  ) {}

  push(chunk: Uint8Array): void {
    // The usual chunk: a few whole lines, maybe a partial one at its end, and nothing held.
    if (this.partsBytes === 0 && !this.dropping && chunk.length <= this.max) {
      const last = chunk.lastIndexOf(NEWLINE);
      if (last >= 0) this.sink.write(this.decoder.decode(chunk.subarray(0, last + 1)));
      if (last + 1 < chunk.length) this.hold(chunk.subarray(last + 1));
      return;
    }
    const out: string[] = [];
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl < 0 ? chunk.length : nl;
      if (this.dropping) {
        if (nl >= 0) this.dropping = false;
      } else {
        this.hold(chunk.subarray(start, end));
        if (this.partsBytes > this.max + CUT_SLACK_BYTES || (nl >= 0 && this.partsBytes > this.max)) {
          out.push(this.cut());
          this.dropping = nl < 0;
        } else if (nl >= 0) {
          out.push(`${this.take()}\n`);
        }
      }
      if (nl < 0) break;
      start = nl + 1;
    }
    if (out.length > 0) this.sink.write(out.join(""));
  }

  /** End of output: a last line without a newline is written with one, so the host's next line starts fresh. */
  end(): void {
    this.dropping = false;
    if (this.partsBytes > this.max) this.sink.write(this.cut());
    else if (this.partsBytes > 0) this.sink.write(`${this.take()}\n`);
  }

  private hold(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.parts.push(bytes);
    this.partsBytes += bytes.length;
  }

  /** The held bytes (at most `limit` of them) as text; nothing is held afterwards. */
  private take(limit = this.partsBytes): string {
    const parts = this.parts;
    let bytes = parts[0] ?? new Uint8Array(0);
    if (parts.length > 1) {
      bytes = new Uint8Array(Math.min(limit, this.partsBytes));
      let off = 0;
      for (const p of parts) {
        const n = Math.min(p.length, bytes.length - off);
        if (n === 0) break;
        bytes.set(n === p.length ? p : p.subarray(0, n), off);
        off += n;
      }
    }
    this.parts = [];
    this.partsBytes = 0;
    return this.decoder.decode(bytes.length > limit ? bytes.subarray(0, limit) : bytes);
  }

  /** The held line masked, then cut to the limit and marked (the sink's mask leaves masked text as it is). */
  private cut(): string {
    const masked = this.sink.mask(this.take(this.max + CUT_SLACK_BYTES));
    return `${masked.slice(0, this.max)}… [zot: stderr line cut at ${this.max} bytes]\n`;
  }
}

export type StderrPump = {
  /** Settles once everything read has been written to the log. */
  drained: Promise<void>;
  /** Stops reading (a descendant may hold the pipe open forever) and writes what is held. */
  stop: () => void;
  /**
   * After the process exited: waits for the rest of its stderr (at most DRAIN_MS, since a child
   * it started may hold the pipe), then stops reading; settles once all of it is in the log.
   */
  finish: () => Promise<void>;
};

/**
 * After a process exits, how long its stderr may stay open: a child it started may hold the pipe.
 * What the process itself wrote is already in the pipe and is read long before this.
 */
const DRAIN_MS = 200;

/** Reads `stream` in the background until it ends or `stop` is called, appending lines to `log`. */
export function pumpStderr(stream: ReadableStream<Uint8Array>, log: ExtensionLog): StderrPump {
  const lines = new StderrLines({ write: (text) => log.output(text), mask: log.mask });
  const reader = stream.getReader();
  const drained = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        lines.push(value);
      }
    } catch {
      // A read error means the pipe is gone; what was held is still written.
    }
    lines.end();
  })();
  const stop = () => {
    reader.cancel().catch(() => {});
  };
  return {
    drained,
    stop,
    finish: async () => {
      await within(drained, DRAIN_MS);
      stop();
      await drained;
    },
  };
}
