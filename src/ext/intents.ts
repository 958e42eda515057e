// Command responses as UI intents: what the modes show or do after `invokeCommand`.
import type { CommandResponseFrame } from "./protocol.ts";
import type { UiIntent } from "./types.ts";

/** Turns a command response into what the modes should show or do, in that order. */
export function commandIntents(extension: string, response: CommandResponseFrame): UiIntent[] {
  const out: UiIntent[] = [];
  switch (response.action) {
    case "prompt":
      if (response.prompt?.trim()) out.push({ kind: "prompt", extension, text: response.prompt });
      break;
    case "insert":
      if (response.insert) out.push({ kind: "insert", extension, text: response.insert });
      break;
    case "display":
      if (response.display) out.push({ kind: "display", extension, text: response.display });
      break;
    case "open_panel":
      if (response.open_panel) out.push({ kind: "panel_open", extension, panel: response.open_panel });
      break;
    case "noop":
      break;
  }
  if (response.error) out.push({ kind: "command_error", extension, message: response.error });
  return out;
}
