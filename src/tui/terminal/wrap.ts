// ANSI-aware word wrap, truncation and padding. Styles active at a break are closed at the end of
// the line and re-opened on the next, so every line stands alone when the renderer rewrites it.
import { escapeLength, sgrReset } from "./ansi.ts";
import { isPlainAscii, nextCluster, visibleWidth } from "./width.ts";

const LINK_CLOSE = "\x1b]8;;\x1b\\";

/**
 * The SGR attributes (and the OSC 8 link) in effect at a point of a string, so they can be closed at
 * a line's end and re-opened on the next line.
 */
class SgrState {
  private attrs = new Map<string, string>();
  /** The open OSC 8 sequence of a link that is still running, or null. */
  private link: string | null = null;

  /** Applies one escape sequence; only SGR (`CSI … m`) and OSC 8 change the state. */
  apply(seq: string): void {
    if (seq.startsWith("\x1b]8;")) {
      this.link = /^\x1b\]8;[^;]*;[^\x07\x1b]+/.test(seq) ? seq : null;
      return;
    }
    if (!seq.startsWith("\x1b[") || !seq.endsWith("m")) return;
    const params = seq.slice(2, -1).split(";");
    for (let i = 0; i < params.length; i++) {
      const p = params[i] ?? "";
      const n = Number(p.split(":", 1)[0]);
      if (p === "" || n === 0) this.attrs.clear();
      else if (n === 38 || n === 48 || n === 58) {
        let value = p;
        if (!p.includes(":")) {
          const take = params[i + 1] === "5" ? 2 : params[i + 1] === "2" ? 4 : 0;
          value = params.slice(i, i + 1 + take).join(";");
          i += take;
        }
        this.attrs.set(n === 38 ? "fg" : n === 48 ? "bg" : "ul", value);
      } else if ((n >= 30 && n <= 37) || (n >= 90 && n <= 97)) this.attrs.set("fg", p);
      else if ((n >= 40 && n <= 47) || (n >= 100 && n <= 107)) this.attrs.set("bg", p);
      else if (n === 39) this.attrs.delete("fg");
      else if (n === 49) this.attrs.delete("bg");
      else if (n === 59) this.attrs.delete("ul");
      else if (n === 22) {
        this.attrs.delete("1");
        this.attrs.delete("2");
      } else if (n >= 23 && n <= 29) this.attrs.delete(String(n === 24 ? 4 : n - 20));
      else if (n >= 1 && n <= 9) this.attrs.set(String(n), p);
    }
  }

  get active(): boolean {
    return this.attrs.size > 0 || this.link !== null;
  }

  open(): string {
    return (this.attrs.size === 0 ? "" : `\x1b[${[...this.attrs.values()].join(";")}m`) + (this.link ?? "");
  }

  close(): string {
    return (this.link ? LINK_CLOSE : "") + (this.attrs.size > 0 ? sgrReset : "");
  }
}

/** `run`: printable ASCII characters, one column each, which a break may split anywhere. */
type Token = { text: string; width: number; escape: boolean; space: boolean; run: boolean };

const IDEOGRAPHIC = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]/u;

/**
 * A wide Chinese or Japanese character is a place to break on either side (UAX #14's ideographic
 * class), not part of a word. Korean is written with spaces between words and wraps at them.
 */
function breaksAround(t: Token): boolean {
  return !t.escape && t.width === 2 && IDEOGRAPHIC.test(t.text);
}

/** Printable ASCII other than the space. */
const isWordChar = (c: number): boolean => c > 0x20 && c < 0x7f;

/**
 * The line as escapes, grapheme clusters and runs of printable ASCII (of spaces, or of other
 * characters): a token per character made a long paragraph's wrap, and so the count of a resumed
 * chat's lines, mostly this tokenizer (bench/RESULTS.md). A run leaves its last character to
 * nextCluster when a non-ASCII character follows, which may combine with it.
 */
function tokenize(line: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < line.length) {
    const esc = escapeLength(line, i);
    if (esc > 0) {
      out.push({ text: line.slice(i, i + esc), width: 0, escape: true, space: false, run: false });
      i += esc;
      continue;
    }
    const first = line.charCodeAt(i);
    if (first === 0x20 || isWordChar(first)) {
      const space = first === 0x20;
      let end = i + 1;
      while (end < line.length && (space ? line.charCodeAt(end) === 0x20 : isWordChar(line.charCodeAt(end)))) end++;
      if (end < line.length && line.charCodeAt(end) >= 0x80) end--;
      if (end > i) {
        out.push({ text: line.slice(i, end), width: end - i, escape: false, space, run: true });
        i = end;
        continue;
      }
    }
    const c = nextCluster(line, i);
    const text = line.slice(i, c.end);
    out.push({ text, width: c.width, escape: false, space: text === " ", run: false });
    i = c.end;
  }
  return out;
}

/**
 * Wraps text to `width` columns at spaces; words wider than a line are broken between
 * characters (never inside a wide character or grapheme). Source newlines are kept, leading
 * indentation is kept, and the spaces at a wrap point are dropped. Returns at least one line.
 */
export function wrap(text: string, width: number): string[] {
  const w = Math.max(1, Math.floor(width));
  const out: string[] = [];
  const state = new SgrState();
  for (const line of text.split("\n")) {
    if (!state.active && isPlainAscii(line)) {
      if (line.length <= w) out.push(line);
      else wrapPlain(line, w, out);
      continue;
    }
    let cur = state.open();
    let curW = 0;
    let hasWord = false;
    const endLine = () => {
      out.push(state.active ? cur + state.close() : cur);
      cur = state.open();
      curW = 0;
      hasWord = false;
    };
    const put = (t: Token) => {
      if (t.escape) state.apply(t.text);
      cur += t.text;
      curW += t.width;
    };
    const tokens = tokenize(line);
    let i = 0;
    let broken = false;
    // Spaces that did not fit end the line: the next word must not join the one before them.
    let spacesDropped = false;
    while (i < tokens.length) {
      // A unit is a run of spaces or a run of non-spaces; escapes join whichever run they sit in.
      const start = i;
      let first = i;
      while (first < tokens.length && tokens[first]!.escape) first++;
      const space = first < tokens.length && tokens[first]!.space;
      let unitW = 0;
      if (first < tokens.length && breaksAround(tokens[first]!)) {
        // Chinese and Japanese text may break between any two characters, as the editor does.
        unitW = tokens[first]!.width;
        i = first + 1;
      } else {
        while (i < tokens.length && (tokens[i]!.escape || (tokens[i]!.space === space && !breaksAround(tokens[i]!)))) {
          unitW += tokens[i]!.width;
          i++;
        }
      }
      const unit = tokens.slice(start, i);
      if (space) {
        if (curW + unitW <= w && !(broken && curW === 0)) for (const t of unit) put(t);
        else {
          for (const t of unit) if (t.escape) put(t);
          spacesDropped = curW > 0;
        }
        continue;
      }
      if ((curW + unitW > w || spacesDropped) && hasWord) {
        // Trailing spaces before a break are not drawn.
        cur = cur.replace(/ +((?:\x1b\[[0-9;:]*m)*)$/, "$1");
        endLine();
        broken = true;
      }
      for (const t of unit) {
        if (t.run && curW + t.width > w) {
          // Broken between characters, as one token per character would be.
          for (let at = 0; at < t.text.length; ) {
            if (curW >= w && curW > 0) {
              endLine();
              broken = true;
            }
            const take = Math.min(t.text.length - at, w - curW);
            put({ text: t.text.slice(at, at + take), width: take, escape: false, space: false, run: true });
            at += take;
          }
          continue;
        }
        if (!t.escape && curW + t.width > w && curW > 0) {
          endLine();
          broken = true;
        }
        put(t);
      }
      hasWord = true;
      spacesDropped = false;
    }
    endLine();
  }
  return out;
}

/**
 * What wrap makes of a line of printable ASCII with no style open, found on the string itself: a
 * paragraph of plain prose is most of what a chat wraps, and its tokens were most of the work.
 */
function wrapPlain(line: string, w: number, out: string[]): void {
  let cur = "";
  let hasWord = false;
  let broken = false;
  let spacesDropped = false;
  const end = () => {
    out.push(cur);
    cur = "";
    hasWord = false;
    broken = true;
  };
  for (let i = 0; i < line.length; ) {
    const space = line.charCodeAt(i) === 0x20;
    let j = i + 1;
    while (j < line.length && (line.charCodeAt(j) === 0x20) === space) j++;
    if (space) {
      if (cur.length + (j - i) <= w && !(broken && cur.length === 0)) cur += line.slice(i, j);
      else spacesDropped = cur.length > 0;
    } else {
      if ((cur.length + (j - i) > w || spacesDropped) && hasWord) {
        cur = cur.replace(/ +$/, "");
        end();
      }
      for (let at = i; at < j; ) {
        if (cur.length >= w) end();
        const take = Math.min(j - at, w - cur.length);
        cur += line.slice(at, at + take);
        at += take;
      }
      hasWord = true;
      spacesDropped = false;
    }
    i = j;
  }
  out.push(cur);
}

/** Cuts text to `width` columns, ending with `ellipsis` when anything was cut; styles are closed. */
export function truncate(text: string, width: number, ellipsis = "…"): string {
  if (visibleWidth(text) <= width) return text;
  let ell = ellipsis;
  let target = width - visibleWidth(ell);
  if (target < 0) {
    ell = "";
    target = Math.max(0, width);
  }
  let out = "";
  let w = 0;
  let styled = false;
  let i = 0;
  while (i < text.length) {
    const esc = escapeLength(text, i);
    if (esc > 0) {
      out += text.slice(i, i + esc);
      styled = true;
      i += esc;
      continue;
    }
    const c = nextCluster(text, i);
    if (w + c.width > target) break;
    out += text.slice(i, c.end);
    w += c.width;
    i = c.end;
  }
  // A link cut open would swallow the rest of the screen line.
  const at = out.lastIndexOf("\x1b]8;");
  const link = at >= 0 && !out.startsWith(LINK_CLOSE, at) ? LINK_CLOSE : "";
  return out + ell + link + (styled ? sgrReset : "");
}

/** Pads text with spaces to `width` columns; wider text is returned unchanged. */
export function padRight(text: string, width: number): string {
  const w = visibleWidth(text);
  return w >= width ? text : text + " ".repeat(width - w);
}
