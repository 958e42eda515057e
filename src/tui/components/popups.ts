// The editor's popups: the slash-command list while a command name is typed at the start, and the
// file picker while the word at the cursor starts with `@`. Esc hides them until the text changes.
import type { Editor } from "./editor.ts";
import { FilePicker } from "./filepicker.ts";
import { parseSlash } from "../../modes/slash.ts";
import { findCommand, SlashPopup, type SlashItem } from "./slash.ts";
import type { Component, StyleRef } from "./component.ts";

export class EditorPopups implements Component {
  readonly slash: SlashPopup;
  readonly files: FilePicker;
  private dismissed: string | null = null;
  /** The editor's text when the user last picked an entry with ↑/↓: a choice made for that text. */
  private chosenFor: string | null = null;

  constructor(
    theme: StyleRef,
    cwd: string,
    private readonly editor: Editor,
    private readonly commands: () => SlashItem[],
  ) {
    this.slash = new SlashPopup(theme);
    this.files = new FilePicker(theme, cwd);
  }

  get open(): boolean {
    return this.slash.open || this.files.open;
  }

  /** Re-evaluates which popup shows for the editor's text. */
  refresh(): void {
    if (this.dismissed !== null && this.dismissed !== this.editor.text) this.dismissed = null;
    if (this.dismissed !== null) {
      this.close();
      return;
    }
    this.slash.update(this.editor.text, this.commands());
    this.files.update(this.slash.open ? null : this.editor.atToken());
  }

  close(): void {
    this.slash.close();
    this.files.close();
  }

  /** Handles a key meant for an open popup; false lets the editor have it. `submit` sends the editor's text. */
  handle(label: string, submit: () => void): boolean {
    if (!this.open) return false;
    switch (label) {
      case "up":
      case "down":
        (this.files.open ? this.files.list : this.slash.list).move(label === "up" ? -1 : 1);
        this.chosenFor = this.editor.text;
        return true;
      case "esc":
        this.dismissed = this.editor.text;
        this.close();
        return true;
    }
    return this.files.open ? this.filesKey(label) : this.slashKey(label, submit);
  }

  render(width: number): string[] {
    if (this.slash.open) return this.slash.render(width);
    if (this.files.open) return this.files.render(width);
    return [];
  }

  invalidate(): void {}

  private slashKey(label: string, submit: () => void): boolean {
    const list = this.slash.list;
    switch (label) {
      case "tab": {
        const item = list.current;
        if (item) this.editor.setText(`/${item.name} `);
        this.refresh();
        return true;
      }
      case "enter": {
        // A complete command name runs as typed; a partial one (the start of a name) runs the
        // selected entry. Anything else runs only an entry picked with ↑/↓: a mistyped name is never
        // silently replaced by another command (/config is not /ext-config).
        const typed = parseSlash(this.editor.text);
        const current = list.current;
        const completes = typed !== null && current?.name.toLowerCase().startsWith(typed.name.toLowerCase()) === true;
        const item = typed && findCommand(this.commands(), typed.name) ? null : completes || this.chosenFor === this.editor.text ? current : null;
        if (item) this.editor.setText(`/${item.name}`);
        this.slash.close();
        submit();
        this.refresh();
        return true;
      }
      default:
        return false;
    }
  }

  private filesKey(label: string): boolean {
    switch (label) {
      case "tab":
      case "enter": {
        const choice = this.files.accept();
        if (!choice) {
          this.files.close();
          return label === "tab";
        }
        this.editor.replaceBeforeCursor(choice.start, choice.text);
        this.refresh();
        return true;
      }
      default:
        return false;
    }
  }
}
