// Anthropic Messages API client: POST <base>/v1/messages with `stream: true`. Also the wire of
// Kimi Code, whose recommended route is Anthropic-compatible.
import type { ImagePart, JsonObject, Message, TextPart, ToolCallPart, Usage } from "../messages.ts";
import { emptyUsage } from "../messages.ts";
import { offeredTools, type ModelInfo, type Provider, type ProviderEvent, type ProviderRequest, type ToolSpec } from "../provider.ts";
import type { Effort } from "../choices.ts";
import type { CostDetail } from "../catalog.ts";
import { parseToolArgs, type Outcome } from "./assemble.ts";
import { streamCall, type Assembler, type ClientOptions } from "./http-stream.ts";
import { num, parseObject, rec, str, type Rec } from "./json.ts";
import { COMMA, jsonBytes, ListLog, requestBody, WireCache, type Cut, type Put } from "./wire-cache.ts";
import { ToolsJson } from "./tools-json.ts";
import type { SseEvent } from "../../platform/sse.ts";
import type { StreamedBody } from "../../platform/http.ts";

import { ANTHROPIC_VERSION } from "./endpoints.ts";
export { ANTHROPIC_BASE, ANTHROPIC_VERSION } from "./endpoints.ts";

/** `budget_tokens` for --reasoning on models whose thinking is still budgeted. */
const THINKING_BUDGET: Record<Effort, number> = { low: 2048, medium: 8192, high: 16384, xhigh: 32768, max: 65536 };

const EPHEMERAL: JsonObject = { type: "ephemeral" };

export type AnthropicWireProvider = "anthropic" | "kimi-code";

/** The Anthropic Messages wire, for Anthropic itself and Kimi Code's Anthropic route. */
export function anthropicProvider(provider: AnthropicWireProvider, opts: ClientOptions): Provider {
  return {
    name: provider,
    stream(req, signal) {
      return streamCall(provider, opts, req, signal, {
        family: "anthropic",
        url: (base) => `${trimBase(base)}/v1/messages`,
        headers: (key) => ({ "anthropic-version": ANTHROPIC_VERSION, ...(key !== "" ? { "x-api-key": key } : {}) }),
        body: (info) => anthropicBody(provider, req, info),
        assembler: new AnthropicAssembler(provider),
        endMarker: "message_stop",
      });
    },
  };
}

function anthropicBody(provider: string, req: ProviderRequest, info: ModelInfo | undefined): Uint8Array | StreamedBody {
  const maxTokens = req.maxTokens ?? info?.maxTokens ?? 8192;
  const body: JsonObject = { model: req.model, max_tokens: maxTokens, stream: true };
  if (req.system.trim() !== "") body.system = [{ type: "text", text: req.system, cache_control: EPHEMERAL }];
  const native = info?.deferredTools === "defer-loading";
  const { tools, hidden } = native ? toolList(req.tools, req.messages) : { tools: offeredTools(req.tools), hidden: 0 };
  if (req.reasoning && info?.reasoning !== false) Object.assign(body, thinkingFields(req.reasoning, info?.thinking ?? "budget", maxTokens));
  const key = `${provider}\n${req.model}\n${native}`;
  const build = (m: Message) => messageBlocks(m, provider, req.model, native);
  const blocks = (m: Message) => blockCache.json(m, key, build);
  const marks = breakpoints(req.messages, blocks);
  // What precedes the earlier breakpoint is put as it would be without breakpoints (a rewind can move them back).
  const stable = marks[1] !== -1 ? marks[1] : marks[0] !== -1 ? marks[0] : req.messages.length;
  const list = messageLog.list(
    req.messages,
    key,
    (put, from, open, cut) => anthropicMessages(put, from, open ?? null, cut, req.messages, blocks, marks, stable),
    stable,
  );
  return requestBody(body, "messages", list, toolsJson.field(tools, hidden));
}

/**
 * The tools, of which the last `hidden` are sent with `defer_loading`. The cache breakpoint goes
 * on the last tool the model always sees; hidden ones follow it.
 */
const toolsJson = new ToolsJson<number>(
  (tools, hidden) =>
    tools.map((spec, i): JsonObject => {
      const tool: JsonObject = { name: spec.name, description: spec.description, input_schema: spec.schema };
      if (i >= tools.length - hidden) tool.defer_loading = true;
      if (i === tools.length - hidden - 1) tool.cache_control = EPHEMERAL;
      return tool;
    }),
  (_, hidden) => String(hidden),
);

/**
 * --reasoning on the Anthropic wire. Adaptive models (the 5.x family, Opus 4.6 and later, Sonnet
 * 4.6) take an effort level and schedule their own thinking, which on 5.x is always on and so is
 * never switched off; older models take a token budget, kept below `max_tokens` (raised if needed).
 */
function thinkingFields(level: Effort, kind: NonNullable<ModelInfo["thinking"]>, maxTokens: number): JsonObject {
  if (kind === "adaptive") return { thinking: { type: "adaptive" }, output_config: { effort: level } };
  const budget = Math.min(THINKING_BUDGET[level], Math.max(1024, maxTokens - 1024));
  const fields: JsonObject = { max_tokens: Math.max(maxTokens, budget + 1024), thinking: { type: "enabled", budget_tokens: budget } };
  if (kind === "budget+effort") fields.output_config = { effort: level };
  return fields;
}

/**
 * Tool search on the Anthropic wire: every deferred tool is sent with `defer_loading: true`, active
 * or not, so the tool list never changes (and the prompt cache holds); an activation is expanded by
 * `tool_reference` blocks in the result that activated it. A deferred, active tool whose activation
 * is no longer in the history (compacted away) is sent plainly, so it stays callable.
 */
function toolList(tools: readonly ToolSpec[], messages: readonly Message[]): { tools: ToolSpec[]; hidden: number } {
  const referenced = new Set<string>();
  // Only a deferred tool asks whether its activation is in the history: without one, the history (every step's, whole) is not read.
  if (tools.some((t) => t.deferred === true))
    for (const m of messages) if (m.role === "toolResult" && m.activatedTools) for (const t of m.activatedTools) referenced.add(t.name);
  const hides = (spec: ToolSpec) => spec.pending === true || (spec.deferred === true && referenced.has(spec.name));
  const shown = tools.filter((t) => !hides(t));
  return { tools: [...shown, ...tools.filter(hides)], hidden: tools.length - shown.length };
}

/** Each message's blocks as JSON texts, kept across requests (see wire-cache.ts). */
const blockCache = new WireCache();

type Open = "user" | "assistant" | null;

/** Each conversation's list as last sent, up to its earlier cache breakpoint (see ListLog). */
const messageLog = new ListLog<Open>();

/**
 * Conversation → wire messages, from message `from` on (`open`: the role of the wire message
 * still open there), cutting before each message up to `stable`. Tool results become `tool_result` blocks in a user message; consecutive
 * same-role messages are merged (the API wants strict alternation); empty text and empty messages
 * are dropped; the last two user messages (`breakpoints`) get cache breakpoints, which with the system prompt and
 * the tools makes the API's maximum of four. Thinking goes back byte-exact, and only to the model
 * that produced it: after a model switch it is dropped from what is sent. Put straight from the
 * cache: no list of blocks per step.
 */
function anthropicMessages(
  put: Put,
  from: number,
  open: Open,
  cut: Cut<Open>,
  messages: readonly Message[],
  blocks: (m: Message) => Uint8Array,
  [mark1, mark2]: readonly [number, number],
  stable: number,
): void {
  // An index loop: entries() makes a pair per message per step.
  for (let i = from; i < messages.length; i++) {
    if (i > from && i <= stable) cut(i, open);
    const m = messages[i]!;
    const json = blocks(m);
    if (json.length === 0) continue;
    const role = roleOf(m);
    if (role === open) put(COMMA);
    else {
      if (open !== null) put(MESSAGE_CLOSE_COMMA);
      put(role === "user" ? USER_OPEN : ASSISTANT_OPEN);
      open = role;
    }
    if (i === mark1 || i === mark2) {
      // The breakpoint is the last field of the block's object: its closing brace gives way to it.
      put(json.subarray(0, json.length - 1));
      put(CACHE_BREAKPOINT);
    } else put(json);
  }
  if (messages.length > from && messages.length <= stable) cut(messages.length, open);
  if (open !== null) put(MESSAGE_CLOSE);
}

/**
 * The messages whose last block gets a cache breakpoint: the last of each of the last two user
 * turns, found walking back from the end (-1 for none).
 */
function breakpoints(messages: readonly Message[], blocks: (m: Message) => Uint8Array): [number, number] {
  let mark1 = -1;
  let mark2 = -1;
  let later: Open = null;
  for (let i = messages.length - 1; i >= 0 && mark2 === -1; i--) {
    const m = messages[i]!;
    if (blocks(m).length === 0) continue;
    const role = roleOf(m);
    if (role !== later && role === "user") {
      if (mark1 === -1) mark1 = i;
      else mark2 = i;
    }
    later = role;
  }
  return [mark1, mark2];
}

const roleOf = (m: Message): "user" | "assistant" => (m.role === "assistant" ? "assistant" : "user");

const USER_OPEN = jsonBytes('{"role":"user","content":[');
const ASSISTANT_OPEN = jsonBytes('{"role":"assistant","content":[');
const MESSAGE_CLOSE = jsonBytes("]}");
const MESSAGE_CLOSE_COMMA = jsonBytes("]},");
const CACHE_BREAKPOINT = jsonBytes(`,"cache_control":${JSON.stringify(EPHEMERAL)}}`);

function messageBlocks(m: Message, provider: string, model: string, native: boolean): JsonObject[] {
  if (m.role === "user") return userBlocks(m.content);
  if (m.role === "toolResult") {
    const content = userBlocks(m.content);
    if (content.length === 0) content.push({ type: "text", text: "(no output)" });
    if (native) for (const t of m.activatedTools ?? []) content.push({ type: "tool_reference", tool_name: t.name });
    const block: JsonObject = { type: "tool_result", tool_use_id: m.toolCallId, content };
    if (m.isError) block.is_error = true;
    return [block];
  }
  const blocks: JsonObject[] = [];
  for (const p of m.content) {
    if (p.type === "text") {
      if (p.text !== "") blocks.push({ type: "text", text: p.text });
    } else if (p.type === "thinking") {
      // A signature verifies only for the model (and account) that produced it; thinking from
      // another model, or cut off before its signature arrived, is left out.
      if (m.provider !== provider || m.model !== model) continue;
      if (p.redacted) blocks.push({ type: "redacted_thinking", data: p.redacted });
      else if (p.signature) blocks.push({ type: "thinking", thinking: p.thinking, signature: p.signature });
    } else {
      blocks.push({ type: "tool_use", id: p.id, name: p.name, input: p.args });
    }
  }
  return blocks;
}

/** Text and images as blocks; empty text parts are dropped (the API rejects them). A loop, not flatMap: that builtin's first use costs start-up memory. */
function userBlocks(parts: readonly (TextPart | ImagePart)[]): JsonObject[] {
  const out: JsonObject[] = [];
  for (const p of parts) {
    if (p.type === "image") out.push(imageBlock(p.mimeType, p.data));
    else if (p.text !== "") out.push({ type: "text", text: p.text });
  }
  return out;
}

function imageBlock(mimeType: string, data: string): JsonObject {
  return { type: "image", source: { type: "base64", media_type: mimeType, data } };
}

type Block =
  | { kind: "text"; text: string }
  | { kind: "thinking"; thinking: string; signature: string }
  | { kind: "redacted"; data: string }
  | { kind: "tool"; id: string; name: string; json: string; open: boolean };

/** Assembles Anthropic stream events; message_delta usage is cumulative, so it overwrites. */
class AnthropicAssembler implements Assembler {
  outcome: Outcome | undefined;
  readonly usage: Usage = emptyUsage();
  readonly costDetail: CostDetail = {};
  private readonly blocks = new Map<number, Block>();
  private stopReason: string | undefined;

  constructor(private readonly provider: string) {}

  handle(ev: SseEvent): ProviderEvent[] {
    const data = parseObject(ev.data);
    if (!data) {
      this.outcome = { kind: "error", error: `${this.provider} sent an event that is not a JSON object (event "${ev.event}"); try again` };
      return [];
    }
    const type = str(data.type) ?? ev.event;
    if (type === "error" || ev.event === "error" || data.error !== undefined) {
      this.outcome = { kind: "error", error: streamError(this.provider, data) };
      return [];
    }
    switch (type) {
      case "message_start":
        this.readUsage(rec(rec(data.message)?.usage));
        return [];
      case "content_block_start":
        return this.start(num(data.index) ?? -1, rec(data.content_block));
      case "content_block_delta":
        return this.delta(num(data.index) ?? -1, rec(data.delta));
      case "content_block_stop": {
        const b = this.blocks.get(num(data.index) ?? -1);
        if (b?.kind === "tool" && b.open) {
          b.open = false;
          return [{ type: "tool_use_end", id: b.id }];
        }
        return [];
      }
      case "message_delta":
        this.stopReason = str(rec(data.delta)?.stop_reason) ?? this.stopReason;
        this.readUsage(rec(data.usage));
        return [];
      case "message_stop":
        this.outcome = this.complete();
        return this.stopReason === "refusal" ? this.refusal() : [];
      default:
        return []; // ping and event types newer than this client
    }
  }

  close(): ProviderEvent[] {
    const out: ProviderEvent[] = [];
    for (const b of this.blocks.values()) {
      if (b.kind === "tool" && b.open) {
        b.open = false;
        out.push({ type: "tool_use_end", id: b.id });
      }
    }
    return out;
  }

  content() {
    const entries = [...this.blocks.entries()];
    // Blocks by index; one block (the usual reply) needs no sort, and the first sort a run executes costs start-up memory.
    if (entries.length > 1) entries.sort((a, b) => a[0] - b[0]);
    return entries.map(([, b]) => {
      if (b.kind === "text") return { type: "text" as const, text: b.text };
      if (b.kind === "thinking")
        return b.signature ? { type: "thinking" as const, thinking: b.thinking, signature: b.signature } : { type: "thinking" as const, thinking: b.thinking };
      if (b.kind === "redacted") return { type: "thinking" as const, thinking: "", redacted: b.data };
      const parsed = parseToolArgs(b.name, b.json);
      const call: ToolCallPart = { type: "toolCall", id: b.id, name: b.name, args: parsed.args };
      if (parsed.invalidArgs) call.invalidArgs = parsed.invalidArgs;
      return call;
    });
  }

  private start(index: number, block: Rec | undefined): ProviderEvent[] {
    switch (str(block?.type)) {
      case "text": {
        const text = str(block?.text) ?? "";
        this.blocks.set(index, { kind: "text", text });
        return text ? [{ type: "text_delta", text }] : [];
      }
      case "thinking": {
        const thinking = str(block?.thinking) ?? "";
        this.blocks.set(index, { kind: "thinking", thinking, signature: str(block?.signature) ?? "" });
        return thinking ? [{ type: "thinking_delta", text: thinking }] : [];
      }
      case "redacted_thinking":
        this.blocks.set(index, { kind: "redacted", data: str(block?.data) ?? "" });
        return [];
      case "tool_use": {
        const id = str(block?.id) ?? `toolu_${index}`;
        const name = str(block?.name) ?? "";
        const input = rec(block?.input);
        const json = input && Object.keys(input).length > 0 ? JSON.stringify(input) : "";
        this.blocks.set(index, { kind: "tool", id, name, json, open: true });
        return [{ type: "tool_use_start", id, name }];
      }
      default:
        return [];
    }
  }

  private delta(index: number, delta: Rec | undefined): ProviderEvent[] {
    const b = this.blocks.get(index);
    if (!b || !delta) return [];
    switch (str(delta.type)) {
      case "text_delta": {
        const text = str(delta.text) ?? "";
        if (b.kind !== "text" || text === "") return [];
        b.text += text;
        return [{ type: "text_delta", text }];
      }
      case "thinking_delta": {
        const text = str(delta.thinking) ?? "";
        if (b.kind !== "thinking" || text === "") return [];
        b.thinking += text;
        return [{ type: "thinking_delta", text }];
      }
      case "signature_delta":
        if (b.kind === "thinking") b.signature += str(delta.signature) ?? "";
        return [];
      case "input_json_delta": {
        const part = str(delta.partial_json) ?? "";
        if (b.kind !== "tool" || part === "") return [];
        b.json += part;
        return [{ type: "tool_use_args", id: b.id, delta: part }];
      }
      default:
        return [];
    }
  }

  /**
   * A refusal is an answer, not a failure: the reply ends normally and says so in its text, after
   * whatever the model wrote before it stopped.
   */
  private refusal(): ProviderEvent[] {
    const before = [...this.blocks.values()].some((b) => b.kind === "text" && b.text !== "");
    const text = `${before ? "\n\n" : ""}[The model declined to continue (stop reason: refusal). Rephrase the request or try another model.]`;
    this.blocks.set(Number.MAX_SAFE_INTEGER, { kind: "text", text });
    return [{ type: "text_delta", text }];
  }

  private readUsage(u: Rec | undefined): void {
    if (!u) return;
    const set = (v: unknown, apply: (n: number) => void) => {
      const n = num(v);
      if (n !== undefined) apply(n);
    };
    set(u.input_tokens, (n) => (this.usage.input = n));
    set(u.output_tokens, (n) => (this.usage.output = n));
    set(u.cache_read_input_tokens, (n) => (this.usage.cacheRead = n));
    set(u.cache_creation_input_tokens, (n) => (this.usage.cacheWrite = n));
    set(rec(u.cache_creation)?.ephemeral_1h_input_tokens, (n) => (this.costDetail.cacheWriteLong = n));
  }

  private complete(): Outcome {
    switch (this.stopReason) {
      case "tool_use":
        return { kind: "complete", stop: "tool_use" };
      case "max_tokens":
      case "model_context_window_exceeded":
        return { kind: "complete", stop: "max_tokens" };
      default:
        return { kind: "complete", stop: "end_turn" };
    }
  }
}

function streamError(provider: string, data: Rec): string {
  const err = rec(data.error);
  const message = str(err?.message) ?? str(data.error) ?? "unknown error";
  const type = str(err?.type);
  const hint = type === "overloaded_error" ? "; try again later" : "";
  return `${provider} reported an error mid-stream: ${message}${type ? ` (${type})` : ""}${hint}`;
}

/** Trailing slashes and a trailing `/v1` go. */
function trimBase(url: string): string {
  return url.replace(/\/+$/, "").replace(/\/v1$/, "");
}
