// How far the chat is scrolled back from the bottom, in lines. While scrolled back, output that
// arrives below the reading position must not move the view, so the offset grows with it.
export class ChatScroll {
  offset = 0;
  /** null: not counted in the last frame (drawn at the bottom while a long chat was still being counted). */
  private lastBelow: number | null = 0;
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

  /** Before a frame: `below` counts every line under the reading position (chat and notes). */
  follow(below: number): void {
    if (this.offset > 0 && this.lastBelow !== null && below !== this.lastBelow) this.offset = Math.max(0, this.offset + below - this.lastBelow);
    this.lastBelow = below;
  }

  /** A frame at the bottom without the count: the next `follow` has nothing to compare with. */
  unknownBelow(): void {
    this.lastBelow = null;
  }

  /** After a frame: the layout clamps the offset and says how tall the chat came out. */
  settle(frame: { offset: number; chatHeight: number }): void {
    this.offset = frame.offset;
    this.height = frame.chatHeight;
  }
}
