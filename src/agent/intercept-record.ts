// What extensions changed about each message (a rewritten or hidden assistant text, rewritten tool
// arguments or results), kept beside the conversation so anything that shows the history again —
// RPC get_messages, a resumed session in the TUI — shows it as the user saw it, not as the model
// wrote it. Weak keys: a record lives exactly as long as its message.
import type { Json, JsonObject } from "../ext/protocol.ts";
import { isObject } from "../ext/protocol.ts";
import type { Message } from "./messages.ts";
import type { InterceptRecord } from "./session.ts";

const records = new WeakMap<Message, InterceptRecord>();

export function noteIntercept(message: Message, record: InterceptRecord): void {
  records.set(message, record);
}

/** The interception record of a message recorded in this process or loaded from a transcript. */
export function interceptOf(message: Message): InterceptRecord | undefined {
  return records.get(message);
}

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
