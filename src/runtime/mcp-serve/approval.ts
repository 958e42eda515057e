// A call zot's permission mode does not let run, asked of the MCP client's user through form
// elicitation: the question (what the call does, as zot's own dialog shows it) and what the answer means.
import { isObject } from "../../json.ts";
import type { Json, JsonObject } from "../../protocol.ts";
import type { ApprovalDetail, ConfirmDecision, ConfirmRequest } from "../../agent/events.ts";

/** Long enough for a diff worth reading, short enough for a client's dialog. */
const MAX_DETAIL = 4000;

export function approvalQuestion(req: ConfirmRequest, client: string): JsonObject {
  const who = req.extension ? `${req.name} (from ${req.extension})` : req.name;
  const rewritten = req.rewritten_by?.length ? `\n(arguments rewritten by ${req.rewritten_by.join(", ")})` : "";
  const detail = describe(req.detail);
  const text = detail.length > MAX_DETAIL ? `${detail.slice(0, MAX_DETAIL)}\n… (${detail.length - MAX_DETAIL} more characters)` : detail;
  return {
    mode: "form",
    message: `zot asks before running ${who}${client ? ` for ${client}` : ""}:\n${text}${rewritten}\nAllow this call?`,
    requestedSchema: {
      type: "object",
      properties: { allow: { type: "boolean", title: "Allow", description: `Run this ${req.name} call once`, default: false } },
      required: ["allow"],
    },
  };
}

/** `answer`: the elicitation result (`{action, content}`), or null when none came (an error, a cancelled call). */
export function decisionOf(answer: Json, client: string): ConfirmDecision {
  const who = client || "the MCP client";
  if (!isObject(answer)) return { kind: "no", reason: `${who} gave no answer to the approval question` };
  if (answer.action !== "accept")
    return { kind: "no", reason: `the user of ${who} answered ${JSON.stringify(answer.action ?? null)} to the approval question` };
  const content = isObject(answer.content) ? answer.content : {};
  return content.allow === true ? { kind: "yes" } : { kind: "no", reason: `the user of ${who} did not allow it` };
}

function describe(d: ApprovalDetail): string {
  switch (d.kind) {
    case "command":
      return `$ ${d.command}${d.escalation ? `\nThe sandbox stopped it (${d.escalation}); allowing runs it once outside the sandbox.` : ""}`;
    case "diff":
      return `edit ${d.path}:\n${d.diff}${d.note ? `\n${d.note}` : ""}`;
    case "content":
      return `write ${d.path}:\n${d.content}${d.note ? `\n${d.note}` : ""}`;
    case "json":
      return `${d.json}${d.note ? `\n${d.note}` : ""}`;
  }
}
