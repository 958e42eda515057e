// The narrow interface between the agent loop and a model provider client.
import type { AssistantMessage, Message, ToolDeclaration, Usage } from "./messages.ts";
import type { ChoosableWire, Effort } from "./choices.ts";

/**
 * `deferred`: an extension or MCP tool registered as deferred (and since activated). `pending`: a
 * deferred tool not activated yet; only a wire with native deferral sends it (Anthropic
 * `defer_loading`), every other wire leaves it out.
 */
export type ToolSpec = ToolDeclaration & { deferred?: boolean; pending?: boolean };

/** The tools a wire without native deferral offers: everything but the not yet activated. */
export function offeredTools(tools: readonly ToolSpec[]): ToolSpec[] {
  return tools.filter((t) => !t.pending);
}

/** Prices for the whole request once its prompt (input, cache reads and writes) passes `above` tokens. */
export type LongContextPrices = { above: number; input: number; output: number; cacheRead: number; cacheWrite: number };

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
  /** Cache writes with the short TTL (Anthropic 5 min, OpenAI 30 min), which zot asks for. */
  priceCacheWrite: number;
  /** Cache writes with the long TTL (Anthropic 1 h, OpenAI 12 h), when a reply reports them. */
  priceCacheWriteLong?: number;
  longContext?: LongContextPrices;
  /** The `--reasoning` levels the model takes; absent: any level is sent as asked. */
  efforts?: readonly Effort[];
  /**
   * How thinking is asked for on the Anthropic wire: `adaptive` (thinking the model schedules
   * itself, with an effort level; always on for 5.x), `budget` (`budget_tokens`), or
   * `budget+effort` (both). Absent: `budget`.
   */
  thinking?: "adaptive" | "budget" | "budget+effort" | undefined;
  /** The OpenAI wire the model needs (Responses for tools with reasoning on OpenAI's newest models). */
  wire?: ChoosableWire;
  /**
   * Native deferred tools: `kimi-dynamic` declares them in the conversation (Kimi K3);
   * `defer-loading` sends them all with `defer_loading: true` and expands an activation with
   * `tool_reference` blocks (Anthropic tool search). Absent: activated tools join the tool list.
   */
  deferredTools?: "kimi-dynamic" | "defer-loading" | undefined;
  /** builtin: zot's catalog; live: listed by the provider's /v1/models; custom: models.json. */
  source: "builtin" | "live" | "custom";
};

export type ProviderRequest = {
  model: string;
  system: string;
  messages: Message[];
  tools: ToolSpec[];
  reasoning?: Effort;
  maxTokens?: number;
  /** Stable for one conversation; Kimi keys its prompt cache on it (`prompt_cache_key`). */
  sessionId?: string;
};

/** Streamed while a response arrives; the final `done` carries the assembled message. */
export type ProviderEvent =
  | { type: "text_delta"; text: string }
  | { type: "thinking_delta"; text: string }
  | { type: "tool_use_start"; id: string; name: string }
  | { type: "tool_use_args"; id: string; delta: string }
  | { type: "tool_use_end"; id: string }
  | { type: "usage"; usage: Usage }
  /**
   * A failed attempt that delivered nothing; attempt `attempt` of `attempts` starts after `delayMs`.
   * `wire`: the next attempt goes over this wire instead (a server without the Responses API).
   */
  | { type: "retry"; attempt: number; attempts: number; delayMs: number; reason: string; wire?: "chat" }
  | { type: "done"; message: AssistantMessage };

export interface Provider {
  readonly name: string;
  /**
   * Streams one model response. Never throws: failures end the stream with a `done` whose message
   * has stop "error" (or "aborted" when the signal fired) and an `error` sentence.
   */
  stream(req: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent>;
}
