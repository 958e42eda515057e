// How the runtime's events show in the chat: each event becomes a change to the transcript.
import type { AgentEvent } from "../agent/events.ts";
import type { ChatLog } from "./components/chat-log.ts";
import { jobStatus } from "../runtime/api.ts";

/** Applies one event; false when the event changes nothing on screen. */
export function applyEvent(t: ChatLog, ev: AgentEvent, now: number): boolean {
  // A subagent's work shows inside its `task` call (that call's progress); its own events would
  // tangle with the main conversation's (its tool ids are its own). Its spending still shows, and
  // so do the subagents it starts, under its block.
  if (ev.agent) {
    if (ev.type === "tool_progress" && ev.subagent) t.subagentProgress(ev.id, ev.agent.id, ev.subagent, now);
    if (ev.type === "usage") t.subagentUsage(ev.agent.id, ev.usage.input + ev.usage.output + ev.usage.cacheRead + ev.usage.cacheWrite);
    return ev.type === "usage" || (ev.type === "tool_progress" && !!ev.subagent);
  }
  switch (ev.type) {
    case "text_delta":
      if (ev.held) t.appendHeld(ev.text);
      else t.appendAssistant(ev.text);
      return true;
    case "thinking_delta":
      t.appendThinking(ev.text);
      return true;
    case "tool_use_start":
      t.toolStart(ev.id, ev.name, now);
      return true;
    case "tool_call":
      t.toolCall(ev.id, ev.name, ev.args, ev.extension, now, ev.rewritten_by);
      return true;
    case "tool_progress":
      t.toolProgress(ev.id, ev.text);
      if (ev.subagent) t.subagentProgress(ev.id, null, ev.subagent, now);
      return true;
    case "tool_result":
      t.toolResult(ev.id, ev.name, ev.content, ev.is_error, ev.duration_ms, ev.extension, now);
      return true;
    case "assistant_message":
      // Deltas are held while an assistant_message interceptor runs, so a hidden reply normally
      // streamed nothing; anything that did stream is withdrawn too.
      if (ev.blocked) {
        t.dropOpenAssistant();
        t.addInfo(`reply hidden by ${ev.blocked_by ?? "an extension"}${ev.reason ? `: ${ev.reason}` : ""}`, "info");
      } else if (ev.text !== "" || ev.rewritten_by) t.finishAssistant(ev.text);
      // A message of tool calls alone has no text to show; its tools have their own entries.
      return true;
    case "turn_end":
      t.closeStreams();
      if (ev.stop === "error" && ev.error) t.addInfo(ev.error, "error");
      return true;
    case "turn_blocked":
      t.addInfo(`Turn blocked by ${ev.extension}: ${ev.reason}`, "error");
      return true;
    case "error":
      t.addInfo(ev.message, "error");
      return true;
    case "retry":
      t.addInfo(ev.wire ? ev.reason : `${ev.reason}; retrying (attempt ${ev.attempt} of ${ev.attempts})`, "warn");
      return true;
    case "compaction_end":
      if (ev.ok)
        t.addMarker(
          `history condensed: ${ev.replaced} earlier message${ev.replaced === 1 ? "" : "s"} summarised${ev.kept ? `, the last ${ev.kept} kept` : ""} · the model sees the summary from here`,
        );
      else if (ev.error === "cancelled") t.addInfo("Compaction cancelled; the history is unchanged.", "warn");
      else t.addInfo(`Compaction failed: ${ev.error ?? "unknown error"}; the history is unchanged.`, "error");
      return true;
    case "background_job":
      // Its start shows as the bash call's result; its end may come any time later, so it gets a line.
      if (ev.state !== "running") {
        const status = jobStatus({ state: ev.state, exitCode: ev.exit_code ?? null, signal: ev.signal ?? null });
        t.addInfo(`Background command ${ev.id} ${status}: ${ev.command}`, ev.state === "exited" && ev.exit_code === 0 ? "info" : "warn");
      }
      return true;
    case "todo":
      // Drawn above the editor from the runtime's list.
      return true;
    case "usage":
      // The status bar reads the totals from the runtime; a redraw shows them.
      return true;
    default:
      // Notes arrive as host intents; the confirmation event is the dialog's business.
      return false;
  }
}
