// OpenAI Responses API client: POST <base>/responses with `stream: true`, where the base URL
// includes /v1. Stateless: `store: false`, and reasoning comes back encrypted
// (`include: ["reasoning.encrypted_content"]`) to be sent with the next request, so no response id
// is ever needed. OpenAI's newest models take function tools with reasoning only on this wire.
import type { ImagePart, JsonObject, Message, TextPart, ThinkingPart, ToolCallPart, Usage } from "../messages.ts";
import { emptyUsage } from "../messages.ts";
import { offeredTools, type ModelInfo, type Provider, type ProviderEvent, type ProviderRequest } from "../provider.ts";
import { parseToolArgs, REFUSAL_PREFIX, type Outcome } from "./assemble.ts";
import { bearerAuth, streamCall, type Assembler, type ClientOptions } from "./http-stream.ts";
import { arr, num, parseObject, rec, str, type Rec } from "./json.ts";
import { ListLog, requestBody, Separated, WireCache, type Cut, type Put } from "./wire-cache.ts";
import { ToolsJson } from "./tools-json.ts";
import type { StreamedBody } from "../../platform/http.ts";
import type { SseEvent } from "../../platform/sse.ts";

export type ResponsesName = "openai" | "ollama";

/** The Responses wire, for OpenAI and Ollama models that name it. */
export function responsesProvider(provider: ResponsesName, opts: ClientOptions): Provider {
  return {
    name: provider,
    stream(req, signal) {
      return streamCall(provider, opts, req, signal, {
        family: "openai",
        url: (base) => `${base}/responses`,
        headers: bearerAuth,
        body: (info) => responsesBody(provider, req, info),
        assembler: new ResponsesAssembler(provider),
        endMarker: "response.completed",
      });
    },
  };
}

function responsesBody(provider: string, req: ProviderRequest, info: ModelInfo | undefined): Uint8Array | StreamedBody {
  const body: JsonObject = { model: req.model, stream: true, store: false };
  if (req.system.trim() !== "") body.instructions = req.system;
  // Known reasoning models always get summaries and encrypted reasoning; an unknown id (a proxy's,
  // a local server's) only when --reasoning asks, since non-reasoning models reject the fields.
  if (info ? info.reasoning : req.reasoning !== undefined) {
    body.include = ["reasoning.encrypted_content"];
    body.reasoning = req.reasoning ? { effort: req.reasoning, summary: "auto" } : { summary: "auto" };
  }
  if (req.maxTokens !== undefined) body.max_output_tokens = req.maxTokens;
  if (req.sessionId) body.prompt_cache_key = req.sessionId;
  const key = `${provider}\n${req.model}`;
  const list = itemLog.list(req.messages, key, (put, from, started, cut) =>
    responsesInput(put, from, started ?? false, cut, req.messages, key, provider, req.model),
  );
  return requestBody(body, "input", list, toolsJson.field(offeredTools(req.tools), undefined));
}

const toolsJson = new ToolsJson<undefined>((tools) =>
  tools.map((t) => ({ type: "function", name: t.name, description: t.description, parameters: t.schema, strict: false })),
);

/**
 * Conversation → input items, in order: user messages, the assistant's reasoning (only the
 * encrypted items this model produced: another model cannot read them), its text as output
 * messages and its calls as `function_call` items, and results as `function_call_output`, whose
 * output carries text and images.
 */
function responsesInput(
  put: Put,
  from: number,
  started: boolean,
  cut: Cut<boolean>,
  messages: readonly Message[],
  key: string,
  provider: string,
  model: string,
): void {
  const items = new Separated(put, started);
  const build = (m: Message) => messageItems(m, provider, model);
  for (let i = from; i < messages.length; i++) {
    // Each message's items depend on it alone: the list can be picked up again before any of them.
    if (i > from) cut(i, items.started);
    items.item(itemCache.json(messages[i]!, key, build));
  }
  if (messages.length > from) cut(messages.length, items.started);
}

/** Each message's input items as JSON texts, kept across requests (see wire-cache.ts). */
const itemCache = new WireCache();

/** Each conversation's input list as last sent (see ListLog); the state is whether it has an item yet. */
const itemLog = new ListLog<boolean>();

function messageItems(m: Message, provider: string, model: string): JsonObject[] {
  if (m.role === "user") {
    const content = inputParts(m.content);
    return content.length > 0 ? [{ role: "user", content }] : [];
  }
  if (m.role === "toolResult") {
    const parts = inputParts(m.content);
    const onlyText = parts.every((p) => p.type === "input_text");
    const text = parts.map((p) => (p.type === "input_text" ? String(p.text) : "")).join("\n");
    const output = parts.length === 0 ? "(no output)" : onlyText ? text : parts;
    return [{ type: "function_call_output", call_id: m.toolCallId, output }];
  }
  const out: JsonObject[] = [];
  const sameModel = m.provider === provider && m.model === model;
  let text = "";
  const flushText = () => {
    if (text !== "") out.push({ type: "message", role: "assistant", content: [{ type: "output_text", text }] });
    text = "";
  };
  for (const p of m.content) {
    if (p.type === "text") text += p.text;
    else if (p.type === "thinking") {
      if (!sameModel || !p.signature) continue;
      flushText();
      out.push({ type: "reasoning", summary: p.thinking === "" ? [] : [{ type: "summary_text", text: p.thinking }], encrypted_content: p.signature });
    } else {
      flushText();
      out.push({ type: "function_call", call_id: p.id, name: p.name, arguments: JSON.stringify(p.args) });
    }
  }
  flushText();
  return out;
}

function inputParts(parts: readonly (TextPart | ImagePart)[]): JsonObject[] {
  const out: JsonObject[] = [];
  for (const p of parts) {
    if (p.type === "image") out.push({ type: "input_image", image_url: `data:${p.mimeType};base64,${p.data}` });
    else if (p.text !== "") out.push({ type: "input_text", text: p.text });
  }
  return out;
}

type Item =
  | { kind: "message"; text: string; refusal: string; streamed: boolean }
  | { kind: "reasoning"; summary: string; encrypted: string; parts: number }
  | { kind: "call"; id: string; name: string; args: string; open: boolean };

/** Assembles Responses stream events, keyed by `output_index` (item ids can be absent on proxies). */
class ResponsesAssembler implements Assembler {
  outcome: Outcome | undefined;
  readonly usage: Usage = emptyUsage();
  private readonly items = new Map<number, Item>();

  constructor(private readonly provider: string) {}

  handle(ev: SseEvent): ProviderEvent[] {
    if (ev.data.trim() === "[DONE]") return [];
    const data = parseObject(ev.data);
    if (!data) {
      this.outcome = { kind: "error", error: `${this.provider} sent an event that is not a JSON object (event "${ev.event}"); try again` };
      return [];
    }
    const type = str(data.type) ?? ev.event;
    const index = num(data.output_index) ?? -1;
    switch (type) {
      case "response.output_item.added":
        return this.added(index, rec(data.item));
      case "response.output_text.delta":
        return this.text(index, str(data.delta) ?? "");
      case "response.refusal.delta":
        return this.refusal(index, str(data.delta) ?? "");
      case "response.reasoning_summary_part.added":
        return this.summaryPart(index);
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta":
        return this.thinking(index, str(data.delta) ?? "");
      case "response.function_call_arguments.delta":
        return this.args(index, str(data.delta) ?? "");
      case "response.function_call_arguments.done": {
        const item = this.items.get(index);
        if (item?.kind === "call" && item.args === "") item.args = str(data.arguments) ?? "";
        return [];
      }
      case "response.output_item.done":
        return this.done(index, rec(data.item));
      case "response.completed":
        this.readUsage(rec(rec(data.response)?.usage));
        this.outcome = { kind: "complete", stop: "end_turn" };
        return [];
      case "response.incomplete":
        return this.incomplete(rec(data.response));
      case "response.failed": {
        const response = rec(data.response);
        this.readUsage(rec(response?.usage));
        this.outcome = { kind: "error", error: describeFailure(this.provider, rec(response?.error)) };
        return [];
      }
      case "error":
        this.outcome = { kind: "error", error: describeFailure(this.provider, rec(data.error) ?? data) };
        return [];
      default:
        return []; // created, in_progress, content_part.*, *.done summaries, and newer event types
    }
  }

  close(): ProviderEvent[] {
    const out: ProviderEvent[] = [];
    for (const item of this.items.values()) {
      if (item.kind === "call" && item.open) {
        item.open = false;
        out.push({ type: "tool_use_end", id: item.id });
      }
    }
    return out;
  }

  content(): (TextPart | ThinkingPart | ToolCallPart)[] {
    const entries = [...this.items.entries()];
    if (entries.length > 1) entries.sort((a, b) => a[0] - b[0]);
    const parts: (TextPart | ThinkingPart | ToolCallPart)[] = [];
    for (const [, item] of entries) {
      if (item.kind === "message") {
        const text = item.text + (item.refusal === "" ? "" : `${item.text === "" ? "" : "\n\n"}${REFUSAL_PREFIX}${item.refusal}`);
        parts.push({ type: "text", text });
      } else if (item.kind === "reasoning") {
        parts.push(
          item.encrypted === "" ? { type: "thinking", thinking: item.summary } : { type: "thinking", thinking: item.summary, signature: item.encrypted },
        );
      } else {
        const parsed = parseToolArgs(item.name, item.args);
        const call: ToolCallPart = { type: "toolCall", id: item.id, name: item.name, args: parsed.args };
        if (parsed.invalidArgs) call.invalidArgs = parsed.invalidArgs;
        parts.push(call);
      }
    }
    return parts;
  }

  private added(index: number, item: Rec | undefined): ProviderEvent[] {
    switch (str(item?.type)) {
      case "message":
        this.items.set(index, { kind: "message", text: "", refusal: "", streamed: false });
        return [];
      case "reasoning":
        this.items.set(index, { kind: "reasoning", summary: "", encrypted: str(item?.encrypted_content) ?? "", parts: 0 });
        return [];
      case "function_call": {
        const id = str(item?.call_id) ?? str(item?.id) ?? `call_${index}`;
        const name = str(item?.name) ?? "";
        const args = str(item?.arguments) ?? "";
        this.items.set(index, { kind: "call", id, name, args, open: true });
        const out: ProviderEvent[] = [{ type: "tool_use_start", id, name }];
        if (args !== "") out.push({ type: "tool_use_args", id, delta: args });
        return out;
      }
      default:
        return [];
    }
  }

  private message(index: number): Extract<Item, { kind: "message" }> {
    const item = this.items.get(index);
    if (item?.kind === "message") return item;
    const fresh: Extract<Item, { kind: "message" }> = { kind: "message", text: "", refusal: "", streamed: false };
    this.items.set(index, fresh);
    return fresh;
  }

  private text(index: number, delta: string): ProviderEvent[] {
    if (delta === "") return [];
    const item = this.message(index);
    item.text += delta;
    item.streamed = true;
    return [{ type: "text_delta", text: delta }];
  }

  private refusal(index: number, delta: string): ProviderEvent[] {
    if (delta === "") return [];
    const item = this.message(index);
    const first = item.refusal === "";
    item.refusal += delta;
    item.streamed = true;
    return [{ type: "text_delta", text: first ? `${item.text === "" ? "" : "\n\n"}${REFUSAL_PREFIX}${delta}` : delta }];
  }

  private summaryPart(index: number): ProviderEvent[] {
    const item = this.items.get(index);
    if (item?.kind !== "reasoning") return [];
    item.parts++;
    if (item.summary === "") return [];
    item.summary += "\n\n";
    return [{ type: "thinking_delta", text: "\n\n" }];
  }

  private thinking(index: number, delta: string): ProviderEvent[] {
    let item = this.items.get(index);
    if (!item) {
      item = { kind: "reasoning", summary: "", encrypted: "", parts: 0 };
      this.items.set(index, item);
    }
    if (item.kind !== "reasoning" || delta === "") return [];
    item.summary += delta;
    return [{ type: "thinking_delta", text: delta }];
  }

  private args(index: number, delta: string): ProviderEvent[] {
    const item = this.items.get(index);
    if (item?.kind !== "call" || delta === "") return [];
    item.args += delta;
    return [{ type: "tool_use_args", id: item.id, delta }];
  }

  /** The finished item is authoritative for what deltas may have left out (encrypted reasoning above all). */
  private done(index: number, item: Rec | undefined): ProviderEvent[] {
    const have = this.items.get(index);
    const out: ProviderEvent[] = [];
    switch (str(item?.type)) {
      case "reasoning": {
        const r = have?.kind === "reasoning" ? have : { kind: "reasoning" as const, summary: "", encrypted: "", parts: 0 };
        r.encrypted = str(item?.encrypted_content) ?? r.encrypted;
        if (r.summary === "") {
          r.summary = (arr(item?.summary) ?? []).flatMap((s) => (str(rec(s)?.text) ? [str(rec(s)?.text) as string] : [])).join("\n\n");
          if (r.summary !== "") out.push({ type: "thinking_delta", text: r.summary });
        }
        this.items.set(index, r);
        return out;
      }
      case "message": {
        const m = have?.kind === "message" ? have : this.message(index);
        if (m.streamed) return [];
        for (const part of arr(item?.content) ?? []) {
          const p = rec(part);
          if (str(p?.type) === "output_text") out.push(...this.text(index, str(p?.text) ?? ""));
          else if (str(p?.type) === "refusal") out.push(...this.refusal(index, str(p?.refusal) ?? ""));
        }
        return out;
      }
      case "function_call": {
        if (have?.kind !== "call") {
          out.push(...this.added(index, item));
        }
        const call = this.items.get(index);
        if (call?.kind !== "call") return out;
        if (call.args === "") {
          call.args = str(item?.arguments) ?? "";
          if (call.args !== "") out.push({ type: "tool_use_args", id: call.id, delta: call.args });
        }
        if (call.open) {
          call.open = false;
          out.push({ type: "tool_use_end", id: call.id });
        }
        return out;
      }
      default:
        return [];
    }
  }

  private incomplete(response: Rec | undefined): ProviderEvent[] {
    this.readUsage(rec(response?.usage));
    const reason = str(rec(response?.incomplete_details)?.reason) ?? "unknown";
    if (reason === "max_output_tokens") this.outcome = { kind: "complete", stop: "max_tokens" };
    else if (reason === "content_filter")
      this.outcome = { kind: "error", error: `${this.provider} stopped the reply with its content filter (response incomplete: content_filter)` };
    else this.outcome = { kind: "error", error: `${this.provider} left the response incomplete (reason: ${reason}); try again` };
    return [];
  }

  private readUsage(u: Rec | undefined): void {
    if (!u) return;
    const input = num(u.input_tokens);
    const cached = num(rec(u.input_tokens_details)?.cached_tokens) ?? 0;
    if (input !== undefined) {
      this.usage.input = Math.max(0, input - cached);
      this.usage.cacheRead = cached;
    }
    const output = num(u.output_tokens);
    if (output !== undefined) this.usage.output = output;
  }
}

function describeFailure(provider: string, err: Rec | undefined): string {
  const message = str(err?.message) ?? "unknown error";
  const code = str(err?.code) ?? str(err?.type);
  const hint = code === "rate_limit_exceeded" ? "; wait a moment and try again" : code === "server_error" ? "; try again" : "";
  return `${provider} reported an error mid-stream: ${message}${code ? ` (${code})` : ""}${hint}`;
}
