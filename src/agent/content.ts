// Content blocks cross between the extension wire format (`mime_type`) and the conversation model
// (`mimeType`) at exactly these two functions.
import type { ContentBlock } from "../protocol.ts";
import type { ImagePart, TextPart } from "./messages.ts";

export function toWireContent(parts: readonly (TextPart | ImagePart)[]): ContentBlock[] {
  return parts.map((p) => (p.type === "text" ? { type: "text", text: p.text } : { type: "image", mime_type: p.mimeType, data: p.data }));
}

export function fromWireContent(blocks: readonly ContentBlock[]): (TextPart | ImagePart)[] {
  return blocks.map((b) => (b.type === "text" ? { type: "text", text: b.text } : { type: "image", mimeType: b.mime_type, data: b.data }));
}

/** The text of a list of parts, joined the way a reader sees it. */
export function textOf(parts: readonly { type: string; text?: string }[]): string {
  let out = "";
  for (const p of parts) if (p.type === "text" && p.text) out += p.text;
  return out;
}
