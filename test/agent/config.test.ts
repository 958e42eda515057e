import { authPath } from "../../src/platform/home.ts";
import { beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  configPath,
  defaultProvider,
  knownSecrets,
  readAuth,
  readConfig,
  readSystemMd,
  rememberModel,
  removeApiKey,
  resolveCredentials,
  saveApiKey,
  updateConfig,
} from "../../src/agent/config.ts";
import { tempDir } from "../helpers/temp.ts";

let home: string;
beforeEach(() => {
  home = tempDir("zot-config-");
});

describe("config.json", () => {
  test("remembers provider and model while keeping unknown keys", () => {
    writeFileSync(configPath(home), JSON.stringify({ theme: "dark", custom: { keep: true } }));
    expect(rememberModel(home, "anthropic", "claude-x")).toEqual({ ok: true });
    const c = readConfig(home);
    expect(c.values).toEqual({ provider: "anthropic", model: "claude-x", theme: "dark" });
    expect(c.raw.custom).toEqual({ keep: true });
  });

  test("a null in the patch removes a key", () => {
    updateConfig(home, { theme: "dark", model: "m" });
    updateConfig(home, { theme: null });
    expect(JSON.parse(readFileSync(configPath(home), "utf8"))).toEqual({ model: "m" });
  });

  test("a broken config.json is reported and never overwritten", () => {
    writeFileSync(configPath(home), "{ not json");
    expect(readConfig(home).warnings[0]).toContain(configPath(home));
    const r = updateConfig(home, { model: "m" });
    expect(r.ok).toBe(false);
    expect(readFileSync(configPath(home), "utf8")).toBe("{ not json");
  });

  test("a missing config.json is simply empty", () => {
    expect(readConfig(home)).toEqual({ values: {}, raw: {}, warnings: [] });
  });

  test("each value is checked like its flag; a bad one is ignored with a warning naming the file and key", () => {
    writeFileSync(
      configPath(home),
      JSON.stringify({ provider: "constructor", model: "", theme: 7, idle_timeout: -1, connect_timeout: "soon", max_response_mib: 2, ping_timeout: 0.5 }),
    );
    const r = readConfig(home);
    expect(r.values).toEqual({ limits: { maxResponseBytes: 2 * 1024 * 1024, pingTimeoutMs: 500 } });
    expect(r.warnings).toEqual([
      `Ignoring "provider" in ${configPath(home)}: it must be one of anthropic, openai, kimi, kimi-code, ollama, mock (got "constructor").`,
      `Ignoring "model" in ${configPath(home)}: it must be a non-empty string (got "").`,
      `Ignoring "theme" in ${configPath(home)}: it must be a non-empty string (got 7).`,
      `Ignoring "connect_timeout" in ${configPath(home)}: it must be a positive number of seconds (got "soon").`,
      `Ignoring "idle_timeout" in ${configPath(home)}: it must be a positive number of seconds (got -1).`,
    ]);
  });

  test('"subagents" takes a concurrency from 1 to 16 and a positive maxCost; anything else is ignored with a warning', () => {
    writeFileSync(configPath(home), JSON.stringify({ subagents: { concurrency: 2, maxCost: 0.25 } }));
    expect(readConfig(home).values.subagents).toEqual({ concurrency: 2, maxCost: 0.25 });
    for (const bad of [{ concurrency: 0 }, { concurrency: 2.5 }, { concurrency: 17 }, { maxCost: 0 }, { maxCost: "1" }, 4]) {
      writeFileSync(configPath(home), JSON.stringify({ subagents: bad }));
      const r = readConfig(home);
      expect(r.values.subagents).toBeUndefined();
      expect(r.warnings).toEqual([
        `Ignoring "subagents" in ${configPath(home)}: it must be an object like {"concurrency": 4, "maxCost": 0.5} (a whole number from 1 to 16, and dollars above 0) (got ${JSON.stringify(bad)}).`,
      ]);
    }
  });

  test('"checkpoints" is false, or keep_days and max_mib (each may be left out); anything else is ignored with a warning', () => {
    writeFileSync(configPath(home), JSON.stringify({ checkpoints: { keep_days: 7 } }));
    expect(readConfig(home).values.checkpoints).toEqual({ keepDays: 7, maxBytes: 1024 * 1024 * 1024 });
    writeFileSync(configPath(home), JSON.stringify({ checkpoints: { max_mib: 64 } }));
    expect(readConfig(home).values.checkpoints).toEqual({ keepDays: 30, maxBytes: 64 * 1024 * 1024 });
    writeFileSync(configPath(home), JSON.stringify({ checkpoints: false }));
    expect(readConfig(home).values.checkpoints).toBe(false);
    writeFileSync(configPath(home), JSON.stringify({ checkpoints: { keep_days: 0 } }));
    const r = readConfig(home);
    expect(r.values.checkpoints).toBeUndefined();
    expect(r.warnings).toEqual([
      `Ignoring "checkpoints" in ${configPath(home)}: it must be false, or an object with "keep_days" (default 30) and "max_mib" (default 1024), both positive numbers (got {"keep_days":0}).`,
    ]);
  });

  test("keys that name Object's own members are not settings", () => {
    writeFileSync(configPath(home), '{"__proto__":{"provider":"openai"},"toString":"x","constructor":1}');
    expect(readConfig(home).values).toEqual({});
    expect(readConfig(home).values.provider).toBeUndefined();
  });
});

describe("auth.json", () => {
  test("is written with mode 0600 and keeps other providers' keys", () => {
    saveApiKey(home, "anthropic", "sk-ant-1111111111");
    saveApiKey(home, "openai", "sk-oai-2222222222");
    expect(statSync(authPath(home)).mode & 0o777).toBe(0o600);
    expect(readAuth(home).keys).toEqual({ anthropic: "sk-ant-1111111111", openai: "sk-oai-2222222222" });
    const removed = removeApiKey(home, "anthropic");
    expect(removed).toMatchObject({ ok: true, removed: true });
    expect(readAuth(home).keys).toEqual({ openai: "sk-oai-2222222222" });
  });

  test("a group- or world-readable file is refused with a warning naming the chmod fix", () => {
    saveApiKey(home, "anthropic", "sk-ant-1111111111");
    chmodSync(authPath(home), 0o644);
    const r = readAuth(home);
    expect(r.keys).toEqual({});
    expect(r.warning).toBe(`Ignoring ${authPath(home)}: it is readable by other users (mode 644); run \`chmod 600 ${authPath(home)}\` to use the keys in it.`);
    const creds = resolveCredentials({ provider: "anthropic", home, env: {} });
    expect(creds.credential).toBeNull();
    expect(creds.warnings).toEqual([r.warning as string]);
  });

  test("saving a key repairs the permissions of an exposed file", () => {
    saveApiKey(home, "openai", "sk-oai-2222222222");
    chmodSync(authPath(home), 0o666);
    saveApiKey(home, "anthropic", "sk-ant-1111111111");
    expect(statSync(authPath(home)).mode & 0o777).toBe(0o600);
  });

  test("an unparsable file is ignored without quoting its content", () => {
    writeFileSync(authPath(home), '{"anthropic": sk-ant-SECRET}', { mode: 0o600 });
    const r = readAuth(home);
    expect(r.keys).toEqual({});
    expect(r.warning).toContain("not valid JSON");
    expect(r.warning).not.toContain("SECRET");
  });
});

describe("credential lookup", () => {
  test("--api-key wins over the environment, which wins over auth.json", () => {
    saveApiKey(home, "anthropic", "from-auth-json");
    const env = { ANTHROPIC_API_KEY: "from-env-var" };
    expect(resolveCredentials({ provider: "anthropic", home, env, apiKey: "from-flag" }).credential).toEqual({
      key: "from-flag",
      source: "flag",
      from: "--api-key",
    });
    expect(resolveCredentials({ provider: "anthropic", home, env }).credential).toEqual({ key: "from-env-var", source: "env", from: "ANTHROPIC_API_KEY" });
    expect(resolveCredentials({ provider: "anthropic", home, env: {} }).credential).toEqual({
      key: "from-auth-json",
      source: "auth.json",
      from: authPath(home),
    });
  });

  test("kimi accepts KIMI_API_KEY and MOONSHOT_API_KEY", () => {
    expect(resolveCredentials({ provider: "kimi", home, env: { MOONSHOT_API_KEY: "moon-key-123" } }).credential?.from).toBe("MOONSHOT_API_KEY");
    expect(resolveCredentials({ provider: "kimi", home, env: { KIMI_API_KEY: "kimi-key-123", MOONSHOT_API_KEY: "m" } }).credential?.from).toBe("KIMI_API_KEY");
  });

  test("the default provider is the last used, else the first with a key, else mock with a notice", () => {
    expect(defaultProvider({ home, env: { OPENAI_API_KEY: "k-openai-1" }, last: "openai" })).toEqual({ provider: "openai" });
    expect(defaultProvider({ home, env: { OPENAI_API_KEY: "k-openai-1" }, last: "anthropic" })).toEqual({ provider: "openai" });
    expect(defaultProvider({ home, env: {}, last: "ollama" })).toEqual({ provider: "ollama" });
    const none = defaultProvider({ home, env: {} });
    expect(none.provider).toBe("mock");
    expect(none.notice).toContain("ANTHROPIC_API_KEY");
    expect(none.notice).toContain(authPath(home));
  });

  test("known secrets gather the flag, the environment and auth.json", () => {
    saveApiKey(home, "openai", "sk-oai-2222222222");
    const s = knownSecrets(home, { ANTHROPIC_API_KEY: "sk-ant-env-1111" }, "flag-key-123");
    expect(s.sort()).toEqual(["flag-key-123", "sk-ant-env-1111", "sk-oai-2222222222"].sort());
  });
});

describe("SYSTEM.md", () => {
  test("is read when present and non-empty", () => {
    expect(readSystemMd(home)).toBeNull();
    writeFileSync(join(home, "SYSTEM.md"), "  \n");
    expect(readSystemMd(home)).toBeNull();
    writeFileSync(join(home, "SYSTEM.md"), "You are a pirate.\n");
    expect(readSystemMd(home)).toBe("You are a pirate.");
  });
});
