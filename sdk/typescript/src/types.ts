// The SDK's public vocabulary in TypeScript idioms (camelCase, optional fields). Wire shapes come from
// the single protocol definition in src/protocol.ts; the bundle inlines them, so installed copies
// carry no path back into the zot tree.
import type { AgentRef, ContentBlock, EventName, JsonObject, Json, NotifyLevel, PanelContent, PanelKeyName, TodoItem } from "../../../src/protocol.ts";

export type {
  AgentRef,
  ContentBlock,
  EventName,
  ImageBlock,
  Json,
  JsonObject,
  NotifyLevel,
  PanelContent,
  PanelKeyName,
  TextBlock,
  TodoItem,
  TodoStatus,
} from "../../../src/protocol.ts";

/** What the host told us in `hello_ack`. */
export type HostInfo = {
  protocolVersion: number;
  zotVersion: string;
  provider: string;
  model: string;
  /** The user's project directory (the extension itself runs from its own directory). */
  cwd: string;
  extensionDir: string;
  /** Where to persist state; usually the extension's own directory. */
  dataDir: string;
  /** Host features beyond the spec (`tool_progress`, `tool_cancel`, `panel_resize`, ...). */
  capabilities: string[];
  /** Values of the settings the manifest declares (`zot ext config`); empty when it declares none. */
  settings: JsonObject;
};

/**
 * The subagent (zot's `task` tool) behind a call, event or interception; absent for the main agent.
 * `parent` is the id of the subagent that started it, null when the main agent did.
 */
type ByAgent = { agent?: AgentRef };

/** Payloads of one-way lifecycle events, by event name. */
export type EventPayloads = {
  session_start: Record<string, never>;
  turn_start: { step: number } & ByAgent;
  turn_end: { stop: string; error?: string } & ByAgent;
  tool_call: { toolId: string; toolName: string; toolArgs: Json } & ByAgent;
  tool_confirmation_requested: { toolId: string; toolName: string; toolPreview: string } & ByAgent;
  assistant_message: { text: string } & ByAgent;
  /** The workspace's files were recorded before a prompt (zot's /rewind restores them). */
  checkpoint: { checkpoint: string; files: number };
  /** A rewind happened: `restore` says what was restored; `files` the paths it changed, restored or removed. */
  rewind: { restore: "code" | "conversation" | "both" | "undo"; prompt?: number; files: string[] };
  /** The agent's todo list as the model last set it (the whole list each time). */
  todo: { items: TodoItem[] };
};
export type EventHandler<E extends EventName> = (payload: EventPayloads[E]) => void | Promise<void>;

/** A `command_response` without its id; build one with `prompt()`, `insert()`, `display()`, `openPanel()`, `noop()`, `error()`. */
export type CommandResponse = {
  action: "prompt" | "insert" | "display" | "open_panel" | "noop";
  prompt?: string;
  insert?: string;
  display?: string;
  openPanel?: PanelContent;
  error?: string;
};
export type CommandContext = { id: string; name: string };
/** Returning nothing means `noop`; throwing becomes the response's `error`. */
export type CommandHandler = (args: string, ctx: CommandContext) => CommandResponse | void | Promise<CommandResponse | void>;

export type ToolResult = { content: ContentBlock[]; isError?: boolean; activateTools?: string[] };
export type ToolContext = {
  /** The host's call id. */
  id: string;
  /** Aborted when the host sends `tool_cancel` (the user pressed Esc or the call timed out). */
  signal: AbortSignal;
  /** Sends a `tool_progress` line the host shows while the call runs. */
  progress: (text: string) => void;
  /** The subagent that called the tool; absent when the main agent did. */
  agent?: AgentRef;
};
/** A string return is shorthand for one text block; throwing becomes an `is_error` result. */
export type ToolHandler = (args: JsonObject, ctx: ToolContext) => ToolResult | string | Promise<ToolResult | string>;
export type ToolOptions = { deferred?: boolean };
/** An agent for zot's `task` tool: the tools it may use (absent: all), `provider/model` or a model id, a thinking level or "off". */
export type AgentOptions = { tools?: string[]; model?: string; reasoning?: string };

/**
 * Fail-closed interception: with `onTimeout: "block"` the host blocks when this extension misses the
 * deadline or is dead, and the SDK blocks when the handler throws.
 */
export type InterceptOptions = { timeoutMs?: number; onTimeout?: "allow" | "block" };

export type ToolCallIntercept = { toolId: string; toolName: string; toolArgs: Json } & ByAgent;
export type ToolCallDecision = { block?: boolean; reason?: string; modifiedArgs?: JsonObject };
export type TurnStartIntercept = { step: number } & ByAgent;
export type TurnStartDecision = { block?: boolean; reason?: string };
export type AssistantMessageIntercept = { text: string } & ByAgent;
export type AssistantMessageDecision = { block?: boolean; reason?: string; replaceText?: string };
export type ToolResultIntercept = { toolId: string; toolName: string; toolArgs: Json; content: ContentBlock[]; isError: boolean } & ByAgent;
export type ToolResultDecision = { block?: boolean; reason?: string; replaceContent?: ContentBlock[]; isError?: boolean };

/** Returning nothing allows the event unchanged. */
export type Interceptor<P, D> = (payload: P) => D | void | Promise<D | void>;

export type PanelKey = { panelId: string; key: PanelKeyName; text?: string | undefined };
export type PanelSize = { panelId: string; width: number; height: number };
export type PanelUpdate = { title?: string; lines?: string[]; footer?: string };
export type NotifyFn = (level: NotifyLevel, message: string) => void;

/** `Extension.listen()`: where zot connects in WebSocket mode, and the token it must send. */
export type ListenOptions = {
  /** 0 picks a free port (the returned `port` says which). */
  port: number;
  /** Default "127.0.0.1"; zot connects to loopback addresses only unless the manifest opts in. */
  hostname?: string;
  /** The environment variable holding the bearer token zot must send. */
  tokenEnv: string;
};
