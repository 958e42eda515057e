// Rules every provider client applies when it turns a streamed response into an AssistantMessage,
// kept in one place so the wire formats cannot drift apart on them.
import type { AssistantMessage, JsonObject, StopReason, TextPart, ThinkingPart, ToolCallPart, Usage } from "../messages.ts";
import type { ModelInfo } from "../provider.ts";
import { costOf, type CostDetail } from "../catalog.ts";

/** Shown before an OpenAI refusal's text, so a refusal reads as one and not as an answer. */
export const REFUSAL_PREFIX = "[refusal] ";

/** Accumulated tool input → arguments. Empty input means no arguments; invalid JSON is never executed. */
export function parseToolArgs(name: string, text: string): { args: JsonObject; invalidArgs?: string } {
  if (text.trim() === "") return { args: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text;
    return {
      args: {},
      invalidArgs: `the arguments for tool "${name}" were not valid JSON (the reply may have been cut off), so the tool was not run; received: ${shown}`,
    };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return { args: {}, invalidArgs: `the arguments for tool "${name}" must be a JSON object, so the tool was not run; received: ${text.slice(0, 200)}` };
  }
  return { args: parsed as JsonObject };
}

export type Outcome = { kind: "complete"; stop: StopReason } | { kind: "error"; error: string } | { kind: "aborted" };

/**
 * Builds the final message. Whether the model wants tools is decided from the calls themselves,
 * not from the provider's stop reason; a reply cut off by the token limit keeps `max_tokens` so the
 * loop can say so. Errored and aborted replies keep their partial text but drop their tool calls,
 * which must never run and would otherwise need results in the next request.
 */
export function finishMessage(
  content: (TextPart | ThinkingPart | ToolCallPart)[],
  outcome: Outcome,
  meta: { provider: string; model: string; usage: Usage; info: ModelInfo | undefined; detail?: CostDetail | undefined },
): AssistantMessage {
  const usage: Usage = { ...meta.usage, cost: costOf(meta.usage, meta.info, meta.detail) };
  const kept = content.filter((p) => !(p.type === "text" && p.text === "") && !(p.type === "thinking" && p.thinking === "" && !p.signature && !p.redacted));
  const base = { role: "assistant" as const, provider: meta.provider, model: meta.model, usage, ts: Date.now() };
  if (outcome.kind === "error") return { ...base, content: kept.filter((p) => p.type !== "toolCall"), stop: "error", error: outcome.error };
  if (outcome.kind === "aborted") return { ...base, content: kept.filter((p) => p.type !== "toolCall"), stop: "aborted" };
  const hasCalls = kept.some((p) => p.type === "toolCall");
  let stop = outcome.stop;
  if (hasCalls && stop === "end_turn") stop = "tool_use";
  if (!hasCalls && stop === "tool_use") stop = "end_turn";
  return { ...base, content: kept, stop };
}

/** Splits text into a few pieces, for streaming canned replies (mock provider, test server). */
export function pieces(text: string, size = 8): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}
