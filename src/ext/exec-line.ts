// How a manifest's command is shown to a person deciding whether to let it run: every word as it
// would be executed, with control characters escaped so a hostile manifest cannot hide or restyle
// anything on the terminal.
import type { Manifest } from "./types.ts";

/** `s` with C0/C1 control characters written as `\xNN`. */
export function visible(s: string): string {
  let out = "";
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    out += c < 0x20 || (c >= 0x7f && c <= 0x9f) ? `\\x${c.toString(16).padStart(2, "0")}` : ch;
  }
  return out;
}

/** A word as a shell would need it: bare when plain, else in double quotes. */
function word(s: string): string {
  if (s !== "" && /^[\w@%+=:,./~-]+$/.test(s)) return s;
  return `"${visible(s.replace(/["\\$`]/g, "\\$&"))}"`;
}

/** `exec` and `args` as one line, words quoted where needed; a theme runs nothing. */
export function execLine(m: Manifest): string {
  if (m.exec === null) return "nothing (a theme)";
  return [m.exec, ...m.args].map(word).join(" ");
}
