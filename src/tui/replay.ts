// Rebuilds the chat from stored messages (a resumed session, or the summary after /compact). A
// reply an interceptor rewrote or hid is shown as the user saw it then, never as the model wrote
// it: the messages keep the model's text, and their interception record what was shown.
import type { AssistantMessage, Message } from "../agent/messages.ts";
import { attachmentPath, isInterruption } from "../runtime/api.ts";
import { INTERRUPTED_MARK, type ChatLog } from "./components/chat-log.ts";

/** What the user saw of an assistant message, when an interceptor changed it. */
type ShownReply = { text: string } | { hiddenBy: string; reason: string };

function shownReply(m: AssistantMessage): ShownReply | undefined {
  const icp = m.intercept;
  if (icp?.hidden) return { hiddenBy: icp.blocked_by || "an extension", reason: icp.reason ?? "" };
  if (icp?.shown_text !== undefined) return { text: icp.shown_text };
  return undefined;
}

export function replay(transcript: ChatLog, messages: readonly Message[]): void {
  for (const m of messages) {
    if (isInterruption(m)) {
      transcript.abortRunning(m.ts);
      transcript.addMarker(INTERRUPTED_MARK, "warn");
    } else if (m.role === "user") {
      // Attached files are the model's business; the chat shows what the user typed and what came along.
      // A lone text part is shown as it is, not copied.
      const only = m.content.length === 1 ? m.content[0] : undefined;
      const text =
        only?.type === "text"
          ? only.text
          : m.content
              .map((p, i) => {
                if (p.type === "image") return `[image ${p.mimeType}]`;
                const attached = i > 0 ? attachmentPath(p) : null;
                return attached === null ? p.text : `[attached @${attached}]`;
              })
              .join("\n");
      transcript.addUser(text);
    } else if (m.role === "assistant") {
      const seen = shownReply(m);
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
