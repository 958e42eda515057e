// Conversation model shared by providers, the loop, sessions and modes. Provider clients translate
// to and from their wire formats at their own edge; everything inside zot speaks these types.
import type { Json, JsonObject } from "../json.ts";

export type TextPart = { type: "text"; text: string };
export type ImagePart = { type: "image"; mimeType: string; data: string };
/** Thinking is kept byte-exact (text and signature) because Anthropic requires it sent back unchanged. */
/**
 * Reasoning: Anthropic thinking (`signature`, or `redacted` data), or an OpenAI Responses reasoning
 * item (its summary as `thinking`, its encrypted content as `signature`). `id` is set on reasoning
 * the Go zot recorded (its `reasoning_id`, possibly empty), so it is written back in the Go shape.
 */
export type ThinkingPart = { type: "thinking"; thinking: string; signature?: string; redacted?: string; id?: string };
export type ToolCallPart = {
  type: "toolCall";
  id: string;
  name: string;
  /** Parsed arguments; `{}` for empty input. */
  args: JsonObject;
  /** Set when the accumulated JSON was invalid: the call is never executed and the model gets this error. */
  invalidArgs?: string;
};

import type { InterceptRecord } from "./intercept-record.ts";

export type UserMessage = { role: "user"; content: (TextPart | ImagePart)[]; ts: number };
export type AssistantMessage = {
  role: "assistant";
  content: (TextPart | ThinkingPart | ToolCallPart)[];
  stop: StopReason;
  /** The error text when stop is "error". */
  error?: string;
  provider: string;
  model: string;
  usage: Usage;
  /** What extensions changed about the reply the user saw. */
  intercept?: InterceptRecord;
  ts: number;
};
/** A tool as the model sees it. */
export type ToolDeclaration = { name: string; description: string; schema: JsonObject };

export type ToolResultMessage = {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: (TextPart | ImagePart)[];
  isError: boolean;
  /** Name of the extension that produced the result, for attribution. */
  extension?: string;
  /**
   * Deferred tools this result activated (`activate_tools`), as declared at that moment. Kept with
   * the result so providers that declare tools inside the conversation (Kimi K3) resend the same
   * bytes at the same place on every later request.
   */
  activatedTools?: ToolDeclaration[];
  /** What extensions changed about the call (its arguments, a block) or its result. */
  intercept?: InterceptRecord;
  ts: number;
};
export type Message = UserMessage | AssistantMessage | ToolResultMessage;

export type StopReason = "end_turn" | "tool_use" | "max_tokens" | "error" | "aborted";

export type Usage = {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** USD, from the catalog prices; 0 when unknown. */
  cost: number;
};

export const emptyUsage = (): Usage => ({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 });

export type { Json, JsonObject };
