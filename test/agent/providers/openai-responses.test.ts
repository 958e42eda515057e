import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { AssistantMessage, Message, ToolCallPart } from "../../../src/agent/messages.ts";
import { createProvider } from "../../../src/agent/providers/index.ts";
import { startProviderServer, type ProviderServer } from "../../helpers/provider-server.ts";
import { collect } from "../../helpers/collect-stream.ts";
import { lastOf } from "../../helpers/elements.ts";

const KEY = "sk-proj-responses-0123456789abcdef";
let server: ProviderServer;
beforeAll(() => {
  server = startProviderServer();
});
afterAll(() => server.stop());

const openai = (wire?: "chat" | "responses") =>
  createProvider({ provider: "openai", apiKey: KEY, baseUrl: server.openaiBase, ...(wire ? { wire } : {}), retry: { sleep: async () => {} } });
const calls = (m: AssistantMessage) => m.content.filter((p): p is ToolCallPart => p.type === "toolCall");
const textOf = (m: AssistantMessage) => m.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
const last = () => lastOf(server.requests);
const lastBody = () => last().body as Record<string, unknown>;
const SEEDS = [1, 4, 9];

describe("Responses fixtures replayed in random chunks", () => {
  test("the recorded stream: two function calls with argument deltas, then usage", async () => {
    for (const seed of SEEDS) {
      server.push({ kind: "fixture", file: "openai-responses-tool-calls-stream.sse", seed });
      const { message, events } = await collect(openai("responses"), { model: "gpt-4o-mini" });
      expect(last().path).toBe("/v1/responses");
      expect(message.stop).toBe("tool_use");
      expect(calls(message).map((c) => [c.id, c.name, c.args])).toEqual([
        ["call_ZckkKeJQwcJPC27VXT61xFLf", "add", { a: 2, b: 3 }],
        ["call_M9h2AZgoLEv6q5gkex1QMtm2", "multiply", { a: 2, b: 3 }],
      ]);
      expect(events.filter((e) => e.type === "tool_use_start").map((e) => (e.type === "tool_use_start" ? e.name : ""))).toEqual(["add", "multiply"]);
      expect(events.filter((e) => e.type === "tool_use_end").length).toBe(2);
      expect(message.usage).toMatchObject({ input: 104, output: 51, cacheRead: 0 });
    }
  });

  test("reasoning summaries stream as thinking, the encrypted item is kept, and cached tokens count as cache reads", async () => {
    for (const seed of SEEDS) {
      server.push({ kind: "fixture", file: "openai-responses-reasoning-text-stream.sse", seed });
      const { message, thinking, text } = await collect(openai(), { model: "gpt-6.2-sol" });
      expect(thinking).toBe("**Checking the file**\n\nThe user wants the line count.\n\n**Answering**\n\nIt has 42 lines.");
      expect(text).toBe("The file has 42 lines.");
      expect(message.content).toEqual([
        { type: "thinking", thinking, signature: "gAAAAABpLm9iZnVzY2F0ZWQtcmVhc29uaW5nLWJsb2ItZm9yLXRlc3RzLW9ubHk9PQ==" },
        { type: "text", text },
      ]);
      expect(message.stop).toBe("end_turn");
      expect(message.usage).toMatchObject({ input: 1104, cacheRead: 4096, output: 310 });
      expect(message.usage.cost).toBeCloseTo((1104 * 2 + 4096 * 0.1 + 310 * 10) / 1e6, 12);
    }
  });

  test("a refusal is shown as a refusal: the reply ends normally with the refusal text marked", async () => {
    server.push({ kind: "fixture", file: "openai-responses-refusal-stream.sse", seed: 3 });
    const { message, text } = await collect(openai(), { model: "gpt-6.2-sol" });
    expect(message.stop).toBe("end_turn");
    expect(message.error).toBeUndefined();
    expect(text).toBe("[refusal] I can't help with that request.");
    expect(textOf(message)).toBe(text);
  });

  test("an incomplete response cut by max_output_tokens keeps its text and stops with max_tokens", async () => {
    server.push({ kind: "fixture", file: "openai-responses-incomplete-max-output-stream.sse", seed: 2 });
    const { message } = await collect(openai(), { model: "gpt-6.2-sol" });
    expect(message.stop).toBe("max_tokens");
    expect(textOf(message)).toBe("Step one: reading the config, then");
    expect(message.usage).toMatchObject({ input: 120, output: 16 });
  });

  test("an error event mid-stream fails the reply with OpenAI's message and keeps the partial text", async () => {
    server.push({ kind: "fixture", file: "openai-responses-error-mid-stream.sse", seed: 5 });
    const { message } = await collect(openai(), { model: "gpt-6.2-sol" });
    expect(message.stop).toBe("error");
    expect(message.error).toBe(
      "openai reported an error mid-stream: The server had an error while processing your request. Sorry about that! (server_error); try again",
    );
    expect(textOf(message)).toBe("Looking at");
  });

  test("response.failed is a failure naming the error code", async () => {
    server.push({ kind: "fixture", file: "openai-responses-failed-stream.sse", seed: 6 });
    const { message } = await collect(openai(), { model: "gpt-6.2-sol" });
    expect(message.stop).toBe("error");
    expect(message.error).toBe(
      "openai reported an error mid-stream: Rate limit reached for gpt-6.2-sol on tokens per min (TPM). Please try again in 2.5s. (rate_limit_exceeded); wait a moment and try again",
    );
  });

  test("a stream that stops before response.completed is an error, not a silent end", async () => {
    server.push({ kind: "turn", text: "half", cutAfter: 5 });
    const { message } = await collect(openai(), { model: "gpt-6.2-sol" });
    expect(message.stop).toBe("error");
    expect(message.error).toBe("the openai stream ended before the response was complete (no response.completed); try again");
  });
});

describe("Responses requests", () => {
  test("stateless: store false, encrypted reasoning included, effort and summaries asked for, tools as functions, the session as cache key", async () => {
    server.push({ kind: "turn", text: "ok" });
    await collect(openai(), {
      model: "gpt-6.2-astra",
      system: "be brief",
      reasoning: "max",
      maxTokens: 2000,
      sessionId: "20261201T090000Z-abcd",
      tools: [{ name: "bash", description: "run", schema: { type: "object", properties: { command: { type: "string" } } } }],
    });
    expect(last().path).toBe("/v1/responses");
    expect(last().headers.authorization).toBe(`Bearer ${KEY}`);
    expect(lastBody()).toEqual({
      model: "gpt-6.2-astra",
      input: [{ role: "user", content: [{ type: "input_text", text: "hi" }] }],
      stream: true,
      store: false,
      instructions: "be brief",
      tools: [
        { type: "function", name: "bash", description: "run", parameters: { type: "object", properties: { command: { type: "string" } } }, strict: false },
      ],
      include: ["reasoning.encrypted_content"],
      reasoning: { effort: "max", summary: "auto" },
      max_output_tokens: 2000,
      prompt_cache_key: "20261201T090000Z-abcd",
    });
  });

  test("the encrypted reasoning goes back in order with the calls, results carry text and images, and another model gets no reasoning", async () => {
    server.push({ kind: "fixture", file: "openai-responses-reasoning-text-stream.sse" }, { kind: "turn", text: "ok" }, { kind: "turn", text: "ok" });
    const first = await collect(openai(), { model: "gpt-6.2-sol" });
    const reasoning = first.message.content[0]!;
    const turn: AssistantMessage = {
      ...first.message,
      content: [reasoning, { type: "text", text: "Let me look." }, { type: "toolCall", id: "call_1", name: "read", args: { path: "a.png" } }],
    };
    const history: Message[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "what is in a.png?" },
          { type: "image", mimeType: "image/png", data: "iVBOR" },
        ],
        ts: 0,
      },
      turn,
      {
        role: "toolResult",
        toolCallId: "call_1",
        toolName: "read",
        content: [
          { type: "text", text: "a.png:" },
          { type: "image", mimeType: "image/png", data: "AAAA" },
        ],
        isError: false,
        ts: 0,
      },
    ];
    await collect(openai(), { model: "gpt-6.2-sol", messages: history });
    expect(lastBody().input).toEqual([
      {
        role: "user",
        content: [
          { type: "input_text", text: "what is in a.png?" },
          { type: "input_image", image_url: "data:image/png;base64,iVBOR" },
        ],
      },
      {
        type: "reasoning",
        summary: [{ type: "summary_text", text: "**Checking the file**\n\nThe user wants the line count.\n\n**Answering**\n\nIt has 42 lines." }],
        encrypted_content: "gAAAAABpLm9iZnVzY2F0ZWQtcmVhc29uaW5nLWJsb2ItZm9yLXRlc3RzLW9ubHk9PQ==",
      },
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "Let me look." }] },
      { type: "function_call", call_id: "call_1", name: "read", arguments: '{"path":"a.png"}' },
      {
        type: "function_call_output",
        call_id: "call_1",
        output: [
          { type: "input_text", text: "a.png:" },
          { type: "input_image", image_url: "data:image/png;base64,AAAA" },
        ],
      },
    ]);
    await collect(openai(), { model: "gpt-6.1-sol", messages: history });
    expect((lastBody().input as { type?: string }[]).some((i) => i.type === "reasoning")).toBe(false);
  });

  test("an unknown model gets no reasoning fields unless --reasoning asks for them", async () => {
    server.push({ kind: "turn", text: "a" }, { kind: "turn", text: "b" });
    await collect(openai("responses"), { model: "gpt-4o-mini" });
    expect(lastBody().reasoning).toBeUndefined();
    expect(lastBody().include).toBeUndefined();
    await collect(openai("responses"), { model: "gpt-4o-mini", reasoning: "low" });
    expect(lastBody()).toMatchObject({ reasoning: { effort: "low", summary: "auto" }, include: ["reasoning.encrypted_content"] });
  });

  test("a text-only tool result is a plain string output, and an empty one says so", async () => {
    server.push({ kind: "turn", text: "ok" });
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "go" }], ts: 0 },
      {
        role: "assistant",
        content: [
          { type: "toolCall", id: "c1", name: "bash", args: {} },
          { type: "toolCall", id: "c2", name: "bash", args: {} },
        ],
        stop: "tool_use",
        provider: "openai",
        model: "gpt-6-sol",
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 },
        ts: 0,
      },
      { role: "toolResult", toolCallId: "c1", toolName: "bash", content: [{ type: "text", text: "a\nb" }], isError: false, ts: 0 },
      { role: "toolResult", toolCallId: "c2", toolName: "bash", content: [], isError: true, ts: 0 },
    ];
    await collect(openai(), { model: "gpt-6-sol", messages });
    const input = lastBody().input as Record<string, unknown>[];
    expect(input.slice(3)).toEqual([
      { type: "function_call_output", call_id: "c1", output: "a\nb" },
      { type: "function_call_output", call_id: "c2", output: "(no output)" },
    ]);
  });

  test("the wire follows the model: Responses for OpenAI's current models, Chat Completions for unknown ids, --wire overrides both", async () => {
    server.push({ kind: "turn", text: "a" }, { kind: "turn", text: "b" }, { kind: "turn", text: "c" }, { kind: "turn", text: "d" });
    expect(textOf((await collect(openai(), { model: "gpt-6.2-sol" })).message)).toBe("a");
    expect(last().path).toBe("/v1/responses");
    expect(textOf((await collect(openai(), { model: "my-local-model" })).message)).toBe("b");
    expect(last().path).toBe("/v1/chat/completions");
    await collect(openai("chat"), { model: "gpt-6.2-sol" });
    expect(last().path).toBe("/v1/chat/completions");
    await collect(openai("responses"), { model: "my-local-model" });
    expect(last().path).toBe("/v1/responses");
  });

  test("without a key for the real API it fails at once with a hint, sending nothing", async () => {
    const before = server.requests.length;
    const { message } = await collect(createProvider({ provider: "openai" }), { model: "gpt-6.2-sol" });
    expect(message.error).toBe("no API key for openai; set OPENAI_API_KEY or pass --api-key");
    expect(server.requests.length).toBe(before);
  });
});
