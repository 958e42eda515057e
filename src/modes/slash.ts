// Slash commands: what counts as one (the one rule for the TUI's editor and the one-shot modes), and
// in `zot -p "/name args"` and `zot --json "/name args"` an extension command instead of a model turn.
import type { ExtensionHost } from "../ext/types.ts";
import type { AgentRuntime, PromptOptions } from "../runtime/api.ts";
import { expandCommand, usableCommands, type LoadedCommands } from "../runtime/api.ts";
import { SLASH_NAME_PATTERN } from "../ext/name-rules.ts";

/** `/name args` when the prompt is a slash command; null for an ordinary prompt (including paths like `/tmp/x`). */
export function parseSlash(prompt: string): { name: string; args: string } | null {
  const trimmed = prompt.trim();
  if (!trimmed.startsWith("/")) return null;
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(trimmed);
  if (m?.[1] === undefined || !SLASH_NAME_PATTERN.test(m[1])) return null;
  return { name: m[1], args: (m[2] ?? "").trim() };
}

/**
 * The error for a command neither an extension nor a Markdown file defines, naming the ones that
 * exist — and the extensions that are not running, with why, since one of them may have it.
 */
export function unknownCommand(host: ExtensionHost, name: string, runtime?: AgentRuntime): string {
  const names = host.commands().map((c) => `/${c.name}`);
  const loaded = runtime?.customCommands();
  const custom = runtime ? markdownCommands(runtime, host).map((c) => `/${c.name}`) : [];
  const list = [
    names.length ? `extension commands: ${names.join(", ")}` : "no extension commands are loaded",
    ...(custom.length ? [`Markdown commands: ${custom.join(", ")}`] : []),
    ...(loaded?.untrusted.length
      ? [`the project commands in ${loaded.untrusted.join(", ")} are not loaded because this folder is not trusted (--trust allows them for one run)`]
      : []),
  ];
  const idle = host
    .states()
    .filter((s) => s.status === "needs_config" || s.status === "untrusted" || s.status === "failed")
    .map((s) => (s.error ? s.error : `extension "${s.name}" is ${s.status.replace("_", " ")}`));
  return `unknown command /${name} (${list.join("; ")})${idle.length ? `; not running: ${idle.join("; ")}` : ""}`;
}

/** The Markdown commands the built-in and extension commands leave usable. */
export function markdownCommands(runtime: AgentRuntime, host: ExtensionHost) {
  return usableCommands(
    runtime.customCommands(),
    host.commands().map((c) => c.name),
  ).commands;
}

/** A Markdown command's prompt for `/name args`, or null when no usable Markdown command has that name. */
export function markdownPrompt(runtime: AgentRuntime, host: ExtensionHost, name: string, args: string): { text: string; options: PromptOptions } | null {
  const cmd = markdownCommands(runtime, host).find((c) => c.name.toLowerCase() === name.toLowerCase());
  if (!cmd) return null;
  return { text: expandCommand(cmd, args), options: { model: cmd.model, allowedTools: cmd.allowedTools } };
}

/** What the user should hear once about the Markdown commands: files that failed, lost a name, or wait for /trust. */
export function markdownCommandNotes(loaded: LoadedCommands, extensionCommands: readonly string[]): string[] {
  const untrusted = loaded.untrusted.map(
    (dir) => `The project commands in ${dir} are not loaded: this folder is not trusted (/trust reviews it, --trust allows it for one run).`,
  );
  return [...loaded.warnings, ...usableCommands(loaded, extensionCommands).shadowed, ...untrusted];
}
