// Rebuilds the chat from stored messages (a resumed session, or the summary after /compact).
import type { Message } from "../agent/messages.ts";
import type { Transcript } from "./transcript.ts";

export function replay(transcript: Transcript, messages: readonly Message[]): void {
  for (const m of messages) {
    if (m.role === "user") {
      const text = m.content.map((p) => (p.type === "text" ? p.text : `[image ${p.mimeType}]`)).join("\n");
      transcript.addUser(text);
    } else if (m.role === "assistant") {
      for (const part of m.content) {
        if (part.type === "text") transcript.appendAssistant(part.text);
        else if (part.type === "thinking") transcript.appendThinking(part.thinking);
        else transcript.toolCall(part.id, part.name, part.args, undefined, m.ts);
      }
      transcript.closeStreams();
      if (m.stop === "error" && m.error) transcript.addInfo(m.error, "error");
    } else {
      const content = m.content.map((p) => (p.type === "text" ? p : { type: "image" as const, mime_type: p.mimeType, data: p.data }));
      transcript.toolResult(m.toolCallId, m.toolName, content, m.isError, 0, m.extension, m.ts);
    }
  }
}
