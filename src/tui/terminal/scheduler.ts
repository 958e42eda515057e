// Coalesced redraws: any number of requests within one frame interval produce one frame, so a
// burst of streamed deltas or keys costs one layout and one diff (~60 frames per second at most).
export class FrameScheduler {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private last = 0;
  private stopped = false;

  constructor(
    private readonly draw: () => void,
    private readonly intervalMs = 16,
  ) {}

  schedule(): void {
    if (this.timer || this.stopped) return;
    const wait = Math.max(0, this.intervalMs - (Date.now() - this.last));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.now();
    }, wait);
  }

  /** Draws at once (first frame, resize). */
  now(): void {
    if (this.stopped) return;
    this.last = Date.now();
    this.draw();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
