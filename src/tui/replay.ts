// Rebuilds the chat from stored messages (a resumed session, or the summary after /compact). A
// reply an interceptor rewrote or hid is shown as the user saw it then, never as the model wrote
// it: the messages keep the model's text, the session file keeps what was shown beside them.
import { readFileSync } from "node:fs";
import type { Message } from "../agent/messages.ts";
import { attachmentPath } from "../agent/attachments.ts";
import { INTERRUPTED_MARK, type Transcript } from "./transcript.ts";
import { isInterruption } from "../agent/session.ts";

/** What the user saw of one assistant message, keyed by the message's timestamp. */
export type ShownReply = { text: string } | { hiddenBy: string; reason: string };

export function replay(transcript: Transcript, messages: readonly Message[], shown: ReadonlyMap<number, ShownReply> = new Map()): void {
  for (const m of messages) {
    if (isInterruption(m)) {
      transcript.abortRunning(m.ts);
      transcript.addMarker(INTERRUPTED_MARK, "warn");
    } else if (m.role === "user") {
      // Attached files are the model's business; the chat shows what the user typed and what came along.
      const text = m.content
        .map((p, i) => {
          if (p.type === "image") return `[image ${p.mimeType}]`;
          const attached = i > 0 ? attachmentPath(p) : null;
          return attached === null ? p.text : `[attached @${attached}]`;
        })
        .join("\n");
      transcript.addUser(text);
    } else if (m.role === "assistant") {
      const seen = shown.get(m.ts);
      let textDone = false;
      for (const part of m.content) {
        if (part.type === "text") {
          if (!seen) transcript.appendAssistant(part.text);
          else if (!textDone && "text" in seen) transcript.appendAssistant(seen.text);
          textDone = true;
        } else if (part.type === "thinking") transcript.appendThinking(part.thinking);
        else transcript.toolCall(part.id, part.name, part.args, undefined, m.ts);
      }
      transcript.closeStreams();
      if (seen && "hiddenBy" in seen) transcript.addInfo(`reply hidden by ${seen.hiddenBy}${seen.reason ? `: ${seen.reason}` : ""}`, "info");
      if (m.stop === "error" && m.error) transcript.addInfo(m.error, "error");
    } else {
      const content = m.content.map((p) => (p.type === "text" ? p : { type: "image" as const, mime_type: p.mimeType, data: p.data }));
      transcript.toolResult(m.toolCallId, m.toolName, content, m.isError, 0, m.extension, m.ts);
    }
  }
}

/** The interception records of a session file's assistant messages; empty when it cannot be read. */
export function shownReplies(path: string | null): Map<number, ShownReply> {
  const out = new Map<number, ShownReply>();
  if (path === null) return out;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return out;
  }
  for (const line of text.split("\n")) {
    if (!line.includes('"intercept"')) continue;
    let rec: unknown;
    try {
      rec = JSON.parse(line);
    } catch {
      continue;
    }
    const r = obj(rec);
    const msg = obj(r?.message);
    const icp = obj(r?.intercept);
    if (r?.type !== "message" || msg?.role !== "assistant" || typeof msg.ts !== "number" || !icp) continue;
    if (icp.hidden === true) out.set(msg.ts, { hiddenBy: str(icp.blocked_by) || "an extension", reason: str(icp.reason) });
    else if (typeof icp.shown_text === "string") out.set(msg.ts, { text: icp.shown_text });
  }
  return out;
}

function obj(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

const str = (v: unknown): string => (typeof v === "string" ? v : "");
