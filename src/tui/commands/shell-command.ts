// `!cmd` runs a shell command from the editor and shows its output in the chat, as a block like a
// tool's; nothing goes to the model. `!!cmd` also sends the command and its output to the model as
// the next prompt. The runtime runs it the way the bash tool does (its own process group, a
// timeout, esc kills it).
import type { ShellOutput } from "../../runtime/api.ts";

export type ShellCommand = { command: string; share: boolean };

/** `!cmd` / `!!cmd`, or null for a prompt. */
export function parseShellCommand(text: string): ShellCommand | null {
  const t = text.trim();
  if (!t.startsWith("!")) return null;
  const share = t.startsWith("!!");
  const command = t.slice(share ? 2 : 1).trim();
  return command === "" ? null : { command, share };
}

/** The prompt `!!cmd` sends: what ran and what it printed. */
export function sharedPrompt(command: string, out: ShellOutput): string {
  return `I ran \`${command}\` in the shell${out.isError ? " (it failed)" : ""}. Its output:\n\n\`\`\`\n${out.text.replace(/\n$/, "")}\n\`\`\``;
}
