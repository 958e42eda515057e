// The Go zot's wire shapes of conversation messages and content blocks, shared by RPC
// `get_messages` and the `user_message`, `assistant_message` and `tool_result` events of JSON and
// RPC mode: snake_case fields, typed blocks, images as a byte count instead of base64.
import type { ContentBlock } from "../protocol.ts";
import type { Json, JsonObject } from "../json.ts";
import type { ImagePart, Message, TextPart, ToolResultMessage } from "./messages.ts";
import { isoTime } from "./transcript-rows.ts";

/**
 * One message. Assistant text is what the user saw: an assistant_message interceptor's replacement
 * (`rewritten_by`), or nothing for a hidden message (`hidden`, `blocked_by`) — never the original
 * (both read from `m.intercept`).
 */
export function messageJson(m: Message): JsonObject {
  const time = isoTime(m.ts);
  if (m.role === "user") return { role: "user", content: m.content.map(blockJson), time };
  if (m.role === "toolResult") return { role: "tool", content: [resultJson(m)], time };
  const intercept = m.intercept;
  const content: Json[] = [];
  const shown = intercept?.hidden ? "" : intercept?.shown_text;
  let textDone = false;
  for (const p of m.content) {
    if (p.type === "text" && shown !== undefined) {
      // The whole visible text replaces the message's text blocks, in the place of the first one.
      if (!textDone && shown !== "") content.push({ type: "text", text: shown });
      textDone = true;
    } else if (p.type === "text") content.push({ type: "text", text: p.text });
    else if (p.type === "thinking") content.push({ type: "thinking", thinking: p.thinking });
    else content.push({ type: "tool_call", id: p.id, name: p.name, args: p.args });
  }
  const out: JsonObject = { role: "assistant", content, time, stop: m.stop, provider: m.provider, model: m.model };
  if (m.error) out.error = m.error;
  if (intercept?.hidden) {
    out.hidden = true;
    if (intercept.blocked_by) out.blocked_by = intercept.blocked_by;
  } else if (intercept?.shown_text !== undefined && intercept.rewritten_by) out.rewritten_by = intercept.rewritten_by;
  return out;
}

/** The messages as the Go zot counts them: the results of one step together, as one `tool` message. */
function grouped(messages: readonly Message[]): [Message, ...Message[]][] {
  const out: [Message, ...Message[]][] = [];
  for (const m of messages) {
    const last = out[out.length - 1];
    if (m.role === "toolResult" && last?.[0]?.role === "toolResult") last.push(m);
    else out.push([m]);
  }
  return out;
}

/** A conversation as the Go zot lists it (RPC `get_messages`). */
export function messagesJson(messages: readonly Message[]): JsonObject[] {
  return grouped(messages).map((group) => {
    const first = group[0];
    if (first.role !== "toolResult") return messageJson(first);
    const results = group.flatMap((m) => (m.role === "toolResult" ? [resultJson(m)] : []));
    return { role: "tool", content: results, time: isoTime((group.at(-1) ?? first).ts) };
  });
}

/** How many messages `messagesJson` lists (RPC `get_state.message_count`). */
export function wireMessageCount(messages: readonly Message[]): number {
  return grouped(messages).length;
}

function resultJson(m: ToolResultMessage): JsonObject {
  const block: JsonObject = { type: "tool_result", call_id: m.toolCallId, name: m.toolName, is_error: m.isError, content: m.content.map(blockJson) };
  if (m.extension) block.extension = m.extension;
  return block;
}

export function blockJson(p: TextPart | ImagePart): JsonObject {
  return p.type === "text" ? { type: "text", text: p.text } : { type: "image", mime_type: p.mimeType, bytes: imageBytes(p.data) };
}

/** Tool result blocks keep zot's base64 `data` and gain the Go zot's `bytes` count. */
export function eventBlocksJson(blocks: readonly ContentBlock[]): Json[] {
  return blocks.map((b) => (b.type === "image" ? { ...b, bytes: imageBytes(b.data) } : { ...b }));
}

function imageBytes(base64: string): number {
  const pad = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - pad;
}
