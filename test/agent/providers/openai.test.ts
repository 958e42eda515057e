import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { AssistantMessage, Message, ToolCallPart } from "../../../src/agent/messages.ts";
import { createProvider } from "../../../src/agent/providers/index.ts";
import { builtinModels } from "../../../src/agent/catalog.ts";
import type { ModelInfo } from "../../../src/agent/provider.ts";
import { startProviderServer, type ProviderServer } from "../../helpers/provider-server.ts";
import { collect } from "../../helpers/collect-stream.ts";
import { lastOf } from "../../helpers/elements.ts";

const KEY = "sk-proj-test-0123456789abcdefghij";
let server: ProviderServer;
beforeAll(() => {
  server = startProviderServer();
});
afterAll(() => server.stop());

// GPT-4o is retired from the built-in catalog; the recordings are of it, so the tests describe it the way a models.json would.
const GPT_4O: ModelInfo = {
  id: "gpt-4o",
  name: "GPT-4o",
  provider: "openai",
  reasoning: false,
  contextWindow: 128_000,
  maxTokens: 16_384,
  priceInput: 2.5,
  priceOutput: 10,
  priceCacheRead: 1.25,
  priceCacheWrite: 0,
  source: "custom",
};
const catalog = [...builtinModels(), GPT_4O];
const openai = (provider: "openai" | "kimi" | "ollama" = "openai", apiKey: string | null = KEY) =>
  createProvider({ provider, apiKey: apiKey ?? undefined, baseUrl: server.openaiBase, catalog, retry: { sleep: async () => {} } });
const calls = (m: AssistantMessage) => m.content.filter((p): p is ToolCallPart => p.type === "toolCall");
const textOf = (m: AssistantMessage) => m.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
const last = () => lastOf(server.requests);
const lastBody = () => last().body as Record<string, unknown>;

describe("openai fixtures replayed in random chunks", () => {
  test("one streamed tool call, a choices:[] usage chunk and [DONE]", async () => {
    for (const seed of [1, 2, 3]) {
      server.push({ kind: "fixture", file: "openai-chat-tool-calls-stream.sse", seed });
      const { message, events } = await collect(openai(), { model: "gpt-4o" });
      expect(message.stop).toBe("tool_use");
      expect(message.content).toEqual([{ type: "toolCall", id: "call_4XzlGBLtUe9dy3GVNV4jhq7h", name: "get_weather", args: { city: "New York City" } }]);
      expect(message.usage).toMatchObject({ input: 44, output: 16, cacheRead: 0, cacheWrite: 0 });
      expect(message.usage.cost).toBeCloseTo((44 * 2.5 + 16 * 10) / 1e6, 12);
      expect(events.filter((e) => e.type === "tool_use_start")).toEqual([{ type: "tool_use_start", id: "call_4XzlGBLtUe9dy3GVNV4jhq7h", name: "get_weather" }]);
    }
  });

  test("two parallel tool calls with usage:null on every chunk and cached-token details at the end", async () => {
    server.push({ kind: "fixture", file: "openai-chat-parallel-tool-calls-usage-stream.sse", seed: 7 });
    const { message } = await collect(openai(), { model: "gpt-4o" });
    expect(message.stop).toBe("tool_use");
    expect(calls(message).map((c) => [c.id, c.name, c.args])).toEqual([
      ["call_ehIWdjL1abZk1h8FWGLQ0Hie", "add", { a: 2, b: 3 }],
      ["call_fBSgA47J5VeONggizTIvl7AH", "multiply", { a: 2, b: 3 }],
    ]);
    expect(message.usage).toMatchObject({ input: 106, output: 50, cacheRead: 0 });
  });

  test("llama.cpp: reasoning_content becomes thinking and a first fragment with arguments is kept", async () => {
    server.push({ kind: "fixture", file: "openai-compat-llamacpp-tool-calls-stream.sse", seed: 11 });
    const { message, thinking } = await collect(openai("ollama", null), { model: "openai/gpt-oss-20b" });
    expect(thinking).toBe("User wants weather in Florence, Italy. We can use the weather function.");
    expect(message.content[0]).toEqual({ type: "thinking", thinking });
    expect(calls(message)).toEqual([{ type: "toolCall", id: "g2KOIWzn722hzEaZQmNVP4roUPEiYafL", name: "weather", args: { location: "Florence, Italy" } }]);
    expect(message.stop).toBe("tool_use");
    expect(message.usage).toMatchObject({ input: 139, output: 41 });
    expect(last().headers.authorization).toBeUndefined();
  });

  test("Ollama: an empty role-only first chunk, reasoning deltas, and each tool call whole in one delta", async () => {
    for (const seed of [1, 2]) {
      server.push({ kind: "fixture", file: "openai-compat-ollama-tool-calls-stream.sse", seed });
      const { message, thinking, events } = await collect(openai("ollama", null), { model: "qwen3:8b" });
      expect(thinking).toBe("The user wants the README and the file list.");
      expect(textOf(message)).toBe("");
      expect(calls(message).map((c) => [c.id, c.name, c.args])).toEqual([
        ["call_k3v9x2qa", "read", { path: "README.md" }],
        ["call_7hm2p0wd", "bash", { command: "ls" }],
      ]);
      expect(events.filter((e) => e.type === "tool_use_args").map((e) => (e.type === "tool_use_args" ? e.delta : ""))).toEqual([
        '{"path":"README.md"}',
        '{"command":"ls"}',
      ]);
      expect(message.stop).toBe("tool_use");
      expect(message.usage).toMatchObject({ input: 412, output: 58 });
    }
  });

  test("LM Studio before 0.3.18 sends no usage even when asked: the reply still completes, with zero counts", async () => {
    server.push({ kind: "fixture", file: "openai-compat-lmstudio-no-usage-stream.sse", seed: 4 });
    const { message } = await collect(openai("ollama", null), { model: "qwen2.5-7b-instruct" });
    expect(textOf(message)).toBe("Hello from LM Studio.");
    expect(message.stop).toBe("end_turn");
    expect(message.usage).toMatchObject({ input: 0, output: 0, cacheRead: 0 });
    expect(lastBody().stream_options).toEqual({ include_usage: true });
  });

  test("Anthropic's compatible endpoint: text, a tool call at index 1, no usage chunk, [DONE] without a blank line", async () => {
    server.push({ kind: "fixture", file: "openai-compat-anthropic-endpoint-tool-call-stream.sse", seed: 2 });
    const { message } = await collect(openai(), { model: "claude-haiku-4-5" });
    expect(textOf(message)).toBe("Reading it.");
    expect(calls(message)).toEqual([{ type: "toolCall", id: "toolu_sanitized", name: "read_file", args: { path: "a.txt" } }]);
    expect(message.stop).toBe("tool_use");
    expect(message.usage).toMatchObject({ input: 0, output: 0 });
  });

  test("a Responses stream answering a Chat Completions request says to pass --wire responses instead of being misparsed", async () => {
    server.push({ kind: "fixture", file: "openai-responses-tool-calls-stream.sse", seed: 5 });
    const { message } = await collect(openai(), { model: "gpt-4o-mini" });
    expect(message.stop).toBe("error");
    expect(message.error).toBe(
      'openai answered a Chat Completions request with an OpenAI Responses stream; pass --wire responses (or set "wire": "responses" for the model in models.json)',
    );
    expect(calls(message)).toEqual([]);
  });

  test("a recorded 400 is not retried and shows OpenAI's message", async () => {
    const before = server.requests.length;
    server.push({ kind: "fixture", file: "openai-chat-error-400.json", status: 400 });
    const { message } = await collect(openai(), { model: "o4-mini" });
    expect(server.requests.length - before).toBe(1);
    expect(message.error).toBe(
      "openai rejected the request (HTTP 400: Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead. (invalid_request_error))",
    );
  });
});

describe("openai requests", () => {
  test("posts to <base>/chat/completions with a bearer key, usage requested, tools as functions", async () => {
    server.push({ kind: "turn", text: "ok" });
    await collect(openai(), {
      model: "gpt-4.1",
      system: "be brief",
      tools: [{ name: "bash", description: "run", schema: { type: "object", properties: { command: { type: "string" } } } }],
      maxTokens: 100,
    });
    expect(last().path).toBe("/v1/chat/completions");
    expect(last().headers.authorization).toBe(`Bearer ${KEY}`);
    expect(lastBody()).toMatchObject({
      model: "gpt-4.1",
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 100,
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "hi" },
      ],
      tools: [
        { type: "function", function: { name: "bash", description: "run", parameters: { type: "object", properties: { command: { type: "string" } } } } },
      ],
    });
    expect(lastBody().reasoning_effort).toBeUndefined();
  });

  test("reasoning effort goes to OpenAI reasoning models and Kimi's, and other servers get max_tokens", async () => {
    server.push({ kind: "turn", text: "ok" }, { kind: "turn", text: "ok" }, { kind: "turn", text: "ok" }, { kind: "turn", text: "ok" });
    await collect(createProvider({ provider: "openai", apiKey: KEY, baseUrl: server.openaiBase, wire: "chat" }), { model: "gpt-6-sol", reasoning: "xhigh" });
    expect(last().path).toBe("/v1/chat/completions");
    expect(lastBody().reasoning_effort).toBe("xhigh");
    await collect(openai("kimi"), { model: "kimi-k3", reasoning: "max" });
    expect(lastBody().reasoning_effort).toBe("max");
    await collect(openai(), { model: "gpt-4o", reasoning: "high" });
    expect(lastBody().reasoning_effort).toBeUndefined();
    await collect(openai("ollama", null), { model: "llama3.2", reasoning: "high", maxTokens: 50 });
    expect(lastBody()).toMatchObject({ max_tokens: 50 });
    expect(lastBody().reasoning_effort).toBeUndefined();
  });

  test("tool results are tool messages; their images follow in a user message as data URLs", async () => {
    server.push({ kind: "turn", text: "ok" });
    const messages: Message[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "see" },
          { type: "image", mimeType: "image/png", data: "iVBO" },
        ],
        ts: 0,
      },
      assistant([
        { type: "thinking", thinking: "hmm" },
        { type: "text", text: "" },
        { type: "toolCall", id: "c1", name: "read", args: { path: "x.png" } },
        { type: "toolCall", id: "c2", name: "bash", args: {} },
      ]),
      { role: "toolResult", toolCallId: "c1", toolName: "read", content: [{ type: "image", mimeType: "image/png", data: "AAAA" }], isError: false, ts: 0 },
      { role: "toolResult", toolCallId: "c2", toolName: "bash", content: [{ type: "text", text: "" }], isError: true, ts: 0 },
      assistant([{ type: "text", text: "" }]),
      { role: "user", content: [{ type: "text", text: "next" }], ts: 0 },
    ];
    await collect(openai(), { model: "gpt-4o", messages });
    expect(lastBody().messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "see" },
          { type: "image_url", image_url: { url: "data:image/png;base64,iVBO" } },
        ],
      },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c1", type: "function", function: { name: "read", arguments: '{"path":"x.png"}' } },
          { id: "c2", type: "function", function: { name: "bash", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "(the image is attached in the next message)" },
      { role: "tool", tool_call_id: "c2", content: "(no output)" },
      {
        role: "user",
        content: [
          { type: "text", text: "Images returned by the tool calls above:" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
        ],
      },
      { role: "user", content: "next" },
    ]);
  });

  test("kimi gets its own reasoning back as reasoning_content", async () => {
    server.push({ kind: "turn", text: "ok" });
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "q" }], ts: 0 },
      {
        ...assistant([
          { type: "thinking", thinking: "plan" },
          { type: "toolCall", id: "k1", name: "bash", args: { command: "ls" } },
        ]),
        provider: "kimi",
      },
      { role: "toolResult", toolCallId: "k1", toolName: "bash", content: [{ type: "text", text: "a b" }], isError: false, ts: 0 },
    ];
    await collect(openai("kimi"), { model: "kimi-k2-thinking", messages });
    expect((lastBody().messages as Record<string, unknown>[])[1]).toMatchObject({ role: "assistant", reasoning_content: "plan" });
  });

  test("tool calls decide the stop reason, not finish_reason", async () => {
    const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    server.push({
      kind: "raw",
      body:
        chunk({ tool_calls: [{ index: 0, id: "z", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } }] }) +
        chunk({}, "stop") +
        "data: [DONE]\n\n",
    });
    const withCalls = await collect(openai(), { model: "gpt-4o" });
    expect(withCalls.message.stop).toBe("tool_use");
    expect(calls(withCalls.message).length).toBe(1);

    server.push({ kind: "raw", body: chunk({ content: "no tools here" }) + chunk({}, "tool_calls") + "data: [DONE]\n\n" });
    const without = await collect(openai(), { model: "gpt-4o" });
    expect(without.message.stop).toBe("end_turn");
  });

  test("tool calls without index or id still assemble, with generated ids", async () => {
    const chunk = (delta: object) => `data: ${JSON.stringify({ choices: [{ index: 0, delta }] })}\n\n`;
    server.push({
      kind: "raw",
      body:
        chunk({ tool_calls: [{ function: { name: "read", arguments: '{"path":' } }] }) +
        chunk({ tool_calls: [{ function: { arguments: '"a"}' } }] }) +
        `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "tool_calls", usage: { prompt_tokens: 30, completion_tokens: 4, cached_tokens: 20 } }] })}\n\n` +
        "data: [DONE]\n\n",
    });
    const { message } = await collect(openai("kimi"), { model: "kimi-k2-0905-preview" });
    expect(calls(message)).toEqual([{ type: "toolCall", id: "call_0", name: "read", args: { path: "a" } }]);
    expect(message.usage).toMatchObject({ input: 10, cacheRead: 20, output: 4 });
  });

  test("calls without index are told apart by their ids", async () => {
    const chunk = (delta: object) => `data: ${JSON.stringify({ choices: [{ index: 0, delta }] })}\n\n`;
    server.push({
      kind: "raw",
      body:
        chunk({ tool_calls: [{ id: "one", function: { name: "read", arguments: '{"path":"a"}' } }] }) +
        chunk({ tool_calls: [{ id: "two", function: { name: "read", arguments: '{"path":' } }] }) +
        chunk({ tool_calls: [{ function: { arguments: '"b"}' } }] }) +
        "data: [DONE]\n\n",
    });
    const { message } = await collect(openai("ollama", null), { model: "llama3.2" });
    expect(calls(message).map((c) => [c.id, c.args])).toEqual([
      ["one", { path: "a" }],
      ["two", { path: "b" }],
    ]);
  });

  test('an in-stream {"error": …} chunk after HTTP 200 is a failure', async () => {
    server.push({
      kind: "raw",
      body: `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "par" } }] })}\n\ndata: {"error":{"message":"upstream timed out"}}\n\n`,
    });
    const { message } = await collect(openai(), { model: "gpt-4o" });
    expect(message.stop).toBe("error");
    expect(message.error).toBe("openai reported an error mid-stream: upstream timed out");
    expect(textOf(message)).toBe("par");
  });

  test("a refusal delta is shown as a refusal and the reply ends normally", async () => {
    const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    server.push({
      kind: "raw",
      body: chunk({ role: "assistant", content: null, refusal: "I can't" }) + chunk({ refusal: " do that." }) + chunk({}, "stop") + "data: [DONE]\n\n",
    });
    const { message, text } = await collect(openai(), { model: "gpt-4o" });
    expect(message.stop).toBe("end_turn");
    expect(text).toBe("[refusal] I can't do that.");
    expect(textOf(message)).toBe(text);
  });

  test("finish_reason length maps to max_tokens and content_filter to an error", async () => {
    const chunk = (delta: object, finish: string | null = null) => `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    server.push({ kind: "raw", body: chunk({ content: "long" }, "length") + "data: [DONE]\n\n" });
    expect((await collect(openai(), { model: "gpt-4o" })).message.stop).toBe("max_tokens");
    server.push({ kind: "raw", body: chunk({}, "content_filter") + "data: [DONE]\n\n" });
    const filtered = await collect(openai(), { model: "gpt-4o" });
    expect(filtered.message.stop).toBe("error");
    expect(filtered.message.error).toContain("content filter");
  });

  test("openai and kimi without a key fail at once naming the variables; ollama needs none", async () => {
    const none = await collect(createProvider({ provider: "kimi" }), { model: "kimi-k2-0905-preview" });
    expect(none.message.error).toBe("no API key for kimi; set KIMI_API_KEY or MOONSHOT_API_KEY or pass --api-key");
    const oa = await collect(createProvider({ provider: "openai" }), { model: "gpt-5" });
    expect(oa.message.error).toBe("no API key for openai; set OPENAI_API_KEY or pass --api-key");
    server.push({ kind: "turn", text: "local" });
    const local = await collect(openai("ollama", null), { model: "llama3.2" });
    expect(textOf(local.message)).toBe("local");
  });
});

function assistant(content: AssistantMessage["content"]): AssistantMessage {
  return {
    role: "assistant",
    content,
    stop: "tool_use",
    provider: "openai",
    model: "gpt-4o",
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 },
    ts: 0,
  };
}
