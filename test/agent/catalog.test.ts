import { afterEach, describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { builtinModels, costOf, defaultModel, findModel, loadModels, PROVIDERS, reasoningProblem, unknownModelNotice } from "../../src/agent/catalog.ts";
import { tempDir } from "../helpers/temp.ts";

const dirs: string[] = [];
function home(models?: string): string {
  const d = tempDir("zot-catalog-");
  dirs.push(d);
  if (models !== undefined) writeFileSync(join(d, "models.json"), models);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("model catalog", () => {
  test("every provider's default is its current mid-tier model, in the built-in catalog", () => {
    const models = builtinModels();
    for (const p of PROVIDERS) expect(findModel(models, p, defaultModel(p))).toMatchObject({ provider: p, id: defaultModel(p), source: "builtin" });
    expect(PROVIDERS.map((p) => `${p}/${defaultModel(p)}`)).toEqual([
      "anthropic/claude-sonnet-5-5",
      "openai/gpt-6.2-sol",
      "kimi/kimi-k3",
      "kimi-code/k3",
      "ollama/llama3.2",
      "mock/mock",
    ]);
    for (const id of ["claude-fable-5-1", "claude-opus-5-5", "claude-haiku-5-5", "claude-opus-4-8", "claude-sonnet-4-6", "claude-haiku-4-5"])
      expect(findModel(models, "anthropic", id)).toMatchObject({ provider: "anthropic", id, source: "builtin" });
    for (const id of ["gpt-6.2-astra", "gpt-6.1-terra", "gpt-6-luna", "gpt-5.6-sol", "gpt-5.5-pro"])
      expect(findModel(models, "openai", id)?.wire).toBe("responses");
    expect(models.every((m) => m.source === "builtin" && m.contextWindow > 0 && m.maxTokens > 0)).toBe(true);
  });

  test("retired models are gone from the catalog", () => {
    const models = builtinModels();
    for (const id of ["claude-opus-4-1", "claude-opus-4-0", "claude-sonnet-4-0", "claude-3-7-sonnet-latest"])
      expect(findModel(models, "anthropic", id)).toBeUndefined();
  });

  test("1M windows are in the catalog for the context meter", () => {
    const models = builtinModels();
    expect(findModel(models, "anthropic", "claude-sonnet-5-5")?.contextWindow).toBe(1_000_000);
    expect(findModel(models, "openai", "gpt-6.2-sol")?.contextWindow).toBe(1_050_000);
    expect(findModel(models, "kimi", "kimi-k3")?.contextWindow).toBe(1_048_576);
  });

  test("cost is tokens times the per-million prices, and 0 for an unknown model", () => {
    const sonnet = findModel(builtinModels(), "anthropic", "claude-sonnet-4-6");
    const usage = { input: 1_000_000, output: 100_000, cacheRead: 2_000_000, cacheWrite: 10_000, cost: 0 };
    expect(costOf(usage, sonnet)).toBeCloseTo(3 + 1.5 + 0.6 + 0.0375, 10);
    expect(costOf(usage, undefined)).toBe(0);
  });

  test("above 272K prompt tokens an OpenAI request is billed at 2x input and cache and 1.5x output", () => {
    const sol = findModel(builtinModels(), "openai", "gpt-6.2-sol");
    const small = { input: 200_000, output: 10_000, cacheRead: 50_000, cacheWrite: 0, cost: 0 };
    expect(costOf(small, sol)).toBeCloseTo((200_000 * 2 + 10_000 * 10 + 50_000 * 0.1) / 1e6, 10);
    const large = { input: 250_000, output: 10_000, cacheRead: 50_000, cacheWrite: 0, cost: 0 };
    expect(costOf(large, sol)).toBeCloseTo((250_000 * 4 + 10_000 * 15 + 50_000 * 0.2) / 1e6, 10);
  });

  test("cache writes with the long TTL use that price when the reply reports them", () => {
    const opus = findModel(builtinModels(), "anthropic", "claude-opus-5-5");
    const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 1_000_000, cost: 0 };
    expect(costOf(usage, opus)).toBeCloseTo(5, 10);
    expect(costOf(usage, opus, { cacheWriteLong: 1_000_000 })).toBeCloseTo(8, 10);
    expect(costOf(usage, opus, { cacheWriteLong: 250_000 })).toBeCloseTo(0.75 * 5 + 0.25 * 8, 10);
  });

  test("--reasoning levels are checked per model with a sentence naming what the model takes", () => {
    const models = builtinModels();
    const check = (p: string, id: string, level: "low" | "medium" | "xhigh" | "max") => reasoningProblem(findModel(models, p, id), level, p, id);
    expect(check("anthropic", "claude-sonnet-5-5", "max")).toBeUndefined();
    expect(check("anthropic", "claude-sonnet-4-6", "xhigh")).toBe(
      "--reasoning xhigh is not supported by anthropic/claude-sonnet-4-6; it takes low, medium, high or max",
    );
    expect(check("kimi", "kimi-k3", "medium")).toBe("--reasoning medium is not supported by kimi/kimi-k3; it takes low, high or max");
    expect(check("ollama", "llama3.2", "low")).toBe(
      "--reasoning low: ollama/llama3.2 does not reason; drop --reasoning or pick a reasoning model (zot --list-models)",
    );
    expect(reasoningProblem(undefined, "max", "openai", "gpt-7")).toBeUndefined();
  });

  test("without models.json the built-in catalog is used with no warnings", () => {
    const { models, warnings } = loadModels(home());
    expect(warnings).toEqual([]);
    expect(models.length).toBe(builtinModels().length);
  });

  test('models.json as {"models": [...]} overrides given fields of a built-in model and adds new ones', () => {
    const { models, warnings } = loadModels(
      home(
        JSON.stringify({
          models: [
            { provider: "anthropic", id: "claude-sonnet-4-6", priceInput: 1.5 },
            {
              provider: "openai",
              id: "my-proxy-model",
              name: "Proxy",
              reasoning: true,
              contextWindow: 32000,
              maxTokens: 4096,
              baseUrl: "http://127.0.0.1:9999/v1/",
              priceOutput: 2,
            },
          ],
        }),
      ),
    );
    expect(warnings).toEqual([]);
    expect(findModel(models, "anthropic", "claude-sonnet-4-6")).toMatchObject({ priceInput: 1.5, priceOutput: 15, contextWindow: 1_000_000, source: "custom" });
    expect(findModel(models, "openai", "my-proxy-model")).toEqual({
      id: "my-proxy-model",
      name: "Proxy",
      provider: "openai",
      reasoning: true,
      contextWindow: 32000,
      maxTokens: 4096,
      baseUrl: "http://127.0.0.1:9999/v1",
      priceInput: 0,
      priceOutput: 2,
      priceCacheRead: 0,
      priceCacheWrite: 0,
      source: "custom",
    });
  });

  test("models.json may also be a plain array", () => {
    const { models } = loadModels(home(JSON.stringify([{ provider: "ollama", id: "qwen2.5-coder:7b" }])));
    expect(findModel(models, "ollama", "qwen2.5-coder:7b")).toMatchObject({ name: "qwen2.5-coder:7b", contextWindow: 128_000, source: "custom" });
  });

  test("invalid JSON is a warning naming the file, and the built-ins still load", () => {
    const h = home("{ nope");
    const { models, warnings } = loadModels(h);
    expect(models.length).toBe(builtinModels().length);
    expect(warnings.length).toBe(1);
    expect(warnings[0]).toStartWith(`${join(h, "models.json")}: invalid JSON`);
  });

  test("bad entries are skipped with a warning each; unknown fields are reported but harmless", () => {
    const h = home(
      JSON.stringify([
        { provider: "nope", id: "x" },
        { provider: "openai" },
        { provider: "openai", id: "a", contextWindow: "big" },
        { provider: "openai", id: "b", colour: "blue" },
      ]),
    );
    const { models, warnings } = loadModels(h);
    const file = join(h, "models.json");
    expect(warnings).toEqual([
      `${file}: model #1 needs "provider" set to one of anthropic, openai, kimi, kimi-code, ollama, mock; skipped`,
      `${file}: model #2 needs a non-empty string "id"; skipped`,
      `${file}: model #3 (a): "contextWindow" must be a non-negative number; skipped`,
      `${file}: model #4 (b): unknown field "colour" ignored`,
    ]);
    expect(findModel(models, "openai", "b")).toMatchObject({ provider: "openai", id: "b", name: "b", contextWindow: 128_000, source: "custom" });
    expect(findModel(models, "openai", "a")).toBeUndefined();
  });

  test("models.json may group models by provider; the group names the provider", () => {
    const { models, warnings } = loadModels(home(JSON.stringify({ ollama: [{ id: "qwen3-coder" }], anthropic: [{ id: "claude-haiku-4-5", priceInput: 1 }] })));
    expect(warnings).toEqual([]);
    expect(findModel(models, "ollama", "qwen3-coder")).toMatchObject({ provider: "ollama", source: "custom" });
    expect(findModel(models, "anthropic", "claude-haiku-4-5")).toMatchObject({ priceInput: 1, contextWindow: 200_000, source: "custom" });
  });

  test("models.json sets a model's wire, effort levels, thinking style and Kimi dynamic tools", () => {
    const h = home(
      JSON.stringify({
        openai: [
          { id: "gpt-6.2-sol", wire: "chat" },
          { id: "my-gateway-gpt", wire: "responses", efforts: ["low", "high"] },
        ],
        kimi: [
          { id: "kimi-k3-proxy", deferred_tools: "kimi-dynamic" },
          { id: "kimi-k3", deferred_tools: null },
        ],
        anthropic: [{ id: "claude-next", thinking: "adaptive", efforts: ["low", "max"] }],
      }),
    );
    const { models, warnings } = loadModels(h);
    expect(warnings).toEqual([]);
    expect(findModel(models, "openai", "gpt-6.2-sol")?.wire).toBe("chat");
    expect(findModel(models, "openai", "my-gateway-gpt")).toMatchObject({ wire: "responses", efforts: ["low", "high"], reasoning: true });
    expect(findModel(models, "kimi", "kimi-k3-proxy")?.deferredTools).toBe("kimi-dynamic");
    expect(findModel(models, "kimi", "kimi-k3")?.deferredTools).toBeUndefined();
    expect(findModel(models, "anthropic", "claude-next")).toMatchObject({ thinking: "adaptive", efforts: ["low", "max"] });
  });

  test("a bad wire, effort list or deferred_tools value is a warning naming the entry", () => {
    const h = home(
      JSON.stringify([
        { provider: "openai", id: "a", wire: "grpc" },
        { provider: "openai", id: "b", efforts: ["turbo"] },
        { provider: "kimi", id: "c", deferred_tools: "yes" },
      ]),
    );
    const file = join(h, "models.json");
    expect(loadModels(h).warnings).toEqual([
      `${file}: model #1 (a): "wire" must be "chat" or "responses"; skipped`,
      `${file}: model #2 (b): "efforts" must be a non-empty array of "low", "medium", "high", "xhigh" or "max"; skipped`,
      `${file}: model #3 (c): "deferred_tools" must be "kimi-dynamic", "defer-loading" or null; skipped`,
    ]);
  });

  test("a top-level shape that is neither an array, {models} nor provider groups is rejected with a warning", () => {
    for (const text of ['{"openai": {}}', '{"gpt": []}', "{}", "42"]) {
      const { warnings } = loadModels(home(text));
      expect(warnings[0]).toContain('expected an array of models, {"models": [...]}, {"<provider>": [...], …} or the Go zot');
    }
  });

  test("an unknown model id gets a one-line notice", () => {
    const notice = unknownModelNotice("openai", "gpt-7");
    expect(notice).not.toContain("\n");
    expect(notice).toContain('"gpt-7"');
  });
});
