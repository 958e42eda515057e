// What an extension command's response means, decided once for every mode: the TUI renders the
// outcome as UI intents, print mode as text, JSON and RPC as events and data.
import type { CommandResponseFrame, PanelContent } from "./protocol.ts";
import type { UiIntent } from "./types.ts";

export type CommandOutcome =
  /** The command failed: the extension's error, or a response the host cannot act on. Nothing else happens. */
  | { kind: "error"; message: string }
  | { kind: "prompt"; text: string }
  | { kind: "insert"; text: string }
  | { kind: "display"; text: string }
  /** `text` is the panel as plain lines, for modes where nobody can look at a panel. */
  | { kind: "panel"; panel: PanelContent; text: string }
  | { kind: "nothing" };

export function commandOutcome(response: CommandResponseFrame): CommandOutcome {
  if (response.error) return { kind: "error", message: response.error };
  switch (response.action) {
    case "prompt":
      // A prompt of nothing cannot start a turn; saying so beats silently doing nothing.
      if (!response.prompt?.trim()) return { kind: "error", message: "asked for a prompt but sent no text" };
      return { kind: "prompt", text: response.prompt };
    case "insert":
      return response.insert ? { kind: "insert", text: response.insert } : { kind: "nothing" };
    case "display":
      return response.display ? { kind: "display", text: response.display } : { kind: "nothing" };
    case "open_panel": {
      const panel = response.open_panel;
      if (!panel) return { kind: "nothing" };
      const text = [panel.title, ...panel.lines, ...(panel.footer ? [panel.footer] : [])].filter((p) => p !== "").join("\n");
      return { kind: "panel", panel, text };
    }
    case "noop":
      return { kind: "nothing" };
  }
}

/** The outcome as the UI intents the interactive mode applies. */
export function commandIntents(extension: string, response: CommandResponseFrame): UiIntent[] {
  const outcome = commandOutcome(response);
  switch (outcome.kind) {
    case "error":
      return [{ kind: "command_error", extension, message: outcome.message }];
    case "prompt":
    case "insert":
    case "display":
      return [{ kind: outcome.kind, extension, text: outcome.text }];
    case "panel":
      return [{ kind: "panel_open", extension, panel: outcome.panel }];
    case "nothing":
      return [];
  }
}
