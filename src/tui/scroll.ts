// How far the chat is scrolled back from the bottom, in lines. While scrolled back, output that
// arrives below the reading position must not move the view, so the offset grows with it.
export class ChatScroll {
  offset = 0;
  private lastBelow = 0;
  private height = 0;

  /** The chat's height in the last frame. */
  get viewHeight(): number {
    return this.height;
  }

  by(lines: number): void {
    this.offset = Math.max(0, this.offset + lines);
  }

  /** A page is the chat's height less two lines, which stay in view as context. */
  page(direction: 1 | -1): void {
    this.by(direction * Math.max(1, this.height - 2));
  }

  toBottom(): void {
    this.offset = 0;
  }

  /** Scrolls so the line `below` lines above the bottom is the chat's first line. */
  reveal(below: number): void {
    this.offset = Math.max(0, below - this.height);
  }

  toTop(): void {
    this.offset = Number.MAX_SAFE_INTEGER;
  }

  /**
   * Before a frame: `below` is a running sum of the lines the chat and its notes gained and lost
   * (the chat's `grown` plus the notes); what changed since the last frame moves a view scrolled
   * back with it.
   */
  follow(below: number): void {
    if (this.offset > 0 && below !== this.lastBelow) this.offset = Math.max(0, this.offset + below - this.lastBelow);
    this.lastBelow = below;
  }

  /** Scrolls so the line `below` lines above the bottom is the chat's last line. */
  keep(below: number): void {
    this.offset = Math.max(0, below);
  }

  /** After a frame: the layout clamps the offset and says how tall the chat came out. */
  settle(frame: { offset: number; chatHeight: number }): void {
    this.offset = frame.offset;
    this.height = frame.chatHeight;
  }
}
