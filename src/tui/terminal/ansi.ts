// Escape sequences: the constants the TUI writes, and (from the shared scanner) the helpers that
// find sequences in text so they can be measured, carried across wraps, or removed from untrusted text.
import { escapeLength, sanitizeControls, UNSAFE } from "../../platform/controls.ts";

export { escapeLength };

export const ESC = "\x1b";
export const CSI = "\x1b[";

export const syncStart = "\x1b[?2026h";
export const syncEnd = "\x1b[?2026l";
export const altScreenOn = "\x1b[?1049h";
export const altScreenOff = "\x1b[?1049l";
/** Alternate scroll: on the alternate screen the mouse wheel arrives as arrow keys (xterm's default is off). */
export const altScrollOn = "\x1b[?1007h";
export const altScrollOff = "\x1b[?1007l";
/** Save and restore the window title (xterm's title stack), so zot's title goes away on exit. */
export const titlePush = "\x1b[22;0t";
export const titlePop = "\x1b[23;0t";
export const pasteOn = "\x1b[?2004h";
export const pasteOff = "\x1b[?2004l";
export const cursorShow = "\x1b[?25h";
export const cursorHide = "\x1b[?25l";
/** Kitty keyboard protocol, flag 1 ("disambiguate escape codes"): shift+enter, ctrl+i vs tab, etc. */
export const kittyPush = "\x1b[>1u";
export const kittyPop = "\x1b[<u";
export const sgrReset = "\x1b[0m";
export const eraseLine = "\x1b[2K";
export const clearScreen = "\x1b[2J";

/** Moves the cursor to a 0-based row and column. */
export function cursorTo(row: number, col: number): string {
  return `\x1b[${row + 1};${col + 1}H`;
}
/** Sets the scrolling region to 0-based rows `top`..`bottom` inclusive; no arguments resets it to the whole screen. */
export function scrollRegion(top?: number, bottom?: number): string {
  return top === undefined || bottom === undefined ? "\x1b[r" : `\x1b[${top + 1};${bottom + 1}r`;
}
/** OSC 2: the window (and tab) title; `text` must be sanitized. */
export function windowTitle(text: string): string {
  return `\x1b]2;${text}\x07`;
}
/** OSC 8 hyperlink; terminals without support show just the text. */
export function hyperlink(url: string, text: string): string {
  return `\x1b]8;;${url}\x1b\\${text}\x1b]8;;\x1b\\`;
}

/** Removes escape sequences and keeps everything else, controls included. */
export function stripAnsi(s: string): string {
  if (s.indexOf("\x1b") < 0 && !/[\x80-\x9f]/.test(s)) return s;
  let out = "";
  let i = 0;
  while (i < s.length) {
    const n = escapeLength(s, i);
    if (n > 0) {
      i += n;
      continue;
    }
    out += s[i];
    i++;
  }
  return out;
}

const TAB = 4;

/**
 * Makes text from extensions and tools safe to draw: every escape sequence and every C0/C1 control
 * except `\n` is removed, tabs become spaces up to the next tab stop (every 4 characters), `\r\n` becomes
 * `\n` and a lone `\r` is dropped, so nothing in it can move the cursor or change terminal modes.
 */
export function sanitize(text: string): string {
  return sanitizeControls(text, TAB);
}

/** Invisible characters that can hide or reorder text: bidi controls, zero-width spaces and joiners, the BOM. */
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;
const NAMED: Readonly<Record<number, string>> = { 0x09: "\\t", 0x0d: "\\r", 0x1b: "\\e", 0x00: "\\0" };

/**
 * Makes every control character in `text` (except `\n`) and every invisible formatting character
 * visible as an escape (`\e`, `\r`, `\t`, `\x07`, `\u202e`), passed through `mark` so it stands out:
 * what a confirmation shows is then exactly what will run, nothing hidden or moved.
 */
export function revealControls(text: string, mark: (escaped: string) => string): string {
  if (!UNSAFE.test(text) && !INVISIBLE.test(text)) return text;
  let out = "";
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (c === 0x0a) out += ch;
    else if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) out += mark(NAMED[c] ?? `\\x${c.toString(16).padStart(2, "0")}`);
    else if (INVISIBLE.test(ch)) out += mark(`\\u${c.toString(16).padStart(4, "0")}`);
    else out += ch;
  }
  return out;
}
