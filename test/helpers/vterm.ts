// A small, strict virtual terminal for in-process screen tests: feed it what zot writes and read
// back the grid a user would see. It understands exactly the sequences zot's renderer and TUI emit
// and throws on anything else, so a test can never pass by silently ignoring output.
import { nextCluster } from "../../src/tui/terminal/width.ts";

/** One screen cell. A wide character sits in its first cell; the second has `ch === ""`. */
export type Cell = {
  ch: string;
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: boolean;
  inverse: boolean;
  strike: boolean;
  /** Foreground as its SGR parameters ("31", "38;5;75", "38;2;97;175;239"); null is the default. */
  fg: string | null;
  /** Background likewise ("41", "48;5;238"); null is the default. */
  bg: string | null;
  /** The OSC 8 hyperlink target the cell was written under, or null. */
  link: string | null;
};

type Pen = Omit<Cell, "ch">;

const DEFAULT_PEN: Pen = { bold: false, dim: false, italic: false, underline: false, inverse: false, strike: false, fg: null, bg: null, link: null };

/** Private modes zot sets and resets; any other `CSI ? n h/l` is an error. */
const KNOWN_MODES = new Set([25, 1007, 1049, 2004, 2026]);

const quote = (s: string) => JSON.stringify(s);

export class VTerm {
  /** Where the next character goes (0-based). */
  cursor = { row: 0, col: 0 };
  cursorVisible = true;
  /** Private modes currently set (25 is tracked by `cursorVisible` instead). */
  readonly modes = new Set<number>();
  /** The window title (OSC 0/2) and the depth of the title stack (`CSI 22;0t` / `CSI 23;0t`). */
  title = "";
  titleStack = 0;
  /** Kitty keyboard flags pushed and not yet popped. */
  kittyStack = 0;
  /** Desktop notifications sent with OSC 9 or OSC 777. */
  readonly notifications: string[] = [];
  /** How many synchronized-output blocks (`?2026h` … `?2026l`) have been completed. */
  syncedFrames = 0;

  private grid: Cell[][];
  private saved: { grid: Cell[][]; cursor: { row: number; col: number } } | null = null;
  private pen: Pen = { ...DEFAULT_PEN };
  private top = 0;
  private bottom: number;
  /** Set after writing the last column: the next character wraps first (as xterm's autowrap). */
  private wrapPending = false;
  /** An escape sequence cut off at the end of the last write, completed by the next one. */
  private partial = "";

  constructor(
    public width: number,
    public height: number,
  ) {
    this.grid = this.blankGrid();
    this.bottom = height - 1;
  }

  /** Interprets `data`; throws on a sequence or control character this terminal does not know. */
  write(data: string): void {
    const s = this.partial + data;
    this.partial = "";
    let i = 0;
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c === 0x1b) {
        const n = this.escape(s, i);
        if (n === 0) {
          this.partial = s.slice(i);
          return;
        }
        i += n;
      } else if (c < 0x20 || (c >= 0x7f && c < 0xa0)) {
        this.control(c);
        i++;
      } else {
        const cluster = nextCluster(s, i);
        this.print(s.slice(i, cluster.end), cluster.width);
        i = cluster.end;
      }
    }
  }

  /**
   * The window changed size: like a terminal without reflow, the top-left part of the screen is
   * kept, new cells are blank, the scrolling region resets and the cursor is clamped.
   */
  resize(width: number, height: number): void {
    const old = this.grid;
    this.width = width;
    this.height = height;
    this.grid = Array.from({ length: height }, (_, r) => Array.from({ length: width }, (_, c) => old[r]?.[c] ?? this.blankCell()));
    // A wide character cut in half by the new right edge is blanked.
    this.grid.forEach((row, r) => {
      if (old[r]?.[width]?.ch === "") row[width - 1] = this.blankCell();
    });
    this.top = 0;
    this.bottom = height - 1;
    this.moveTo(this.cursor.row, this.cursor.col);
  }

  /** The screen as text, one string per row, trailing spaces trimmed. */
  lines(): string[] {
    return this.grid.map((row) =>
      row
        .map((c) => c.ch)
        .join("")
        .trimEnd(),
    );
  }

  /** The cell at a 0-based row and column. */
  cell(row: number, col: number): Cell {
    const r = this.grid[row];
    if (!r || col < 0 || col >= this.width) throw new Error(`Cell ${row},${col} is outside the ${this.width}×${this.height} screen.`);
    return r[col]!;
  }

  /** True when a synchronized-output block was opened and not closed. */
  get inSync(): boolean {
    return this.modes.has(2026);
  }

  get altScreen(): boolean {
    return this.modes.has(1049);
  }

  /** The scrolling region as 0-based rows, inclusive. */
  get scrollRegion(): { top: number; bottom: number } {
    return { top: this.top, bottom: this.bottom };
  }

  private blankCell(): Cell {
    return { ch: " ", ...DEFAULT_PEN };
  }

  private blankRow(): Cell[] {
    return Array.from({ length: this.width }, () => this.blankCell());
  }

  private blankGrid(): Cell[][] {
    return Array.from({ length: this.height }, () => this.blankRow());
  }

  private control(c: number): void {
    if (c === 0x0d) {
      this.cursor.col = 0;
      this.wrapPending = false;
    } else if (c === 0x0a) {
      this.lineFeed();
    } else if (c === 0x08) {
      this.cursor.col = Math.max(0, this.cursor.col - 1);
      this.wrapPending = false;
    } else {
      throw new Error(`VTerm: unsupported control character ${quote(String.fromCharCode(c))}.`);
    }
  }

  private lineFeed(): void {
    this.wrapPending = false;
    if (this.cursor.row === this.bottom) this.scrollUp(1);
    else if (this.cursor.row < this.height - 1) this.cursor.row++;
  }

  private print(text: string, width: number): void {
    if (width === 0) {
      // A lone combining mark joins the character before it.
      const col = Math.max(0, this.cursor.col - 1);
      this.grid[this.cursor.row]![col]!.ch += text;
      return;
    }
    if (this.wrapPending || this.cursor.col + width > this.width) {
      this.cursor.col = 0;
      this.lineFeed();
    }
    const row = this.grid[this.cursor.row]!;
    const col = this.cursor.col;
    for (let k = 0; k < width; k++) this.breakWide(row, col + k);
    row[col] = { ch: text, ...this.pen };
    for (let k = 1; k < width; k++) row[col + k] = { ch: "", ...this.pen };
    if (col + width >= this.width) {
      this.cursor.col = this.width - 1;
      this.wrapPending = true;
    } else this.cursor.col = col + width;
  }

  /** Overwriting half of a wide character blanks its other half, as terminals do. */
  private breakWide(row: Cell[], col: number): void {
    if (col >= this.width) return;
    if (row[col]!.ch === "" && col > 0) row[col - 1] = this.blankCell();
    if (col + 1 < this.width && row[col + 1]!.ch === "") row[col + 1] = this.blankCell();
  }

  /** Returns the length of the escape sequence at `i`, or 0 when it is incomplete. */
  private escape(s: string, i: number): number {
    const kind = s[i + 1];
    if (kind === undefined) return 0;
    if (kind === "[") return this.csi(s, i);
    if (kind === "]") return this.osc(s, i);
    throw new Error(`VTerm: unsupported escape sequence ${quote(s.slice(i, i + 2))}.`);
  }

  private csi(s: string, i: number): number {
    let j = i + 2;
    while (j < s.length && s.charCodeAt(j) >= 0x20 && s.charCodeAt(j) <= 0x3f) j++;
    if (j >= s.length) return 0;
    const final = s.charCodeAt(j);
    const seq = s.slice(i, j + 1);
    if (final < 0x40 || final > 0x7e) throw new Error(`VTerm: malformed escape sequence ${quote(seq)}.`);
    const body = s.slice(i + 2, j);
    this.runCsi(body, s[j]!, seq);
    return j + 1 - i;
  }

  private runCsi(body: string, final: string, seq: string): void {
    const fail = (): never => {
      throw new Error(`VTerm: unsupported escape sequence ${quote(seq)}.`);
    };
    const prefix = /^[?<>=]/.test(body) ? body.charAt(0) : "";
    const paramText = body.slice(prefix.length);
    if (!/^[\d;]*$/.test(paramText)) fail();
    const params = paramText === "" ? [] : paramText.split(";").map((p) => (p === "" ? 0 : Number(p)));
    const p = (k: number, dflt: number) => (params[k] === undefined || params[k] === 0 ? dflt : params[k]);

    if (prefix === "?") {
      if ((final !== "h" && final !== "l") || params.length !== 1 || !KNOWN_MODES.has(params[0]!)) fail();
      this.setMode(params[0]!, final === "h");
      return;
    }
    if (prefix === ">") {
      if (final === "u" && params.length === 1) this.kittyStack++;
      else fail();
      return;
    }
    if (prefix === "<") {
      if (final === "u" && params.length === 0) this.kittyStack = Math.max(0, this.kittyStack - 1);
      else fail();
      return;
    }
    if (prefix !== "") fail();

    switch (final) {
      case "H":
      case "f":
        if (params.length > 2) fail();
        this.moveTo(p(0, 1) - 1, p(1, 1) - 1);
        return;
      case "A":
        this.moveTo(this.cursor.row - p(0, 1), this.cursor.col);
        return;
      case "B":
        this.moveTo(this.cursor.row + p(0, 1), this.cursor.col);
        return;
      case "C":
        this.moveTo(this.cursor.row, this.cursor.col + p(0, 1));
        return;
      case "D":
        this.moveTo(this.cursor.row, this.cursor.col - p(0, 1));
        return;
      case "G":
        this.moveTo(this.cursor.row, p(0, 1) - 1);
        return;
      case "d":
        this.moveTo(p(0, 1) - 1, this.cursor.col);
        return;
      case "K":
        this.eraseInLine(params[0] ?? 0, fail);
        return;
      case "J":
        this.eraseInDisplay(params[0] ?? 0, fail);
        return;
      case "r":
        this.setRegion(params, fail);
        return;
      case "S":
        this.scrollUp(p(0, 1));
        return;
      case "T":
        this.scrollDown(p(0, 1));
        return;
      case "m":
        this.sgr(params.length === 0 ? [0] : params, fail);
        return;
      case "t":
        if (params.length === 2 && params[0] === 22 && params[1] === 0) this.titleStack++;
        else if (params.length === 2 && params[0] === 23 && params[1] === 0) this.titleStack = Math.max(0, this.titleStack - 1);
        else fail();
        return;
      case "c":
        // Device attributes query (sent after the background query); the reply is not modelled.
        if (params.length > 1 || (params[0] ?? 0) !== 0) fail();
        return;
      default:
        fail();
    }
  }

  private setMode(mode: number, on: boolean): void {
    if (mode === 25) {
      this.cursorVisible = on;
      return;
    }
    if (mode === 1049 && on !== this.modes.has(1049)) {
      if (on) {
        this.saved = { grid: this.grid, cursor: { ...this.cursor } };
        this.grid = this.blankGrid();
      } else if (this.saved) {
        this.grid = this.saved.grid;
        this.cursor = this.saved.cursor;
        this.saved = null;
      }
      this.wrapPending = false;
    }
    if (mode === 2026 && !on && this.modes.has(2026)) this.syncedFrames++;
    if (on) this.modes.add(mode);
    else this.modes.delete(mode);
  }

  private moveTo(row: number, col: number): void {
    this.cursor = { row: Math.max(0, Math.min(this.height - 1, row)), col: Math.max(0, Math.min(this.width - 1, col)) };
    this.wrapPending = false;
  }

  private eraseInLine(mode: number, fail: () => never): void {
    const row = this.grid[this.cursor.row]!;
    const [from, to] = mode === 0 ? [this.cursor.col, this.width] : mode === 1 ? [0, this.cursor.col + 1] : mode === 2 ? [0, this.width] : fail();
    for (let c = from; c < to; c++) row[c] = this.blankCell();
    if (from > 0 && row[from]!.ch === "") row[from - 1] = this.blankCell();
    this.wrapPending = false;
  }

  private eraseInDisplay(mode: number, fail: () => never): void {
    const { row } = this.cursor;
    if (mode === 0) {
      this.eraseInLine(0, fail);
      for (let r = row + 1; r < this.height; r++) this.grid[r] = this.blankRow();
    } else if (mode === 1) {
      this.eraseInLine(1, fail);
      for (let r = 0; r < row; r++) this.grid[r] = this.blankRow();
    } else if (mode === 2 || mode === 3) {
      this.grid = this.blankGrid();
    } else fail();
  }

  private setRegion(params: number[], fail: () => never): void {
    if (params.length === 0) {
      this.top = 0;
      this.bottom = this.height - 1;
    } else {
      if (params.length !== 2) fail();
      const top = (params[0] || 1) - 1;
      const bottom = (params[1] || this.height) - 1;
      if (top >= bottom || bottom >= this.height) throw new Error(`VTerm: scroll region ${params.join(";")} is invalid for ${this.height} rows.`);
      this.top = top;
      this.bottom = bottom;
    }
    // DECSTBM homes the cursor.
    this.moveTo(0, 0);
  }

  private scrollUp(n: number): void {
    const k = Math.min(n, this.bottom - this.top + 1);
    this.grid.splice(this.top, k);
    this.grid.splice(this.bottom - k + 1, 0, ...Array.from({ length: k }, () => this.blankRow()));
  }

  private scrollDown(n: number): void {
    const k = Math.min(n, this.bottom - this.top + 1);
    this.grid.splice(this.bottom - k + 1, k);
    this.grid.splice(this.top, 0, ...Array.from({ length: k }, () => this.blankRow()));
  }

  private sgr(params: number[], fail: () => never): void {
    const pen = this.pen;
    for (let k = 0; k < params.length; k++) {
      const n = params[k]!;
      if (n === 0) Object.assign(pen, { ...DEFAULT_PEN, link: pen.link });
      else if (n === 1) pen.bold = true;
      else if (n === 2) pen.dim = true;
      else if (n === 3) pen.italic = true;
      else if (n === 4) pen.underline = true;
      else if (n === 7) pen.inverse = true;
      else if (n === 9) pen.strike = true;
      else if (n === 22) pen.bold = pen.dim = false;
      else if (n === 23) pen.italic = false;
      else if (n === 24) pen.underline = false;
      else if (n === 27) pen.inverse = false;
      else if (n === 29) pen.strike = false;
      else if ((n >= 30 && n <= 37) || (n >= 90 && n <= 97)) pen.fg = String(n);
      else if ((n >= 40 && n <= 47) || (n >= 100 && n <= 107)) pen.bg = String(n);
      else if (n === 39) pen.fg = null;
      else if (n === 49) pen.bg = null;
      else if (n === 38 || n === 48) {
        const kind = params[k + 1];
        const take = kind === 5 ? 2 : kind === 2 ? 4 : fail();
        const args = params.slice(k + 1, k + 1 + take);
        if (args.length !== take || args.slice(1).some((v) => v > 255)) fail();
        const value = [n, ...args].join(";");
        if (n === 38) pen.fg = value;
        else pen.bg = value;
        k += take;
      } else fail();
    }
  }

  private osc(s: string, i: number): number {
    let j = i + 2;
    let end = -1;
    let termLen = 0;
    while (j < s.length) {
      if (s[j] === "\x07") {
        end = j;
        termLen = 1;
        break;
      }
      if (s[j] === "\x1b") {
        if (j + 1 >= s.length) return 0;
        if (s[j + 1] !== "\\") throw new Error(`VTerm: unterminated OSC sequence ${quote(s.slice(i, j + 2))}.`);
        end = j;
        termLen = 2;
        break;
      }
      j++;
    }
    if (end < 0) return 0;
    const body = s.slice(i + 2, end);
    const seq = s.slice(i, end + termLen);
    const semi = body.indexOf(";");
    const code = semi < 0 ? body : body.slice(0, semi);
    const rest = semi < 0 ? "" : body.slice(semi + 1);
    if (code === "0" || code === "2") this.title = rest;
    else if (code === "8") {
      const sep = rest.indexOf(";");
      if (sep < 0) throw new Error(`VTerm: malformed OSC 8 hyperlink ${quote(seq)}.`);
      const url = rest.slice(sep + 1);
      this.pen.link = url === "" ? null : url;
    } else if (code === "9") this.notifications.push(rest);
    else if (code === "777" && rest.startsWith("notify;")) this.notifications.push(rest.slice("notify;".length));
    else if (code === "11" && rest === "?") {
      // Background colour query; the reply is not modelled.
    } else throw new Error(`VTerm: unsupported OSC sequence ${quote(seq)}.`);
    return end + termLen - i;
  }
}
