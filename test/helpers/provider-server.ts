/**
 * A real local model-provider server for tests: `Bun.serve` on 127.0.0.1 (port 0) that speaks the
 * three wire formats zot uses (Anthropic Messages, OpenAI Chat Completions, OpenAI Responses) and
 * answers from a queue of scripted replies.
 *
 *   const server = startProviderServer({ replies: [{ kind: "turn", text: "hi" }] });
 *   // Anthropic: --base-url server.url          (requests go to /v1/messages)
 *   // OpenAI-compatible: --base-url server.openaiBase   (requests go to /v1/chat/completions or /v1/responses)
 *   ...
 *   expect(server.requests[0].body).toMatchObject({ model: "m" });
 *   await server.stop();
 *
 * Each request takes the next reply from the queue. A `turn` reply is rendered in the wire format
 * of the path that was requested, so one script drives either provider. Other kinds replay raw
 * bytes (a recorded fixture, in random-sized chunks), answer with a status code and headers, or cut
 * or stall the stream part-way. When the queue is empty the server answers with `fallback`, or with
 * HTTP 400 naming the problem (400 is never retried, so a missing reply fails fast).
 *
 * Every request is recorded (method, path, lower-cased headers, parsed JSON body), except model
 * listings: `GET …/models` (zot's live discovery) is answered from `models` in the wire's list shape
 * and recorded in `listings`, so it never takes a scripted reply.
 *
 * As a separate process: `bun test/helpers/provider-server.ts --script replies.json [--record
 * requests.jsonl]` prints its base URL on the first stdout line and serves until SIGTERM or
 * SIGINT; `replies.json` is a JSON array of `Reply` objects, `--record` appends one JSON line per
 * request.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";

type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
type JsonObj = { [key: string]: JsonValue };

/** Where the recorded provider streams live (see SOURCES.md there). */
export const FIXTURES_DIR = resolve(import.meta.dir, "../fixtures/providers");

export type ToolCallSpec = {
  id?: string;
  name: string;
  /** An object is sent as JSON; a string is sent verbatim (use it for empty or broken JSON). */
  args: JsonObj | string;
};

export type TurnReply = {
  kind: "turn";
  text?: string;
  thinking?: string;
  /** Signature for the thinking block (Anthropic), or the encrypted reasoning (Responses); defaults to a fixed test value. */
  signature?: string;
  toolCalls?: ToolCallSpec[];
  /** Wire stop reason in zot's terms; defaults to tool_use with tool calls, else end_turn. */
  stop?: "end_turn" | "tool_use" | "max_tokens";
  usage?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number };
  /** Send only the first N SSE events, then end the body ("close") or break the connection ("error"). */
  cutAfter?: number;
  cutMode?: "close" | "error";
  /** Send only the first N SSE events, then hold the connection open until the client goes away. */
  stallAfter?: number;
  /** Pause before each SSE event, for a slow but finishing stream. */
  eventDelayMs?: number;
};

export type Reply =
  | TurnReply
  /** Raw body bytes, split into random-sized chunks (deterministic for a given seed). */
  | { kind: "raw"; body: string; status?: number; contentType?: string; headers?: Record<string, string>; seed?: number; maxChunk?: number }
  /** A file from the fixtures directory (or an absolute path), replayed like `raw`. */
  | { kind: "fixture"; file: string; status?: number; contentType?: string; headers?: Record<string, string>; seed?: number; maxChunk?: number }
  | { kind: "status"; status: number; headers?: Record<string, string>; body?: string };

export type RecordedRequest = { method: string; path: string; headers: Record<string, string>; body: unknown; text: string };

export type ProviderServer = {
  /** Base URL without a path, e.g. http://127.0.0.1:41234 (the Anthropic --base-url). */
  readonly url: string;
  /** `${url}/v1`, the OpenAI-compatible --base-url. */
  readonly openaiBase: string;
  readonly requests: RecordedRequest[];
  /** The `GET …/models` requests. */
  readonly listings: RecordedRequest[];
  push(...replies: Reply[]): void;
  /** Replies still queued. */
  pending(): number;
  stop(): Promise<void>;
};

export type ServerOptions = {
  replies?: Reply[];
  /**
   * A request rule set (e.g. `kimiRejection`): a request it objects to is answered with HTTP 400
   * and the objection, in the provider's error shape, without taking a reply from the queue.
   */
  reject?: (body: unknown) => string | undefined;
  /**
   * The ids `GET …/models` lists (default: none); a status code answers with that status instead;
   * a function is awaited first (a test can hold the listing back).
   */
  models?: string[] | number | (() => Promise<string[]>);
  fallback?: Reply | ((req: RecordedRequest) => Reply);
  onRequest?: ((req: RecordedRequest) => void) | undefined;
};

export function startProviderServer(opts: ServerOptions = {}): ProviderServer {
  const queue: Reply[] = [...(opts.replies ?? [])];
  const requests: RecordedRequest[] = [];
  const listings: RecordedRequest[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    // A deliberately cut stream surfaces here; the client has already seen the break.
    error: () => new Response("provider-server: stream failed", { status: 500 }),
    async fetch(req) {
      const text = await req.text();
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
      const headers: Record<string, string> = {};
      req.headers.forEach((v, k) => (headers[k.toLowerCase()] = v));
      const recorded: RecordedRequest = { method: req.method, path: new URL(req.url).pathname, headers, body, text };
      if (req.method === "GET" && recorded.path.endsWith("/models")) {
        listings.push(recorded);
        const models = typeof opts.models === "function" ? await opts.models() : opts.models;
        return listModels(models ?? [], recorded);
      }
      requests.push(recorded);
      opts.onRequest?.(recorded);
      const objection = opts.reject?.(body);
      if (objection !== undefined) return Response.json({ error: { message: objection, type: "invalid_request_error" } }, { status: 400 });
      const fallback = typeof opts.fallback === "function" ? opts.fallback(recorded) : opts.fallback;
      const reply = queue.shift() ?? fallback;
      if (!reply)
        return Response.json(
          { error: { type: "test_error", message: `provider-server: no scripted reply left for request ${requests.length}` } },
          { status: 400 },
        );
      return respond(reply, recorded, req.signal);
    },
  });
  const url = `http://127.0.0.1:${server.port}`;
  return {
    url,
    openaiBase: `${url}/v1`,
    requests,
    listings,
    push: (...replies) => void queue.push(...replies),
    pending: () => queue.length,
    stop: () => server.stop(true),
  };
}

/** Anthropic's list shape for a request with its version header, OpenAI's otherwise. */
function listModels(models: string[] | number, req: RecordedRequest): Response {
  if (typeof models === "number") return Response.json({ error: { message: "listing failed", type: "test_error" } }, { status: models });
  if (req.headers["anthropic-version"] !== undefined) {
    const data = models.map((id) => ({ type: "model", id, display_name: id, created_at: "2026-11-01T00:00:00Z" }));
    return Response.json({ data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null });
  }
  return Response.json({ object: "list", data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "test" })) });
}

function respond(reply: Reply, req: RecordedRequest, signal: AbortSignal): Response {
  switch (reply.kind) {
    case "status":
      return new Response(reply.body ?? "", { status: reply.status, headers: { "content-type": "application/json", ...reply.headers } });
    case "raw":
    case "fixture": {
      const bytes =
        reply.kind === "raw"
          ? new TextEncoder().encode(reply.body)
          : new Uint8Array(readFileSync(isAbsolute(reply.file) ? reply.file : resolve(FIXTURES_DIR, reply.file)));
      const chunks = randomChunks(bytes, reply.seed ?? 1, reply.maxChunk ?? 17);
      const contentType = reply.contentType ?? (reply.status && reply.status >= 400 ? "application/json" : "text/event-stream");
      return new Response(chunkStream(chunks), { status: reply.status ?? 200, headers: { "content-type": contentType, ...reply.headers } });
    }
    case "turn": {
      const model = typeof (req.body as { model?: unknown } | null)?.model === "string" ? (req.body as { model: string }).model : "test-model";
      const events = req.path.endsWith("/chat/completions")
        ? openaiEvents(reply, model)
        : req.path.endsWith("/responses")
          ? responsesEvents(reply, model)
          : anthropicEvents(reply, model);
      return new Response(turnStream(events, reply, signal), { status: 200, headers: { "content-type": "text/event-stream; charset=utf-8" } });
    }
  }
}

function chunkStream(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]);
      else controller.close();
    },
  });
}

function turnStream(events: string[], reply: TurnReply, signal: AbortSignal): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  const limit = reply.stallAfter ?? reply.cutAfter ?? events.length;
  let i = 0;
  return new ReadableStream({
    async pull(controller) {
      if (i < limit) {
        if (reply.eventDelayMs) await Bun.sleep(reply.eventDelayMs);
        controller.enqueue(enc.encode(events[i++]));
        return;
      }
      if (reply.stallAfter !== undefined) {
        await new Promise<void>((done) => (signal.aborted ? done() : signal.addEventListener("abort", () => done(), { once: true })));
      }
      if (reply.cutAfter !== undefined && reply.cutMode === "error") {
        // Let the bytes already sent reach the client first, so it sees a response that breaks off.
        await Bun.sleep(20);
        controller.error(undefined);
        return;
      }
      try {
        controller.close();
      } catch {
        // The client already went away.
      }
    },
  });
}

/** mulberry32: a tiny seeded PRNG so a failing chunking reproduces. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomChunks(bytes: Uint8Array, seed: number, maxChunk: number): Uint8Array[] {
  const rand = prng(seed);
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; ) {
    const n = 1 + Math.floor(rand() * maxChunk);
    out.push(bytes.slice(i, i + n));
    i += n;
  }
  return out;
}

function split(text: string, n = 3): string[] {
  const chars = Array.from(text);
  const size = Math.max(1, Math.ceil(chars.length / n));
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}

const argsText = (c: ToolCallSpec) => (typeof c.args === "string" ? c.args : JSON.stringify(c.args));

function stopOf(reply: TurnReply): "end_turn" | "tool_use" | "max_tokens" {
  return reply.stop ?? ((reply.toolCalls?.length ?? 0) > 0 ? "tool_use" : "end_turn");
}

export function anthropicEvents(reply: TurnReply, model: string): string[] {
  const ev = (type: string, data: JsonObj) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const u = reply.usage ?? {};
  const out = [
    ev("message_start", {
      message: {
        id: "msg_test",
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: u.input ?? 10, cache_creation_input_tokens: u.cacheWrite ?? 0, cache_read_input_tokens: u.cacheRead ?? 0, output_tokens: 1 },
      },
    }),
  ];
  let index = 0;
  if (reply.thinking !== undefined) {
    out.push(ev("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } }));
    for (const p of split(reply.thinking)) out.push(ev("content_block_delta", { index, delta: { type: "thinking_delta", thinking: p } }));
    out.push(ev("content_block_delta", { index, delta: { type: "signature_delta", signature: reply.signature ?? "sig-test-0123456789" } }));
    out.push(ev("content_block_stop", { index }));
    index++;
  }
  if (reply.text !== undefined) {
    out.push(ev("content_block_start", { index, content_block: { type: "text", text: "" } }), ev("ping", {}));
    for (const p of split(reply.text)) out.push(ev("content_block_delta", { index, delta: { type: "text_delta", text: p } }));
    out.push(ev("content_block_stop", { index }));
    index++;
  }
  for (const [i, c] of (reply.toolCalls ?? []).entries()) {
    out.push(ev("content_block_start", { index, content_block: { type: "tool_use", id: c.id ?? `toolu_test_${i + 1}`, name: c.name, input: {} } }));
    out.push(ev("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: "" } }));
    for (const p of split(argsText(c))) out.push(ev("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: p } }));
    out.push(ev("content_block_stop", { index }));
    index++;
  }
  out.push(ev("message_delta", { delta: { stop_reason: stopOf(reply), stop_sequence: null }, usage: { output_tokens: u.output ?? 5 } }));
  out.push(ev("message_stop", {}));
  return out;
}

export function openaiEvents(reply: TurnReply, model: string): string[] {
  const chunk = (delta: JsonObj, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: "chatcmpl-test", object: "chat.completion.chunk", created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const out = [chunk({ role: "assistant", content: null })];
  if (reply.thinking !== undefined) for (const p of split(reply.thinking)) out.push(chunk({ reasoning_content: p }));
  if (reply.text !== undefined) for (const p of split(reply.text)) out.push(chunk({ content: p }));
  for (const [i, c] of (reply.toolCalls ?? []).entries()) {
    out.push(chunk({ tool_calls: [{ index: i, id: c.id ?? `call_test_${i + 1}`, type: "function", function: { name: c.name, arguments: "" } }] }));
    for (const p of split(argsText(c))) out.push(chunk({ tool_calls: [{ index: i, function: { arguments: p } }] }));
  }
  const finish = { end_turn: "stop", tool_use: "tool_calls", max_tokens: "length" }[stopOf(reply)];
  out.push(chunk({}, finish));
  const u = reply.usage ?? {};
  const cached = u.cacheRead ?? 0;
  const usage = {
    prompt_tokens: (u.input ?? 10) + cached,
    completion_tokens: u.output ?? 5,
    total_tokens: (u.input ?? 10) + cached + (u.output ?? 5),
    prompt_tokens_details: { cached_tokens: cached },
  };
  out.push(`data: ${JSON.stringify({ id: "chatcmpl-test", object: "chat.completion.chunk", created: 0, model, choices: [], usage })}\n\n`);
  out.push("data: [DONE]\n\n");
  return out;
}

/** A Responses API stream as documented: output items with their deltas, then response.completed (or .incomplete). */
export function responsesEvents(reply: TurnReply, model: string): string[] {
  let seq = 0;
  const ev = (type: string, data: JsonObj) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data, sequence_number: seq++ })}\n\n`;
  const u = reply.usage ?? {};
  const base = { id: "resp_test", object: "response", created_at: 0, model, store: false };
  const out = [
    ev("response.created", { response: { ...base, status: "in_progress", output: [] } }),
    ev("response.in_progress", { response: { ...base, status: "in_progress", output: [] } }),
  ];
  const items: JsonObj[] = [];
  let index = 0;
  if (reply.thinking !== undefined) {
    const id = "rs_test";
    out.push(ev("response.output_item.added", { output_index: index, item: { id, type: "reasoning", summary: [] } }));
    out.push(ev("response.reasoning_summary_part.added", { item_id: id, output_index: index, summary_index: 0, part: { type: "summary_text", text: "" } }));
    for (const p of split(reply.thinking))
      out.push(ev("response.reasoning_summary_text.delta", { item_id: id, output_index: index, summary_index: 0, delta: p }));
    out.push(ev("response.reasoning_summary_text.done", { item_id: id, output_index: index, summary_index: 0, text: reply.thinking }));
    const item = {
      id,
      type: "reasoning",
      summary: [{ type: "summary_text", text: reply.thinking }],
      encrypted_content: reply.signature ?? "enc-test-0123456789",
    };
    out.push(ev("response.output_item.done", { output_index: index, item }));
    items.push(item);
    index++;
  }
  if (reply.text !== undefined) {
    const id = "msg_test";
    out.push(ev("response.output_item.added", { output_index: index, item: { id, type: "message", status: "in_progress", role: "assistant", content: [] } }));
    out.push(
      ev("response.content_part.added", { item_id: id, output_index: index, content_index: 0, part: { type: "output_text", text: "", annotations: [] } }),
    );
    for (const p of split(reply.text))
      out.push(ev("response.output_text.delta", { item_id: id, output_index: index, content_index: 0, delta: p, logprobs: [] }));
    out.push(ev("response.output_text.done", { item_id: id, output_index: index, content_index: 0, text: reply.text, logprobs: [] }));
    const part = { type: "output_text", text: reply.text, annotations: [] };
    const item = { id, type: "message", status: "completed", role: "assistant", content: [part] };
    out.push(ev("response.content_part.done", { item_id: id, output_index: index, content_index: 0, part }));
    out.push(ev("response.output_item.done", { output_index: index, item }));
    items.push(item);
    index++;
  }
  for (const [i, c] of (reply.toolCalls ?? []).entries()) {
    const id = `fc_test_${i + 1}`;
    const callId = c.id ?? `call_test_${i + 1}`;
    out.push(
      ev("response.output_item.added", {
        output_index: index,
        item: { id, type: "function_call", status: "in_progress", arguments: "", call_id: callId, name: c.name },
      }),
    );
    for (const p of split(argsText(c))) out.push(ev("response.function_call_arguments.delta", { item_id: id, output_index: index, delta: p }));
    out.push(ev("response.function_call_arguments.done", { item_id: id, output_index: index, arguments: argsText(c) }));
    const item = { id, type: "function_call", status: "completed", arguments: argsText(c), call_id: callId, name: c.name };
    out.push(ev("response.output_item.done", { output_index: index, item }));
    items.push(item);
    index++;
  }
  const cached = u.cacheRead ?? 0;
  const usage = {
    input_tokens: (u.input ?? 10) + cached,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: u.output ?? 5,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: (u.input ?? 10) + cached + (u.output ?? 5),
  };
  if (stopOf(reply) === "max_tokens") {
    out.push(
      ev("response.incomplete", { response: { ...base, status: "incomplete", incomplete_details: { reason: "max_output_tokens" }, output: items, usage } }),
    );
  } else {
    out.push(ev("response.completed", { response: { ...base, status: "completed", output: items, usage } }));
  }
  return out;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const flag = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const script = flag("--script");
  const record = flag("--record");
  const replies: Reply[] = script ? (JSON.parse(readFileSync(script, "utf8")) as Reply[]) : [];
  const server = startProviderServer({ replies, onRequest: record ? (r) => appendFileSync(record, `${JSON.stringify(r)}\n`) : undefined });
  process.stdout.write(`${server.url}\n`);
  const quit = () => void server.stop().then(() => process.exit(0));
  process.on("SIGTERM", quit);
  process.on("SIGINT", quit);
}
