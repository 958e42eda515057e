import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtinModels, costOf, defaultModel, findModel, loadModels, PROVIDERS, unknownModelNotice } from "../../src/agent/catalog.ts";

const dirs: string[] = [];
function home(models?: string): string {
  const d = mkdtempSync(join(tmpdir(), "zot-catalog-"));
  dirs.push(d);
  if (models !== undefined) writeFileSync(join(d, "models.json"), models);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("model catalog", () => {
  test("every provider has a default model that is in the built-in catalog", () => {
    const models = builtinModels();
    for (const p of PROVIDERS) expect(findModel(models, p, defaultModel(p))).toBeDefined();
    for (const id of ["claude-sonnet-4-5", "claude-opus-4-1", "claude-haiku-4-5"]) expect(findModel(models, "anthropic", id)).toBeDefined();
    for (const id of ["gpt-5", "gpt-4.1", "gpt-4o", "gpt-4o-mini", "o4-mini"]) expect(findModel(models, "openai", id)).toBeDefined();
    expect(models.every((m) => m.source === "builtin" && m.contextWindow > 0 && m.maxTokens > 0)).toBe(true);
  });

  test("cost is tokens times the per-million prices, and 0 for an unknown model", () => {
    const sonnet = findModel(builtinModels(), "anthropic", "claude-sonnet-4-5");
    const usage = { input: 1_000_000, output: 100_000, cacheRead: 2_000_000, cacheWrite: 10_000, cost: 0 };
    expect(costOf(usage, sonnet)).toBeCloseTo(3 + 1.5 + 0.6 + 0.0375, 10);
    expect(costOf(usage, undefined)).toBe(0);
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
            { provider: "anthropic", id: "claude-sonnet-4-5", priceInput: 1.5 },
            { provider: "openai", id: "my-proxy-model", name: "Proxy", reasoning: true, contextWindow: 32000, maxTokens: 4096, baseUrl: "http://127.0.0.1:9999/v1/", priceOutput: 2 },
          ],
        }),
      ),
    );
    expect(warnings).toEqual([]);
    expect(findModel(models, "anthropic", "claude-sonnet-4-5")).toMatchObject({ priceInput: 1.5, priceOutput: 15, contextWindow: 200_000, source: "models.json" });
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
      source: "models.json",
    });
  });

  test("models.json may also be a plain array", () => {
    const { models } = loadModels(home(JSON.stringify([{ provider: "ollama", id: "qwen2.5-coder:7b" }])));
    expect(findModel(models, "ollama", "qwen2.5-coder:7b")).toMatchObject({ name: "qwen2.5-coder:7b", contextWindow: 128_000, source: "models.json" });
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
      `${file}: model #1 needs "provider" set to one of anthropic, openai, kimi, ollama, mock; skipped`,
      `${file}: model #2 needs a non-empty string "id"; skipped`,
      `${file}: model #3 (a): "contextWindow" must be a non-negative number; skipped`,
      `${file}: model #4 (b): unknown field "colour" ignored`,
    ]);
    expect(findModel(models, "openai", "b")).toBeDefined();
    expect(findModel(models, "openai", "a")).toBeUndefined();
  });

  test("models.json may group models by provider; the group names the provider", () => {
    const { models, warnings } = loadModels(home(JSON.stringify({ ollama: [{ id: "qwen3-coder" }], anthropic: [{ id: "claude-sonnet-4-5", priceInput: 1 }] })));
    expect(warnings).toEqual([]);
    expect(findModel(models, "ollama", "qwen3-coder")).toMatchObject({ provider: "ollama", source: "models.json" });
    expect(findModel(models, "anthropic", "claude-sonnet-4-5")).toMatchObject({ priceInput: 1, contextWindow: 200_000, source: "models.json" });
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
