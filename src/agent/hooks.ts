// What the agent loop consults outside itself, owned by the loop so any tool host can serve it: the
// lifecycle events, the interceptors and a source of tools beyond the built-ins. The extension host
// and the MCP host implement it (ExtensionHost extends it), and a loop run under the same runtime
// (a subagent) gets the same hooks, so every guarantee behind them holds for every loop. The
// approval gate is the runtime's (its permission mode and the user), passed beside the hooks as the
// loop context's `approve`.
import type { AgentRef, ContentBlock, EventFrame, EventInterceptFrame, InterceptName, Json, JsonObject } from "../protocol.ts";

/** A tool the hooks offer besides the built-ins. */
export type ActiveTool = {
  name: string;
  description: string;
  schema: JsonObject;
  deferred: boolean;
  active: boolean;
  extension: string;
  /** Shown after the call in confirmation previews (an MCP tool's annotations, which are never trusted). */
  note?: string;
};

export type ToolCallResult = {
  content: ContentBlock[];
  isError: boolean;
  activateTools: string[];
  extension: string;
  /** An MCP tool's `structuredContent`, kept for JSON/RPC output. */
  structured?: Json;
};

export type CallToolOptions = {
  signal: AbortSignal;
  /** `tool_progress` frames for this call. */
  onProgress?: (text: string) => void;
  /** Default 60 000. */
  timeoutMs?: number;
  /** The subagent making the call, told to the tool's extension in its `tool_call` frame. */
  agent?: AgentRef;
};

/** `Omit` applied to each member of a union, so the payloads stay discriminated by `event`. */
type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Payloads for `intercept`, by event: the `event_intercept` frames without their envelope. */
export type InterceptPayload = OmitEach<EventInterceptFrame, "type" | "id">;

export type InterceptStep = {
  extension: string;
  ms: number;
  outcome: "allow" | "block" | "rewrite" | "timeout" | "unavailable";
  reason?: string;
};

export type InterceptResult = {
  blocked: boolean;
  /** Who blocked, and why (for tool_call: shown to the model; others: shown to the user). */
  blockedBy?: string;
  reason?: string;
  /** The chained outputs, present only when some interceptor rewrote them. */
  args?: JsonObject;
  text?: string;
  content?: ContentBlock[];
  isError?: boolean;
  /** Every interceptor consulted, in order. */
  steps: InterceptStep[];
};

/** Payloads for `emit`: the `event` frames without their `type`. */
export type EmitPayload = OmitEach<EventFrame, "type">;

/** Nothing here throws for a misbehaving tool host: failures come back as values. */
export interface LoopHooks {
  /** One-way lifecycle event to subscribers only. */
  emit(payload: EmitPayload): void;
  /** Serial, in the host's documented order; first block wins; rewrites chain. */
  intercept(payload: InterceptPayload): Promise<InterceptResult>;
  hasInterceptor(event: InterceptName): boolean;
  /** Every tool the hooks offer; `active` is false for deferred tools not yet activated. */
  tools(): ActiveTool[];
  /** 60 s timeout; on timeout/abort the call is cancelled and an error result names its owner and tool. */
  callTool(name: string, args: JsonObject, opts: CallToolOptions): Promise<ToolCallResult>;
}
