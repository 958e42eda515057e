// The component contract: everything on screen draws itself as lines for a width, and forgets
// what it cached when told to. Styles are bound at construction (through a StyleRef, because the
// theme can change while a component lives), never passed per render.
import type { Style } from "../terminal/theme.ts";

/** Where the current Style is read from at render time (the App, or `{ style }` in a test). */
export type StyleRef = { readonly style: Style };

export type Cursor = { row: number; col: number };

export interface Component {
  /**
   * The component's lines for `width` columns, none wider. `room`, when given, is the most rows it
   * may take: a component that can shrink (a panel, a dialog, the editor box) fits itself in it;
   * the others ignore it and the layout trims what does not fit.
   */
  render(width: number, room?: number): string[];
  /** Drops cached lines, so the next render draws afresh (the theme changed, or state it caches). */
  invalidate(): void;
  /** For a component with a text cursor: where it sits in the lines of the last render; null hides it. */
  cursor?(): Cursor | null;
}

/**
 * A component too long to draw whole every frame (the transcript): the layout asks only for the
 * `height` lines it shows, ending `offset` lines above the bottom.
 */
export interface Scrollable extends Component {
  /** Its lines counted from the bottom up to `lines` of them: at least `lines`, or all of them when fewer. */
  reach(width: number, lines: number): number;
  window(width: number, height: number, offset: number): string[];
}

/** Children stacked top to bottom; each gets the room the ones above it left. */
export class Container implements Component {
  private offsets: number[] = [];

  constructor(readonly children: Component[] = []) {}

  render(width: number, room?: number): string[] {
    const out: string[] = [];
    this.offsets = [];
    for (const child of this.children) {
      this.offsets.push(out.length);
      const left = room === undefined ? undefined : Math.max(0, room - out.length);
      out.push(...child.render(width, left));
    }
    return out;
  }

  invalidate(): void {
    for (const child of this.children) child.invalidate();
  }

  /** The first child's cursor that shows, moved down by the lines above that child. */
  cursor(): Cursor | null {
    for (let i = 0; i < this.children.length; i++) {
      const at = this.children[i]!.cursor?.() ?? null;
      if (at) return { row: at.row + (this.offsets[i] ?? 0), col: at.col };
    }
    return null;
  }
}
