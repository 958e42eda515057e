// The single definition of the zot extension protocol (spec: shared/spec/extensions.md, plus the
// compatible additions of the host issue §8). The host and the TypeScript SDK both import from here,
// so a frame has exactly one shape. Decoders validate untrusted JSON into these types and return
// errors as values; nothing here throws.

export const PROTOCOL_VERSION = 1;

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

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
  | "assistant_message";
export const EVENT_NAMES: readonly EventName[] = [
  "session_start",
  "turn_start",
  "turn_end",
  "tool_call",
  "tool_confirmation_requested",
  "assistant_message",
];

/** `tool_result` interception is a zot addition (host issue §8). */
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

export type PanelKeyName =
  | "up"
  | "down"
  | "left"
  | "right"
  | "enter"
  | "esc"
  | "tab"
  | "pageup"
  | "pagedown"
  | "home"
  | "end"
  | "backspace"
  | "delete"
  | "rune";

export type PanelContent = { id: string; title: string; lines: string[]; footer: string };

export type CommandAction = "prompt" | "insert" | "display" | "open_panel" | "noop";

/** Host features beyond the spec, announced in `hello_ack.capabilities`. */
export const HOST_CAPABILITIES = ["fail_closed_intercept", "tool_result_intercept", "tool_progress", "tool_cancel", "panel_resize"] as const;

// ---------------------------------------------------------------- extension → host

export type HelloFrame = { type: "hello"; name: string; version: string; capabilities: string[] };
export type RegisterCommandFrame = { type: "register_command"; name: string; description: string };
export type RegisterToolFrame = {
  type: "register_tool";
  name: string;
  description: string;
  /** Raw as sent; the host normalises it (see tool schema rules in DESIGN.md). */
  schema: Json | undefined;
  deferred: boolean;
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
};
export type CommandInvokedFrame = { type: "command_invoked"; id: string; name: string; args: string };
export type ToolCallFrame = { type: "tool_call"; id: string; name: string; args: JsonObject };
export type EventFrame =
  | { type: "event"; event: "session_start" }
  | { type: "event"; event: "turn_start"; step: number }
  | { type: "event"; event: "turn_end"; stop: string; error?: string }
  | { type: "event"; event: "tool_call"; tool_id: string; tool_name: string; tool_args: Json }
  | { type: "event"; event: "tool_confirmation_requested"; tool_id: string; tool_name: string; tool_preview: string }
  | { type: "event"; event: "assistant_message"; text: string };
export type EventInterceptFrame =
  | { type: "event_intercept"; id: string; event: "tool_call"; tool_id: string; tool_name: string; tool_args: Json }
  | { type: "event_intercept"; id: string; event: "turn_start"; step: number }
  | { type: "event_intercept"; id: string; event: "assistant_message"; text: string }
  | {
      type: "event_intercept";
      id: string;
      event: "tool_result";
      tool_id: string;
      tool_name: string;
      tool_args: Json;
      content: ContentBlock[];
      is_error: boolean;
    };
export type PanelKeyFrame = { type: "panel_key"; panel_id: string; key: PanelKeyName; text?: string };
export type PanelCloseFromHostFrame = { type: "panel_close"; panel_id: string };
/** zot addition: the panel's drawable size, on open and on terminal resize. */
export type PanelResizeFrame = { type: "panel_resize"; panel_id: string; width: number; height: number };
export type ShutdownFrame = { type: "shutdown" };
/** zot addition: a tool call was aborted or timed out. */
export type ToolCancelFrame = { type: "tool_cancel"; id: string };

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
  | ToolCancelFrame;

// ---------------------------------------------------------------- decoding

export type Decoded<T> = { ok: true; value: T } | { ok: false; error: string };

const ok = <T>(value: T): Decoded<T> => ({ ok: true, value });
const fail = <T>(error: string): Decoded<T> => ({ ok: false, error });

export function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

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

export function kind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
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
      if (action !== "prompt" && action !== "insert" && action !== "display" && action !== "open_panel" && action !== "noop")
        return fail(`command_response: unknown action ${JSON.stringify(action)} (expected prompt, insert, display, open_panel or noop)`);
      const frame: CommandResponseFrame = { type, id: id.value!, action };
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
      if (typeof level !== "string" || !NOTIFY_LEVELS.includes(level as NotifyLevel))
        return fail(`notify: level must be one of info, success, warn, error`);
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
  return ok({ id: id.value!, title: title.value ?? "", lines: lines.value, footer: footer.value ?? "" });
}

/** Decodes one frame sent by the host (used by the SDK and by `zot ext test`). */
export function decodeHostFrame(raw: unknown): Decoded<HostFrame> {
  if (!isObject(raw) || typeof raw.type !== "string") return fail(`frame must be a JSON object with a string "type"`);
  switch (raw.type) {
    case "hello_ack":
    case "command_invoked":
    case "tool_call":
    case "event":
    case "event_intercept":
    case "panel_key":
    case "panel_close":
    case "panel_resize":
    case "shutdown":
    case "tool_cancel":
      // The host is trusted to send well-formed frames; the SDK only needs the discriminant.
      return ok(raw as unknown as HostFrame);
    default:
      return fail(`unknown host frame type "${raw.type}"`);
  }
}

export const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const MANIFEST_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/i;
export const BUILTIN_COMMANDS = ["help", "clear", "exit", "model", "reload-ext", "login", "logout", "sessions", "compact", "yolo", "theme", "permissions", "init", "reasoning"] as const;
export const BUILTIN_TOOLS = ["read", "write", "edit", "bash", "skill"] as const;
