// The one row format of session transcripts, shared with the Go zot: both programs read and
// continue what the other wrote. Rows are `meta`, `message`, `usage` and `rename` as the Go zot
// writes them, plus zot's `compaction`; content blocks carry no `type` and are told apart by their
// fields, as the Go zot's reader does. zot's own facts (an assistant message's stop reason, model
// and usage, a tool result's name, what extensions changed) are extra fields the Go zot ignores.
// Transcripts of earlier zot versions (`session` and `model` rows, typed blocks, `toolResult`
// messages) still load.
import type { Json, JsonObject } from "../json.ts";
import { isObject } from "../json.ts";
import { decodeIntercept, type InterceptRecord } from "./intercept-record.ts";
import { emptyUsage } from "./messages.ts";
import { isPermissionMode, type PermissionMode } from "./choices.ts";
import type {
  AssistantMessage,
  ImagePart,
  Message,
  StopReason,
  TextPart,
  ThinkingPart,
  ToolCallPart,
  ToolDeclaration,
  ToolResultMessage,
  Usage,
} from "./messages.ts";

/** The `meta` row: first in every transcript, appended again when the model or the permission mode changes (the last one wins). */
export type SessionMeta = {
  id: string;
  cwd: string;
  model: string;
  provider: string;
  /** RFC 3339. */
  started: string;
  version: string;
  title?: string;
  /** The id of the session this one was forked from. */
  parent?: string;
  /** How many messages of the parent were copied. */
  fork_point?: number;
  /** zot's: the permission mode in effect, so a resumed session keeps it. */
  permission_mode?: PermissionMode;
};

/** Token counts as the Go zot names them, in usage rows and RPC. */
export type GoUsage = { input_tokens: number; output_tokens: number; cache_read_tokens: number; cache_write_tokens: number; cost_usd: number };

export function toGoUsage(u: Usage): GoUsage {
  return { input_tokens: u.input, output_tokens: u.output, cache_read_tokens: u.cacheRead, cache_write_tokens: u.cacheWrite, cost_usd: u.cost };
}

/** Go names, or the camelCase names of earlier zot transcripts. */
export function decodeUsage(v: Json | undefined): Usage | null {
  if (!isObject(v)) return null;
  const n = (...keys: string[]): number | null => {
    for (const k of keys) if (typeof v[k] === "number") return v[k] as number;
    return null;
  };
  const input = n("input_tokens", "input");
  const output = n("output_tokens", "output");
  if (input === null || output === null) return null;
  return {
    input,
    output,
    cacheRead: n("cache_read_tokens", "cacheRead") ?? 0,
    cacheWrite: n("cache_write_tokens", "cacheWrite") ?? 0,
    cost: n("cost_usd", "cost") ?? 0,
  };
}

// ---------------------------------------------------------------- writing

export function metaRow(meta: SessionMeta): JsonObject {
  return { type: "meta", meta: { ...meta } };
}

export function usageRow(usage: Usage, total: Usage, provider: string, model: string, at: number): JsonObject {
  return { type: "usage", usage: toGoUsage(usage), cumulative: toGoUsage(total), provider, model, time: isoTime(at) };
}

export function renameRow(title: string, at: number): JsonObject {
  return { type: "rename", title, time: isoTime(at) };
}

/** `kept`: how many of the latest messages before this row stay verbatim after the summary. */
export function compactionRow(summary: string, replaced: number, kept: number, at: number): JsonObject {
  return kept > 0 ? { type: "compaction", summary, replaced, kept, time: isoTime(at) } : { type: "compaction", summary, replaced, time: isoTime(at) };
}

/** A user or assistant message as one row, its `intercept` record beside it. Tool results go through `toolRow`. */
export function messageRow(m: Exclude<Message, ToolResultMessage>): JsonObject {
  if (m.role === "user") return { type: "message", message: { role: "user", content: m.content.map(partBlock), time: isoTime(m.ts) } };
  const content: Json[] = m.content.map(partBlock);
  const message: JsonObject = {
    role: "assistant",
    content,
    time: isoTime(m.ts),
    stop: m.stop,
    provider: m.provider,
    model: m.model,
    usage: toGoUsage(m.usage),
  };
  if (m.error !== undefined) message.error = m.error;
  return m.intercept ? { type: "message", message, intercept: m.intercept as JsonObject } : { type: "message", message };
}

/**
 * The results of one assistant message's tool calls as one `tool` row, as the Go zot pairs them;
 * each result block carries its own `intercept`, and `activated_tools`: the deferred tools (Kimi K3
 * dynamic tools) the result switched on, which the provider declares again at that point on resume.
 */
export function toolRow(results: readonly ToolResultMessage[]): JsonObject {
  const content = results.map((r) => {
    const block: JsonObject = { call_id: r.toolCallId, content: r.content.map(partBlock), is_error: r.isError, name: r.toolName };
    if (r.extension) block.extension = r.extension;
    if (r.activatedTools?.length) block.activated_tools = r.activatedTools.map((t) => ({ name: t.name, description: t.description, schema: t.schema }));
    if (r.intercept) block.intercept = r.intercept as JsonObject;
    return block;
  });
  return { type: "message", message: { role: "tool", content, time: isoTime(results[results.length - 1]?.ts ?? Date.now()) } };
}

function partBlock(p: TextPart | ImagePart | ThinkingPart | ToolCallPart): JsonObject {
  switch (p.type) {
    case "text":
      return { text: p.text };
    case "image":
      return { mime_type: p.mimeType, data: p.data };
    case "thinking": {
      if (p.id !== undefined) return goReasoningBlock(p);
      const b: JsonObject = { thinking: p.thinking };
      if (p.signature !== undefined) b.signature = p.signature;
      if (p.redacted !== undefined) b.redacted = p.redacted;
      return b;
    }
    case "toolCall": {
      const b: JsonObject = { id: p.id, name: p.name, arguments: p.args };
      if (p.invalidArgs !== undefined) b.invalid_args = p.invalidArgs;
      return b;
    }
  }
}

/** The Go zot's OpenAI reasoning block: `{reasoning_id?, summary?, encrypted_content?}`. */
function goReasoningBlock(p: ThinkingPart): JsonObject {
  const b: JsonObject = {};
  if (p.id) b.reasoning_id = p.id;
  if (p.thinking !== "") b.summary = p.thinking;
  if (p.signature !== undefined) b.encrypted_content = p.signature;
  return b;
}

export function isoTime(ms: number): string {
  return new Date(Number.isFinite(ms) ? ms : 0).toISOString();
}

// ---------------------------------------------------------------- reading

export type DecodedMessages = { messages: Message[]; intercepts: (InterceptRecord | undefined)[] };

/** What a message row needs from the rows before it: the model in effect and the calls awaiting results. */
export type ReadContext = { provider: string; model: string; toolNames: Map<string, string> };

/**
 * One `message` row as zot messages: a `tool` row holds one result per block and becomes one
 * message per result. Returns a sentence when the row can't be used.
 */
export function decodeMessageRow(row: JsonObject, ctx: ReadContext): DecodedMessages | string {
  const v = row.message;
  if (!isObject(v)) return "the message is not an object";
  if (!Array.isArray(v.content)) return "the message has no content array";
  const ts = timeOf(v);
  const rowIntercept = decodeIntercept(row.intercept);
  switch (v.role) {
    case "user": {
      const parts: (TextPart | ImagePart)[] = [];
      for (const b of v.content) {
        const p = decodeBlock(b);
        if (typeof p === "string") return p;
        if (p.type === "text" || p.type === "image") parts.push(p);
        else return "a user message may hold only text and images";
      }
      const content = parts.filter((p) => p.type !== "text" || p.text !== "");
      if (content.length === 0) return "the user message is empty";
      return { messages: [{ role: "user", content, ts }], intercepts: [rowIntercept] };
    }
    case "assistant":
      return decodeAssistant(v, ts, ctx, rowIntercept);
    case "tool":
      return decodeToolRow(v, ts, ctx);
    case "toolResult":
      return decodeLegacyResult(v, ts, rowIntercept);
    default:
      return `unknown message role ${JSON.stringify(v.role ?? null)}`;
  }
}

const STOPS: readonly StopReason[] = ["end_turn", "tool_use", "max_tokens", "error", "aborted"];

function decodeAssistant(v: JsonObject, ts: number, ctx: ReadContext, intercept: InterceptRecord | undefined): DecodedMessages | string {
  const content: (TextPart | ThinkingPart | ToolCallPart)[] = [];
  for (const b of v.content as Json[]) {
    // The Go zot's OpenAI reasoning: what zot's Responses client sends back for the same model.
    if (isObject(b) && b.type === undefined && (nonEmpty(b.reasoning_id) || nonEmpty(b.encrypted_content))) {
      const t: ThinkingPart = { type: "thinking", thinking: str(b.summary), id: str(b.reasoning_id) };
      if (nonEmpty(b.encrypted_content)) t.signature = b.encrypted_content as string;
      content.push(t);
      continue;
    }
    const p = decodeBlock(b);
    if (typeof p === "string") return p;
    if (p.type === "image" || p.type === "result") return "an assistant message may hold only text, thinking and tool calls";
    if (p.type === "text" && p.text === "") continue;
    content.push(p);
  }
  if (content.length === 0) return "the assistant message is empty";
  for (const p of content) if (p.type === "toolCall") ctx.toolNames.set(p.id, p.name);
  const stop = STOPS.find((s) => s === v.stop) ?? (content.some((p) => p.type === "toolCall") ? "tool_use" : "end_turn");
  const m: AssistantMessage = {
    role: "assistant",
    content,
    stop,
    provider: typeof v.provider === "string" ? v.provider : ctx.provider,
    model: typeof v.model === "string" ? v.model : ctx.model,
    usage: decodeUsage(v.usage) ?? emptyUsage(),
    ts,
  };
  if (typeof v.error === "string") m.error = v.error;
  return { messages: [m], intercepts: [intercept] };
}

function decodeToolRow(v: JsonObject, ts: number, ctx: ReadContext): DecodedMessages | string {
  const out: DecodedMessages = { messages: [], intercepts: [] };
  for (const b of v.content as Json[]) {
    const p = decodeBlock(b);
    if (typeof p === "string") return p;
    if (p.type !== "result") return "a tool message may hold only tool results";
    const r: ToolResultMessage = {
      role: "toolResult",
      toolCallId: p.callId,
      toolName: p.name ?? ctx.toolNames.get(p.callId) ?? "",
      content: p.content,
      isError: p.isError,
      ts,
    };
    if (p.extension) r.extension = p.extension;
    if (p.activatedTools) r.activatedTools = p.activatedTools;
    out.messages.push(r);
    out.intercepts.push(p.intercept);
  }
  if (out.messages.length === 0) return "the tool message holds no results";
  return out;
}

function decodeLegacyResult(v: JsonObject, ts: number, intercept: InterceptRecord | undefined): DecodedMessages | string {
  if (typeof v.toolCallId !== "string" || typeof v.toolName !== "string") return "a tool result needs toolCallId and toolName";
  const content: (TextPart | ImagePart)[] = [];
  for (const b of v.content as Json[]) {
    const p = decodeBlock(b);
    if (typeof p === "string") return p;
    if (p.type !== "text" && p.type !== "image") return "a tool result may hold only text and images";
    content.push(p);
  }
  const m: ToolResultMessage = { role: "toolResult", toolCallId: v.toolCallId, toolName: v.toolName, content, isError: v.isError === true, ts };
  if (typeof v.extension === "string") m.extension = v.extension;
  const activated = declarations(v.activatedTools);
  if (activated) m.activatedTools = activated;
  return { messages: [m], intercepts: [intercept] };
}

type ResultBlock = {
  type: "result";
  callId: string;
  name?: string;
  content: (TextPart | ImagePart)[];
  isError: boolean;
  extension?: string;
  activatedTools?: ToolDeclaration[];
  intercept?: InterceptRecord;
};

/** The well-formed tool declarations of a list, or undefined when there are none. */
function declarations(v: Json | undefined): ToolDeclaration[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out: ToolDeclaration[] = [];
  for (const d of v)
    if (isObject(d) && typeof d.name === "string" && typeof d.description === "string" && isObject(d.schema))
      out.push({ name: d.name, description: d.description, schema: d.schema });
  return out.length > 0 ? out : undefined;
}

/**
 * A content block: typed (earlier zot transcripts) or untyped and recognised by its fields in the
 * Go zot's order — tool call (`id` and `name`), tool result (`call_id`), image (`mime_type`),
 * thinking (`thinking`), else text.
 */
function decodeBlock(b: Json): TextPart | ImagePart | ThinkingPart | ToolCallPart | ResultBlock | string {
  if (!isObject(b)) return "a content block is not an object";
  if (typeof b.type === "string") return decodeTypedBlock(b);
  if (nonEmpty(b.id) && nonEmpty(b.name)) {
    const c: ToolCallPart = { type: "toolCall", id: b.id as string, name: b.name as string, args: isObject(b.arguments) ? b.arguments : {} };
    if (typeof b.invalid_args === "string") c.invalidArgs = b.invalid_args;
    return c;
  }
  if (nonEmpty(b.call_id)) {
    const content: (TextPart | ImagePart)[] = [];
    for (const inner of Array.isArray(b.content) ? b.content : []) {
      const p = decodeBlock(inner);
      if (typeof p === "string") return p;
      if (p.type === "text" || p.type === "image") content.push(p);
    }
    const r: ResultBlock = { type: "result", callId: b.call_id as string, content, isError: b.is_error === true };
    if (typeof b.name === "string" && b.name !== "") r.name = b.name;
    if (typeof b.extension === "string") r.extension = b.extension;
    const activated = declarations(b.activated_tools);
    if (activated) r.activatedTools = activated;
    const intercept = decodeIntercept(b.intercept);
    if (intercept) r.intercept = intercept;
    return r;
  }
  if (nonEmpty(b.mime_type))
    return typeof b.data === "string" ? { type: "image", mimeType: b.mime_type as string, data: b.data } : "an image block needs base64 data";
  if (typeof b.thinking === "string") {
    const t: ThinkingPart = { type: "thinking", thinking: b.thinking };
    if (typeof b.signature === "string") t.signature = b.signature;
    if (typeof b.redacted === "string") t.redacted = b.redacted;
    return t;
  }
  return { type: "text", text: typeof b.text === "string" ? b.text : "" };
}

function decodeTypedBlock(p: JsonObject): TextPart | ImagePart | ThinkingPart | ToolCallPart | string {
  switch (p.type) {
    case "text":
      return typeof p.text === "string" ? { type: "text", text: p.text } : "a text part needs text";
    case "image":
      return typeof p.mimeType === "string" && typeof p.data === "string"
        ? { type: "image", mimeType: p.mimeType, data: p.data }
        : "an image part needs mimeType and data";
    case "thinking": {
      if (typeof p.thinking !== "string") return "a thinking part needs thinking";
      const t: ThinkingPart = { type: "thinking", thinking: p.thinking };
      if (typeof p.signature === "string") t.signature = p.signature;
      if (typeof p.redacted === "string") t.redacted = p.redacted;
      return t;
    }
    case "toolCall": {
      if (typeof p.id !== "string" || typeof p.name !== "string" || !isObject(p.args)) return "a tool call needs id, name and args";
      const c: ToolCallPart = { type: "toolCall", id: p.id, name: p.name, args: p.args };
      if (typeof p.invalidArgs === "string") c.invalidArgs = p.invalidArgs;
      return c;
    }
    default:
      return `unknown content part type ${JSON.stringify(p.type)}`;
  }
}

/** A message's time: RFC 3339 `time` (any fraction of a second), or the millisecond `ts` of earlier zot transcripts. */
export function timeOf(v: JsonObject): number {
  if (typeof v.time === "string") {
    const ms = Date.parse(v.time.replace(/(\.\d{3})\d+/, "$1"));
    if (Number.isFinite(ms)) return ms;
  }
  return typeof v.ts === "number" ? v.ts : 0;
}

/** A `meta` row, or the `session` row of earlier zot transcripts, as meta; a sentence when unusable. */
export function decodeMetaRow(row: JsonObject): SessionMeta | string {
  if (row.type === "session") {
    if (typeof row.cwd !== "string" || typeof row.provider !== "string" || typeof row.model !== "string") return "a session line needs cwd, provider and model";
    return { id: str(row.id), cwd: row.cwd, model: row.model, provider: row.provider, started: str(row.created), version: "" };
  }
  const m = row.meta;
  if (!isObject(m)) return "a meta line needs a meta object";
  const meta: SessionMeta = {
    id: str(m.id),
    cwd: str(m.cwd),
    model: str(m.model),
    provider: str(m.provider),
    started: str(m.started),
    version: str(m.version),
  };
  if (nonEmpty(m.title)) meta.title = m.title as string;
  if (nonEmpty(m.parent)) meta.parent = m.parent as string;
  if (typeof m.fork_point === "number" && m.fork_point > 0) meta.fork_point = m.fork_point;
  if (typeof m.permission_mode === "string" && isPermissionMode(m.permission_mode)) meta.permission_mode = m.permission_mode;
  return meta;
}

function str(v: Json | undefined): string {
  return typeof v === "string" ? v : "";
}

function nonEmpty(v: Json | undefined): boolean {
  return typeof v === "string" && v !== "";
}
