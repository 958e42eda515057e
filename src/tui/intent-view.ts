// Where each of the extension host's UI intents lands in interactive mode: notes, the editor, the
// panel slot, the status lines, or the prompt queue.
import type { UiIntent } from "../ext/types.ts";
import { cleanInput, type Editor } from "./components/editor.ts";
import type { Notes } from "./components/notes.ts";
import type { PanelSlot } from "./components/panel-slot.ts";
import type { EditorPopups } from "./components/popups.ts";
import type { InfoLevel } from "./components/chat-log.ts";

export type IntentTargets = {
  notes: Notes;
  editor: Editor;
  popups: EditorPopups;
  panels: PanelSlot;
  submitPrompt: (text: string, from: string) => void;
  status: (lines: { text: string; level: InfoLevel }[], ttlMs: number) => void;
};

export function showIntent(intent: UiIntent, t: IntentTargets): void {
  switch (intent.kind) {
    case "notify":
      t.notes.add({ extension: intent.extension, level: intent.level, text: intent.message });
      break;
    case "display":
      t.notes.add({ extension: intent.extension, level: "display", text: intent.text });
      break;
    case "clear_notes":
      t.notes.clearExtension(intent.extension);
      break;
    case "submit":
    case "prompt":
      t.submitPrompt(intent.text, intent.extension);
      break;
    case "insert":
      t.editor.insert(cleanInput(intent.text));
      t.popups.refresh();
      break;
    case "command_error":
      t.status([{ text: `[${intent.extension}] ${intent.message}`, level: "error" }], 8000);
      break;
    case "panel_open":
      t.panels.open(intent.extension, intent.panel);
      t.popups.close();
      break;
    case "panel_render":
      t.panels.render(intent.extension, intent);
      break;
    case "panel_close":
      t.panels.closedByExtension(intent.extension, intent.panelId);
      break;
    case "extension_exited": {
      const closed = t.panels.ownerExited(intent.extension);
      t.notes.add({ extension: intent.extension, level: "error", text: closed ? `panel closed: ${intent.message}` : intent.message });
      break;
    }
    case "tool_progress":
    case "registry_changed":
      break;
  }
}
