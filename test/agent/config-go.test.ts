// One $ZOT_HOME for the Go zot and zot: auth.json, config.json and models.json as the Go zot writes
// them load in zot, and what zot writes back keeps everything the Go zot needs.
import { authPath } from "../../src/platform/home.ts";
import { beforeEach, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadModels, findModel } from "../../src/agent/catalog.ts";
import { configPath, readAuth, readConfig, rememberModel, removeApiKey, resolveCredentials, saveApiKey, SUBSCRIPTION_NOTE } from "../../src/agent/config.ts";
import { tempDir } from "../helpers/temp.ts";

let home: string;
beforeEach(() => {
  home = tempDir("zot-config-go-");
});

const oauth = {
  access_token: "sk-ant-oat01-ACCESS",
  refresh_token: "sk-ant-ort01-REFRESH",
  token_type: "Bearer",
  expiry: "2026-12-31T00:00:00Z",
  scope: "user:inference",
  client_id: "9d1c250a",
};
const writeAuth = (v: unknown) => writeFileSync(authPath(home), JSON.stringify(v, null, 2), { mode: 0o600 });
const auth = () => JSON.parse(readFileSync(authPath(home), "utf8"));

describe("auth.json in the Go zot's schema", () => {
  test("its api_key entries are the keys zot uses", () => {
    writeAuth({ anthropic: { api_key: "sk-ant-go-1111" }, openai: { api_key: "sk-go-2222" }, kimi: {} });
    expect(readAuth(home)).toEqual({ keys: { anthropic: "sk-ant-go-1111", openai: "sk-go-2222" }, subscriptions: [] });
    expect(resolveCredentials({ provider: "anthropic", home, env: {} }).credential?.key).toBe("sk-ant-go-1111");
  });

  test("a subscription login is reported as such and never mistaken for a key", () => {
    writeAuth({ anthropic: { oauth }, openai: { api_key: "sk-go-2222" } });
    const r = readAuth(home);
    expect(r.keys).toEqual({ openai: "sk-go-2222" });
    expect(r.subscriptions).toEqual(["anthropic"]);
    expect(resolveCredentials({ provider: "anthropic", home, env: {} }).credential).toBeNull();
    expect(SUBSCRIPTION_NOTE).toBe("signed in with a subscription through the Go zot; zot uses API keys");
  });

  test("zot writes keys as api_key and keeps the oauth login, other providers and unknown fields", () => {
    writeAuth({ anthropic: { oauth }, kimi: { api_key: "kimi-go-3333", note: "mine" }, custom: { whatever: [1, 2] } });
    expect(saveApiKey(home, "anthropic", "sk-ant-zot-4444")).toMatchObject({ ok: true });
    expect(saveApiKey(home, "openai", "sk-zot-5555")).toMatchObject({ ok: true });
    expect(auth()).toEqual({
      anthropic: { oauth, api_key: "sk-ant-zot-4444" },
      kimi: { api_key: "kimi-go-3333", note: "mine" },
      custom: { whatever: [1, 2] },
      openai: { api_key: "sk-zot-5555" },
    });
    // Logging out removes the key only: the Go zot stays signed in with its subscription.
    expect(removeApiKey(home, "anthropic")).toMatchObject({ ok: true, removed: true });
    expect(auth().anthropic).toEqual({ oauth });
    expect(removeApiKey(home, "anthropic")).toMatchObject({ ok: true, removed: false });
    expect(auth().anthropic).toEqual({ oauth });
  });

  test("an entry of an earlier zot version is rewritten in the Go schema on the next save", () => {
    writeAuth({ anthropic: { type: "api_key", key: "sk-ant-old-6666" } });
    expect(readAuth(home).keys).toEqual({ anthropic: "sk-ant-old-6666" });
    saveApiKey(home, "anthropic", "sk-ant-new-7777");
    expect(auth()).toEqual({ anthropic: { api_key: "sk-ant-new-7777" } });
  });
});

describe("config.json written by the Go zot", () => {
  test("loads, and zot's updates keep the Go zot's keys", () => {
    writeFileSync(
      configPath(home),
      JSON.stringify(
        { provider: "openai", model: "gpt-5", reasoning: "high", theme: "dark", inline_images_enabled: false, last_changelog_shown: "0.1.62" },
        null,
        2,
      ),
    );
    expect(readConfig(home).values).toEqual({ provider: "openai", model: "gpt-5", reasoning: "high", theme: "dark" });
    expect(rememberModel(home, "anthropic", "claude-sonnet-4-5")).toEqual({ ok: true });
    expect(JSON.parse(readFileSync(configPath(home), "utf8"))).toEqual({
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      reasoning: "high",
      theme: "dark",
      inline_images_enabled: false,
      last_changelog_shown: "0.1.62",
    });
  });
});

describe("config.json reasoning", () => {
  test("takes every effort level zot knows, not only the Go zot's three", () => {
    writeFileSync(configPath(home), JSON.stringify({ reasoning: "xhigh" }));
    expect(readConfig(home)).toMatchObject({ values: { reasoning: "xhigh" }, warnings: [] });
  });

  test("a bad level is ignored with a warning naming the file and the key, and the other keys still apply", () => {
    writeFileSync(configPath(home), JSON.stringify({ provider: "openai", reasoning: "extreme" }));
    const r = readConfig(home);
    expect(r.values).toEqual({ provider: "openai" });
    expect(r.warnings).toEqual([`Ignoring "reasoning" in ${configPath(home)}: it must be low, medium, high, xhigh or max (got "extreme").`]);
  });

  test("only the file's own key counts", () => {
    writeFileSync(configPath(home), '{"__proto__": {"reasoning": "high"}}');
    expect(readConfig(home)).toMatchObject({ values: {}, warnings: [] });
  });
});

describe("config.json auto_compact and notify", () => {
  test("good values apply beside the Go zot's keys", () => {
    writeFileSync(configPath(home), JSON.stringify({ reasoning: "high", auto_compact: 70, notify: "bell" }));
    expect(readConfig(home)).toMatchObject({ values: { reasoning: "high", autoCompact: 70, notify: "bell" }, warnings: [] });
    writeFileSync(configPath(home), JSON.stringify({ auto_compact: false }));
    expect(readConfig(home).values.autoCompact).toBe(false);
  });

  test("bad ones are each ignored with a warning naming the file and the key, and the rest still apply", () => {
    writeFileSync(configPath(home), JSON.stringify({ provider: "openai", auto_compact: 150, notify: "loud" }));
    const r = readConfig(home);
    expect(r.values).toEqual({ provider: "openai" });
    expect(r.warnings).toEqual([
      `Ignoring "notify" in ${configPath(home)}: it must be one of auto, bell, osc9, osc777, off (got "loud").`,
      `Ignoring "auto_compact" in ${configPath(home)}: it must be a percentage of the context window from 1 to 100, or false to turn automatic compaction off (got 150).`,
    ]);
  });

  test("only the file's own keys count", () => {
    writeFileSync(configPath(home), '{"__proto__": {"auto_compact": 50, "notify": "bell"}}');
    expect(readConfig(home)).toMatchObject({ values: {}, warnings: [] });
  });
});

describe("models.json written by the Go zot", () => {
  test("loads its providers map, provider aliases and informational fields without warnings", () => {
    writeFileSync(
      join(home, "models.json"),
      JSON.stringify({
        providers: {
          "openai-codex": {
            models: [
              {
                id: "gpt-5.5",
                name: "GPT-5.5",
                reasoning: true,
                contextWindow: 400000,
                maxTokens: 128000,
                priceInput: 2.5,
                priceOutput: 15,
                priceCacheRead: 0.25,
                input: ["text", "image"],
                api: "openai-responses",
              },
            ],
          },
          moonshot: { models: [{ id: "kimi-k3", name: "Kimi K3", contextWindow: 256000, maxTokens: 32000, baseUrl: "https://api.moonshot.example/v1" }] },
          "openai-responses": {
            models: [
              { id: "gpt-go-responses", contextWindow: 200000 },
              { id: "gpt-go-chat", wire: "chat" },
            ],
          },
          "kimi-code": { models: [{ id: "k3-go", contextWindow: 262144 }] },
        },
      }),
    );
    const { models, warnings } = loadModels(home);
    expect(warnings).toEqual([]);
    expect(findModel(models, "openai", "gpt-5.5")).toMatchObject({
      name: "GPT-5.5",
      reasoning: true,
      contextWindow: 400000,
      maxTokens: 128000,
      priceInput: 2.5,
      source: "custom",
    });
    expect(findModel(models, "kimi", "kimi-k3")).toMatchObject({ contextWindow: 256000, baseUrl: "https://api.moonshot.example/v1" });
    // The openai-responses group is OpenAI on the Responses wire, unless an entry names its own.
    expect(findModel(models, "openai", "gpt-go-responses")).toMatchObject({ wire: "responses", contextWindow: 200000 });
    expect(findModel(models, "openai", "gpt-go-chat")).toMatchObject({ wire: "chat" });
    // kimi-code is a provider of its own, not Moonshot's kimi.
    expect(findModel(models, "kimi-code", "k3-go")).toMatchObject({ contextWindow: 262144, source: "custom" });
    expect(findModel(models, "kimi", "k3-go")).toBeUndefined();
  });
});
