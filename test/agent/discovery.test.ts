import { modelsCachePath } from "../../src/platform/home.ts";
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { builtinModels, findModel } from "../../src/agent/catalog.ts";
import { CACHE_TTL_MS, cachedModels, fetchModels, refreshModels, writeCache } from "../../src/agent/model-discovery.ts";
import { startEndless, startTwoOrigins } from "../helpers/two-origins.ts";
import type { Runtime } from "../../src/runtime/runtime.ts";
import { createRuntime, type RuntimeOptions } from "../../src/runtime/setup.ts";
import { startProviderServer, type ProviderServer } from "../helpers/provider-server.ts";
import { testRuntimeOptions } from "../helpers/mock-runtime.ts";
import { waitFor } from "../helpers/wait.ts";
import { tempDir } from "../helpers/temp.ts";

let home: string;
let server: ProviderServer | undefined;
const runtimes: Runtime[] = [];
beforeEach(() => {
  home = tempDir("zot-discovery-");
});
afterEach(async () => {
  for (const r of runtimes.splice(0)) await r.close();
  await server?.stop();
  server = undefined;
});

const never = new AbortController().signal;

describe("refreshing the model list", () => {
  test("lists Anthropic's models with the key, caches them for 6 h and merges the new ids as live", async () => {
    server = startProviderServer({ models: ["claude-sonnet-5-5", "claude-fable-5-2"] });
    const catalog = builtinModels();
    const d = { home, provider: "anthropic" as const, key: "sk-ant-discovery", base: server.url };
    await refreshModels(d, catalog, never);
    expect(server.listings.map((l) => [l.path, l.headers["x-api-key"], l.headers["anthropic-version"]])).toEqual([
      ["/v1/models", "sk-ant-discovery", "2023-06-01"],
    ]);
    expect(findModel(catalog, "anthropic", "claude-fable-5-2")).toMatchObject({ source: "live", reasoning: true, priceInput: 0 });
    expect(findModel(catalog, "anthropic", "claude-sonnet-5-5")?.source).toBe("builtin");
    expect(catalog.filter((m) => m.id === "claude-sonnet-5-5").length).toBe(1);
    const file = JSON.parse(readFileSync(modelsCachePath(home), "utf8"));
    expect(file.version).toBe(1);
    expect(file.providers.anthropic).toMatchObject({ base_url: server.url, models: [{ id: "claude-sonnet-5-5" }, { id: "claude-fable-5-2" }] });

    await refreshModels(d, builtinModels(), never);
    expect(server.listings.length).toBe(1);
  });

  test("a list older than 6 h is fetched again; another base URL has its own list", async () => {
    server = startProviderServer({ models: ["gpt-6.3-nova"] });
    writeCache(home, "openai", server.openaiBase, [{ id: "gpt-old" }], Date.now() - CACHE_TTL_MS - 1000);
    expect(cachedModels(home, "openai", server.openaiBase)?.fresh).toBe(false);
    expect(cachedModels(home, "openai", "https://api.openai.com/v1")).toBeUndefined();
    const catalog = builtinModels();
    await refreshModels({ home, provider: "openai", key: "sk-proj-x", base: server.openaiBase }, catalog, never);
    expect(server.listings.map((l) => [l.path, l.headers.authorization])).toEqual([["/v1/models", "Bearer sk-proj-x"]]);
    expect(cachedModels(home, "openai", server.openaiBase)).toEqual({ models: [{ id: "gpt-6.3-nova" }], fresh: true });
    expect(findModel(catalog, "openai", "gpt-6.3-nova")?.source).toBe("live");
  });

  test("without a key nothing is asked, and a failed listing leaves the cache as it was", async () => {
    server = startProviderServer({ models: 500 });
    await refreshModels({ home, provider: "kimi", key: "", base: server.openaiBase }, builtinModels(), never);
    expect(server.listings.length).toBe(0);
    const catalog = builtinModels();
    await refreshModels({ home, provider: "kimi", key: "sk-kimi", base: server.openaiBase }, catalog, never);
    expect(server.listings.length).toBe(1);
    expect(existsSync(modelsCachePath(home))).toBe(false);
    expect(catalog.length).toBe(builtinModels().length);
  });

  test("a damaged cache file is ignored, then replaced by the next listing", async () => {
    writeFileSync(modelsCachePath(home), "{ not json");
    expect(cachedModels(home, "openai", "https://api.openai.com/v1")).toBeUndefined();
    server = startProviderServer({ models: ["m1"] });
    await refreshModels({ home, provider: "openai", key: "k", base: server.openaiBase }, builtinModels(), never);
    expect(cachedModels(home, "openai", server.openaiBase)?.models).toEqual([{ id: "m1" }]);
  });
});

describe("discovery at start-up", () => {
  const start = async (extra: Partial<RuntimeOptions>) => {
    const created = await createRuntime(testRuntimeOptions(home, { noTools: true, maxSteps: 5, ...extra }));
    if (!created.ok) throw new Error(created.error);
    runtimes.push(created.runtime);
    return created;
  };

  test("the list is refreshed in the background: a prompt is answered while the listing is still held back", async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    server = startProviderServer({
      models: async () => {
        await held;
        return ["claude-fable-5-2"];
      },
      replies: [{ kind: "turn", text: "answered" }],
    });
    const { runtime } = await start({ provider: "anthropic", apiKey: "sk-ant-bg", baseUrl: server.url });
    expect((await runtime.prompt("hi")).text).toBe("answered");
    await waitFor(() => server!.listings.length === 1);
    expect(runtime.models().some((m) => m.id === "claude-fable-5-2")).toBe(false);
    release();
    await waitFor(() => runtime.models().some((m) => m.id === "claude-fable-5-2" && m.source === "live"));
    await waitFor(() => existsSync(modelsCachePath(home)));
  });

  test("cached live ids join the catalog at once, so a live-only model gets no unknown-model notice", async () => {
    server = startProviderServer({ models: ["never-asked"] });
    writeCache(home, "anthropic", server.url, [{ id: "claude-fable-5-2", name: "Claude Fable 5.2" }]);
    const { runtime, notices } = await start({ provider: "anthropic", apiKey: "sk-ant-c", baseUrl: server.url, model: "claude-fable-5-2" });
    expect(notices.filter((n) => n.includes("not in the"))).toEqual([]);
    expect(runtime.models().find((m) => m.id === "claude-fable-5-2")).toMatchObject({ name: "Claude Fable 5.2", source: "live" });
    // The cache is fresh: nothing is fetched.
    await Bun.sleep(50);
    expect(server.listings.length).toBe(0);
  });

  test("never for the mock provider, never without a key", async () => {
    server = startProviderServer({ models: ["x"] });
    await start({ provider: "mock" });
    await start({ provider: "ollama", baseUrl: server.openaiBase });
    await Bun.sleep(50);
    expect(server.listings.length).toBe(0);
  });

  test("switching to another provider with /model brings in that provider's cached live models", async () => {
    writeCache(home, "anthropic", "https://api.anthropic.com", [{ id: "claude-fable-5-2" }]);
    const { runtime } = await start({ provider: "mock", env: { ANTHROPIC_API_KEY: "sk-ant-switch" } });
    expect(runtime.models().some((m) => m.id === "claude-fable-5-2")).toBe(false);
    expect(runtime.setModel("anthropic", "claude-fable-5-2")).toEqual({ ok: true });
    expect(runtime.models().find((m) => m.id === "claude-fable-5-2")?.source).toBe("live");
  });

  test("/model to a model that does not take the thinking level switches and keeps the nearest level it takes, saying so", async () => {
    const { runtime } = await start({ provider: "mock", reasoning: "xhigh", env: { ANTHROPIC_API_KEY: "sk-ant-effort" } });
    expect(runtime.setModel("anthropic", "claude-sonnet-4-6")).toEqual({
      ok: true,
      notice: "anthropic/claude-sonnet-4-6 does not take thinking level xhigh: using high (it takes low, medium, high or max)",
    });
    expect(runtime.model).toBe("claude-sonnet-4-6");
    expect(runtime.reasoning).toBe("high");
    expect(runtime.setModel("anthropic", "claude-sonnet-5-5")).toEqual({ ok: true });
    expect(runtime.reasoning).toBe("high");
  });

  test("/model to a model that does not reason turns thinking off for it, saying so", async () => {
    const { runtime } = await start({ provider: "mock", reasoning: "low", env: { OLLAMA_HOST: "" } });
    expect(runtime.setModel("ollama", "llama3.2")).toEqual({
      ok: true,
      notice: "ollama/llama3.2 does not reason: thinking is off for it (it was low; /reasoning sets it again)",
    });
    expect(runtime.reasoning).toBeNull();
  });
});

describe("the listing request", () => {
  test("a base URL that redirects to another origin fails the listing, and the key never reaches that origin", async () => {
    const t = startTwoOrigins(307);
    try {
      for (const provider of ["anthropic", "openai"] as const) {
        const got = await fetchModels(provider, "sk-secret", `${t.first}/v1`, never);
        expect(got.ok).toBe(false);
        if (!got.ok) expect(got.error).toContain("another origin; zot does not follow it");
      }
      expect(t.seen).toEqual([]);
    } finally {
      t.stop();
    }
  });

  test("a list that never ends is stopped at its cap, with a sentence", async () => {
    const endless = startEndless("application/json", `{"id":"m","type":"model"},`.repeat(2000), '{"data":[');
    try {
      const got = await fetchModels("openai", "sk", endless.url, never);
      expect(got).toEqual({
        ok: false,
        error: `listing the openai models at ${endless.url}/models failed (the answer from ${endless.url} passed 4 MiB and was stopped)`,
      });
    } finally {
      endless.stop();
    }
  });
});
