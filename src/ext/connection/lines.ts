// NDJSON line splitting for extension stdout. Works on raw byte chunks so a chunk boundary may fall
// anywhere (inside a UTF-8 sequence, between `\r` and `\n`). Every byte is looked at once by indexOf
// and copied at most once (when a line spans chunks, into one buffer of its exact size), so cost is
// linear in the input. `push` takes ownership of the chunk, as a stream reader does: the caller must
// not modify it afterwards (stream chunks are never reused, so nothing needs copying up front).

export const MAX_LINE_BYTES = 64 * 1024 * 1024;

const NEWLINE = 0x0a;
const CR = 0x0d;

export type LineReaderOptions = {
  /** Called once per complete, non-blank line, decoded (invalid UTF-8 replaced by U+FFFD). */
  onLine: (line: string) => void;
  /** Called when a line longer than `maxLineBytes` was dropped; `bytes` is its length without the newline. */
  onOversize?: (bytes: number) => void;
  maxLineBytes?: number | undefined;
};

export class LineReader {
  private readonly decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
  private readonly max: number;
  private readonly onLine: (line: string) => void;
  private readonly onOversize: (bytes: number) => void;
  /** Pieces of the current, unfinished line (views into pushed chunks). */
  private parts: Uint8Array[] = [];
  private partsBytes = 0;
  /** Inside an oversize line: bytes are counted and thrown away until the next newline. */
  private dropping = false;
  private droppedBytes = 0;

  constructor(opts: LineReaderOptions) {
    this.onLine = opts.onLine;
    this.onOversize = opts.onOversize ?? (() => {});
    this.max = opts.maxLineBytes ?? MAX_LINE_BYTES;
  }

  push(chunk: Uint8Array): void {
    let start = 0;
    const len = chunk.length;
    while (start < len) {
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl < 0 ? len : nl;
      if (this.dropping) {
        this.droppedBytes += end - start;
      } else if (this.partsBytes + (end - start) > this.max + 1) {
        // +1 leaves room for a `\r` that belongs to the line ending, not to the line.
        this.dropping = true;
        this.droppedBytes = this.partsBytes + (end - start);
        this.parts = [];
        this.partsBytes = 0;
      } else if (nl >= 0 && this.partsBytes === 0) {
        this.emit(chunk.subarray(start, end));
      } else if (end > start) {
        this.parts.push(chunk.subarray(start, end));
        this.partsBytes += end - start;
      }
      if (nl < 0) return;
      if (this.dropping) this.finishDrop();
      else if (this.partsBytes > 0) this.emitParts();
      start = nl + 1;
    }
  }

  /** End of input: a final line without a newline still counts. */
  end(): void {
    if (this.dropping) this.finishDrop();
    else if (this.partsBytes > 0) this.emitParts();
  }

  private finishDrop(): void {
    const n = this.droppedBytes;
    this.dropping = false;
    this.droppedBytes = 0;
    this.onOversize(n);
  }

  private emitParts(): void {
    const parts = this.parts;
    let bytes = parts[0] ?? new Uint8Array(0);
    if (parts.length > 1) {
      bytes = new Uint8Array(this.partsBytes);
      let off = 0;
      for (const p of parts) {
        bytes.set(p, off);
        off += p.length;
      }
    }
    this.parts = [];
    this.partsBytes = 0;
    this.emit(bytes);
  }

  private emit(bytes: Uint8Array): void {
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === CR) end--;
    if (end > this.max) {
      this.onOversize(end);
      return;
    }
    if (end === 0) return;
    const line = this.decoder.decode(end === bytes.length ? bytes : bytes.subarray(0, end));
    if (isBlank(line)) return;
    this.onLine(line);
  }
}

function isBlank(s: string): boolean {
  const c = s.charCodeAt(0);
  // Fast path: a frame starts with `{`; only lines starting with whitespace need the full check.
  if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0b && c !== 0x0c) return false;
  return s.trim().length === 0;
}
