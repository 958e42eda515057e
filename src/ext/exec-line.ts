// How a manifest's command is shown to a person deciding whether to let it run: every word as it
// would be executed, with control characters escaped so a hostile manifest cannot hide or restyle
// anything on the terminal.
import type { Json, JsonObject } from "../json.ts";
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

/** A command and its arguments as one line, words quoted where needed. */
export function commandLine(words: string[]): string {
  return words.map(word).join(" ");
}

/** A value of a server list as written: a string as it is, anything else as JSON. */
export function writtenText(v: Json | undefined): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}

/**
 * What a project MCP server runs or connects to, from its definition as written (`transport`, then
 * `command` and `args`, or `url`), so `${VAR}` stays unexpanded and no secret of yours is shown.
 */
export function serverTarget(w: JsonObject): { label: "runs" | "connects to"; line: string } {
  if (w.transport === "http") return { label: "connects to", line: visible(writtenText(w.url)) };
  return { label: "runs", line: commandLine([writtenText(w.command), ...(Array.isArray(w.args) ? w.args.map(writtenText) : [])]) };
}

/** `exec` and `args` as one line, words quoted where needed; a theme runs nothing. */
export function execLine(m: Manifest): string {
  if (m.exec === null) return m.transport ? `nothing; zot connects to ${visible(m.transport.url)}` : "nothing (a theme)";
  const line = commandLine([m.exec, ...m.args]);
  return m.embeddedRuntime ? `${line} (zot's own Bun runtime, as ${m.embeddedRuntime} is not on PATH)` : line;
}

/** What an extension runs or, over a WebSocket, connects to, labelled as a listing shows it. */
export function extensionTarget(m: Manifest): { label: "runs" | "connects to"; line: string } {
  return m.transport ? { label: "connects to", line: visible(m.transport.url) } : { label: "runs", line: execLine(m) };
}
