// Serial interception: interceptors are asked one after another in discovery order; the first
// `block` wins and stops the chain; rewrites chain (each interceptor sees the previous output).
// A silent interceptor allows after its deadline, unless its subscription is fail-closed
// (`on_timeout: "block"`), in which case silence — or its extension not running — blocks.
// Rewriting (and hiding the assistant's text) is a power (powers.ts): an answer that uses one its
// extension does not hold is refused — a tool call or result is blocked, assistant text stays as
// the model wrote it — and the refusal is written to the extension's log.
import { missingPower, type Power } from "./powers.ts";
import { isObject, type JsonObject } from "../json.ts";
import type { EventInterceptResponseFrame, InterceptSpec } from "../protocol.ts";
import type { InterceptPayload, InterceptResult, InterceptStep } from "./types.ts";

export type AskResult =
  | { kind: "answer"; frame: EventInterceptResponseFrame }
  | { kind: "timeout" }
  /** The extension exited, or was never running. */
  | { kind: "gone"; error: string };

export type Interceptor = {
  extension: string;
  spec: InterceptSpec;
  /** Sends `event_intercept` with the current payload and waits up to `timeoutMs`; null when not running. */
  ask: ((payload: InterceptPayload, timeoutMs: number) => Promise<AskResult>) | null;
  /** The powers its extension holds. */
  powers: ReadonlySet<Power>;
  /** Records a warning about this interceptor's answer in its extension's log. */
  warn: (message: string) => void;
};

export async function runIntercepts(payload: InterceptPayload, interceptors: Interceptor[]): Promise<InterceptResult> {
  let cur: InterceptPayload = payload;
  const steps: InterceptStep[] = [];
  const result: InterceptResult = { blocked: false, steps };
  const failClosed = (ext: string, reason: string): InterceptResult => {
    result.blocked = true;
    result.blockedBy = ext;
    result.reason = reason;
    return result;
  };

  for (const i of interceptors) {
    const closed = i.spec.on_timeout === "block";
    const started = performance.now();
    const answer: AskResult = i.ask ? await i.ask(cur, i.spec.timeout_ms) : { kind: "gone", error: `extension "${i.extension}" is not running` };
    const ms = performance.now() - started;

    if (answer.kind === "gone") {
      const reason = `${answer.error}; its ${payload.event} interceptor is fail-closed, so this was blocked`;
      steps.push({ extension: i.extension, ms, outcome: "unavailable", reason: closed ? reason : answer.error });
      if (closed) return failClosed(i.extension, reason);
      continue;
    }
    if (answer.kind === "timeout") {
      const reason = `extension "${i.extension}" did not answer the ${payload.event} interception within ${i.spec.timeout_ms} ms`;
      steps.push({ extension: i.extension, ms, outcome: "timeout", reason });
      if (closed) return failClosed(i.extension, `${reason}; its interceptor is fail-closed, so this was blocked`);
      continue;
    }

    const f = answer.frame;
    const used = powerUsed(cur, f);
    if (used && !i.powers.has(used.power)) {
      const reason = missingPower(i.extension, used.power, used.attempt);
      i.warn(`${reason}; ${cur.event === "assistant_message" ? "the text was shown as the model wrote it" : "the call was blocked"}`);
      if (cur.event === "assistant_message") {
        steps.push({ extension: i.extension, ms, outcome: "allow", reason });
        continue;
      }
      steps.push({ extension: i.extension, ms, outcome: "block", reason });
      return failClosed(i.extension, reason);
    }
    if (f.block) {
      const reason = f.reason || `blocked by extension "${i.extension}"`;
      steps.push({ extension: i.extension, ms, outcome: "block", reason });
      result.blocked = true;
      result.blockedBy = i.extension;
      result.reason = reason;
      return result;
    }
    const rewritten = rewrite(cur, f);
    if ("invalid" in rewritten) {
      const reason = `extension "${i.extension}" answered the ${payload.event} interception with ${rewritten.invalid}`;
      if (closed) {
        steps.push({ extension: i.extension, ms, outcome: "block", reason: `${reason}; its interceptor is fail-closed, so this was blocked` });
        i.warn(`${rewritten.invalid}; the call was blocked because the interceptor is fail-closed`);
        return failClosed(i.extension, `${reason}; its interceptor is fail-closed, so this was blocked`);
      }
      i.warn(`${rewritten.invalid}; ignored`);
      steps.push({ extension: i.extension, ms, outcome: "allow", reason });
      continue;
    }
    const next = rewritten.payload;
    const rewrote = next !== cur;
    cur = next;
    const step: InterceptStep = { extension: i.extension, ms, outcome: rewrote ? "rewrite" : "allow" };
    if (f.reason) step.reason = f.reason;
    steps.push(step);
    if (!rewrote) continue;
    switch (cur.event) {
      case "tool_call":
        result.args = cur.tool_args as JsonObject;
        break;
      case "assistant_message":
        result.text = cur.text;
        break;
      case "tool_result":
        result.content = cur.content;
        result.isError = cur.is_error;
        break;
      case "turn_start":
        break;
    }
  }
  return result;
}

/** The power an answer would use, and what it tried, in words for the refusal; null when it needs none. */
function powerUsed(cur: InterceptPayload, f: EventInterceptResponseFrame): { power: Power; attempt: string } | null {
  switch (cur.event) {
    case "tool_call":
      if (f.block || f.modified_args === undefined || Bun.deepEquals(f.modified_args, cur.tool_args)) return null;
      return { power: "rewrite_tool_calls", attempt: `rewrite the arguments of the "${cur.tool_name}" tool call` };
    case "tool_result":
      if (f.block || (f.replace_content === undefined && (f.is_error === undefined || f.is_error === cur.is_error))) return null;
      return { power: "rewrite_tool_results", attempt: `rewrite the result of the "${cur.tool_name}" tool call` };
    case "assistant_message":
      if (f.block) return { power: "rewrite_assistant_text", attempt: "hide the assistant's reply" };
      if (f.replace_text === undefined || f.replace_text === cur.text) return null;
      return { power: "rewrite_assistant_text", attempt: "replace the assistant's reply" };
    case "turn_start":
      return null;
  }
}

/**
 * Applies one answer's rewrites: the same payload object when nothing changed, or what made the
 * answer unusable (the decoder has already refused malformed frames).
 */
function rewrite(cur: InterceptPayload, f: EventInterceptResponseFrame): { payload: InterceptPayload } | { invalid: string } {
  switch (cur.event) {
    case "tool_call":
      if (f.modified_args === undefined) return { payload: cur };
      if (!isObject(f.modified_args)) return { invalid: `modified_args for tool "${cur.tool_name}" that is not a JSON object` };
      return { payload: { ...cur, tool_args: f.modified_args } };
    case "assistant_message":
      return { payload: f.replace_text === undefined ? cur : { ...cur, text: f.replace_text } };
    case "tool_result": {
      if (f.replace_content === undefined && f.is_error === undefined) return { payload: cur };
      return { payload: { ...cur, content: f.replace_content ?? cur.content, is_error: f.is_error ?? cur.is_error } };
    }
    case "turn_start":
      return { payload: cur };
  }
}
