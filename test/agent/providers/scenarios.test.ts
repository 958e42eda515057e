// The scripted scenarios from the issue, run against all three wire formats through a real local server.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { AssistantMessage, ToolCallPart } from "../../../src/agent/messages.ts";
import { createProvider, type ProviderName } from "../../../src/agent/providers/index.ts";
import type { Wire } from "../../../src/agent/choices.ts";
import { startProviderServer, type ProviderServer } from "../../helpers/provider-server.ts";
import { collect } from "../../helpers/collect-stream.ts";
import { elements } from "../../helpers/elements.ts";

const KEY = "sk-test-SECRET-key-abcdefghijklmnop";
let server: ProviderServer;
beforeAll(() => {
  server = startProviderServer();
});
afterAll(() => server.stop());

const calls = (m: AssistantMessage) => m.content.filter((p): p is ToolCallPart => p.type === "toolCall");
const textOf = (m: AssistantMessage) => m.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");

const WIRES = [
  { name: "anthropic", wire: "anthropic", model: "claude-sonnet-5-5" },
  { name: "openai", wire: "chat", model: "gpt-6-sol" },
  { name: "openai", wire: "responses", model: "gpt-6.2-sol" },
] as const satisfies readonly { name: ProviderName; wire: Wire; model: string }[];

for (const { name, wire, model } of WIRES) {
  describe(`${name} scripted scenarios over the ${wire} wire`, () => {
    const sleeps: number[] = [];
    const provider = () =>
      createProvider({
        provider: name,
        apiKey: KEY,
        baseUrl: name === "anthropic" ? server.url : server.openaiBase,
        ...(wire === "chat" ? { wire } : {}),
        retry: { sleep: async (ms) => void sleeps.push(ms), baseDelayMs: 100 },
      });
    const requestsSince = (n: number) => server.requests.length - n;

    test("a plain text reply streams in several deltas and ends the turn", async () => {
      server.push({ kind: "turn", text: "Hello from the test server, streamed in pieces.", usage: { input: 12, output: 9 } });
      const { message, text, events } = await collect(provider(), { model });
      expect(message).toMatchObject({ role: "assistant", stop: "end_turn", provider: name, model });
      expect(text).toBe("Hello from the test server, streamed in pieces.");
      expect(textOf(message)).toBe(text);
      expect(events.filter((e) => e.type === "text_delta").length).toBeGreaterThan(1);
      expect(message.usage).toMatchObject({ input: 12, output: 9 });
      expect(message.usage.cost).toBeGreaterThan(0);
    });

    test("one tool call is assembled from fragments with its arguments parsed", async () => {
      server.push({ kind: "turn", text: "Running it.", toolCalls: [{ id: "call_1", name: "bash", args: { command: "ls -la", timeout: 5 } }] });
      const { message, events } = await collect(provider(), { model });
      expect(message.stop).toBe("tool_use");
      expect(calls(message)).toEqual([{ type: "toolCall", id: "call_1", name: "bash", args: { command: "ls -la", timeout: 5 } }]);
      const kinds = events.map((e) => e.type);
      expect(kinds.indexOf("tool_use_start")).toBeLessThan(kinds.indexOf("tool_use_args"));
      expect(kinds.indexOf("tool_use_args")).toBeLessThan(kinds.indexOf("tool_use_end"));
      const streamedArgs = events.flatMap((e) => (e.type === "tool_use_args" ? [e.delta] : [])).join("");
      expect(JSON.parse(streamedArgs)).toEqual({ command: "ls -la", timeout: 5 });
    });

    test("parallel tool calls keep their order", async () => {
      server.push({
        kind: "turn",
        toolCalls: [
          { id: "a", name: "read", args: { path: "one.txt" } },
          { id: "b", name: "read", args: { path: "two.txt" } },
          { id: "c", name: "bash", args: { command: "pwd" } },
        ],
      });
      const { message } = await collect(provider(), { model });
      expect(message.stop).toBe("tool_use");
      expect(calls(message).map((c) => [c.id, c.name, c.args])).toEqual([
        ["a", "read", { path: "one.txt" }],
        ["b", "read", { path: "two.txt" }],
        ["c", "bash", { command: "pwd" }],
      ]);
    });

    test("thinking arrives as thinking deltas before the text", async () => {
      server.push({ kind: "turn", thinking: "Let me think about this carefully.", text: "Done." });
      const { message, thinking } = await collect(provider(), { model, reasoning: "medium" });
      expect(thinking).toBe("Let me think about this carefully.");
      expect(message.content[0]).toMatchObject({ type: "thinking", thinking: "Let me think about this carefully." });
      expect(textOf(message)).toBe("Done.");
    });

    test("empty tool input becomes {}", async () => {
      server.push({ kind: "turn", toolCalls: [{ id: "e", name: "list", args: "" }] });
      const { message } = await collect(provider(), { model });
      expect(calls(message)).toEqual([{ type: "toolCall", id: "e", name: "list", args: {} }]);
    });

    test("truncated tool JSON is marked invalid, never parsed into arguments", async () => {
      server.push({ kind: "turn", toolCalls: [{ id: "t", name: "write", args: '{"path": "a.txt", "content": "hal' }], stop: "max_tokens" });
      const { message } = await collect(provider(), { model });
      expect(message.stop).toBe("max_tokens");
      const [call] = elements(calls(message), 1);
      expect(call.args).toEqual({});
      expect(call.invalidArgs).toContain('the arguments for tool "write" were not valid JSON');
    });

    test("429 with retry-after is retried after the requested delay, then succeeds", async () => {
      sleeps.length = 0;
      const before = server.requests.length;
      server.push(
        { kind: "status", status: 429, headers: { "retry-after": "3" }, body: '{"error":{"message":"slow down"}}' },
        { kind: "turn", text: "after the wait" },
      );
      const { message } = await collect(provider(), { model });
      expect(requestsSince(before)).toBe(2);
      expect(sleeps).toEqual([3000]);
      expect(message.stop).toBe("end_turn");
      expect(textOf(message)).toBe("after the wait");
    });

    test("529 twice is retried with backoff, then succeeds", async () => {
      sleeps.length = 0;
      const before = server.requests.length;
      const overloaded = { kind: "status" as const, status: 529, body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}' };
      server.push(overloaded, overloaded, { kind: "turn", text: "finally" });
      const { message } = await collect(provider(), { model });
      expect(requestsSince(before)).toBe(3);
      expect(sleeps).toEqual([100, 200]);
      expect(textOf(message)).toBe("finally");
    });

    test("401 is not retried and says the key was rejected, without showing the key", async () => {
      const before = server.requests.length;
      server.push({ kind: "status", status: 401, body: JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}` } }) });
      const { message } = await collect(provider(), { model });
      expect(requestsSince(before)).toBe(1);
      expect(message.stop).toBe("error");
      expect(message.error).toStartWith(`the API key was rejected by ${name} (HTTP 401`);
      expect(message.error).not.toContain(KEY);
      expect(message.error).not.toContain("SECRET");
    });

    test("a 400 that echoes the key is reported with the provider's message but not the key", async () => {
      server.push({ kind: "status", status: 400, body: JSON.stringify({ error: { message: `bad request for key ${KEY}`, type: "invalid_request_error" } }) });
      const { message } = await collect(provider(), { model });
      expect(message.error).toContain(`${name} rejected the request (HTTP 400: bad request for key`);
      expect(message.error).not.toContain(KEY);
    });

    test("an in-stream error that echoes the key does not show it", async () => {
      const body =
        name === "anthropic"
          ? `event: error\ndata: ${JSON.stringify({ type: "error", error: { type: "api_error", message: `key ${KEY} misbehaved` } })}\n\n`
          : wire === "responses"
            ? `event: error\ndata: ${JSON.stringify({ type: "error", code: "server_error", message: `key ${KEY} misbehaved`, param: null, sequence_number: 0 })}\n\n`
            : `data: ${JSON.stringify({ error: { message: `key ${KEY} misbehaved` } })}\n\n`;
      server.push({ kind: "raw", body });
      const { message } = await collect(provider(), { model });
      expect(message.stop).toBe("error");
      expect(message.error).toContain("misbehaved");
      expect(message.error).not.toContain(KEY);
    });

    test("a 413 is not retried and suggests compacting", async () => {
      const before = server.requests.length;
      server.push({ kind: "status", status: 413, body: '{"error":{"message":"request too large"}}' });
      const { message } = await collect(provider(), { model });
      expect(requestsSince(before)).toBe(1);
      expect(message.error).toContain("too large (HTTP 413: request too large)");
    });

    for (const cutMode of ["close", "error"] as const) {
      test(`a mid-stream disconnect (${cutMode}) ends with stop error, keeping the partial text and dropping tool calls`, async () => {
        server.push({ kind: "turn", text: "partial answer here", toolCalls: [{ id: "x", name: "bash", args: { command: "rm -rf /" } }], cutAfter: 6, cutMode });
        const { message } = await collect(provider(), { model });
        expect(message.stop).toBe("error");
        expect(message.error).toMatch(new RegExp(`the ${name} stream ended before the response was complete|the connection to ${name} was lost mid-response`));
        expect(textOf(message).length).toBeGreaterThan(0);
        expect("partial answer here").toStartWith(textOf(message));
        expect(calls(message)).toEqual([]);
      });
    }

    test("abort mid-stream cancels the response at once with stop aborted", async () => {
      // The first text delta is the fifth Responses event (after created, in_progress, the item and its part).
      server.push({ kind: "turn", text: "this reply will never finish", stallAfter: wire === "responses" ? 5 : 4 });
      const ctrl = new AbortController();
      const { message } = await collect(provider(), { model }, { signal: ctrl.signal, onEvent: (e) => e.type === "text_delta" && ctrl.abort() });
      expect(message.stop).toBe("aborted");
      expect(message.error).toBeUndefined();
    });

    test("abort during a retry wait ends with stop aborted", async () => {
      const before = server.requests.length;
      server.push({ kind: "status", status: 503, headers: { "retry-after": "30" } });
      const ctrl = new AbortController();
      const p = createProvider({
        provider: name,
        apiKey: KEY,
        baseUrl: name === "anthropic" ? server.url : server.openaiBase,
        ...(wire === "chat" ? { wire } : {}),
      });
      const waiting = collect(p, { model }, { signal: ctrl.signal });
      while (requestsSince(before) < 1) await Bun.sleep(5);
      ctrl.abort();
      const { message } = await waiting;
      expect(message.stop).toBe("aborted");
      expect(requestsSince(before)).toBe(1);
    });
  });
}
