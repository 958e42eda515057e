// The single definition of the zot extension protocol (the Go zot's, plus compatible additions:
// docs/decisions.md; reference: docs/sdk.md). The host and the TypeScript SDK both import from here,
// so a frame has exactly one shape. Decoders validate untrusted JSON into these types and return
// errors as values; nothing here throws.

export const PROTOCOL_VERSION = 1;

import type { Result } from "./result.ts";
import { isObject, kind, type Json, type JsonObject } from "./json.ts";

/** JSON values are defined in src/json.ts; the types are re-exported because the frames are made of them. */
export type { Json, JsonObject };

// ---------------------------------------------------------------- shared pieces

export type TextBlock = { type: "text"; text: string };
export type ImageBlock = { type: "image"; mime_type: string; data: string };
export type ContentBlock = TextBlock | ImageBlock;

export type NotifyLevel = "info" | "success" | "warn" | "error";
export const NOTIFY_LEVELS: readonly NotifyLevel[] = ["info", "success", "warn", "error"];

export type EventName =
  | "session_start"
  | "turn_start"
  | "turn_end"
  | "tool_call"
  | "tool_confirmation_requested"
  | "assistant_message"
  | "checkpoint"
  | "rewind"
  | "todo";
export const EVENT_NAMES: readonly EventName[] = [
  "session_start",
  "turn_start",
  "turn_end",
  "tool_call",
  "tool_confirmation_requested",
  "assistant_message",
  "checkpoint",
  "rewind",
  "todo",
];

/** zot addition: what a `rewind` event restored (`undo`: the last rewind was undone). */
export type RewindRestore = "code" | "conversation" | "both" | "undo";
const REWIND_RESTORES: readonly RewindRestore[] = ["code", "conversation", "both", "undo"];

/** One entry of the agent's todo list (the built-in `todo` tool; zot addition). */
export type TodoStatus = "pending" | "in_progress" | "done";
export const TODO_STATUSES: readonly TodoStatus[] = ["pending", "in_progress", "done"];
export type TodoItem = { text: string; status: TodoStatus };

/**
 * zot addition: the subagent that made a call or runs a turn (the built-in `task` tool), on
 * `tool_call` frames, events and interceptions; absent for the main agent. `id` is unique in the
 * run (`explore-1`), `name` the agent definition's, `parent` the id of the subagent that started
 * it, or null when the main agent did.
 */
export type AgentRef = { id: string; name: string; parent: string | null };
type ByAgent = { agent?: AgentRef };

/** `tool_result` interception is a zot addition (docs/decisions.md). */
export type InterceptName = "tool_call" | "turn_start" | "assistant_message" | "tool_result";
export const INTERCEPT_NAMES: readonly InterceptName[] = ["tool_call", "turn_start", "assistant_message", "tool_result"];

/** A `subscribe.intercept` entry: a plain name, or an object carrying the fail-closed options. */
export type InterceptSpec = {
  event: InterceptName;
  /** Deadline for the answer; the spec's default is 5000. */
  timeout_ms: number;
  /** What a timeout (or a dead extension) means. The spec's default is "allow". */
  on_timeout: "allow" | "block";
};
export const DEFAULT_INTERCEPT_TIMEOUT_MS = 5000;

export const PANEL_KEY_NAMES = [
  "up",
  "down",
  "left",
  "right",
  "enter",
  "esc",
  "tab",
  "pageup",
  "pagedown",
  "home",
  "end",
  "backspace",
  "delete",
  "rune",
] as const;
export type PanelKeyName = (typeof PANEL_KEY_NAMES)[number];

/**
 * **zot** `esc_key`: the panel takes Esc as a `panel_key` (`esc`) instead of being closed by it, for
 * panels with their own way back (a search box, a sub-view); ctrl+c still closes it.
 */
export type PanelContent = { id: string; title: string; lines: string[]; footer: string; esc_key?: boolean };

export const COMMAND_ACTIONS = ["prompt", "insert", "display", "open_panel", "noop"] as const;
export type CommandAction = (typeof COMMAND_ACTIONS)[number];

/**
 * What an extension may make zot do for it (manifest `permissions.powers`). Observing and blocking
 * only narrow what happens and need none; each of these acts in the user's name.
 */
export const POWERS = ["rewrite_tool_calls", "rewrite_tool_results", "rewrite_assistant_text", "submit_prompts", "activate_tools"] as const;
export type Power = (typeof POWERS)[number];

/** The manifest's `permissions` as written (decoded by ext/sandbox/scope.ts); in the schema for other languages' tooling. */
export type PermissionsDeclaration = {
  fs?: { read?: string[]; write?: string[] };
  net?: boolean | { connect: string[] };
  env?: string[];
  exec?: boolean;
  powers?: Power[];
};

/** Host features beyond the spec, announced in `hello_ack.capabilities`. */
export const HOST_CAPABILITIES = [
  "fail_closed_intercept",
  "tool_result_intercept",
  "tool_progress",
  "tool_cancel",
  "panel_resize",
  "settings_changed",
  "todo_event",
  "agents",
] as const;

// ---------------------------------------------------------------- extension → host

export type HelloFrame = { type: "hello"; name: string; version: string; capabilities: string[] };
export type RegisterCommandFrame = { type: "register_command"; name: string; description: string };
export type RegisterToolFrame = {
  type: "register_tool";
  name: string;
  description: string;
  /** Raw as sent; the host normalises it (docs/decisions.md "Tool schemas"). */
  schema: Json | undefined;
  deferred: boolean;
};
/**
 * zot addition: an agent the `task` tool can run. `prompt` is its system prompt; `tools` the tools
 * it may use (absent: all); `model` `provider/model` or a model id of the current provider.
 */
export type RegisterAgentFrame = {
  type: "register_agent";
  name: string;
  description: string;
  prompt: string;
  tools?: string[];
  model?: string;
  reasoning?: string;
};
export type ReadyFrame = { type: "ready" };
export type ToolResultFrame = {
  type: "tool_result";
  id: string;
  content: ContentBlock[];
  is_error: boolean;
  activate_tools: string[];
};
export type SubscribeFrame = {
  type: "subscribe";
  events: EventName[];
  intercept: InterceptSpec[];
  /**
   * Event or intercept names this host does not know, dropped by the decoder so the known ones
   * still count (a newer SDK's extra name must not switch a guard's interception off); the host
   * warns about them. Never sent on the wire.
   */
  unknown?: string[];
};
export type EventInterceptResponseFrame = {
  type: "event_intercept_response";
  id: string;
  block: boolean;
  reason: string;
  modified_args?: Json;
  replace_text?: string;
  /** tool_result interception (zot addition). */
  replace_content?: ContentBlock[];
  is_error?: boolean;
};
export type CommandResponseFrame = {
  type: "command_response";
  id: string;
  action: CommandAction;
  prompt?: string;
  insert?: string;
  display?: string;
  open_panel?: PanelContent;
  error?: string;
};
export type SubmitFrame = { type: "submit"; text: string };
export type PanelRenderFrame = { type: "panel_render"; panel_id: string; title?: string; lines?: string[]; footer?: string };
export type PanelCloseFromExtFrame = { type: "panel_close"; panel_id: string };
export type NotifyFrame = { type: "notify"; level: NotifyLevel; message: string };
export type ClearNotesFrame = { type: "clear_notes" };
export type ShutdownAckFrame = { type: "shutdown_ack" };
/** zot addition: progress text for a running tool call. */
export type ToolProgressFrame = { type: "tool_progress"; id: string; text: string };

export type ExtensionFrame =
  | HelloFrame
  | RegisterCommandFrame
  | RegisterToolFrame
  | RegisterAgentFrame
  | ReadyFrame
  | ToolResultFrame
  | SubscribeFrame
  | EventInterceptResponseFrame
  | CommandResponseFrame
  | SubmitFrame
  | PanelRenderFrame
  | PanelCloseFromExtFrame
  | NotifyFrame
  | ClearNotesFrame
  | ShutdownAckFrame
  | ToolProgressFrame;

export type ExtensionFrameType = ExtensionFrame["type"];

/** `subscribe` as written: intercept entries may be plain names (the spec's form) or option objects. */
export type WireSubscribeFrame = Omit<SubscribeFrame, "intercept" | "unknown"> & { intercept: (InterceptName | InterceptSpec)[] };

/**
 * An extension frame as it travels: what an SDK writes and what `sdk/protocol.schema.json` describes.
 * Decoding turns it into an `ExtensionFrame` (subscribe entries normalised, defaults filled in).
 */
export type ExtensionWireFrame = Exclude<ExtensionFrame, SubscribeFrame> | WireSubscribeFrame;

// ---------------------------------------------------------------- host → extension

export type HelloAckFrame = {
  type: "hello_ack";
  protocol_version: number;
  zot_version: string;
  provider: string;
  model: string;
  cwd: string;
  extension_dir: string;
  data_dir: string;
  capabilities: string[];
  /** Present while /jail confines zot's built-in file tools to `root` (a guardrail; extensions may follow it). */
  jail?: { root: string };
  /** zot addition: the values of the settings the manifest declares (absent when it declares none). */
  settings?: JsonObject;
};
export type CommandInvokedFrame = { type: "command_invoked"; id: string; name: string; args: string };
/** `jail`: present while /jail is on, as in `hello_ack`. */
export type ToolCallFrame = { type: "tool_call"; id: string; name: string; args: JsonObject; jail?: { root: string } } & ByAgent;
export type EventFrame =
  | { type: "event"; event: "session_start" }
  | ({ type: "event"; event: "turn_start"; step: number } & ByAgent)
  | ({ type: "event"; event: "turn_end"; stop: string; error?: string } & ByAgent)
  /** `jail`: present while /jail is on, as in `hello_ack`. `mcp_client`: the call came over `zot mcp serve` from this MCP client (its `clientInfo.name`). */
  | ({ type: "event"; event: "tool_call"; tool_id: string; tool_name: string; tool_args: Json; jail?: { root: string }; mcp_client?: string } & ByAgent)
  | ({ type: "event"; event: "tool_confirmation_requested"; tool_id: string; tool_name: string; tool_preview: string } & ByAgent)
  | ({ type: "event"; event: "assistant_message"; text: string } & ByAgent)
  /** zot addition: the workspace's files were recorded before a prompt; `files`: how many. */
  | { type: "event"; event: "checkpoint"; checkpoint: string; files: number }
  /** zot addition: files and/or conversation were rewound; `prompt`: the user message's index (absent for an undo); `files`: the paths changed, restored or removed. */
  | { type: "event"; event: "rewind"; restore: RewindRestore; prompt?: number; files: string[] }
  /** zot addition: the todo list as the model last set it (the whole list, every time). */
  | { type: "event"; event: "todo"; items: TodoItem[] };
export type EventInterceptFrame =
  | ({
      type: "event_intercept";
      id: string;
      event: "tool_call";
      tool_id: string;
      tool_name: string;
      tool_args: Json;
      jail?: { root: string };
      mcp_client?: string;
    } & ByAgent)
  | ({ type: "event_intercept"; id: string; event: "turn_start"; step: number } & ByAgent)
  | ({ type: "event_intercept"; id: string; event: "assistant_message"; text: string } & ByAgent)
  | ({
      type: "event_intercept";
      id: string;
      event: "tool_result";
      tool_id: string;
      tool_name: string;
      tool_args: Json;
      content: ContentBlock[];
      is_error: boolean;
    } & ByAgent);
export type PanelKeyFrame = { type: "panel_key"; panel_id: string; key: PanelKeyName; text?: string };
export type PanelCloseFromHostFrame = { type: "panel_close"; panel_id: string };
/** zot addition: the panel's drawable size, on open and on terminal resize. */
export type PanelResizeFrame = { type: "panel_resize"; panel_id: string; width: number; height: number };
export type ShutdownFrame = { type: "shutdown" };
/** zot addition: a tool call was aborted or timed out. */
export type ToolCancelFrame = { type: "tool_cancel"; id: string };
/** zot addition: the user changed the extension's settings; all current values, as in hello_ack. */
export type SettingsChangedFrame = { type: "settings_changed"; settings: JsonObject };

export type HostFrame =
  | HelloAckFrame
  | CommandInvokedFrame
  | ToolCallFrame
  | EventFrame
  | EventInterceptFrame
  | PanelKeyFrame
  | PanelCloseFromHostFrame
  | PanelResizeFrame
  | ShutdownFrame
  | ToolCancelFrame
  | SettingsChangedFrame;

// ---------------------------------------------------------------- decoding

export type Decoded<T> = Result<{ value: T }>;

const ok = <T>(value: T): Decoded<T> => ({ ok: true, value });
const fail = <T>(error: string): Decoded<T> => ({ ok: false, error });

type Fields = JsonObject;

function str(o: Fields, key: string, required: boolean): Decoded<string | undefined> {
  const v = o[key];
  if (v === undefined || v === null) return required ? fail(`missing required string field "${key}"`) : ok(undefined);
  if (typeof v !== "string") return fail(`field "${key}" must be a string, got ${kind(v)}`);
  return ok(v);
}

function strArray(o: Fields, key: string): Decoded<string[]> {
  const v = o[key];
  if (v === undefined || v === null) return ok([]);
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) return fail(`field "${key}" must be an array of strings`);
  return ok(v as string[]);
}

function bool(o: Fields, key: string): Decoded<boolean> {
  const v = o[key];
  if (v === undefined || v === null) return ok(false);
  if (typeof v !== "boolean") return fail(`field "${key}" must be a boolean, got ${kind(v)}`);
  return ok(v);
}

/** Decodes content blocks; unknown block types are an error so nothing malformed reaches a provider. */
export function decodeContent(v: Json | undefined, key = "content"): Decoded<ContentBlock[]> {
  if (v === undefined || v === null) return ok([]);
  if (!Array.isArray(v)) return fail(`field "${key}" must be an array of content blocks`);
  const out: ContentBlock[] = [];
  for (let i = 0; i < v.length; i++) {
    const b = v[i];
    if (!isObject(b)) return fail(`${key}[${i}] must be an object`);
    if (b.type === "text") {
      // Go's encoder drops an empty text (`omitempty`): a missing text is the empty string.
      if (b.text !== undefined && b.text !== null && typeof b.text !== "string") return fail(`${key}[${i}].text must be a string`);
      out.push({ type: "text", text: typeof b.text === "string" ? b.text : "" });
    } else if (b.type === "image") {
      const mime = b.mime_type ?? b.mimeType;
      if (typeof mime !== "string" || typeof b.data !== "string") return fail(`${key}[${i}] image needs string "mime_type" and "data"`);
      out.push({ type: "image", mime_type: mime, data: b.data });
    } else {
      return fail(`${key}[${i}].type must be "text" or "image", got ${JSON.stringify(b.type ?? null)}`);
    }
  }
  return ok(out);
}

/** Unknown event names go to `unknown` instead of failing the whole subscription. */
function decodeInterceptSpecs(v: Json | undefined, unknown: string[]): Decoded<InterceptSpec[]> {
  if (v === undefined || v === null) return ok([]);
  if (!Array.isArray(v)) return fail(`field "intercept" must be an array`);
  const out: InterceptSpec[] = [];
  for (const item of v) {
    if (typeof item === "string") {
      if (!INTERCEPT_NAMES.includes(item as InterceptName)) {
        unknown.push(`intercept "${item}"`);
        continue;
      }
      out.push({ event: item as InterceptName, timeout_ms: DEFAULT_INTERCEPT_TIMEOUT_MS, on_timeout: "allow" });
      continue;
    }
    if (!isObject(item) || typeof item.event !== "string") return fail(`intercept entries must be event names or {"event",...} objects`);
    if (!INTERCEPT_NAMES.includes(item.event as InterceptName)) {
      unknown.push(`intercept "${item.event}"`);
      continue;
    }
    const t = item.timeout_ms ?? DEFAULT_INTERCEPT_TIMEOUT_MS;
    if (typeof t !== "number" || !Number.isFinite(t) || t <= 0) return fail(`intercept "${item.event}": timeout_ms must be a positive number`);
    const mode = item.on_timeout ?? "allow";
    if (mode !== "allow" && mode !== "block") return fail(`intercept "${item.event}": on_timeout must be "allow" or "block"`);
    out.push({ event: item.event as InterceptName, timeout_ms: Math.min(t, 600_000), on_timeout: mode });
  }
  return ok(out);
}

/**
 * Decodes one frame sent by an extension. Unknown `type` values are reported as such so the host can
 * log and ignore them (spec: unknown frames are ignored).
 */
export function decodeExtensionFrame(raw: unknown): Decoded<ExtensionFrame> | { ok: false; error: string; unknownType: string } {
  if (!isObject(raw)) return fail(`frame must be a JSON object, got ${kind(raw)}`);
  const type = raw.type;
  if (typeof type !== "string") return fail(`frame has no string "type" field`);
  const o = raw;
  switch (type) {
    case "hello": {
      const name = str(o, "name", true);
      if (!name.ok) return fail(`hello: ${name.error}`);
      const version = str(o, "version", false);
      if (!version.ok) return fail(`hello: ${version.error}`);
      const caps = strArray(o, "capabilities");
      if (!caps.ok) return fail(`hello: ${caps.error}`);
      return ok({ type, name: name.value!, version: version.value ?? "", capabilities: caps.value });
    }
    case "register_command": {
      const name = str(o, "name", true);
      if (!name.ok) return fail(`register_command: ${name.error}`);
      const description = str(o, "description", false);
      if (!description.ok) return fail(`register_command: ${description.error}`);
      return ok({ type, name: name.value!, description: description.value ?? "" });
    }
    case "register_tool": {
      const name = str(o, "name", true);
      if (!name.ok) return fail(`register_tool: ${name.error}`);
      const description = str(o, "description", false);
      if (!description.ok) return fail(`register_tool "${name.value}": ${description.error}`);
      const deferred = bool(o, "deferred");
      if (!deferred.ok) return fail(`register_tool "${name.value}": ${deferred.error}`);
      return ok({ type, name: name.value!, description: description.value ?? "", schema: o.schema, deferred: deferred.value });
    }
    case "register_agent": {
      const name = str(o, "name", true);
      if (!name.ok) return fail(`register_agent: ${name.error}`);
      const frame: RegisterAgentFrame = { type, name: name.value!, description: "", prompt: "" };
      for (const key of ["description", "prompt"] as const) {
        const v = str(o, key, true);
        if (!v.ok) return fail(`register_agent "${name.value}": ${v.error}`);
        frame[key] = v.value ?? "";
      }
      for (const key of ["model", "reasoning"] as const) {
        const v = str(o, key, false);
        if (!v.ok) return fail(`register_agent "${name.value}": ${v.error}`);
        if (v.value !== undefined) frame[key] = v.value;
      }
      if (o.tools !== undefined && o.tools !== null) {
        const tools = strArray(o, "tools");
        if (!tools.ok) return fail(`register_agent "${name.value}": ${tools.error}`);
        frame.tools = tools.value;
      }
      return ok(frame);
    }
    case "ready":
    case "clear_notes":
    case "shutdown_ack":
      return ok({ type });
    case "tool_result": {
      const id = str(o, "id", true);
      if (!id.ok) return fail(`tool_result: ${id.error}`);
      const content = decodeContent(o.content);
      if (!content.ok) return fail(`tool_result: ${content.error}`);
      const isError = bool(o, "is_error");
      if (!isError.ok) return fail(`tool_result: ${isError.error}`);
      const activate = strArray(o, "activate_tools");
      if (!activate.ok) return fail(`tool_result: ${activate.error}`);
      return ok({ type, id: id.value!, content: content.value, is_error: isError.value, activate_tools: activate.value });
    }
    case "subscribe": {
      const events = strArray(o, "events");
      if (!events.ok) return fail(`subscribe: ${events.error}`);
      const unknown = events.value.filter((e) => !EVENT_NAMES.includes(e as EventName)).map((e) => `event "${e}"`);
      const intercept = decodeInterceptSpecs(o.intercept, unknown);
      if (!intercept.ok) return fail(`subscribe: ${intercept.error}`);
      const known = events.value.filter((e): e is EventName => EVENT_NAMES.includes(e as EventName));
      const frame: SubscribeFrame = { type, events: known, intercept: intercept.value };
      if (unknown.length) frame.unknown = unknown;
      return ok(frame);
    }
    case "event_intercept_response": {
      const id = str(o, "id", true);
      if (!id.ok) return fail(`event_intercept_response: ${id.error}`);
      const block = bool(o, "block");
      if (!block.ok) return fail(`event_intercept_response: ${block.error}`);
      const reason = str(o, "reason", false);
      if (!reason.ok) return fail(`event_intercept_response: ${reason.error}`);
      const replaceText = str(o, "replace_text", false);
      if (!replaceText.ok) return fail(`event_intercept_response: ${replaceText.error}`);
      const frame: EventInterceptResponseFrame = { type, id: id.value!, block: block.value, reason: reason.value ?? "" };
      if (o.modified_args !== undefined && o.modified_args !== null) frame.modified_args = o.modified_args;
      if (replaceText.value !== undefined) frame.replace_text = replaceText.value;
      if (o.replace_content !== undefined && o.replace_content !== null) {
        const rc = decodeContent(o.replace_content, "replace_content");
        if (!rc.ok) return fail(`event_intercept_response: ${rc.error}`);
        frame.replace_content = rc.value;
      }
      if (o.is_error !== undefined && o.is_error !== null) {
        if (typeof o.is_error !== "boolean") return fail(`event_intercept_response: field "is_error" must be a boolean`);
        frame.is_error = o.is_error;
      }
      return ok(frame);
    }
    case "command_response": {
      const id = str(o, "id", true);
      if (!id.ok) return fail(`command_response: ${id.error}`);
      const action = o.action ?? "noop";
      if (typeof action !== "string" || !COMMAND_ACTIONS.includes(action as CommandAction))
        return fail(`command_response: unknown action ${JSON.stringify(action)} (expected prompt, insert, display, open_panel or noop)`);
      const frame: CommandResponseFrame = { type, id: id.value!, action: action as CommandAction };
      for (const key of ["prompt", "insert", "display", "error"] as const) {
        const v = str(o, key, false);
        if (!v.ok) return fail(`command_response: ${v.error}`);
        if (v.value !== undefined) frame[key] = v.value;
      }
      if (o.open_panel !== undefined && o.open_panel !== null) {
        const p = decodePanel(o.open_panel);
        if (!p.ok) return fail(`command_response: open_panel: ${p.error}`);
        frame.open_panel = p.value;
      } else if (action === "open_panel") {
        return fail(`command_response: action "open_panel" needs an "open_panel" object`);
      }
      return ok(frame);
    }
    case "submit": {
      const text = str(o, "text", false);
      if (!text.ok) return fail(`submit: ${text.error}`);
      return ok({ type, text: text.value ?? "" });
    }
    case "panel_render": {
      const id = str(o, "panel_id", true);
      if (!id.ok) return fail(`panel_render: ${id.error}`);
      const frame: PanelRenderFrame = { type, panel_id: id.value! };
      for (const key of ["title", "footer"] as const) {
        const v = str(o, key, false);
        if (!v.ok) return fail(`panel_render: ${v.error}`);
        if (v.value !== undefined) frame[key] = v.value;
      }
      if (o.lines !== undefined && o.lines !== null) {
        const lines = strArray(o, "lines");
        if (!lines.ok) return fail(`panel_render: ${lines.error}`);
        frame.lines = lines.value;
      }
      return ok(frame);
    }
    case "panel_close": {
      const id = str(o, "panel_id", true);
      if (!id.ok) return fail(`panel_close: ${id.error}`);
      return ok({ type, panel_id: id.value! });
    }
    case "notify": {
      const message = str(o, "message", false);
      if (!message.ok) return fail(`notify: ${message.error}`);
      const level = o.level ?? "info";
      if (typeof level !== "string" || !NOTIFY_LEVELS.includes(level as NotifyLevel)) return fail(`notify: level must be one of info, success, warn, error`);
      return ok({ type, level: level as NotifyLevel, message: message.value ?? "" });
    }
    case "tool_progress": {
      const id = str(o, "id", true);
      if (!id.ok) return fail(`tool_progress: ${id.error}`);
      const text = str(o, "text", false);
      if (!text.ok) return fail(`tool_progress: ${text.error}`);
      return ok({ type, id: id.value!, text: text.value ?? "" });
    }
    default:
      return { ok: false, error: `unknown frame type "${type}"`, unknownType: type };
  }
}

export function decodePanel(v: Json): Decoded<PanelContent> {
  if (!isObject(v)) return fail(`must be an object`);
  const id = str(v, "id", true);
  if (!id.ok) return fail(id.error);
  const title = str(v, "title", false);
  if (!title.ok) return fail(title.error);
  const footer = str(v, "footer", false);
  if (!footer.ok) return fail(footer.error);
  const lines = strArray(v, "lines");
  if (!lines.ok) return fail(lines.error);
  if (v.esc_key !== undefined && typeof v.esc_key !== "boolean") return fail(`esc_key must be true or false, got ${JSON.stringify(v.esc_key)}`);
  const panel: PanelContent = { id: id.value!, title: title.value ?? "", lines: lines.value, footer: footer.value ?? "" };
  if (v.esc_key === true) panel.esc_key = true;
  return ok(panel);
}

function num(o: Fields, key: string, required: boolean): Decoded<number> {
  const v = o[key];
  if (v === undefined || v === null) return required ? fail(`missing required number field "${key}"`) : ok(0);
  if (typeof v !== "number" || !Number.isFinite(v)) return fail(`field "${key}" must be a number, got ${kind(v)}`);
  return ok(v);
}

/** The optional `agent` of a subagent's call or turn: `{}` when absent. */
function agentField(o: Fields): Decoded<ByAgent> {
  const a = o.agent;
  if (a === undefined || a === null) return ok({});
  if (!isObject(a) || typeof a.id !== "string" || typeof a.name !== "string" || (a.parent !== null && a.parent !== undefined && typeof a.parent !== "string"))
    return fail(`field "agent" must be {"id": string, "name": string, "parent": string or null}`);
  return ok({ agent: { id: a.id, name: a.name, parent: typeof a.parent === "string" ? a.parent : null } });
}

/** The fields of a tool-call event (`event` and `event_intercept` share them). */
function toolCallFields(o: Fields): Decoded<{ tool_id: string; tool_name: string; tool_args: Json }> {
  const toolId = str(o, "tool_id", false);
  if (!toolId.ok) return fail(toolId.error);
  const toolName = str(o, "tool_name", false);
  if (!toolName.ok) return fail(toolName.error);
  // Go's encoder drops an empty map (`omitempty`): missing arguments are the empty object.
  return ok({ tool_id: toolId.value ?? "", tool_name: toolName.value ?? "", tool_args: o.tool_args ?? {} });
}

/** Which MCP client sent a call that came over `zot mcp serve`; absent for the model's own calls. */
function mcpClient(o: Fields): { mcp_client?: string } {
  return typeof o.mcp_client === "string" ? { mcp_client: o.mcp_client } : {};
}

/** A todo list: `[{text, status}]`, as the `todo` tool takes it and the `todo` event carries it. */
export function decodeTodoItems(v: Json | undefined): Decoded<TodoItem[]> {
  if (!Array.isArray(v)) return fail(`"items" must be an array of {"text", "status"} objects`);
  const items: TodoItem[] = [];
  for (const [i, raw] of v.entries()) {
    if (!isObject(raw) || typeof raw.text !== "string" || raw.text.trim() === "") return fail(`items[${i}] needs a non-empty "text" string`);
    const status = raw.status;
    if (typeof status !== "string" || !(TODO_STATUSES as readonly string[]).includes(status)) {
      return fail(`items[${i}].status must be one of ${TODO_STATUSES.map((s) => `"${s}"`).join(", ")}, got ${JSON.stringify(status ?? null)}`);
    }
    items.push({ text: raw.text, status: status as TodoStatus });
  }
  return ok(items);
}

function decodeEvent(o: Fields): Decoded<EventFrame> {
  const event = o.event;
  const type = "event";
  switch (event) {
    case "session_start":
      return ok({ type, event });
    case "turn_start": {
      const step = num(o, "step", false);
      return step.ok ? ok({ type, event, step: step.value }) : fail(step.error);
    }
    case "turn_end": {
      const stop = str(o, "stop", false);
      if (!stop.ok) return fail(stop.error);
      const error = str(o, "error", false);
      if (!error.ok) return fail(error.error);
      return ok(error.value === undefined ? { type, event, stop: stop.value ?? "" } : { type, event, stop: stop.value ?? "", error: error.value });
    }
    case "tool_call": {
      const fields = toolCallFields(o);
      return fields.ok ? ok({ type, event, ...fields.value, ...mcpClient(o) }) : fail(fields.error);
    }
    case "tool_confirmation_requested": {
      const fields = toolCallFields(o);
      if (!fields.ok) return fail(fields.error);
      const preview = str(o, "tool_preview", false);
      if (!preview.ok) return fail(preview.error);
      return ok({ type, event, tool_id: fields.value.tool_id, tool_name: fields.value.tool_name, tool_preview: preview.value ?? "" });
    }
    case "assistant_message": {
      const text = str(o, "text", false);
      return text.ok ? ok({ type, event, text: text.value ?? "" }) : fail(text.error);
    }
    case "checkpoint": {
      const checkpoint = str(o, "checkpoint", true);
      if (!checkpoint.ok) return fail(checkpoint.error);
      const files = num(o, "files", true);
      return files.ok ? ok({ type, event, checkpoint: checkpoint.value ?? "", files: files.value }) : fail(files.error);
    }
    case "rewind": {
      const restore = REWIND_RESTORES.find((r) => r === o.restore);
      if (!restore) return fail(`field "restore" must be one of ${REWIND_RESTORES.join(", ")}`);
      const files = o.files;
      if (!Array.isArray(files) || !files.every((f) => typeof f === "string")) return fail(`field "files" must be an array of strings`);
      if (o.prompt === undefined) return ok({ type, event, restore, files });
      const prompt = num(o, "prompt", true);
      return prompt.ok ? ok({ type, event, restore, prompt: prompt.value, files }) : fail(prompt.error);
    }
    case "todo": {
      const items = decodeTodoItems(o.items);
      return items.ok ? ok({ type, event, items: items.value }) : fail(items.error);
    }
    default:
      return fail(`unknown event ${JSON.stringify(event ?? null)}`);
  }
}

function decodeEventIntercept(o: Fields, id: string): Decoded<EventInterceptFrame> {
  const event = o.event;
  const type = "event_intercept";
  switch (event) {
    case "tool_call": {
      const fields = toolCallFields(o);
      return fields.ok ? ok({ type, id, event, ...fields.value, ...mcpClient(o) }) : fail(fields.error);
    }
    case "turn_start": {
      const step = num(o, "step", false);
      return step.ok ? ok({ type, id, event, step: step.value }) : fail(step.error);
    }
    case "assistant_message": {
      const text = str(o, "text", false);
      return text.ok ? ok({ type, id, event, text: text.value ?? "" }) : fail(text.error);
    }
    case "tool_result": {
      const fields = toolCallFields(o);
      if (!fields.ok) return fail(fields.error);
      const content = decodeContent(o.content);
      if (!content.ok) return fail(content.error);
      const isError = bool(o, "is_error");
      if (!isError.ok) return fail(isError.error);
      return ok({ type, id, event, ...fields.value, content: content.value, is_error: isError.value });
    }
    default:
      return fail(`unknown intercept event ${JSON.stringify(event ?? null)}`);
  }
}

/**
 * Decodes one frame sent by the host (used by the SDK and by `zot ext test`). Fields an encoder
 * may leave out when empty get their empty value; a field of the wrong type is an error.
 */
export function decodeHostFrame(raw: unknown): Decoded<HostFrame> | { ok: false; error: string; unknownType: string } {
  if (!isObject(raw)) return fail(`frame must be a JSON object, got ${kind(raw)}`);
  const type = raw.type;
  if (typeof type !== "string") return fail(`frame has no string "type" field`);
  const o = raw;
  const id = str(o, "id", true);
  const panelId = str(o, "panel_id", true);
  switch (type) {
    case "hello_ack": {
      const version = num(o, "protocol_version", true);
      if (!version.ok) return fail(`hello_ack: ${version.error}`);
      const fields: Record<"zot_version" | "provider" | "model" | "cwd" | "extension_dir" | "data_dir", string> = {
        zot_version: "",
        provider: "",
        model: "",
        cwd: "",
        extension_dir: "",
        data_dir: "",
      };
      for (const key of Object.keys(fields) as (keyof typeof fields)[]) {
        const v = str(o, key, false);
        if (!v.ok) return fail(`hello_ack: ${v.error}`);
        fields[key] = v.value ?? "";
      }
      // A host without a separate data directory keeps data in the extension's own directory.
      if (o.data_dir === undefined || o.data_dir === null) fields.data_dir = fields.extension_dir;
      const caps = strArray(o, "capabilities");
      if (!caps.ok) return fail(`hello_ack: ${caps.error}`);
      const frame: HelloAckFrame = { type, protocol_version: version.value, ...fields, capabilities: caps.value };
      if (o.settings !== undefined && o.settings !== null) {
        if (!isObject(o.settings)) return fail(`hello_ack: field "settings" must be an object, got ${kind(o.settings)}`);
        frame.settings = o.settings;
      }
      return ok(frame);
    }
    case "command_invoked": {
      if (!id.ok) return fail(`command_invoked: ${id.error}`);
      const name = str(o, "name", true);
      if (!name.ok) return fail(`command_invoked: ${name.error}`);
      const args = str(o, "args", false);
      if (!args.ok) return fail(`command_invoked: ${args.error}`);
      return ok({ type, id: id.value!, name: name.value!, args: args.value ?? "" });
    }
    case "tool_call": {
      if (!id.ok) return fail(`tool_call: ${id.error}`);
      const name = str(o, "name", true);
      if (!name.ok) return fail(`tool_call: ${name.error}`);
      const args = o.args ?? {};
      if (!isObject(args)) return fail(`tool_call: field "args" must be an object, got ${kind(args)}`);
      const agent = agentField(o);
      if (!agent.ok) return fail(`tool_call: ${agent.error}`);
      return ok({ type, id: id.value!, name: name.value!, args, ...agent.value });
    }
    case "event": {
      const event = decodeEvent(o);
      const agent = agentField(o);
      if (!agent.ok) return fail(`event: ${agent.error}`);
      return event.ok ? ok({ ...event.value, ...agent.value }) : fail(`event: ${event.error}`);
    }
    case "event_intercept": {
      if (!id.ok) return fail(`event_intercept: ${id.error}`);
      const frame = decodeEventIntercept(o, id.value!);
      const agent = agentField(o);
      if (!agent.ok) return fail(`event_intercept: ${agent.error}`);
      return frame.ok ? ok({ ...frame.value, ...agent.value }) : fail(`event_intercept: ${frame.error}`);
    }
    case "panel_key": {
      if (!panelId.ok) return fail(`panel_key: ${panelId.error}`);
      const key = o.key;
      if (typeof key !== "string" || !PANEL_KEY_NAMES.includes(key as PanelKeyName))
        return fail(`panel_key: key must be one of ${PANEL_KEY_NAMES.join(", ")}, got ${JSON.stringify(key ?? null)}`);
      const text = str(o, "text", false);
      if (!text.ok) return fail(`panel_key: ${text.error}`);
      const frame: PanelKeyFrame = { type, panel_id: panelId.value!, key: key as PanelKeyName };
      if (text.value !== undefined) frame.text = text.value;
      return ok(frame);
    }
    case "panel_close":
      return panelId.ok ? ok({ type, panel_id: panelId.value! }) : fail(`panel_close: ${panelId.error}`);
    case "panel_resize": {
      if (!panelId.ok) return fail(`panel_resize: ${panelId.error}`);
      const width = num(o, "width", true);
      if (!width.ok) return fail(`panel_resize: ${width.error}`);
      const height = num(o, "height", true);
      if (!height.ok) return fail(`panel_resize: ${height.error}`);
      return ok({ type, panel_id: panelId.value!, width: width.value, height: height.value });
    }
    case "shutdown":
      return ok({ type });
    case "tool_cancel":
      return id.ok ? ok({ type, id: id.value! }) : fail(`tool_cancel: ${id.error}`);
    case "settings_changed":
      return isObject(o.settings) ? ok({ type, settings: o.settings }) : fail(`settings_changed: field "settings" must be an object, got ${kind(o.settings)}`);
    default:
      return { ok: false, error: `unknown frame type "${type}"`, unknownType: type };
  }
}
