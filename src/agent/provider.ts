// The narrow interface between the agent loop and a model provider client.
import type { AssistantMessage, Message, Usage } from "./messages.ts";
import type { JsonObject } from "../ext/protocol.ts";

export type ToolSpec = { name: string; description: string; schema: JsonObject };

export type ModelInfo = {
  id: string;
  name: string;
  provider: string;
  reasoning: boolean;
  contextWindow: number;
  maxTokens: number;
  baseUrl?: string;
  priceInput: number; // USD per million tokens
  priceOutput: number;
  priceCacheRead: number;
  priceCacheWrite: number;
  source: "builtin" | "models.json";
};

export type ProviderRequest = {
  model: string;
  system: string;
  messages: Message[];
  tools: ToolSpec[];
  reasoning?: ReasoningLevel;
  maxTokens?: number;
};

/** Streamed while a response arrives; the final `done` carries the assembled message. */
export type ProviderEvent =
  | { type: "text_delta"; text: string }
  | { type: "thinking_delta"; text: string }
  | { type: "tool_use_start"; id: string; name: string }
  | { type: "tool_use_args"; id: string; delta: string }
  | { type: "tool_use_end"; id: string }
  | { type: "usage"; usage: Usage }
  | { type: "done"; message: AssistantMessage };

export interface Provider {
  readonly name: string;
  /**
   * Streams one model response. Never throws: failures end the stream with a `done` whose message
   * has stop "error" (or "aborted" when the signal fired) and an `error` sentence.
   */
  stream(req: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent>;
}

/** Thinking levels a request can ask for, lowest first (`--reasoning`, `/reasoning`, alt+t in the TUI). */
export const REASONING_LEVELS = ["low", "medium", "high"] as const;
export type ReasoningLevel = (typeof REASONING_LEVELS)[number];
