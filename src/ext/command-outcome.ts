// What an extension command's response means, decided once for every mode: the TUI renders the
// outcome as UI intents, print mode as text, JSON and RPC as events and data.
import type { CommandResponseFrame, PanelContent } from "../protocol.ts";
import type { UiIntent } from "./types.ts";

/** What a command response makes zot do (the frame names the kind with a `CommandAction`, protocol.ts). */
export type CommandEffect =
  | { kind: "prompt"; text: string }
  | { kind: "insert"; text: string }
  | { kind: "display"; text: string }
  /** `text` is the panel as plain lines, for modes where nobody can look at a panel. */
  | { kind: "panel"; panel: PanelContent; text: string };

export type CommandOutcome = {
  /** What to do; null for `noop` and for an action without content. */
  action: CommandEffect | null;
  /**
   * The extension's error, or the host's when the response cannot be acted on (a prompt without
   * text). The interactive mode shows it beside the action; a one-shot mode fails the command.
   */
  error: string | null;
};

export function commandOutcome(response: CommandResponseFrame): CommandOutcome {
  const error = response.error ? response.error : null;
  switch (response.action) {
    case "prompt":
      // A prompt of nothing cannot start a turn; saying so beats silently doing nothing.
      if (!response.prompt?.trim()) return { action: null, error: error ?? "asked for a prompt but sent no text" };
      return { action: { kind: "prompt", text: response.prompt }, error };
    case "insert":
      return { action: response.insert ? { kind: "insert", text: response.insert } : null, error };
    case "display":
      return { action: response.display ? { kind: "display", text: response.display } : null, error };
    case "open_panel": {
      const panel = response.open_panel;
      if (!panel) return { action: null, error };
      const text = [panel.title, ...panel.lines, ...(panel.footer ? [panel.footer] : [])].filter((p) => p !== "").join("\n");
      return { action: { kind: "panel", panel, text }, error };
    }
    case "noop":
      return { action: null, error };
  }
}

/** The outcome as the UI intents the interactive mode applies, the action first. */
export function commandIntents(extension: string, response: CommandResponseFrame): UiIntent[] {
  const { action, error } = commandOutcome(response);
  const out: UiIntent[] = [];
  if (action?.kind === "panel") out.push({ kind: "panel_open", extension, panel: action.panel });
  else if (action) out.push({ kind: action.kind, extension, text: action.text });
  if (error !== null) out.push({ kind: "command_error", extension, message: error });
  return out;
}
