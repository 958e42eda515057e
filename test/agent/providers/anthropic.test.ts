import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { AssistantMessage, Message, ToolCallPart } from "../../../src/agent/messages.ts";
import { createProvider } from "../../../src/agent/providers/index.ts";
import { builtinModels, findModel } from "../../../src/agent/catalog.ts";
import type { ModelInfo } from "../../../src/agent/provider.ts";
import { FIXTURES_DIR, startProviderServer, type ProviderServer } from "../../helpers/provider-server.ts";
import { collect } from "../../helpers/collect-stream.ts";
import { elements } from "../../helpers/elements.ts";

const KEY = "sk-ant-test-key-0123456789abcdef";
let server: ProviderServer;
const noWait = { sleep: async () => {} };

beforeAll(() => {
  server = startProviderServer();
});
afterAll(() => server.stop());

const anthropic = () => createProvider({ provider: "anthropic", apiKey: KEY, baseUrl: server.url, retry: noWait });
const calls = (m: AssistantMessage) => m.content.filter((p): p is ToolCallPart => p.type === "toolCall");
const textOf = (m: AssistantMessage) => m.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
const lastBody = () => server.requests[server.requests.length - 1]!.body as Record<string, unknown>;
const SEEDS = [1, 2, 3];

describe("anthropic fixtures replayed in random chunks", () => {
  test("a text block then a tool call whose JSON is split mid-key, with no blank line at the end", async () => {
    for (const seed of SEEDS) {
      server.push({ kind: "fixture", file: "anthropic-tool-use-stream.sse", seed });
      const { message, events } = await collect(anthropic(), { model: "claude-sonnet-4-6" });
      expect(message.stop).toBe("tool_use");
      expect(textOf(message)).toBe("I'll check the current weather in Paris for you.");
      expect(calls(message)).toEqual([{ type: "toolCall", id: "toolu_01NRLabsLyVHZPKxbKvkfSMn", name: "get_weather", args: { location: "Paris" } }]);
      expect(message.usage).toMatchObject({ input: 377, output: 65, cacheRead: 0, cacheWrite: 0 });
      expect(message.usage.cost).toBeCloseTo((377 * 3 + 65 * 15) / 1e6, 12);
      expect(events.filter((e) => e.type === "tool_use_end")).toEqual([{ type: "tool_use_end", id: "toolu_01NRLabsLyVHZPKxbKvkfSMn" }]);
    }
  });

  test("two parallel tool calls after a text block", async () => {
    server.push({ kind: "fixture", file: "anthropic-parallel-tool-use-stream.sse", seed: 5 });
    const { message } = await collect(anthropic(), { model: "claude-sonnet-4-0" });
    expect(message.stop).toBe("tool_use");
    expect(textOf(message)).toBe("I'll add and multiply the numbers 2 and 3 for you.");
    expect(calls(message).map((c) => [c.name, c.args])).toEqual([
      ["add", { a: 2, b: 3 }],
      ["multiply", { a: 2, b: 3 }],
    ]);
    expect(message.usage).toMatchObject({ input: 502, output: 137, cacheRead: 0, cacheWrite: 0 });
  });

  test("a signed thinking block is kept byte-exact and sent back unchanged in the next request", async () => {
    const raw = readFileSync(resolve(FIXTURES_DIR, "anthropic-thinking-tool-use-stream.sse"), "utf8");
    const payloads = raw
      .split("\n")
      .filter((l) => l.startsWith("data: "))
      .map((l) => JSON.parse(l.slice(6)));
    const expectedThinking = payloads
      .filter((p) => p.delta?.type === "thinking_delta")
      .map((p) => p.delta.thinking)
      .join("");
    const expectedSignature = payloads.find((p) => p.delta?.type === "signature_delta").delta.signature;

    server.push({ kind: "fixture", file: "anthropic-thinking-tool-use-stream.sse", seed: 9 });
    const { message, thinking } = await collect(anthropic(), { model: "claude-haiku-4-5", reasoning: "low" });
    expect(message.stop).toBe("tool_use");
    expect(thinking).toBe(expectedThinking);
    expect(message.content[0]).toEqual({ type: "thinking", thinking: expectedThinking, signature: expectedSignature });
    expect(calls(message).map((c) => [c.name, c.args])).toEqual([["weather", { location: "Florence, Italy" }]]);
    expect(message.usage).toMatchObject({ input: 424, output: 119 });
    expect(lastBody().thinking).toEqual({ type: "enabled", budget_tokens: 2048 });

    const call = calls(message)[0]!;
    const history: Message[] = [
      { role: "user", content: [{ type: "text", text: "Weather in Florence?" }], ts: 0 },
      message,
      { role: "toolResult", toolCallId: call.id, toolName: call.name, content: [{ type: "text", text: "sunny, 24C" }], isError: false, ts: 0 },
    ];
    server.push({ kind: "turn", text: "It is sunny." });
    const next = await collect(anthropic(), { model: "claude-haiku-4-5", reasoning: "low", messages: history });
    expect(next.message.stop).toBe("end_turn");
    const sent = lastBody().messages as { role: string; content: Record<string, unknown>[] }[];
    expect(sent[1]!.role).toBe("assistant");
    expect(sent[1]!.content[0]).toEqual({ type: "thinking", thinking: expectedThinking, signature: expectedSignature });
    expect(sent[1]!.content[1]).toEqual({ type: "tool_use", id: call.id, name: "weather", input: { location: "Florence, Italy" } });
    // The raw request text carries the signature exactly as received.
    expect(server.requests[server.requests.length - 1]!.text).toContain(JSON.stringify(expectedSignature));
  });

  test("a tool call with only an empty input delta gets {} as its arguments", async () => {
    server.push({ kind: "fixture", file: "anthropic-tool-use-empty-input-stream.sse", seed: 4 });
    const { message } = await collect(anthropic(), { model: "claude-sonnet-4-6" });
    expect(message.stop).toBe("tool_use");
    expect(textOf(message)).toBe("I'll update the issue list for you.");
    expect(calls(message)).toEqual([{ type: "toolCall", id: "toolu_01QE1WLsSVp5hy5Q3GmGTmjP", name: "updateIssueList", args: {} }]);
    expect(message.usage).toMatchObject({ input: 565, output: 48 });
  });

  test("a reply cut off by max_tokens mid tool input keeps max_tokens and marks the call invalid", async () => {
    server.push({ kind: "fixture", file: "anthropic-max-tokens-truncated-tool-stream.sse", seed: 6 });
    const { message, events } = await collect(anthropic(), { model: "claude-3-7-sonnet-latest" });
    expect(message.stop).toBe("max_tokens");
    expect(textOf(message)).toBe(
      "I'll create a comprehensive tax guide for someone with multiple W2s and save it in a file called taxes.txt. Let me do that for you now.",
    );
    const [call] = elements(calls(message), 1);
    expect(call.name).toBe("make_file");
    expect(call.args).toEqual({});
    expect(call.invalidArgs).toContain("not valid JSON");
    expect(message.usage).toMatchObject({ input: 450, output: 124 });
    // The block never got content_block_stop; the stream still closes it for the UI.
    expect(events.filter((e) => e.type === "tool_use_end")).toEqual([{ type: "tool_use_end", id: "toolu_01EKqbqmZrGRXy18eN7m9kvY" }]);
  });

  test("a recorded 400 invalid_request_error is not retried and shows Anthropic's message", async () => {
    const before = server.requests.length;
    server.push({ kind: "fixture", file: "anthropic-error-invalid-request.json", status: 400 });
    const { message } = await collect(anthropic(), { model: "claude-sonnet-4-6" });
    expect(server.requests.length - before).toBe(1);
    expect(message.stop).toBe("error");
    expect(message.error).toContain("anthropic rejected the request (HTTP 400");
    expect(message.error).toContain("Each `tool_result` block must have a corresponding `tool_use` block");
  });

  test("a recorded 529 overloaded body is retried twice and then reported", async () => {
    const before = server.requests.length;
    for (let i = 0; i < 3; i++) server.push({ kind: "fixture", file: "anthropic-error-overloaded.json", status: 529 });
    const { message } = await collect(anthropic(), { model: "claude-sonnet-4-6" });
    expect(server.requests.length - before).toBe(3);
    expect(message.stop).toBe("error");
    expect(message.error).toBe("anthropic is overloaded (HTTP 529: Overloaded (overloaded_error)) after 3 attempts; try again later");
  });
});

describe("anthropic requests", () => {
  test("posts to <base>/v1/messages with the key, version header and a streamed body", async () => {
    server.push({ kind: "turn", text: "hello there" });
    const { message, events } = await collect(createProvider({ provider: "anthropic", apiKey: KEY, baseUrl: `${server.url}/v1/` }), {
      model: "claude-haiku-4-5",
      system: "be brief",
    });
    const req = server.requests[server.requests.length - 1]!;
    expect(req.path).toBe("/v1/messages");
    expect(req.headers["x-api-key"]).toBe(KEY);
    expect(req.headers["anthropic-version"]).toBe("2023-06-01");
    expect(req.body).toMatchObject({ model: "claude-haiku-4-5", stream: true, max_tokens: 64000 });
    expect(message.stop).toBe("end_turn");
    expect(textOf(message)).toBe("hello there");
    expect(events.filter((e) => e.type === "text_delta").length).toBeGreaterThan(1);
    expect(events[events.length - 2]!.type).toBe("usage");
  });

  test("places cache breakpoints on the system prompt, the last tool and the last two user messages", async () => {
    server.push({ kind: "turn", text: "ok" });
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "first" }], ts: 0 },
      assistantWith([{ type: "toolCall", id: "t1", name: "read", args: { path: "a" } }]),
      { role: "toolResult", toolCallId: "t1", toolName: "read", content: [{ type: "text", text: "A" }], isError: false, ts: 0 },
      assistantWith([{ type: "text", text: "read it" }]),
      { role: "user", content: [{ type: "text", text: "second" }], ts: 0 },
    ];
    await collect(anthropic(), {
      model: "claude-sonnet-4-6",
      system: "sys",
      messages,
      tools: [
        { name: "read", description: "r", schema: { type: "object", properties: {} } },
        { name: "bash", description: "b", schema: { type: "object", properties: {} } },
      ],
    });
    const body = lastBody();
    const text = JSON.stringify(body);
    expect(text.split('"cache_control"').length - 1).toBe(4);
    expect((body.system as Record<string, unknown>[])[0]).toEqual({ type: "text", text: "sys", cache_control: { type: "ephemeral" } });
    const tools = body.tools as Record<string, unknown>[];
    expect(tools[0]!.cache_control).toBeUndefined();
    expect(tools[1]).toEqual({ name: "bash", description: "b", input_schema: { type: "object", properties: {} }, cache_control: { type: "ephemeral" } });
    const sent = body.messages as { role: string; content: Record<string, unknown>[] }[];
    expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(sent[0]!.content[0]!.cache_control).toBeUndefined();
    expect(sent[2]!.content[0]).toEqual({
      type: "tool_result",
      tool_use_id: "t1",
      content: [{ type: "text", text: "A" }],
      cache_control: { type: "ephemeral" },
    });
    expect(sent[4]!.content[0]).toEqual({ type: "text", text: "second", cache_control: { type: "ephemeral" } });
  });

  test("never sends empty text blocks or empty messages, and merges the user turns left adjacent", async () => {
    server.push({ kind: "turn", text: "ok" });
    const messages: Message[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "" },
          { type: "image", mimeType: "image/png", data: "AAAA" },
        ],
        ts: 0,
      },
      assistantWith([
        { type: "text", text: "" },
        { type: "thinking", thinking: "unsigned" },
      ]),
      { role: "user", content: [{ type: "text", text: "again" }], ts: 0 },
      assistantWith([{ type: "toolCall", id: "t9", name: "bash", args: {} }]),
      { role: "toolResult", toolCallId: "t9", toolName: "bash", content: [{ type: "text", text: "" }], isError: true, ts: 0 },
    ];
    await collect(anthropic(), { model: "claude-sonnet-4-6", system: "  ", messages });
    const body = lastBody();
    expect(body.system).toBeUndefined();
    expect(JSON.stringify(body)).not.toContain('"text":""');
    const sent = body.messages as { role: string; content: Record<string, unknown>[] }[];
    expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(sent[0]!.content.map((b) => b.type)).toEqual(["image", "text"]);
    expect(sent[2]!.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "t9", is_error: true, content: [{ type: "text", text: "(no output)" }] });
  });

  test("sends images and tool-result images as base64 blocks", async () => {
    server.push({ kind: "turn", text: "a cat" });
    const messages: Message[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image", mimeType: "image/jpeg", data: "/9j/" },
        ],
        ts: 0,
      },
      assistantWith([{ type: "toolCall", id: "t2", name: "read", args: { path: "c.png" } }]),
      { role: "toolResult", toolCallId: "t2", toolName: "read", content: [{ type: "image", mimeType: "image/png", data: "iVBO" }], isError: false, ts: 0 },
    ];
    await collect(anthropic(), { model: "claude-sonnet-4-6", messages });
    const sent = lastBody().messages as { content: Record<string, unknown>[] }[];
    expect(sent[0]!.content[1]).toMatchObject({ type: "image", source: { type: "base64", media_type: "image/jpeg", data: "/9j/" } });
    expect((sent[2]!.content[0]!.content as unknown[])[0]).toEqual({ type: "image", source: { type: "base64", media_type: "image/png", data: "iVBO" } });
  });

  test("without a key for the real API it fails at once with a hint, sending nothing", async () => {
    const before = server.requests.length;
    const { message } = await collect(createProvider({ provider: "anthropic" }), { model: "claude-sonnet-4-6" });
    expect(message.stop).toBe("error");
    expect(message.error).toBe("no API key for anthropic; set ANTHROPIC_API_KEY or pass --api-key");
    expect(server.requests.length).toBe(before);
  });

  test("usage from message_delta overwrites earlier counts instead of adding to them", async () => {
    const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    const body =
      ev("message_start", { message: { usage: { input_tokens: 100, output_tokens: 1, cache_read_input_tokens: 7, cache_creation_input_tokens: 3 } } }) +
      ev("content_block_start", { index: 0, content_block: { type: "text", text: "" } }) +
      ev("content_block_delta", { index: 0, delta: { type: "text_delta", text: "hi" } }) +
      ev("message_delta", { delta: {}, usage: { output_tokens: 10 } }) +
      ev("message_delta", { delta: { stop_reason: "end_turn" }, usage: { output_tokens: 20, input_tokens: 100, cache_read_input_tokens: 50 } }) +
      ev("message_stop", {});
    server.push({ kind: "raw", body, seed: 3 });
    const { message } = await collect(anthropic(), { model: "claude-sonnet-4-6" });
    expect(message.usage).toEqual({ input: 100, output: 20, cacheRead: 50, cacheWrite: 3, cost: (100 * 3 + 20 * 15 + 50 * 0.3 + 3 * 3.75) / 1e6 });
  });

  test("an error event after HTTP 200 ends the reply with stop error and drops its tool calls", async () => {
    const body =
      'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":5,"output_tokens":1}}}\n\n' +
      'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"bash","input":{}}}\n\n' +
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{}"}}\n\n' +
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    server.push({ kind: "raw", body });
    const { message } = await collect(anthropic(), { model: "claude-sonnet-4-6" });
    expect(message.stop).toBe("error");
    expect(message.error).toBe("anthropic reported an error mid-stream: Overloaded (overloaded_error); try again later");
    expect(calls(message)).toEqual([]);
  });

  test("a data-only error payload without an event name is also a failure", async () => {
    server.push({ kind: "raw", body: 'data: {"error":{"message":"proxy quota exceeded"}}\n\n' });
    const { message } = await collect(anthropic(), { model: "claude-sonnet-4-6" });
    expect(message.stop).toBe("error");
    expect(message.error).toContain("proxy quota exceeded");
  });

  test("a JSON body with status 200 instead of a stream is reported, not parsed as events", async () => {
    server.push({ kind: "raw", body: '{"type":"error","error":{"type":"api_error","message":"boom"}}', contentType: "application/json" });
    const { message } = await collect(anthropic(), { model: "claude-sonnet-4-6" });
    expect(message.stop).toBe("error");
    expect(message.error).toContain("boom");
  });

  test("redacted thinking is kept and sent back as redacted_thinking with its data", async () => {
    const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    server.push({
      kind: "raw",
      body:
        ev("message_start", { message: { usage: { input_tokens: 1, output_tokens: 1 } } }) +
        ev("content_block_start", { index: 0, content_block: { type: "redacted_thinking", data: "EncryptedBlob==" } }) +
        ev("content_block_stop", { index: 0 }) +
        ev("content_block_start", { index: 1, content_block: { type: "text", text: "" } }) +
        ev("content_block_delta", { index: 1, delta: { type: "text_delta", text: "answer" } }) +
        ev("message_delta", { delta: { stop_reason: "end_turn" }, usage: { output_tokens: 3 } }) +
        ev("message_stop", {}),
    });
    const { message } = await collect(anthropic(), { model: "claude-sonnet-4-6", reasoning: "low" });
    expect(message.content).toEqual([
      { type: "thinking", thinking: "", redacted: "EncryptedBlob==" },
      { type: "text", text: "answer" },
    ]);
    server.push({ kind: "turn", text: "ok" });
    await collect(anthropic(), {
      model: "claude-sonnet-4-6",
      messages: [{ role: "user", content: [{ type: "text", text: "q" }], ts: 0 }, message, { role: "user", content: [{ type: "text", text: "more" }], ts: 0 }],
    });
    const sent = lastBody().messages as { content: Record<string, unknown>[] }[];
    expect(sent[1]!.content).toEqual([
      { type: "redacted_thinking", data: "EncryptedBlob==" },
      { type: "text", text: "answer" },
    ]);
  });

  test("reasoning is not sent to a model the catalog marks as non-reasoning", async () => {
    server.push({ kind: "turn", text: "ok" });
    const plain: ModelInfo = {
      ...findModel(builtinModels(), "anthropic", "claude-haiku-4-5")!,
      id: "claude-plain",
      reasoning: false,
      thinking: undefined,
      source: "custom",
    };
    await collect(createProvider({ provider: "anthropic", apiKey: KEY, baseUrl: server.url, catalog: [plain] }), { model: "claude-plain", reasoning: "high" });
    expect(lastBody().thinking).toBeUndefined();
    expect(lastBody().output_config).toBeUndefined();
    server.push({ kind: "turn", text: "ok" });
    await collect(anthropic(), { model: "claude-future-9", reasoning: "high", maxTokens: 4096 });
    expect(lastBody()).toMatchObject({ thinking: { type: "enabled", budget_tokens: 3072 }, max_tokens: 4096 });
  });
});

function assistantWith(content: AssistantMessage["content"]): AssistantMessage {
  return {
    role: "assistant",
    content,
    stop: "end_turn",
    provider: "anthropic",
    model: "m",
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 },
    ts: 0,
  };
}

describe("anthropic models of 2026", () => {
  test("--reasoning on a 5.x model asks for adaptive thinking at that effort and never switches thinking off", async () => {
    server.push({ kind: "turn", text: "ok" }, { kind: "turn", text: "ok" });
    await collect(anthropic(), { model: "claude-sonnet-5-5", reasoning: "xhigh" });
    expect(lastBody()).toMatchObject({ max_tokens: 128_000, thinking: { type: "adaptive" }, output_config: { effort: "xhigh" } });
    await collect(anthropic(), { model: "claude-opus-5-5" });
    expect(lastBody().thinking).toBeUndefined();
    expect(lastBody().output_config).toBeUndefined();
  });

  test("budget_tokens stays the interface where it still is, with effort beside it on Opus 4.5", async () => {
    server.push({ kind: "turn", text: "ok" }, { kind: "turn", text: "ok" });
    await collect(anthropic(), { model: "claude-haiku-4-5", reasoning: "max" });
    expect(lastBody()).toMatchObject({ max_tokens: 64_000, thinking: { type: "enabled", budget_tokens: 62_976 } });
    expect(lastBody().output_config).toBeUndefined();
    await collect(anthropic(), { model: "claude-opus-4-5", reasoning: "medium" });
    expect(lastBody()).toMatchObject({ thinking: { type: "enabled", budget_tokens: 8192 }, output_config: { effort: "medium" } });
  });

  test('stop_reason "refusal" ends the reply normally and says it was a refusal after the text so far', async () => {
    const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    server.push({
      kind: "raw",
      body:
        ev("message_start", {
          message: { id: "m", type: "message", role: "assistant", model: "claude-fable-5-1", content: [], usage: { input_tokens: 9, output_tokens: 1 } },
        }) +
        ev("content_block_start", { index: 0, content_block: { type: "text", text: "" } }) +
        ev("content_block_delta", { index: 0, delta: { type: "text_delta", text: "I can" } }) +
        ev("content_block_stop", { index: 0 }) +
        ev("message_delta", { delta: { stop_reason: "refusal", stop_sequence: null }, usage: { output_tokens: 4 } }) +
        ev("message_stop", {}),
    });
    const { message, text } = await collect(anthropic(), { model: "claude-fable-5-1" });
    expect(message.stop).toBe("end_turn");
    expect(message.error).toBeUndefined();
    const notice = "I can\n\n[The model declined to continue (stop reason: refusal). Rephrase the request or try another model.]";
    expect(text).toBe(notice);
    expect(textOf(message)).toBe(notice);
  });

  test("thinking goes back only to the model that produced it; after a switch it is dropped from the request", async () => {
    const thought = {
      ...assistantWith([
        { type: "thinking", thinking: "plan", signature: "sig-A" },
        { type: "text", text: "done" },
      ]),
      model: "claude-opus-5-5",
    };
    const history: Message[] = [
      { role: "user", content: [{ type: "text", text: "q" }], ts: 0 },
      thought,
      { role: "user", content: [{ type: "text", text: "more" }], ts: 0 },
    ];
    server.push({ kind: "turn", text: "ok" }, { kind: "turn", text: "ok" });
    await collect(anthropic(), { model: "claude-opus-5-5", messages: history });
    expect((lastBody().messages as { content: unknown[] }[])[1]!.content).toEqual([
      { type: "thinking", thinking: "plan", signature: "sig-A" },
      { type: "text", text: "done" },
    ]);
    await collect(anthropic(), { model: "claude-sonnet-5-5", messages: history });
    expect((lastBody().messages as { content: unknown[] }[])[1]!.content).toEqual([{ type: "text", text: "done" }]);
  });

  test("as the history grows, the cache breakpoints move to the newest user messages and leave none behind", async () => {
    const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }], ts: 0 });
    const history: Message[] = [
      user("one"),
      assistantWith([{ type: "text", text: "a" }]),
      user("two"),
      assistantWith([{ type: "text", text: "b" }]),
      user("three"),
    ];
    const marks = () =>
      (lastBody().messages as { content: { text?: string; cache_control?: unknown }[] }[]).flatMap((m) =>
        m.content.filter((b) => b.cache_control).map((b) => b.text),
      );
    server.push({ kind: "turn", text: "ok" }, { kind: "turn", text: "ok" });
    await collect(anthropic(), { model: "claude-sonnet-4-5", messages: history });
    expect(marks()).toEqual(["two", "three"]);
    history.push(assistantWith([{ type: "text", text: "c" }]), user("four"));
    await collect(anthropic(), { model: "claude-sonnet-4-5", messages: history });
    expect(marks()).toEqual(["three", "four"]);
  });

  test("cache writes with the 1 h TTL cost the 1 h price and a prompt above Haiku 5.5's 100K tier costs the long-context price", async () => {
    const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    const reply = (usage: object) =>
      ev("message_start", { message: { id: "m", type: "message", role: "assistant", model: "x", content: [], usage } }) +
      ev("content_block_start", { index: 0, content_block: { type: "text", text: "hi" } }) +
      ev("content_block_stop", { index: 0 }) +
      ev("message_delta", { delta: { stop_reason: "end_turn" }, usage: { output_tokens: 10 } }) +
      ev("message_stop", {});
    server.push({
      kind: "raw",
      body: reply({
        input_tokens: 100,
        cache_creation_input_tokens: 3000,
        cache_read_input_tokens: 0,
        cache_creation: { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 2000 },
        output_tokens: 1,
      }),
    });
    const sonnet = await collect(anthropic(), { model: "claude-sonnet-5-5" });
    expect(sonnet.message.usage.cost).toBeCloseTo((100 * 2 + 10 * 10 + 1000 * 2.5 + 2000 * 4) / 1e6, 12);

    server.push({ kind: "raw", body: reply({ input_tokens: 150_000, cache_read_input_tokens: 10_000, output_tokens: 1 }) });
    const haiku = await collect(anthropic(), { model: "claude-haiku-5-5" });
    expect(haiku.message.usage.cost).toBeCloseTo((150_000 * 0.5 + 10 * 2.5 + 10_000 * 0.05) / 1e6, 12);
    server.push({ kind: "raw", body: reply({ input_tokens: 50_000, output_tokens: 1 }) });
    const small = await collect(anthropic(), { model: "claude-haiku-5-5" });
    expect(small.message.usage.cost).toBeCloseTo((50_000 * 0.1 + 10 * 0.5) / 1e6, 12);
  });
});
