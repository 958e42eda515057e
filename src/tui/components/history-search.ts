// ctrl+r: search the prompt history (this project's, newest first) by typing; enter puts the
// chosen prompt in the editor, esc leaves the draft as it was.
import type { Editor } from "./editor.ts";
import type { HistoryEntry } from "../history.ts";
import { Picker } from "./pickers.ts";
import type { StyleRef } from "./component.ts";

export function historySearch(editor: Editor, theme: StyleRef, empty: () => void): Picker<HistoryEntry> | null {
  const entries = editor.history.recent();
  if (entries.length === 0) {
    empty();
    return null;
  }
  return new Picker<HistoryEntry>(theme, {
    title: "Search prompt history",
    items: entries,
    key: (e) => e.text,
    row: (e) => {
      const lines = e.text.split("\n");
      return { label: lines[0]!, ...(lines.length > 1 ? { detail: `+${lines.length - 1} lines` } : {}) };
    },
    onPick: (e) => editor.recall(e),
    empty: "no earlier prompt matches",
  });
}
