// Markdown for the transcript: the block and inline subset assistants write, rendered to styled
// lines for a width. Built for streaming: any prefix of a document renders sensibly (an unclosed
// fence is code, an unclosed `**` is literal text until its closer arrives).
import { highlightLine, type HighlightState } from "./highlight.ts";
import type { Style } from "../terminal/theme.ts";
import { visibleWidth } from "../terminal/width.ts";
import { truncate, wrap } from "../terminal/wrap.ts";

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/;
const HEADING = /^\s{0,3}(#{1,6})(?:\s+(.*?))?\s*#*\s*$/;
const RULE = /^\s{0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^\s{0,3}>\s?/;
const ITEM = /^(\s*)([-*+]|\d{1,9}[.)])(\s+|$)(.*)$/;
const TABLE_SEP = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
const BULLETS = ["•", "◦", "▪"] as const;
/** Setext underlines: `===` makes the paragraph above a level-1 heading, `---` a level-2 one. */
const SETEXT_1 = /^\s{0,3}=+\s*$/;
const SETEXT_2 = /^\s{0,3}-+\s*$/;
const TASK = /^\[([ xX])\](?:\s+|$)/;

/** Renders Markdown to lines no wider than `width` (code lines too; they wrap). */
export function renderMarkdown(src: string, width: number, style: Style): string[] {
  return blocks(src.replace(/\r\n?/g, "\n").split("\n"), Math.max(1, width), style, 0);
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

function startsBlock(line: string, next: string | undefined): boolean {
  return (
    FENCE.test(line) ||
    HEADING.test(line) ||
    RULE.test(line) ||
    QUOTE.test(line) ||
    ITEM.test(line) ||
    (line.includes("|") && next !== undefined && TABLE_SEP.test(next) && next.includes("-"))
  );
}

function blocks(lines: string[], width: number, style: Style, depth: number): string[] {
  const out: string[] = [];
  const blank = () => {
    if (out.length > 0 && out[out.length - 1] !== "") out.push("");
  };
  let i = 0;
  for (let line = lines[i]; line !== undefined; line = lines[i]) {
    if (line.trim() === "") {
      blank();
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const [, indent = "", marker = "", info = ""] = fence;
      const fenceChar = marker.charAt(0);
      const body: string[] = [];
      i++;
      for (let l = lines[i]; l !== undefined; l = lines[i]) {
        const t = l.trim();
        if (t.startsWith(fenceChar.repeat(marker.length)) && t.replace(new RegExp(`^\\${fenceChar}+`), "").trim() === "") {
          i++;
          break;
        }
        body.push(l.startsWith(indent) ? l.slice(indent.length) : l.trimStart());
        i++;
      }
      out.push(...codeBlock(body, info.toLowerCase(), width, style));
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      i++;
      // An empty heading (or a lone `#` mid-stream) draws nothing.
      if (!heading[2]) continue;
      out.push(...headingLines((heading[1] ?? "").length, heading[2], width, style));
      continue;
    }
    if (RULE.test(line)) {
      out.push(style.fg("border", "─".repeat(width)));
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const inner: string[] = [];
      while (i < lines.length && lines[i]!.trim() !== "" && (QUOTE.test(lines[i]!) || inner.length > 0)) {
        if (!QUOTE.test(lines[i]!) && startsBlock(lines[i]!, lines[i + 1])) break;
        inner.push(lines[i]!.replace(QUOTE, ""));
        i++;
      }
      const bar = style.fg("border", "│ ");
      for (const l of blocks(inner, width - 2, style, depth)) out.push(bar + style.italic(l));
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      i = listItem(lines, i, item, width, style, depth, out);
      continue;
    }
    const next = lines[i + 1];
    if (line.includes("|") && next !== undefined && TABLE_SEP.test(next) && next.includes("-")) {
      const rows: string[] = [line];
      i += 2;
      while (i < lines.length && lines[i]!.includes("|") && lines[i]!.trim() !== "") rows.push(lines[i++]!);
      out.push(...table(rows, next, width, style));
      continue;
    }
    const para: string[] = [line];
    i++;
    let setext = 0;
    while (i < lines.length && lines[i]!.trim() !== "") {
      // An underline turns the paragraph into a heading (before `---` could be read as a rule).
      if (SETEXT_1.test(lines[i]!) || SETEXT_2.test(lines[i]!)) {
        setext = SETEXT_1.test(lines[i]!) ? 1 : 2;
        i++;
        break;
      }
      if (startsBlock(lines[i]!, lines[i + 1])) break;
      para.push(lines[i++]!);
    }
    if (setext > 0) out.push(...headingLines(setext, joinParagraph(para).replace(/\n/g, " "), width, style));
    else out.push(...wrap(inline(joinParagraph(para), style), width));
  }
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out;
}

function headingLines(level: number, src: string, width: number, style: Style): string[] {
  const text = inline(src, style);
  const styled = level === 1 ? style.underline(style.bold(style.fg("accent", text))) : level === 2 ? style.bold(style.fg("accent", text)) : style.bold(text);
  return wrap(styled, width);
}

/** Joins paragraph lines: soft breaks become spaces, a trailing backslash or two spaces a line break. */
function joinParagraph(lines: string[]): string {
  let text = "";
  for (const [k, l] of lines.entries()) {
    const hard = l.endsWith("  ") || l.endsWith("\\");
    const body = (l.endsWith("\\") ? l.slice(0, -1) : l).trim();
    text += body + (k === lines.length - 1 ? "" : hard ? "\n" : " ");
  }
  return text;
}

/** One list item (with its continuation and nested lines) rendered with a hanging indent. Returns the next line index. */
function listItem(lines: string[], start: number, m: RegExpExecArray, width: number, style: Style, depth: number, out: string[]): number {
  const [, lead = "", marker = "", gap = "", first = ""] = m;
  const ordered = /\d/.test(marker);
  const contentCol = lead.length + marker.length + Math.min(Math.max(gap.length, 1), 4);
  const body: string[] = [first];
  let i = start + 1;
  let prevBlank = false;
  for (let l = lines[i]; l !== undefined; l = lines[i]) {
    if (l.trim() === "") {
      prevBlank = true;
      body.push("");
      i++;
      continue;
    }
    const ind = indentOf(l);
    if (ind >= contentCol) body.push(l.slice(contentCol));
    else if (prevBlank || ITEM.test(l) || startsBlock(l, lines[i + 1])) break;
    else body.push(l.trim());
    prevBlank = false;
    i++;
  }
  // Blank lines after the item belong between items, not inside it.
  while (body.length > 1 && body[body.length - 1] === "") {
    body.pop();
    i--;
  }
  // A task item (`- [ ]`, `- [x]`) shows its box instead of the bullet.
  const task = TASK.exec(body[0] ?? "");
  if (task) body[0] = body[0]!.slice(task[0].length);
  const bullet = task ? (task[1] === " " ? "[ ]" : "[x]") : ordered ? marker : (BULLETS[depth % BULLETS.length] ?? BULLETS[0]);
  const prefixWidth = visibleWidth(bullet) + 1;
  const inner = blocks(body, width - prefixWidth, style, depth + 1);
  const pad = " ".repeat(prefixWidth);
  if (inner.length === 0) inner.push("");
  const mark = task ? (task[1] === " " ? style.fg("muted", bullet) : style.fg("success", bullet)) : style.fg("accent", bullet);
  inner.forEach((l, k) => out.push(k === 0 ? mark + " " + (task && task[1] !== " " ? style.dim(l) : l) : l === "" ? "" : pad + l));
  return i;
}

function codeBlock(body: string[], lang: string, width: number, style: Style): string[] {
  const out: string[] = [];
  if (lang) out.push(style.fg("muted", lang));
  const state: HighlightState = { inBlockComment: false };
  for (const line of body) {
    for (const l of wrap(highlightLine(line, lang, state, style), width - 2)) out.push("  " + l);
  }
  return out;
}

function cells(row: string): string[] {
  let r = row.trim();
  if (r.startsWith("|")) r = r.slice(1);
  if (r.endsWith("|") && !r.endsWith("\\|")) r = r.slice(0, -1);
  return r.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, "|"));
}

type Align = "left" | "center" | "right";
/** A column is not squeezed below this many columns (unless the table cannot fit at all). */
const MIN_COLUMN = 3;

function aligned(text: string, width: number, align: Align): string {
  const gap = Math.max(0, width - visibleWidth(text));
  if (align === "right") return " ".repeat(gap) + text;
  if (align === "center") return " ".repeat(Math.floor(gap / 2)) + text + " ".repeat(gap - Math.floor(gap / 2));
  return text + " ".repeat(gap);
}

/**
 * A pipe table: columns aligned as the separator row says (`:--`, `:-:`, `--:`); when it is wider
 * than the width, the widest columns give way and their cells wrap, so no column is cut off.
 */
function table(rows: string[], sepRow: string, width: number, style: Style): string[] {
  const align: Align[] = cells(sepRow).map((c) => (c.startsWith(":") && c.endsWith(":") ? "center" : c.endsWith(":") ? "right" : "left"));
  const grid = rows.map((r) => cells(r).map((c) => inline(c, style)));
  const cols = Math.max(...grid.map((r) => r.length));
  const widths = new Array<number>(cols).fill(1);
  for (const r of grid) r.forEach((c, k) => (widths[k] = Math.max(widths[k]!, visibleWidth(c))));
  const room = width - 3 * (cols - 1);
  for (let total = widths.reduce((a, b) => a + b, 0); total > room; total--) {
    let widest = 0;
    widths.forEach((w, k) => {
      if (w > widths[widest]!) widest = k;
    });
    if (widths[widest]! <= MIN_COLUMN) break;
    widths[widest]!--;
  }
  const sep = style.fg("border", " │ ");
  const out: string[] = [];
  grid.forEach((r, k) => {
    const wrapped = widths.map((w, c) => wrap(k === 0 ? style.bold(r[c] ?? "") : (r[c] ?? ""), w));
    const height = Math.max(...wrapped.map((w) => w.length));
    for (let line = 0; line < height; line++) {
      const text = widths.map((w, c) => aligned(wrapped[c]![line] ?? "", w, align[c] ?? "left")).join(sep);
      out.push(truncate(text.trimEnd(), width));
    }
    if (k === 0) out.push(truncate(style.fg("border", widths.map((w) => "─".repeat(w)).join("─┼─")), width));
  });
  return out;
}

const PUNCT = /[!-/:-@[-`{-~]/;
const WORD = /[\p{L}\p{N}]/u;

/** Finds the closer for an emphasis delimiter `d` opened at `from`, or -1. */
function findCloser(src: string, from: number, d: string): number {
  let j = src.indexOf(d, from);
  while (j >= 0) {
    const before = src[j - 1];
    const after = src[j + d.length];
    const okBefore = before !== undefined && before !== " " && j > from;
    const okAfter = d[0] !== "_" || after === undefined || !WORD.test(after);
    // A single `*` must not be half of a `**`.
    const lone = d.length !== 1 || (after !== d && before !== d);
    if (okBefore && okAfter && lone) return j;
    j = src.indexOf(d, j + 1);
  }
  return -1;
}

/** Finds the `)` closing a link destination that starts at `from`, allowing balanced parentheses. */
function closeParen(src: string, from: number): number {
  let depth = 0;
  for (let j = from; j < src.length; j++) {
    if (src[j] === "(") depth++;
    else if (src[j] === ")") {
      if (depth === 0) return j;
      depth--;
    }
  }
  return -1;
}

/** Where inline Markdown can start; text up to the next of these is copied as it is. */
const MARKUP = /[\\`*_~[!<]/g;

/** Inline Markdown: code spans, strong, emphasis, strikethrough, links, images and autolinks. */
export function inline(src: string, style: Style): string {
  let out = "";
  let i = 0;
  while (i < src.length) {
    MARKUP.lastIndex = i;
    const next = MARKUP.exec(src)?.index ?? src.length;
    if (next > i) {
      // Plain text in one piece: a character at a time was most of a long paragraph's render.
      out += src.slice(i, next);
      i = next;
      continue;
    }
    const c = src[i];
    if (c === "\\" && i + 1 < src.length && PUNCT.test(src[i + 1]!)) {
      out += src[i + 1];
      i += 2;
      continue;
    }
    if (c === "`") {
      let run = 1;
      while (src[i + run] === "`") run++;
      const ticks = "`".repeat(run);
      let close = src.indexOf(ticks, i + run);
      while (close >= 0 && src[close + run] === "`") close = src.indexOf(ticks, close + run + 1);
      if (close < 0) {
        out += ticks;
        i += run;
        continue;
      }
      let code = src.slice(i + run, close);
      if (code.length > 2 && code.startsWith(" ") && code.endsWith(" ")) code = code.slice(1, -1);
      // Without colour the backticks are the only thing that marks code.
      out += style.mode === "none" ? ticks + code + ticks : style.fg("code", code);
      i = close + run;
      continue;
    }
    if (c === "*" || c === "_" || c === "~") {
      let run = 1;
      while (src[i + run] === c) run++;
      const prev = src[i - 1];
      const next = src[i + run];
      const canOpen = next !== undefined && next !== " " && (c !== "_" || prev === undefined || !WORD.test(prev));
      const d = c === "~" ? (run >= 2 ? "~~" : "") : c.repeat(Math.min(run, 3));
      if (canOpen && d && run === d.length) {
        const close = findCloser(src, i + d.length, d);
        if (close >= 0) {
          const inner = inline(src.slice(i + d.length, close), style);
          out += c === "~" ? style.strike(inner) : d.length === 1 ? style.italic(inner) : d.length === 2 ? style.bold(inner) : style.bold(style.italic(inner));
          i = close + d.length;
          continue;
        }
      }
      out += src.slice(i, i + run);
      i += run;
      continue;
    }
    if (c === "[" || (c === "!" && src[i + 1] === "[")) {
      const image = c === "!";
      const open = image ? i + 1 : i;
      let depth = 0;
      let end = -1;
      for (let j = open; j < src.length; j++) {
        if (src[j] === "\\") j++;
        else if (src[j] === "[") depth++;
        else if (src[j] === "]" && --depth === 0) {
          end = j;
          break;
        }
      }
      if (end > 0 && src[end + 1] === "(") {
        const close = closeParen(src, end + 2);
        if (close > 0) {
          const label = src.slice(open + 1, end);
          const url = src
            .slice(end + 2, close)
            .trim()
            .replace(/\s+"[^"]*"$/, "");
          out += link(label, url, image, style);
          i = close + 1;
          continue;
        }
      }
      out += c;
      i++;
      continue;
    }
    if (c === "<") {
      const auto = /^<((?:https?|ftp|mailto):[^>\s]+)>/.exec(src.slice(i));
      if (auto) {
        const shown = style.underline(style.fg("accent", auto[1]!));
        out += style.link ? style.link(auto[1]!, shown) : shown;
        i += auto[0].length;
        continue;
      }
    }
    out += c;
    i++;
  }
  return out;
}

/** Only these become clickable; anything else (javascript:, file:) stays printed text. */
const LINKABLE = /^(?:https?|ftp|mailto):/i;

function link(label: string, url: string, image: boolean, style: Style): string {
  if (image) return style.fg("muted", `[image: ${label || url}]`) + (url ? " " + style.fg("muted", `(${url})`) : "");
  const text = inline(label, style);
  const shown = style.underline(style.fg("accent", text || url));
  // Where the terminal draws links, the URL hides behind the text; elsewhere it follows it.
  if (style.link && url && LINKABLE.test(url)) return style.link(url, shown);
  if (!url || label === url) return shown;
  return shown + " " + style.fg("muted", `(${url})`);
}

/**
 * Renders a document that only grows (a streamed answer) without touching what is settled: the
 * text up to the last top-level block boundary (a blank line outside code fences followed by an
 * unindented line) is cleaned and rendered once and its lines kept; each call cleans and renders
 * only the rest, so a frame costs what is still open, not the whole answer. The output always
 * equals `renderMarkdown(clean(text), width, style)` for the text appended so far. `clean` must
 * act on each line alone where a line has no ESC (the chat's `sanitize` does: tabs stop within
 * their line, controls go one by one); text before an ESC stays open, so a sequence that spans
 * lines is cleaned whole.
 */
export class StreamingMarkdown {
  /** Everything appended (read again only when the width or style changes). */
  private raw = "";
  /** What was appended after the settled part. */
  private fresh = "";
  /** The settled part's lines, then the open part's (which the next call replaces). */
  private lines: string[] = [];
  private settled = 0;
  private width = -1;
  private style: Style | null = null;

  constructor(private readonly clean: (raw: string) => string = (raw) => raw) {}

  append(delta: string): void {
    this.raw += delta;
    this.fresh += delta;
  }

  /**
   * The lines for the text so far. The array is reused by the next call at the same width and
   * style (it then holds that call's lines); a caller keeps it only while the text is unchanged.
   */
  render(width: number, style: Style): string[] {
    if (width !== this.width || style !== this.style) {
      this.fresh = this.raw;
      this.lines = [];
      this.settled = 0;
      this.width = width;
      this.style = style;
    }
    let open = this.clean(this.fresh);
    const cut = settledEnd(open, 0);
    const rawCut = cut > 0 ? rawOffset(this.fresh, open, cut) : -1;
    if (rawCut > 0) {
      // Blocks on either side of a boundary render independently, so settled chunks just append.
      const chunk = renderMarkdown(open.slice(0, cut), width, style);
      this.lines.length = this.settled;
      if (chunk.length > 0 && this.settled > 0) this.lines.push("");
      for (const line of chunk) this.lines.push(line);
      this.settled = this.lines.length;
      this.fresh = this.fresh.slice(rawCut);
      open = open.slice(cut);
    }
    const rest = renderMarkdown(open, width, style);
    this.lines.length = this.settled;
    if (rest.length > 0 && this.settled > 0) this.lines.push("");
    for (const line of rest) this.lines.push(line);
    return this.lines;
  }
}

/**
 * Where in `raw` the line starting at `cut` in `clean` (its cleaned form) starts, or -1 when that
 * is not known: an ESC before it may have begun a sequence that runs on.
 */
function rawOffset(raw: string, clean: string, cut: number): number {
  if (clean === raw) return cut;
  const esc = raw.indexOf("\x1b");
  let lines = 0;
  for (let i = clean.indexOf("\n"); i >= 0 && i < cut; i = clean.indexOf("\n", i + 1)) lines++;
  let at = 0;
  for (let k = 0; k < lines; k++) at = raw.indexOf("\n", at) + 1;
  return esc >= 0 && esc < at ? -1 : at;
}

/**
 * The end of the settled part of `src`: the offset just after the last blank line (outside
 * fences) that is followed by an unindented non-blank line. Scanning starts at `from`, which must
 * be such a boundary (or 0), so fence state there is known to be closed.
 */
function settledEnd(src: string, from: number): number {
  let best = from;
  let fence: string | null = null;
  let pos = from;
  let blankBefore = false;
  while (pos < src.length) {
    const nl = src.indexOf("\n", pos);
    if (nl < 0) break;
    const line = src.slice(pos, nl);
    const t = line.trim();
    if (fence) {
      if (t.startsWith(fence) && t.replace(/^[`~]+/, "") === "") fence = null;
      blankBefore = false;
    } else if (t === "") {
      blankBefore = true;
    } else {
      // Only a complete line can tell whether it continues the block above.
      if (blankBefore && indentOf(line) === 0) best = pos;
      blankBefore = false;
      const m = FENCE.exec(line);
      if (m) fence = m[2] ?? null;
    }
    pos = nl + 1;
  }
  return best;
}
