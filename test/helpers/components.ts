// Minimal components for layout tests: fixed lines, a chat of numbered lines, a draft already wrapped.
import type { Component, Scrollable } from "../../src/tui/components/component.ts";
import type { EditorView } from "../../src/tui/components/editor.ts";
import { EditorBox } from "../../src/tui/components/editor-box.ts";
import type { Style } from "../../src/tui/terminal/theme.ts";

/** Draws `lines` whatever the width. */
export function fixed(lines: string[]): Component {
  return { render: () => lines, invalidate() {} };
}

/** A chat of `lines`, windowed from the bottom like the transcript. */
export function chatOf(lines: string[]): Scrollable {
  return {
    render: () => lines,
    invalidate() {},
    reach: () => lines.length,
    window: (_width, height, offset) => lines.slice(Math.max(0, lines.length - offset - height), lines.length - offset),
  };
}

/** The editor box around a draft already wrapped into `view`. */
export function editorBoxOf(view: EditorView, style: Style): EditorBox {
  return new EditorBox({ view: () => view }, { style }, () => "");
}
