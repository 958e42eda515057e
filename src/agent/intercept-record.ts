// What extensions changed about a message (a rewritten or hidden assistant text, rewritten tool
// arguments or results). It travels with the message (`message.intercept`) and beside it in the
// transcript, so anything that shows the history again — RPC get_messages, a resumed session in the
// TUI — shows it as the user saw it, not as the model wrote it.
import type { Json, JsonObject } from "../json.ts";
import { isObject } from "../json.ts";

export type InterceptRecord = {
  /** tool_call: the args the tool actually ran with (the model's own args stay in its tool call). */
  args?: JsonObject;
  rewritten_by?: string[];
  /** tool_result interception: the extensions that rewrote the result before the model saw it. */
  result_rewritten_by?: string[];
  blocked_by?: string;
  reason?: string;
  /** assistant_message: the text the user saw instead of the model's (which the message keeps). */
  shown_text?: string;
  hidden?: boolean;
};

/** A transcript line's `intercept` object; unknown or mistyped fields are dropped, never trusted. */
export function decodeIntercept(v: Json | undefined): InterceptRecord | undefined {
  if (!isObject(v)) return undefined;
  const out: InterceptRecord = {};
  if (isObject(v.args)) out.args = v.args as JsonObject;
  const names = (x: Json | undefined) => (Array.isArray(x) && x.every((n) => typeof n === "string") ? (x as string[]) : undefined);
  const rewrittenBy = names(v.rewritten_by);
  if (rewrittenBy) out.rewritten_by = rewrittenBy;
  const resultRewrittenBy = names(v.result_rewritten_by);
  if (resultRewrittenBy) out.result_rewritten_by = resultRewrittenBy;
  if (typeof v.blocked_by === "string") out.blocked_by = v.blocked_by;
  if (typeof v.reason === "string") out.reason = v.reason;
  if (typeof v.shown_text === "string") out.shown_text = v.shown_text;
  if (v.hidden === true) out.hidden = true;
  return Object.keys(out).length > 0 ? out : undefined;
}
