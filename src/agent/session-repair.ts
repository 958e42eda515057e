// A loaded conversation must be one a provider accepts: every tool call answered by exactly one
// result right after its assistant message, and no result without its call. A transcript written by
// two processes at once, or cut off by a crash, can break that; resuming it would then fail with
// HTTP 400 on every request. The repair works on the decoded message list, whatever file format it
// came from.
import type { Message, ToolCallPart } from "./messages.ts";

export type Repair = {
  messages: Message[] /** Results added for unanswered calls. */;
  closed: number /** Results dropped: no matching call, or a duplicate. */;
  dropped: number;
};

export function repairToolPairs(messages: readonly Message[]): Repair {
  const out: Message[] = [];
  let closed = 0;
  let dropped = 0;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (!m) continue;
    if (m.role === "toolResult") {
      // A result not directly after its assistant message (handled below) belongs to no call.
      dropped++;
      continue;
    }
    out.push(m);
    if (m.role !== "assistant") continue;
    const calls = m.content.filter((p): p is ToolCallPart => p.type === "toolCall");
    if (calls.length === 0) continue;
    const open = new Map(calls.map((c) => [c.id, c]));
    for (let r = messages[i + 1]; r?.role === "toolResult"; r = messages[i + 1]) {
      i++;
      if (open.delete(r.toolCallId)) out.push(r);
      else dropped++;
    }
    for (const c of open.values()) {
      closed++;
      out.push({
        role: "toolResult",
        toolCallId: c.id,
        toolName: c.name,
        content: [{ type: "text", text: "aborted: the tool call did not finish (zot was interrupted)." }],
        isError: true,
        ts: m.ts,
      });
    }
  }
  return { messages: out, closed, dropped };
}
