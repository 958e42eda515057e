// Slash commands: what counts as one (the one rule for the TUI's editor and the one-shot modes), and
// in `zot -p "/name args"` and `zot --json "/name args"` an extension command instead of a model turn.
import type { ExtensionHost } from "../ext/types.ts";
import { NAME_PATTERN } from "../ext/policy.ts";

/** `/name args` when the prompt is a slash command; null for an ordinary prompt (including paths like `/tmp/x`). */
export function parseSlash(prompt: string): { name: string; args: string } | null {
  const trimmed = prompt.trim();
  if (!trimmed.startsWith("/")) return null;
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(trimmed);
  if (!m || !NAME_PATTERN.test(m[1])) return null;
  return { name: m[1], args: (m[2] ?? "").trim() };
}

/**
 * The error for a command no extension registered, naming the ones that exist — and the extensions
 * that are not running, with why, since one of them may be the one that would have it.
 */
export function unknownCommand(host: ExtensionHost, name: string): string {
  const names = host.commands().map((c) => `/${c.name}`);
  const list = names.length ? `extension commands: ${names.join(", ")}` : "no extension commands are loaded";
  const idle = host
    .states()
    .filter((s) => s.status === "needs_config" || s.status === "untrusted" || s.status === "failed")
    .map((s) => (s.error ? s.error : `extension "${s.name}" is ${s.status.replace("_", " ")}`));
  return `unknown command /${name} (${list})${idle.length ? `; not running: ${idle.join("; ")}` : ""}`;
}
