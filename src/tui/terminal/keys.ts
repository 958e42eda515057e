// Key decoding: raw terminal input (legacy sequences, xterm modifiers, the kitty keyboard
// protocol, bracketed paste) into Key values. Input may be split anywhere across reads.
import type { PanelKeyName } from "../../protocol.ts";

/**
 * One key press. `name` is enter, esc, tab, backspace, delete, up, down, left, right, home, end,
 * pageup, pagedown, insert, f1..f12, rune (typed text in `text`; ctrl+letter is a rune with
 * `ctrl` and the lower-case letter, so 0x0a — which some terminals send for shift+enter — is
 * ctrl+j) or paste (the pasted text, newlines normalized to `\n`, escapes left in; sanitize
 * before drawing).
 */
export type Key = { name: string; text?: string; ctrl: boolean; alt: boolean; shift: boolean };

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

function key(name: string, mods: number = 0, text?: string): Key {
  const k: Key = { name, ctrl: (mods & 4) !== 0, alt: (mods & 2) !== 0, shift: (mods & 1) !== 0 };
  if (text !== undefined) k.text = text;
  return k;
}

/** `CSI <n> ~` numbers. */
const TILDE: Record<number, string> = {
  1: "home",
  2: "insert",
  3: "delete",
  4: "end",
  5: "pageup",
  6: "pagedown",
  7: "home",
  8: "end",
  11: "f1",
  12: "f2",
  13: "f3",
  14: "f4",
  15: "f5",
  17: "f6",
  18: "f7",
  19: "f8",
  20: "f9",
  21: "f10",
  23: "f11",
  24: "f12",
};

/** Final bytes of `CSI [1;mods] X` and `SS3 X`. */
const LETTER: Record<string, string> = {
  A: "up",
  B: "down",
  C: "right",
  D: "left",
  H: "home",
  F: "end",
  P: "f1",
  Q: "f2",
  R: "f3",
  S: "f4",
};

/** Kitty functional key codes (private use area) that zot cares about. */
const KITTY_FUNCTIONAL: Record<number, string> = {
  57414: "enter",
  57417: "left",
  57418: "right",
  57419: "up",
  57420: "down",
  57421: "pageup",
  57422: "pagedown",
  57423: "home",
  57424: "end",
  57425: "insert",
  57426: "delete",
};

/** A key from one code point, as legacy terminals send it (control bytes carry ctrl). */
function fromCodePoint(cp: number, mods: number): Key {
  switch (cp) {
    case 0x0d:
      return key("enter", mods);
    case 0x09:
      return key("tab", mods);
    case 0x7f:
    case 0x08:
      return key("backspace", mods);
    case 0x1b:
      return key("esc", mods);
    case 0x00:
      return key("rune", mods | 4, " ");
  }
  if (cp < 0x20) {
    // 0x01-0x1a are ctrl+a..z (0x0a is ctrl+j); 0x1c-0x1f are ctrl+\ ] ^ _.
    const ch = cp <= 0x1a ? String.fromCharCode(cp + 0x60) : String.fromCharCode(cp + 0x40);
    return key("rune", mods | 4, ch);
  }
  return key("rune", mods, String.fromCodePoint(cp));
}

/** Kitty `CSI code[:shifted[:base]] ; mods[:event] [; text] u`. Returns null for key releases. */
function kittyKey(params: string): Key | null {
  const [codes = "", modField = "", textField = ""] = params.split(";");
  const [codeStr = "", shiftedStr = ""] = codes.split(":");
  const [modStr = "", eventStr = ""] = modField.split(":");
  if (eventStr === "3") return null;
  const code = Number(codeStr);
  const mods = modStr ? (Number(modStr) - 1) & 0x3f : 0;
  if (!Number.isFinite(code)) return null;
  const functional = KITTY_FUNCTIONAL[code];
  if (functional) return key(functional, mods);
  if (code === 13 || code === 9 || code === 27 || code === 127 || code === 8) return fromCodePoint(code, mods);
  if (code >= 57344 && code <= 63743) return null;
  let text = String.fromCodePoint(code);
  if (textField)
    text = textField
      .split(":")
      .map((c) => String.fromCodePoint(Number(c)))
      .join("");
  else if (shiftedStr) text = String.fromCodePoint(Number(shiftedStr));
  else if (mods & 1 && !(mods & 4) && text.length === 1) text = text.toUpperCase();
  return key("rune", mods, text);
}

/** Decodes a complete CSI sequence (without `ESC [`). Unknown or non-key reports give null. */
function csiKey(params: string, final: string): Key | null {
  if (params.startsWith("?") || params.startsWith(">") || params.startsWith("<") || params.startsWith("=")) return null;
  if (final === "u") return kittyKey(params);
  const parts = params.split(";");
  const mods = parts[1] ? (Number(parts[1].split(":")[0]) - 1) & 0x3f : 0;
  if (final === "~") {
    const n = Number(parts[0]);
    // xterm modifyOtherKeys: CSI 27 ; mods ; code ~
    if (n === 27 && parts[2]) return fromCodePoint(Number(parts[2]), mods);
    const name = TILDE[n];
    return name ? key(name, mods) : null;
  }
  if (final === "Z") return key("tab", mods | 1);
  const name = LETTER[final];
  return name ? key(name, mods) : null;
}

type Step = { keys: Key[]; next: number } | "incomplete";

/**
 * The first input zot reads may have been typed while it started, before the terminal was in raw
 * mode: the line discipline turned each Enter of it into a line feed, which raw input reads as
 * ctrl+j (a new line in the editor). Those are Enters. A bracketed paste is left as it is.
 */
export function typedAhead(chunk: string): string {
  return chunk.includes("\x1b[200~") ? chunk : chunk.replaceAll("\n", "\r");
}

/**
 * Turns terminal input into keys. `feed` returns the keys that are complete; an unfinished
 * sequence (or a lone ESC, which may be the start of one) stays pending until more input arrives
 * or the caller calls `flush()` after a short quiet period (~30 ms), which resolves it as typed.
 * Bracketed paste is collected across any number of reads and delivered as one `paste` key.
 */
export class KeyDecoder {
  private buf = "";
  private paste: string | null = null;

  /** True when an incomplete sequence is waiting; call `flush()` if no more input arrives soon. */
  get pending(): boolean {
    return this.paste === null && this.buf.length > 0;
  }

  feed(data: string): Key[] {
    this.buf += data;
    return this.drain(false);
  }

  /** Resolves a pending partial sequence: a lone ESC becomes `esc`, a broken sequence its characters. */
  flush(): Key[] {
    return this.drain(true);
  }

  private drain(final: boolean): Key[] {
    const out: Key[] = [];
    let i = 0;
    const s = this.buf;
    while (i < s.length) {
      if (this.paste !== null) {
        const end = s.indexOf(PASTE_END, i);
        if (end < 0) {
          // Keep a possible partial end marker back for the next read.
          let keep = 0;
          for (let k = Math.min(PASTE_END.length - 1, s.length - i); k > 0; k--) {
            if (PASTE_END.startsWith(s.slice(s.length - k))) {
              keep = k;
              break;
            }
          }
          this.paste += s.slice(i, s.length - keep);
          i = s.length - keep;
          break;
        }
        this.paste += s.slice(i, end);
        out.push(key("paste", 0, this.paste.replace(/\r\n?/g, "\n")));
        this.paste = null;
        i = end + PASTE_END.length;
        continue;
      }
      const step = this.step(s, i, final);
      if (step === "incomplete") break;
      out.push(...step.keys);
      i = step.next;
    }
    this.buf = s.slice(i);
    return out;
  }

  private step(s: string, i: number, final: boolean): Step {
    const c = s.charCodeAt(i);
    if (c !== 0x1b) {
      const cp = s.codePointAt(i)!;
      return { keys: [fromCodePoint(cp, 0)], next: i + (cp > 0xffff ? 2 : 1) };
    }
    if (i + 1 >= s.length) return final ? { keys: [key("esc")], next: i + 1 } : "incomplete";
    const n = s[i + 1];
    if (n === "[") {
      if (s.startsWith(PASTE_START, i)) {
        this.paste = "";
        return { keys: [], next: i + PASTE_START.length };
      }
      let j = i + 2;
      while (j < s.length) {
        const b = s.charCodeAt(j);
        if (b >= 0x40 && b <= 0x7e) break;
        if (b < 0x20 || b > 0x3f) return { keys: [key("rune", 2, "[")], next: i + 2 };
        j++;
      }
      if (j >= s.length) return final ? this.literal(s, i) : "incomplete";
      const k = csiKey(s.slice(i + 2, j), s[j]!);
      return { keys: k ? [k] : [], next: j + 1 };
    }
    if (n === "O") {
      let j = i + 2;
      while (j < s.length && s.charCodeAt(j) >= 0x30 && s.charCodeAt(j) <= 0x39) j++;
      if (j >= s.length) return final ? this.literal(s, i) : "incomplete";
      const name = LETTER[s[j]!];
      const digits = s.slice(i + 2, j);
      const mods = digits ? (Number(digits) - 1) & 0x3f : 0;
      if (name) return { keys: [key(name, mods)], next: j + 1 };
      if (s[j] === "M") return { keys: [key("enter", mods)], next: j + 1 };
      return { keys: [], next: j + 1 };
    }
    if (n === "]" || n === "P" || n === "_") {
      // Terminal replies (OSC colour answers, DCS, APC): not keys; swallow them whole.
      let j = i + 2;
      while (j < s.length) {
        const b = s.charCodeAt(j);
        if (b === 0x07) return { keys: [], next: j + 1 };
        if (b === 0x1b) {
          if (j + 1 >= s.length) break;
          if (s[j + 1] === "\\") return { keys: [], next: j + 2 };
        }
        j++;
      }
      return final ? this.literal(s, i) : "incomplete";
    }
    if (n === "\x1b") {
      // ESC ESC <seq>: some terminals send alt+arrow this way.
      const inner = this.step(s, i + 1, final);
      if (inner === "incomplete") return inner;
      if (inner.keys.length === 1 && inner.keys[0]!.name !== "esc") {
        inner.keys[0]!.alt = true;
        return inner;
      }
      return { keys: [key("esc"), ...inner.keys], next: inner.next };
    }
    // ESC followed by a character: alt + that key.
    const cp = s.codePointAt(i + 1)!;
    const k = fromCodePoint(cp, 0);
    k.alt = true;
    return { keys: [k], next: i + 1 + (cp > 0xffff ? 2 : 1) };
  }

  /**
   * A sequence cut short for good (no more input came): ESC and the character after it were an
   * alt combination, the rest typed characters. Never an `esc`, which would cancel a turn.
   */
  private literal(s: string, i: number): Step {
    const second = s.codePointAt(i + 1)!;
    const first = fromCodePoint(second, 0);
    first.alt = true;
    const keys = [first];
    let j = i + 1 + (second > 0xffff ? 2 : 1);
    while (j < s.length) {
      const cp = s.codePointAt(j)!;
      keys.push(fromCodePoint(cp, 0));
      j += cp > 0xffff ? 2 : 1;
    }
    return { keys, next: j };
  }
}

const PANEL_NAMES = new Set<string>(["up", "down", "left", "right", "enter", "esc", "tab", "pageup", "pagedown", "home", "end", "backspace", "delete"]);

/**
 * The spec's normalized `panel_key` for a key, or null for keys a panel never sees (function
 * keys, ctrl/alt combinations). A paste becomes one `rune` with its text, newlines as spaces.
 */
export function toPanelKey(k: Key): { key: PanelKeyName; text?: string } | null {
  if (k.name === "rune") {
    if (k.ctrl || k.alt || !k.text) return null;
    return { key: "rune", text: k.text };
  }
  if (k.name === "paste") {
    const text = (k.text ?? "").replace(/\n/g, " ");
    return text ? { key: "rune", text } : null;
  }
  if (PANEL_NAMES.has(k.name)) return { key: k.name as PanelKeyName };
  return null;
}

/** A readable name such as `ctrl+c`, `shift+enter`, `alt+left` (for help text and logs). */
export function keyLabel(k: Key): string {
  const parts: string[] = [];
  if (k.ctrl) parts.push("ctrl");
  if (k.alt) parts.push("alt");
  if (k.shift && k.name !== "rune") parts.push("shift");
  parts.push(k.name === "rune" ? (k.text === " " ? "space" : (k.text ?? "")) : k.name);
  return parts.join("+");
}

/**
 * Terminals turn the mouse wheel into arrow keys on the alternate screen ("alternate scroll"),
 * several per notch in one write; a typed arrow comes alone. A read of nothing but two or more
 * plain up (or down) arrows is the wheel: 1 scrolls back, -1 forward, 0 is not the wheel.
 */
export function wheelDirection(keys: readonly Key[]): 1 | -1 | 0 {
  if (keys.length < 2) return 0;
  const name = keys[0]!.name;
  if (name !== "up" && name !== "down") return 0;
  if (!keys.every((k) => k.name === name && !k.ctrl && !k.alt && !k.shift)) return 0;
  return name === "up" ? 1 : -1;
}
