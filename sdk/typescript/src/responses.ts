// Constructors for command responses and tool results, so handlers read as one expression.
import type { CommandResponse, ContentBlock, ImageBlock, PanelContent, TextBlock, ToolResult } from "./types.ts";

/** Submit `text` as a user message; the agent runs a turn on it. */
export const prompt = (text: string): CommandResponse => ({ action: "prompt", prompt: text });
/** Put `text` into the editor at the cursor without submitting. */
export const insert = (text: string): CommandResponse => ({ action: "insert", insert: text });
/** Show `text` as a one-shot note; no model call, nothing in the transcript. */
export const display = (text: string): CommandResponse => ({ action: "display", display: text });
/** Open an interactive panel; keys then arrive through `onPanelKey` (Esc too with `escKey: true`, instead of closing it). */
export const openPanel = (panel: { id: string; title?: string; lines?: string[]; footer?: string; escKey?: boolean }): CommandResponse => {
  const content: PanelContent = { id: panel.id, title: panel.title ?? "", lines: panel.lines ?? [], footer: panel.footer ?? "" };
  if (panel.escKey) content.esc_key = true;
  return { action: "open_panel", openPanel: content };
};
/** The command was handled here (e.g. with `notify`); the host changes nothing. */
export const noop = (): CommandResponse => ({ action: "noop" });
/** Shown as a red status line. */
export const error = (message: string): CommandResponse => ({ action: "noop", error: message });

export const textBlock = (text: string): TextBlock => ({ type: "text", text });
/** `data` is base64. */
export const imageBlock = (data: string, mimeType = "image/png"): ImageBlock => ({ type: "image", mime_type: mimeType, data });

/** A tool result of one text block. */
export const text = (value: string, opts: { isError?: boolean; activateTools?: string[] } = {}): ToolResult => ({
  content: [textBlock(value)],
  ...opts,
});
/** A tool result of any blocks (text and images). */
export const result = (content: ContentBlock[], opts: { isError?: boolean; activateTools?: string[] } = {}): ToolResult => ({
  content,
  ...opts,
});
