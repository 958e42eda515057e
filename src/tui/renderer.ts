// Full-screen frame renderer: diffs each frame against the previous one and rewrites only the
// lines that changed (scrolling a region when content merely moved), inside synchronized output
// so the terminal shows whole frames only.
import { clearScreen, cursorHide, cursorShow, cursorTo, eraseLine, scrollRegion, sgrReset, syncEnd, syncStart } from "./ansi.ts";
import { truncate } from "./wrap.ts";

const CONTROLS = /[\x00-\x1a\x1c-\x1f\x7f]/;
const CONTROLS_ALL = /[\x00-\x1a\x1c-\x1f\x7f]/g;

export class Renderer {
  private prev: string[] | null = null;
  private prevCursor: { row: number; col: number } | null = null;
  private prevColumns = 0;
  private cursorVisible: boolean | null = null;

  constructor(private readonly write: (s: string) => void) {}

  /**
   * Draws one frame. `lines` is the viewport (the first `rows` are used, missing ones are blank);
   * with `columns` each line is cut to that width. Control characters other than ESC are dropped
   * so a stray newline cannot shift the screen under the diff. Returns the bytes written (0 when
   * nothing changed). A change of `rows` or `columns` redraws everything.
   */
  render(lines: string[], cursor: { row: number; col: number } | null, rows: number, columns?: number): number {
    const cols = columns ?? Number.POSITIVE_INFINITY;
    const frame: string[] = new Array(rows);
    for (let r = 0; r < rows; r++) {
      let line = lines[r] ?? "";
      if (CONTROLS.test(line)) line = line.replace(CONTROLS_ALL, "");
      frame[r] = Number.isFinite(cols) ? truncate(line, cols, "") : line;
    }
    const full = this.prev === null || this.prev.length !== rows || this.prevColumns !== cols;
    let out = "";
    let screen = this.prev;
    if (full) {
      out += sgrReset + clearScreen;
      screen = new Array<string>(rows).fill("");
    } else {
      const scroll = bestScroll(this.prev!, frame);
      if (scroll) {
        out += scroll.seq;
        screen = scroll.screen;
      }
    }
    for (let r = 0; r < rows; r++) {
      if (screen![r] === frame[r]) continue;
      out += cursorTo(r, 0) + eraseLine + frame[r] + sgrReset;
    }
    const cursorMoved =
      out !== "" ||
      (cursor === null) !== (this.prevCursor === null) ||
      (cursor !== null && (cursor.row !== this.prevCursor!.row || cursor.col !== this.prevCursor!.col));
    if (cursorMoved) {
      if (cursor) out += cursorTo(cursor.row, cursor.col);
      const visible = cursor !== null;
      if (visible !== this.cursorVisible) out += visible ? cursorShow : cursorHide;
      this.cursorVisible = visible;
    }
    this.prev = frame;
    this.prevColumns = cols;
    this.prevCursor = cursor ? { ...cursor } : null;
    if (out === "") return 0;
    const payload = syncStart + out + syncEnd;
    this.write(payload);
    return Buffer.byteLength(payload);
  }

  /** Forgets the previous frame so the next render redraws the whole screen (ctrl+l, resize). */
  invalidate(): void {
    this.prev = null;
    this.cursorVisible = null;
  }
}

function changedRows(screen: readonly string[], frame: readonly string[]): number {
  let n = 0;
  for (let r = 0; r < frame.length; r++) if (screen[r] !== frame[r]) n++;
  return n;
}

/**
 * When content moved up or down (streaming past the bottom, paging), lets the terminal scroll a
 * region instead of rewriting every line in it: finds the shift that lines up the longest run of
 * unchanged lines and returns the escape that performs it with the screen it leaves, or null
 * when scrolling would not save rewrites.
 */
function bestScroll(prev: readonly string[], frame: readonly string[]): { seq: string; screen: string[] } | null {
  const rows = frame.length;
  const before = changedRows(prev, frame);
  if (before < 4) return null;
  let best: { k: number; top: number; len: number } | null = null;
  for (let k = -(rows - 2); k <= rows - 2; k++) {
    if (k === 0) continue;
    // frame[r] === prev[r + k]: k > 0 means content moved up by k rows.
    let run = 0;
    for (let r = 0; r < rows; r++) {
      const src = r + k;
      if (src >= 0 && src < rows && frame[r] === prev[src]) {
        run++;
        if (!best || run > best.len) best = { k, top: r - run + 1, len: run };
      } else run = 0;
    }
  }
  if (!best || best.len < 3) return null;
  const { k, top, len } = best;
  const screen = [...prev];
  let seq: string;
  if (k > 0) {
    // Region covers the run's source rows; after scrolling up by k the run sits at top.
    const regionTop = top;
    const regionBottom = top + len + k - 1;
    seq = scrollRegion(regionTop, regionBottom) + `\x1b[${k}S` + scrollRegion();
    for (let r = regionTop; r <= regionBottom; r++) screen[r] = r + k <= regionBottom ? (prev[r + k] ?? "") : "";
  } else {
    const d = -k;
    const regionTop = top - d;
    const regionBottom = top + len - 1;
    seq = scrollRegion(regionTop, regionBottom) + `\x1b[${d}T` + scrollRegion();
    for (let r = regionBottom; r >= regionTop; r--) screen[r] = r - d >= regionTop ? (prev[r - d] ?? "") : "";
  }
  return changedRows(screen, frame) < before ? { seq, screen } : null;
}
