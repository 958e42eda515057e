// Control sequences in untrusted text (model output, tool output, extension notes): the scanner
// that finds escape sequences, and the sanitizer that removes them. Shared by the TUI, which draws
// such text, and the command line, which prints it to a terminal.

const isFinal = (c: number) => c >= 0x40 && c <= 0x7e;

/** Length of a CSI body starting at `i` (just after `ESC [` or 0x9b): params, intermediates, final byte. */
function csiLength(s: string, i: number): number {
  let j = i;
  while (j < s.length) {
    const c = s.charCodeAt(j);
    if (isFinal(c)) return j + 1 - i;
    // A byte that cannot be part of a CSI ends a malformed sequence before it.
    if (c < 0x20 || c > 0x7e) return j - i;
    j++;
  }
  return j - i;
}

/** Length of a control string (OSC, DCS, SOS, PM, APC) body from `i`, including its terminator (BEL, ESC \ or 0x9c). */
function stringLength(s: string, i: number): number {
  let j = i;
  while (j < s.length) {
    const c = s.charCodeAt(j);
    if (c === 0x07 || c === 0x9c) return j + 1 - i;
    if (c === 0x1b) return (s.charCodeAt(j + 1) === 0x5c ? j + 2 : j) - i;
    j++;
  }
  return j - i;
}

/**
 * Length of the escape sequence starting at `i`, or 0 when `s[i]` starts none. Covers 7-bit forms
 * (ESC-prefixed CSI, OSC, DCS, SOS, PM, APC, nF and Fp/Fe/Fs escapes) and their 8-bit C1 forms.
 * Unterminated sequences run to the end of the string.
 */
export function escapeLength(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c === 0x1b) {
    if (i + 1 >= s.length) return 1;
    const n = s.charCodeAt(i + 1);
    if (n === 0x5b) return 2 + csiLength(s, i + 2);
    if (n === 0x5d || n === 0x50 || n === 0x58 || n === 0x5e || n === 0x5f) return 2 + stringLength(s, i + 2);
    if (n >= 0x20 && n <= 0x2f) {
      // nF escape (e.g. ESC ( B): intermediates then one final byte.
      let j = i + 1;
      while (j < s.length && s.charCodeAt(j) >= 0x20 && s.charCodeAt(j) <= 0x2f) j++;
      return j < s.length && s.charCodeAt(j) >= 0x30 && s.charCodeAt(j) <= 0x7e ? j + 1 - i : j - i;
    }
    // SS2/SS3 select one character from another set; swallow it too.
    if ((n === 0x4e || n === 0x4f) && i + 2 < s.length) return 3;
    if (n >= 0x30 && n <= 0x7e) return 2;
    return 1;
  }
  if (c >= 0x80 && c <= 0x9f) {
    if (c === 0x9b) return 1 + csiLength(s, i + 1);
    if (c === 0x9d || c === 0x90 || c === 0x98 || c === 0x9e || c === 0x9f) return 1 + stringLength(s, i + 1);
    return 1;
  }
  return 0;
}

/** A C0/C1 control other than `\n`: what sanitizing removes and a confirmation makes visible. */
export const UNSAFE = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/;

/**
 * Bidirectional controls (embeddings, overrides, isolates, marks): they reorder how text reads on
 * screen, so a line can show other words than it holds (CVE-2021-42574, "Trojan Source").
 */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_OR_BIDI = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * Removes every escape sequence, every C0/C1 control except `\n` and `\t`, and every bidirectional
 * control; `\r\n` becomes `\n` and a lone `\r` is dropped, so nothing in the text can move the
 * cursor, retitle the window, write the clipboard, change terminal modes or reorder what is read.
 * With `tabStop`, tabs become spaces up to the next stop.
 *
 * An ESC-introduced sequence goes whole. An 8-bit C1 control goes alone: without its introducer
 * what follows is inert text, and eating it as a sequence body would eat whatever came next — in
 * `--json` output, the quotes and commas that keep the line valid JSON.
 */
export function sanitizeControls(text: string, tabStop?: number): string {
  if (!UNSAFE_OR_BIDI.test(text)) return text;
  let out = "";
  let col = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      out += "\n";
      col = 0;
      i++;
      continue;
    }
    if (c === 0x09) {
      const n = tabStop === undefined ? 0 : tabStop - (col % tabStop);
      out += n === 0 ? "\t" : " ".repeat(n);
      col += n;
      i++;
      continue;
    }
    const esc = c === 0x1b ? escapeLength(text, i) : 0;
    if (esc > 0) {
      i += esc;
      continue;
    }
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || BIDI.test(text[i]!)) {
      i++;
      continue;
    }
    out += text[i];
    col++;
    i++;
  }
  return out;
}
