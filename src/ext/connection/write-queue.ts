// The write side of one extension's stdin. `write` never blocks or awaits: frames are queued and a
// single pump feeds them to the pipe in order. Bytes count as pending until the pipe has taken them,
// so an extension that stops reading is noticed once more than `maxBytes` pile up.
import type { FileSink } from "bun";

export class WriteQueue {
  private queue: Uint8Array[] = [];
  /** Queued plus handed to the sink but not yet flushed into the pipe. */
  private pendingBytes = 0;
  private pumping = false;
  private ending = false;
  private broken = false;

  constructor(
    private readonly sink: FileSink,
    private readonly maxBytes: number,
    /** Called once when the limit is passed; the queue drops everything after that. */
    private readonly onOverflow: (pendingBytes: number) => void,
  ) {}

  get pending(): number {
    return this.pendingBytes;
  }

  write(bytes: Uint8Array): void {
    if (this.broken || this.ending) return;
    this.queue.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes > this.maxBytes) {
      const n = this.pendingBytes;
      this.drop();
      this.onOverflow(n);
      return;
    }
    if (!this.pumping) void this.pump();
  }

  /** Closes stdin once everything queued so far has been written. */
  end(): void {
    if (this.ending) return;
    this.ending = true;
    if (!this.pumping) this.closeSink();
  }

  /** The process is gone: forget the backlog. */
  drop(): void {
    this.broken = true;
    this.queue = [];
    this.pendingBytes = 0;
    this.closeSink();
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      while (this.queue.length > 0 && !this.broken) {
        const batch = this.queue;
        this.queue = [];
        let bytes = 0;
        for (const b of batch) {
          bytes += b.length;
          const r = this.sink.write(b);
          if (typeof r !== "number") await r;
          if (this.broken) return;
        }
        const f = this.sink.flush();
        if (typeof f !== "number") await f;
        this.pendingBytes -= bytes;
      }
    } catch {
      // EPIPE and friends: the process is gone, and its exit is reported elsewhere.
      this.broken = true;
      this.queue = [];
      this.pendingBytes = 0;
    } finally {
      this.pumping = false;
    }
    if (this.ending) this.closeSink();
  }

  private closeSink(): void {
    try {
      const r = this.sink.end();
      if (r instanceof Promise) r.catch(() => {});
    } catch {
      // Already closed or broken.
    }
  }
}
