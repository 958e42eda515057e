// Extension load problems in the chat: red lines that stay until that extension reloads cleanly
// or the user runs /clear, and warnings for theme files that could not be used. Screen-only:
// never sent to the model, never saved.
import type { ExtensionState, LoadReport } from "../../ext/types.ts";
import type { ChatLog } from "./chat-log.ts";

/** The message with its log path, unless the message names it already. */
export function withLog(message: string, log: string): string {
  return !log || message.includes(log) ? message : `${message} (log: ${log})`;
}

/** The load report implied by the host's states at startup. */
export function startupReport(states: ExtensionState[]): LoadReport {
  const errors: LoadReport["errors"] = [];
  for (const s of states) {
    if ((s.status === "failed" || s.status === "invalid") && s.error) errors.push({ extension: s.name, message: s.error, log: s.log });
  }
  return { extensions: states, errors };
}

/** Replaces the problem lines of every extension (or just `only`) with those of `report`. */
export function showLoadProblems(t: ChatLog, report: LoadReport, only?: string): void {
  const scope = only?.toLowerCase();
  t.removeTagged((tag) => (tag.startsWith("load:") || tag.startsWith("theme:")) && (scope === undefined || tag.endsWith(`:${scope}`)));
  for (const e of report.errors) {
    t.addInfo(`[${e.extension}] ${withLog(e.message, e.log)}`, "error", `load:${e.extension.toLowerCase()}`);
  }
  // A bad theme file is no error for the session, but the user should hear why the theme is missing.
  for (const x of report.extensions) {
    if (x.status !== "theme_only" || (scope !== undefined && x.name.toLowerCase() !== scope)) continue;
    for (const w of x.warnings) t.addInfo(`[${x.name}] ${w}`, "warn", `theme:${x.name.toLowerCase()}`);
  }
}
