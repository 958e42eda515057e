// OpenAI Chat Completions client, also used for Kimi (Moonshot), Kimi Code's chat route, Ollama and
// any compatible server: POST <base>/chat/completions with `stream: true`, where the base URL
// includes /v1.
import type { JsonObject, Message, ToolCallPart, ToolDeclaration, Usage } from "../messages.ts";
import { emptyUsage } from "../messages.ts";
import { offeredTools, type ModelInfo, type Provider, type ProviderEvent, type ProviderRequest } from "../provider.ts";
import { parseToolArgs, REFUSAL_PREFIX, type Outcome } from "./assemble.ts";
import { bearerAuth, streamCall, type Assembler, type ClientOptions } from "./http-stream.ts";
import { arr, num, parseObject, rec, str, type Rec } from "./json.ts";
import { jsonBytes, ListLog, requestBody, Separated, WireCache, type Cut, type Put } from "./wire-cache.ts";
import { ToolsJson } from "./tools-json.ts";
import type { StreamedBody } from "../../platform/http.ts";
import { declarationMessage, functionTool, namesIn, ToolNames, topLevelTools } from "./kimi-tools.ts";
import type { SseEvent } from "../../platform/sse.ts";

export type CompatName = "openai" | "kimi" | "kimi-code" | "ollama";

/** Kimi's routes: tool names under its rule, and its prompt cache keyed by the session. */
const isKimi = (p: CompatName) => p === "kimi" || p === "kimi-code";

/** The Chat Completions wire, for every provider that speaks it. */
export function chatCompletionsProvider(provider: CompatName, opts: ClientOptions): Provider {
  return {
    name: provider,
    stream(req, signal) {
      const names = isKimi(provider) ? new ToolNames(namesIn(offeredTools(req.tools), req.messages)) : undefined;
      return streamCall(provider, opts, req, signal, {
        family: "openai",
        url: (base) => `${base}/chat/completions`,
        headers: bearerAuth,
        body: (info) => openaiBody(provider, req, info, names),
        assembler: new OpenAIAssembler(provider, names),
        endMarker: "[DONE]",
      });
    },
  };
}

function openaiBody(provider: CompatName, req: ProviderRequest, info: ModelInfo | undefined, names: ToolNames | undefined): Uint8Array | StreamedBody {
  const dynamic = info?.deferredTools === "kimi-dynamic";
  const body: JsonObject = { model: req.model, stream: true, stream_options: { include_usage: true } };
  const tools = dynamic ? topLevelTools(offeredTools(req.tools), req.messages) : offeredTools(req.tools);
  // OpenAI's reasoning models reject max_tokens; other servers only know max_tokens.
  if (req.maxTokens !== undefined) body[provider === "openai" ? "max_completion_tokens" : "max_tokens"] = req.maxTokens;
  if (req.reasoning && (provider === "openai" ? info?.reasoning !== false : isKimi(provider) && info?.reasoning === true))
    body.reasoning_effort = req.reasoning;
  if (isKimi(provider) && req.sessionId) body.prompt_cache_key = req.sessionId;
  const system = req.system.trim() !== "" ? req.system : undefined;
  // The system message opens the list, so the list is kept by it too.
  const key = `${provider}\n${system ?? ""}`;
  const list = messageLog.list(req.messages, key, (put, from, started, cut) =>
    chatMessages(put, from, started ?? false, cut, system, provider, req.messages, names, dynamic),
  );
  return requestBody(body, "messages", list, toolsJson.field(tools, names));
}

/** Function tools, under Kimi's wire names on its routes (which depend on the history: see kimi-tools.ts). */
const toolsJson = new ToolsJson<ToolNames | undefined>(
  (tools, names) => tools.map((t) => functionTool(t, names)),
  (tools, names) => (names ? tools.map((t) => names.wire(t.name)).join("\n") : ""),
);

/**
 * Conversation → chat messages. Tool results are `role: "tool"` messages, which carry text only, so
 * images from tools follow them in one user message. Kimi wants its reasoning sent back with tool
 * calls (`reasoning_content`); other servers do not accept it, so it is dropped for them.
 *
 * `dynamic` (Kimi K3): the tools a batch of results activated are declared right after the last
 * tool message of that batch, where they stay in every later request, so the cached prefix holds.
 *
 * From message `from` on (`started`: the list has an element before it). The walk cuts before
 * each message that starts no batch, where nothing is pending; not on Kimi's routes, whose wire
 * names and declarations depend on the whole history.
 */
function chatMessages(
  put: Put,
  from: number,
  started: boolean,
  cut: Cut<boolean>,
  system: string | undefined,
  provider: CompatName,
  messages: readonly Message[],
  names: ToolNames | undefined,
  dynamic: boolean,
): void {
  const list = new Separated(put, started);
  if (from === 0 && system !== undefined) list.item(jsonBytes(JSON.stringify({ role: "system", content: system })));
  let images: JsonObject[] = [];
  let declared: ToolDeclaration[] = [];
  const seen = new Set<string>();
  const flushBatch = () => {
    if (declared.length > 0 && names) list.item(jsonBytes(JSON.stringify(declarationMessage(declared, names))));
    declared = [];
    if (images.length === 0) return;
    list.item(jsonBytes(JSON.stringify({ role: "user", content: [{ type: "text", text: "Images returned by the tool calls above:" }, ...images] })));
    images = [];
  };
  const toolName = (n: string) => (names ? names.wire(n) : n);
  const build = (m: Message) => chatMessage(provider, m, toolName);
  const resumable = names === undefined && !dynamic;
  for (let i = from; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== "toolResult") {
      flushBatch();
      if (resumable && i > from) cut(i, list.started);
    }
    // An assistant message's wire form depends on the provider and on the wire names of its calls.
    const key = m.role === "assistant" && names ? `${provider}\n${m.content.map((p) => (p.type === "toolCall" ? toolName(p.name) : "")).join("\n")}` : provider;
    list.item(messageCache.json(m, key, build));
    if (m.role !== "toolResult") continue;
    for (const p of m.content) if (p.type === "image") images.push(imageUrl(p.mimeType, p.data));
    // A tool is declared once: a second activation of it in the same batch adds nothing.
    for (const t of dynamic ? (m.activatedTools ?? []) : []) {
      if (seen.has(t.name)) continue;
      seen.add(t.name);
      declared.push(t);
    }
  }
  flushBatch();
  // After a message that is no tool result nothing was pending, so the flush put nothing.
  const last = messages[messages.length - 1];
  if (resumable && messages.length > from && last?.role !== "toolResult") cut(messages.length, list.started);
}

/** Each message's chat message (none for an empty one) as JSON text, kept across requests (see wire-cache.ts). */
const messageCache = new WireCache();

/** Each conversation's list as last sent (see ListLog); the state is whether it has an element yet. */
const messageLog = new ListLog<boolean>();

function chatMessage(provider: CompatName, m: Message, toolName: (name: string) => string): JsonObject[] {
  if (m.role === "user") {
    const parts = m.content.flatMap((p): JsonObject[] =>
      p.type === "text" ? (p.text === "" ? [] : [{ type: "text", text: p.text }]) : [imageUrl(p.mimeType, p.data)],
    );
    const only = parts.length === 1 ? parts[0] : undefined;
    if (parts.length === 0) return [];
    return [{ role: "user", content: only?.type === "text" && only.text !== undefined ? only.text : parts }];
  }
  if (m.role === "toolResult") {
    const text = m.content.flatMap((p) => (p.type === "text" && p.text !== "" ? [p.text] : [])).join("\n");
    const fallback = m.content.some((p) => p.type === "image") ? "(the image is attached in the next message)" : "(no output)";
    return [{ role: "tool", tool_call_id: m.toolCallId, content: text === "" ? fallback : text }];
  }
  const text = m.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
  const calls = m.content.filter((p): p is ToolCallPart => p.type === "toolCall");
  if (text === "" && calls.length === 0) return [];
  const msg: JsonObject = { role: "assistant", content: text === "" ? null : text };
  if (calls.length > 0) {
    msg.tool_calls = calls.map((c) => ({ id: c.id, type: "function", function: { name: toolName(c.name), arguments: JSON.stringify(c.args) } }));
  }
  const reasoning = m.content.flatMap((p) => (p.type === "thinking" ? [p.thinking] : [])).join("");
  if (isKimi(provider) && m.provider === provider && reasoning !== "") msg.reasoning_content = reasoning;
  return [msg];
}

function imageUrl(mimeType: string, data: string): JsonObject {
  return { type: "image_url", image_url: { url: `data:${mimeType};base64,${data}` } };
}

type Call = { id: string; name: string; args: string; started: boolean };

class OpenAIAssembler implements Assembler {
  outcome: Outcome | undefined;
  readonly usage: Usage = emptyUsage();
  private text = "";
  private thinking = "";
  private readonly calls = new Map<number, Call>();
  private finish: string | undefined;
  private refused = false;

  constructor(
    private readonly provider: string,
    private readonly names?: ToolNames,
  ) {}

  handle(ev: SseEvent): ProviderEvent[] {
    if (ev.data.trim() === "[DONE]") {
      this.outcome = this.complete();
      return [];
    }
    if (ev.event.startsWith("response.")) return this.responsesApi();
    const data = parseObject(ev.data);
    if (!data) {
      this.outcome = { kind: "error", error: `${this.provider} sent a stream chunk that is not a JSON object; try again` };
      return [];
    }
    if (data.error !== undefined) {
      const err = rec(data.error);
      const msg = str(err?.message) ?? str(data.error) ?? JSON.stringify(data.error);
      this.outcome = { kind: "error", error: `${this.provider} reported an error mid-stream: ${msg}` };
      return [];
    }
    if (str(data.type)?.startsWith("response.")) return this.responsesApi();
    const out: ProviderEvent[] = [];
    this.readUsage(rec(data.usage));
    const choice = arr(data.choices)
      ?.map(rec)
      .find((c) => c !== undefined && (num(c.index) ?? 0) === 0);
    if (!choice) return out;
    this.readUsage(rec(choice.usage)); // Moonshot reports usage inside the choice
    const delta = rec(choice.delta);
    const content = str(delta?.content);
    if (content) {
      this.text += content;
      out.push({ type: "text_delta", text: content });
    }
    const refusal = str(delta?.refusal);
    if (refusal) {
      const text = this.refused ? refusal : `${this.text === "" ? "" : "\n\n"}${REFUSAL_PREFIX}${refusal}`;
      this.refused = true;
      this.text += text;
      out.push({ type: "text_delta", text });
    }
    const reasoning = str(delta?.reasoning_content) || str(delta?.reasoning);
    if (reasoning) {
      this.thinking += reasoning;
      out.push({ type: "thinking_delta", text: reasoning });
    }
    arr(delta?.tool_calls)?.forEach((raw, position) => this.toolDelta(rec(raw), position, out));
    this.finish = str(choice.finish_reason) ?? this.finish;
    return out;
  }

  close(): ProviderEvent[] {
    const out: ProviderEvent[] = [];
    for (const [index, c] of this.calls) {
      if (!c.started) this.begin(index, c, out);
      out.push({ type: "tool_use_end", id: c.id });
    }
    return out;
  }

  content() {
    const parts = [];
    if (this.thinking !== "") parts.push({ type: "thinking" as const, thinking: this.thinking });
    if (this.text !== "") parts.push({ type: "text" as const, text: this.text });
    for (const c of this.calls.values()) {
      const parsed = parseToolArgs(c.name, c.args);
      const call: ToolCallPart = { type: "toolCall", id: c.id, name: c.name, args: parsed.args };
      if (parsed.invalidArgs) call.invalidArgs = parsed.invalidArgs;
      parts.push(call);
    }
    return parts;
  }

  /** Calls are keyed by `index` (which some servers start at 1); id and name come once, arguments in pieces. */
  private toolDelta(tc: Rec | undefined, position: number, out: ProviderEvent[]): void {
    if (!tc) return;
    const index = num(tc.index) ?? this.slotFor(str(tc.id), position);
    const fn = rec(tc.function);
    let call = this.calls.get(index);
    if (!call) {
      call = { id: "", name: "", args: "", started: false };
      this.calls.set(index, call);
    }
    const id = str(tc.id);
    if (id && call.id === "") call.id = id;
    const name = str(fn?.name);
    if (name && call.name === "") call.name = this.names ? this.names.local(name) : name;
    const args = str(fn?.arguments) ?? "";
    call.args += args;
    if (!call.started && call.name !== "") this.begin(index, call, out);
    else if (call.started && args !== "") out.push({ type: "tool_use_args", id: call.id, delta: args });
  }

  /** For servers that omit `index`: a known id keeps its call, a new id opens one, no id continues the last. */
  private slotFor(id: string | undefined, position: number): number {
    const keys = [...this.calls.keys()];
    if (keys.length === 0) return position;
    if (id) {
      for (const [k, c] of this.calls) if (c.id === id) return k;
      return Math.max(...keys) + 1;
    }
    return keys.at(-1) ?? position;
  }

  private begin(index: number, call: Call, out: ProviderEvent[]): void {
    if (call.id === "") call.id = `call_${index}`;
    call.started = true;
    out.push({ type: "tool_use_start", id: call.id, name: call.name });
    if (call.args !== "") out.push({ type: "tool_use_args", id: call.id, delta: call.args });
  }

  private readUsage(u: Rec | undefined): void {
    if (!u) return;
    const prompt = num(u.prompt_tokens);
    const cached = num(rec(u.prompt_tokens_details)?.cached_tokens) ?? num(u.cached_tokens) ?? 0;
    if (prompt !== undefined) {
      this.usage.input = Math.max(0, prompt - cached);
      this.usage.cacheRead = cached;
    }
    const completion = num(u.completion_tokens);
    if (completion !== undefined) this.usage.output = completion;
  }

  private responsesApi(): ProviderEvent[] {
    this.outcome = {
      kind: "error",
      error: `${this.provider} answered a Chat Completions request with an OpenAI Responses stream; pass --wire responses (or set "wire": "responses" for the model in models.json)`,
    };
    return [];
  }

  private complete(): Outcome {
    switch (this.finish) {
      case "length":
        return { kind: "complete", stop: "max_tokens" };
      case "content_filter":
        return { kind: "error", error: `${this.provider} stopped the reply with its content filter (finish reason: content_filter)` };
      case "tool_calls":
      case "function_call":
        return { kind: "complete", stop: "tool_use" };
      default:
        return { kind: "complete", stop: "end_turn" };
    }
  }
}
