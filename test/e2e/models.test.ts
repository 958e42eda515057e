// The binary's model choices: defaults, --list-models with live discovery, --reasoning and --wire
// checks, a retired model's 404, and tools over the Responses wire.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonLines, useZotHome } from "./zot.ts";

const e2e = useZotHome();

describe("zot --list-models", () => {
  test("--json prints one JSON line per model with its wire, efforts, prices and source, live ids from the cache included", async () => {
    writeFileSync(
      join(e2e.home, "models-cache.json"),
      JSON.stringify({
        version: 1,
        providers: {
          openai: { fetched_at: new Date().toISOString(), base_url: "https://api.openai.com/v1", models: [{ id: "gpt-6.3-nova" }, { id: "gpt-6.2-sol" }] },
        },
      }),
    );
    writeFileSync(join(e2e.home, "models.json"), JSON.stringify({ openai: [{ id: "my-proxy", wire: "responses" }] }));
    const r = await e2e.run(["--list-models", "--json"]);
    expect(r.code).toBe(0);
    const rows = jsonLines(r.stdout);
    expect(rows.find((m) => m.id === "gpt-6.2-sol")).toMatchObject({
      provider: "openai",
      context_window: 1_050_000,
      max_output: 128_000,
      efforts: ["low", "medium", "high", "xhigh", "max"],
      wire: "responses",
      price: { input: 2, output: 10, cache_read: 0.1, cache_write: 2.5, cache_write_long: 5, long_context: { above: 272_000, input: 4, output: 15 } },
      source: "builtin",
    });
    expect(rows.find((m) => m.id === "gpt-6.3-nova")).toMatchObject({ provider: "openai", wire: "chat", source: "live" });
    expect(rows.find((m) => m.id === "my-proxy")).toMatchObject({ wire: "responses", source: "custom" });
    expect(rows.find((m) => m.id === "claude-sonnet-5-5")).toMatchObject({ wire: "anthropic", efforts: ["low", "medium", "high", "xhigh", "max"] });
    expect(rows.find((m) => m.id === "kimi-k3")).toMatchObject({ deferred_tools: "kimi-dynamic", efforts: ["low", "high", "max"] });
    expect(rows.filter((m) => m.provider === "kimi-code").map((m) => m.id)).toEqual(["k3", "k3-256k", "kimi-for-coding", "kimi-for-coding-highspeed"]);
  });

  test("with a key it lists the provider's models live, shows them as live and caches them", async () => {
    const server = e2e.serve({ models: ["claude-sonnet-5-5", "claude-fable-5-2"] });
    const r = await e2e.run(["--list-models", "--provider", "anthropic", "--api-key", "sk-ant-list", "--base-url", server.url]);
    expect(r.code).toBe(0);
    expect(server.listings.length).toBe(1);
    expect(r.stdout).toMatch(/anthropic\s+claude-fable-5-2\s.*live/);
    expect(r.stdout).not.toContain("openai");
    const cache = JSON.parse(readFileSync(join(e2e.home, "models-cache.json"), "utf8"));
    expect(cache.providers.anthropic.models.map((m: { id: string }) => m.id)).toEqual(["claude-sonnet-5-5", "claude-fable-5-2"]);
    // Within 6 h the cache answers.
    await e2e.run(["--list-models", "--provider", "anthropic", "--api-key", "sk-ant-list", "--base-url", server.url]);
    expect(server.listings.length).toBe(1);
  });

  test("without a key nothing is fetched and no cache is written", async () => {
    const r = await e2e.run(["--list-models"]);
    expect(r.code).toBe(0);
    expect(existsSync(join(e2e.home, "models-cache.json"))).toBe(false);
  });
});

describe("model checks at start-up", () => {
  test("a fresh key with no flags gets the current mid-tier model", async () => {
    const server = e2e.serve({ replies: [{ kind: "turn", text: "hello" }] });
    const r = await e2e.run(["-p", "--base-url", server.url, "hi"], { env: { ANTHROPIC_API_KEY: "sk-ant-fresh" } });
    expect(r.code).toBe(0);
    expect((server.requests[0]!.body as { model: string }).model).toBe("claude-sonnet-5-5");
  });

  test("an effort level the model does not take is a usage error naming the levels it does", async () => {
    const r = await e2e.run(["-p", "--provider", "anthropic", "--api-key", "k", "--model", "claude-sonnet-4-6", "--reasoning", "xhigh", "hi"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("zot: --reasoning xhigh is not supported by anthropic/claude-sonnet-4-6; it takes low, medium, high or max.\n");
  });

  test("--wire on a provider that speaks only the Anthropic wire is a usage error", async () => {
    const r = await e2e.run(["-p", "--provider", "anthropic", "--api-key", "k", "--wire", "responses", "hi"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("zot: --wire responses does not apply to anthropic, which speaks only the Anthropic Messages API; drop --wire.\n");
  });

  test("a retired model's 404 names the model and gives the exact flag for the current default", async () => {
    const server = e2e.serve({
      replies: [
        { kind: "status", status: 404, body: JSON.stringify({ type: "error", error: { type: "not_found_error", message: "model: claude-3-5-haiku-latest" } }) },
      ],
    });
    const r = await e2e.run(["-p", "--provider", "anthropic", "--api-key", "k", "--base-url", server.url, "--model", "claude-3-5-haiku-latest", "hi"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'anthropic does not serve the model "claude-3-5-haiku-latest" (HTTP 404: model: claude-3-5-haiku-latest (not_found_error)); it may have been retired; switch to the current default with --model claude-sonnet-5-5 (in the TUI: /model claude-sonnet-5-5)',
    );
  });
});

describe("tools over the Responses wire", () => {
  test("a tool call on GPT-6.2 goes over /v1/responses and its result comes back as function_call_output", async () => {
    const server = e2e.serve({
      replies: [
        { kind: "turn", thinking: "I should list files.", toolCalls: [{ id: "call_ls", name: "bash", args: { command: "echo responses-tool-ran" } }] },
        { kind: "turn", text: "Done." },
      ],
    });
    const r = await e2e.run(["-p", "--provider", "openai", "--api-key", "sk-proj-e2e", "--base-url", `${server.url}/v1`, "--reasoning", "high", "list"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Done.\n");
    expect(server.requests.map((q) => q.path)).toEqual(["/v1/responses", "/v1/responses"]);
    const second = server.requests[1]!.body as { model: string; reasoning: unknown; input: Record<string, unknown>[] };
    expect(second.model).toBe("gpt-6.2-sol");
    expect(second.reasoning).toEqual({ effort: "high", summary: "auto" });
    expect(second.input.map((i) => i.type ?? i.role)).toEqual(["user", "reasoning", "function_call", "function_call_output"]);
    expect(second.input[1]).toEqual({
      type: "reasoning",
      summary: [{ type: "summary_text", text: "I should list files." }],
      encrypted_content: "enc-test-0123456789",
    });
    expect(String(second.input[3]!.output)).toContain("responses-tool-ran");
  });

  test("--wire chat sends the same model over Chat Completions", async () => {
    const server = e2e.serve({ replies: [{ kind: "turn", text: "chat ok" }] });
    const r = await e2e.run(["-p", "--provider", "openai", "--api-key", "sk-proj-e2e", "--base-url", `${server.url}/v1`, "--wire", "chat", "hi"]);
    expect(r.stdout).toBe("chat ok\n");
    expect(server.requests[0]!.path).toBe("/v1/chat/completions");
  });
});

describe("a custom OpenAI-compatible server without the Responses API", () => {
  // A real server that, like many local and proxy servers, speaks only Chat Completions.
  const chatOnly = () =>
    e2e.serve({
      fallback: (req) =>
        req.path.endsWith("/responses") ? { kind: "status", status: 404, body: "404 page not found" } : { kind: "turn", text: "answered over chat" },
    });
  const flags = (base: string) => ["--provider", "openai", "--api-key", "sk-proj-e2e", "--base-url", base, "--model", "gpt-6.2-sol"];

  test("the 404 on /responses falls back to Chat Completions once, says so, and the next run goes straight to chat", async () => {
    const server = chatOnly();
    const base = `${server.url}/v1`;
    const first = await e2e.run(["-p", ...flags(base), "hi"]);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe("answered over chat\n");
    expect(first.stderr).toContain(
      `openai at ${base} has no Responses API (HTTP 404 for ${base}/responses); using Chat Completions instead, as --wire chat does`,
    );
    expect(server.requests.map((q) => q.path)).toEqual(["/v1/responses", "/v1/chat/completions"]);
    const memory = JSON.parse(readFileSync(join(e2e.home, "wire-fallbacks.json"), "utf8")) as Record<string, { wire: string }>;
    expect(memory[base]?.wire).toBe("chat");

    const second = await e2e.run(["--json", ...flags(base), "again"]);
    expect(second.code).toBe(0);
    expect(server.requests.map((q) => q.path)).toEqual(["/v1/responses", "/v1/chat/completions", "/v1/chat/completions"]);
    expect(jsonLines(second.stdout).some((e) => e.type === "retry")).toBe(false);
  });

  test("--json reports the fallback as a retry event naming the chat wire", async () => {
    const server = chatOnly();
    const r = await e2e.run(["--json", ...flags(`${server.url}/v1`), "hi"]);
    expect(r.code).toBe(0);
    const retry = jsonLines(r.stdout).find((e) => e.type === "retry");
    expect(retry).toMatchObject({ type: "retry", wire: "chat", delay_ms: 0 });
    expect(String(retry?.reason)).toContain("has no Responses API");
  });

  test("--wire responses pins the wire: no fallback, and the 404's hint names --wire chat", async () => {
    const server = chatOnly();
    const r = await e2e.run(["-p", ...flags(`${server.url}/v1`), "--wire", "responses", "hi"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("check --base-url and --model, or pass --wire chat if the server has no Responses API");
    expect(server.requests.map((q) => q.path)).toEqual(["/v1/responses"]);
    expect(existsSync(join(e2e.home, "wire-fallbacks.json"))).toBe(false);
  });
});
