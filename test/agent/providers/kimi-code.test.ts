import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createProvider } from "../../../src/agent/providers/index.ts";
import { wireProblem } from "../../../src/agent/providers/endpoints.ts";
import { startProviderServer, type ProviderServer } from "../../helpers/provider-server.ts";
import { collect } from "../../helpers/collect-stream.ts";
import { lastOf } from "../../helpers/elements.ts";

const KEY = "sk-kimi-code-0123456789abcdef";
let server: ProviderServer;
beforeAll(() => {
  server = startProviderServer();
});
afterAll(() => server.stop());
const last = () => lastOf(server.requests);

describe("the kimi-code provider", () => {
  test("speaks the Anthropic wire at <base>/v1/messages with the key as x-api-key, a /coding base included", async () => {
    server.push({ kind: "turn", text: "hi from k3", thinking: "short" }, { kind: "turn", text: "again" });
    const { message, thinking } = await collect(createProvider({ provider: "kimi-code", apiKey: KEY, baseUrl: `${server.url}/coding/v1` }), {
      model: "k3",
      reasoning: "high",
    });
    expect(last().path).toBe("/coding/v1/messages");
    expect(last().headers["x-api-key"]).toBe(KEY);
    expect(last().headers["anthropic-version"]).toBe("2023-06-01");
    expect(last().body).toMatchObject({ model: "k3", max_tokens: 32_768, thinking: { type: "enabled", budget_tokens: 16384 } });
    expect(message).toMatchObject({ provider: "kimi-code", model: "k3", stop: "end_turn" });
    expect(thinking).toBe("short");
    // Its own thinking goes back to it, as to Anthropic.
    await collect(createProvider({ provider: "kimi-code", apiKey: KEY, baseUrl: `${server.url}/coding` }), {
      model: "k3",
      messages: [{ role: "user", content: [{ type: "text", text: "q" }], ts: 0 }, message, { role: "user", content: [{ type: "text", text: "more" }], ts: 0 }],
    });
    expect(last().path).toBe("/coding/v1/messages");
    expect((last().body as { messages: { content: { type: string }[] }[] }).messages[1]!.content[0]!.type).toBe("thinking");
  });

  test("--wire chat uses its Chat Completions route, with the session as prompt_cache_key", async () => {
    server.push({ kind: "turn", text: "chat" });
    await collect(createProvider({ provider: "kimi-code", apiKey: KEY, baseUrl: `${server.url}/coding/v1`, wire: "chat" }), {
      model: "kimi-for-coding",
      sessionId: "s-1",
    });
    expect(last().path).toBe("/coding/v1/chat/completions");
    expect(last().headers.authorization).toBe(`Bearer ${KEY}`);
    expect(last().body).toMatchObject({ model: "kimi-for-coding", prompt_cache_key: "s-1" });
  });

  test("without a key, the global and the China endpoints both refuse at once, naming the variables", async () => {
    const before = server.requests.length;
    for (const baseUrl of [undefined, "https://api.kimi.com/coding"]) {
      const { message } = await collect(createProvider({ provider: "kimi-code", ...(baseUrl ? { baseUrl } : {}) }), { model: "k3" });
      expect(message.error).toBe("no API key for kimi-code; set KIMI_CODE_API_KEY or KIMI_API_KEY or pass --api-key");
    }
    expect(server.requests.length).toBe(before);
  });

  test("--wire names the wires a provider can take when it cannot take the one asked for", () => {
    expect(wireProblem("kimi-code", "responses")).toBe("--wire responses is not available for kimi-code; use --wire chat, or leave --wire out");
    expect(wireProblem("kimi", "responses")).toBe("--wire responses is not available for kimi; use --wire chat, or leave --wire out");
    expect(wireProblem("kimi-code", "chat")).toBeUndefined();
    expect(wireProblem("ollama", "responses")).toBeUndefined();
  });
});
