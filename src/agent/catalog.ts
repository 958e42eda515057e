// The model catalog: metadata (context window, output limit, reasoning, prices) for the models zot
// knows, plus what the user adds in $ZOT_HOME/models.json. It never restricts which model ids can
// be used: any id is sent as given, the catalog only improves cost and context reporting.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ModelInfo } from "./provider.ts";
import type { Usage } from "./messages.ts";

export const PROVIDERS = ["anthropic", "openai", "kimi", "ollama", "mock"] as const;
export type ProviderName = (typeof PROVIDERS)[number];

export function isProviderName(v: string): v is ProviderName {
  return (PROVIDERS as readonly string[]).includes(v);
}

type Entry = [provider: ProviderName, id: string, name: string, reasoning: boolean, context: number, maxTokens: number, prices: [input: number, output: number, cacheRead: number, cacheWrite: number]];

// Prices in USD per million tokens, from the providers' public price lists.
const BUILTIN: Entry[] = [
  ["anthropic", "claude-sonnet-4-5", "Claude Sonnet 4.5", true, 200_000, 64_000, [3, 15, 0.3, 3.75]],
  ["anthropic", "claude-sonnet-4-5-20250929", "Claude Sonnet 4.5 (2025-09-29)", true, 200_000, 64_000, [3, 15, 0.3, 3.75]],
  ["anthropic", "claude-opus-4-5", "Claude Opus 4.5", true, 200_000, 64_000, [5, 25, 0.5, 6.25]],
  ["anthropic", "claude-opus-4-1", "Claude Opus 4.1", true, 200_000, 32_000, [15, 75, 1.5, 18.75]],
  ["anthropic", "claude-opus-4-1-20250805", "Claude Opus 4.1 (2025-08-05)", true, 200_000, 32_000, [15, 75, 1.5, 18.75]],
  ["anthropic", "claude-opus-4-0", "Claude Opus 4", true, 200_000, 32_000, [15, 75, 1.5, 18.75]],
  ["anthropic", "claude-sonnet-4-0", "Claude Sonnet 4", true, 200_000, 64_000, [3, 15, 0.3, 3.75]],
  ["anthropic", "claude-sonnet-4-20250514", "Claude Sonnet 4 (2025-05-14)", true, 200_000, 64_000, [3, 15, 0.3, 3.75]],
  ["anthropic", "claude-haiku-4-5", "Claude Haiku 4.5", true, 200_000, 64_000, [1, 5, 0.1, 1.25]],
  ["anthropic", "claude-haiku-4-5-20251001", "Claude Haiku 4.5 (2025-10-01)", true, 200_000, 64_000, [1, 5, 0.1, 1.25]],
  ["anthropic", "claude-3-7-sonnet-latest", "Claude Sonnet 3.7", true, 200_000, 64_000, [3, 15, 0.3, 3.75]],
  ["anthropic", "claude-3-5-haiku-latest", "Claude Haiku 3.5", false, 200_000, 8_192, [0.8, 4, 0.08, 1]],
  ["openai", "gpt-5", "GPT-5", true, 400_000, 128_000, [1.25, 10, 0.125, 0]],
  ["openai", "gpt-5.1", "GPT-5.1", true, 400_000, 128_000, [1.25, 10, 0.125, 0]],
  ["openai", "gpt-5-mini", "GPT-5 mini", true, 400_000, 128_000, [0.25, 2, 0.025, 0]],
  ["openai", "gpt-5-nano", "GPT-5 nano", true, 400_000, 128_000, [0.05, 0.4, 0.005, 0]],
  ["openai", "gpt-4.1", "GPT-4.1", false, 1_047_576, 32_768, [2, 8, 0.5, 0]],
  ["openai", "gpt-4.1-mini", "GPT-4.1 mini", false, 1_047_576, 32_768, [0.4, 1.6, 0.1, 0]],
  ["openai", "gpt-4.1-nano", "GPT-4.1 nano", false, 1_047_576, 32_768, [0.1, 0.4, 0.025, 0]],
  ["openai", "gpt-4o", "GPT-4o", false, 128_000, 16_384, [2.5, 10, 1.25, 0]],
  ["openai", "gpt-4o-mini", "GPT-4o mini", false, 128_000, 16_384, [0.15, 0.6, 0.075, 0]],
  ["openai", "o3", "o3", true, 200_000, 100_000, [2, 8, 0.5, 0]],
  ["openai", "o4-mini", "o4-mini", true, 200_000, 100_000, [1.1, 4.4, 0.275, 0]],
  ["kimi", "kimi-k2-0905-preview", "Kimi K2 (0905)", false, 262_144, 16_384, [0.6, 2.5, 0.15, 0]],
  ["kimi", "kimi-k2-0711-preview", "Kimi K2 (0711)", false, 131_072, 16_384, [0.6, 2.5, 0.15, 0]],
  ["kimi", "kimi-k2-turbo-preview", "Kimi K2 Turbo", false, 262_144, 16_384, [1.15, 8, 0.15, 0]],
  ["kimi", "kimi-k2-thinking", "Kimi K2 Thinking", true, 262_144, 16_384, [0.6, 2.5, 0.15, 0]],
  ["kimi", "kimi-k2-thinking-turbo", "Kimi K2 Thinking Turbo", true, 262_144, 16_384, [1.15, 8, 0.15, 0]],
  ["ollama", "llama3.2", "Llama 3.2 (local)", false, 131_072, 8_192, [0, 0, 0, 0]],
  ["ollama", "qwen3", "Qwen3 (local)", true, 40_960, 8_192, [0, 0, 0, 0]],
  ["mock", "mock", "Offline mock model", false, 200_000, 8_192, [0, 0, 0, 0]],
];

const DEFAULTS: Record<ProviderName, string> = {
  anthropic: "claude-sonnet-4-5",
  openai: "gpt-5",
  kimi: "kimi-k2-0905-preview",
  ollama: "llama3.2",
  mock: "mock",
};

export function builtinModels(): ModelInfo[] {
  return BUILTIN.map(([provider, id, name, reasoning, contextWindow, maxTokens, [pi, po, pr, pw]]) => ({
    id,
    name,
    provider,
    reasoning,
    contextWindow,
    maxTokens,
    priceInput: pi,
    priceOutput: po,
    priceCacheRead: pr,
    priceCacheWrite: pw,
    source: "builtin",
  }));
}

export function defaultModel(provider: ProviderName): string {
  return DEFAULTS[provider];
}

export function findModel(models: readonly ModelInfo[], provider: string, id: string): ModelInfo | undefined {
  return models.find((m) => m.provider === provider && m.id === id);
}

/** The one-line notice for an id the catalog does not know (it is still used as given). */
export function unknownModelNotice(provider: string, id: string): string {
  return `zot: model "${id}" is not in the ${provider} catalog; using it anyway (add it to models.json for context and cost figures)`;
}

export function costOf(usage: Usage, model: ModelInfo | undefined): number {
  if (!model) return 0;
  return (
    (usage.input * model.priceInput +
      usage.output * model.priceOutput +
      usage.cacheRead * model.priceCacheRead +
      usage.cacheWrite * model.priceCacheWrite) /
    1_000_000
  );
}

const NUMBER_FIELDS = ["contextWindow", "maxTokens", "priceInput", "priceOutput", "priceCacheRead", "priceCacheWrite"] as const;
/** `input` and `api` are informational in the Go zot's models.json; zot reads past them too. */
const KNOWN_FIELDS = new Set(["provider", "id", "name", "reasoning", "baseUrl", "input", "api", ...NUMBER_FIELDS]);

/** Provider names the Go zot's models.json may group models under. */
const GO_PROVIDER_ALIASES: Readonly<Record<string, ProviderName>> = {
  "openai-codex": "openai",
  "openai-responses": "openai",
  "anthropic-messages": "anthropic",
  moonshot: "kimi",
  "moonshot-ai": "kimi",
  "kimi-code": "kimi",
};

/**
 * The built-in catalog merged with `$ZOT_HOME/models.json`. The file is either an array of model
 * objects or `{"models": [...]}`; each needs `provider` and `id`. An entry whose provider and id
 * match a built-in model overrides just the fields it gives; others are added with defaults.
 * Problems never stop zot: each becomes a warning naming the file, and the bad entry is skipped.
 */
export function loadModels(home: string): { models: ModelInfo[]; warnings: string[] } {
  const models = builtinModels();
  const warnings: string[] = [];
  const file = join(home, "models.json");
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") warnings.push(`${file}: could not be read (${(err as Error).message}); using the built-in models only`);
    return { models, warnings };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    warnings.push(`${file}: invalid JSON (${(err as Error).message}); using the built-in models only`);
    return { models, warnings };
  }
  const list = modelList(parsed);
  if (!list) {
    warnings.push(`${file}: expected an array of models, {"models": [...]}, {"<provider>": [...], …} or the Go zot's {"providers": {…}}; using the built-in models only`);
    return { models, warnings };
  }
  list.forEach((raw: unknown, i: number) => {
    const where = `${file}: model #${i + 1}`;
    const result = decodeEntry(raw);
    if (typeof result === "string") {
      warnings.push(`${where} ${result}; skipped`);
      return;
    }
    for (const key of result.unknown) warnings.push(`${where} (${result.entry.id}): unknown field "${key}" ignored`);
    const { entry } = result;
    const existing = models.findIndex((m) => m.provider === entry.provider && m.id === entry.id);
    const base: ModelInfo =
      existing >= 0
        ? models[existing]
        : {
            id: entry.id,
            name: entry.id,
            provider: entry.provider,
            reasoning: false,
            contextWindow: 128_000,
            maxTokens: 8_192,
            priceInput: 0,
            priceOutput: 0,
            priceCacheRead: 0,
            priceCacheWrite: 0,
            source: "models.json",
          };
    const merged: ModelInfo = { ...base, ...entry.fields, source: "models.json" };
    if (existing >= 0) models[existing] = merged;
    else models.push(merged);
  });
  return { models, warnings };
}

/**
 * The entries of a models.json: an array, `{"models": [...]}`, or models grouped by provider
 * (`{"anthropic": [...], "openai": [...]}`), whose entries take the provider from their key.
 */
function modelList(parsed: unknown): unknown[] | undefined {
  if (Array.isArray(parsed)) return parsed;
  if (!isRecord(parsed)) return undefined;
  if (Array.isArray(parsed.models)) return parsed.models;
  if (isRecord(parsed.providers)) return goModelList(parsed.providers);
  const groups = Object.entries(parsed);
  if (groups.length === 0 || !groups.every(([key, value]) => isProviderName(key) && Array.isArray(value))) return undefined;
  return groups.flatMap(([provider, entries]) => (entries as unknown[]).map((e) => (isRecord(e) && e.provider === undefined ? { provider, ...e } : e)));
}

/** The Go zot's `{"providers": {"<provider>": {"models": [...]}}}`; an unknown provider's entries fail with a warning each. */
function goModelList(providers: Record<string, unknown>): unknown[] {
  return Object.entries(providers).flatMap(([key, group]) => {
    const provider = GO_PROVIDER_ALIASES[key] ?? key;
    const entries = isRecord(group) && Array.isArray(group.models) ? group.models : [];
    return entries.map((e: unknown) => (isRecord(e) && e.provider === undefined ? { provider, ...e } : e));
  });
}

type Decoded = { entry: { provider: ProviderName; id: string; fields: Partial<ModelInfo> }; unknown: string[] };

function decodeEntry(raw: unknown): Decoded | string {
  if (!isRecord(raw)) return "is not an object";
  const { provider, id } = raw;
  if (typeof provider !== "string" || !isProviderName(provider)) return `needs "provider" set to one of ${PROVIDERS.join(", ")}`;
  if (typeof id !== "string" || id.trim() === "") return `needs a non-empty string "id"`;
  const fields: Partial<ModelInfo> = {};
  if (raw.name !== undefined) {
    if (typeof raw.name !== "string") return `(${id}): "name" must be a string`;
    fields.name = raw.name;
  }
  if (raw.reasoning !== undefined) {
    if (typeof raw.reasoning !== "boolean") return `(${id}): "reasoning" must be true or false`;
    fields.reasoning = raw.reasoning;
  }
  if (raw.baseUrl !== undefined) {
    if (typeof raw.baseUrl !== "string" || !/^https?:\/\//.test(raw.baseUrl)) return `(${id}): "baseUrl" must be an http(s) URL`;
    fields.baseUrl = raw.baseUrl.replace(/\/+$/, "");
  }
  for (const key of NUMBER_FIELDS) {
    const v = raw[key];
    if (v === undefined) continue;
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0) return `(${id}): "${key}" must be a non-negative number`;
    fields[key] = v;
  }
  return { entry: { provider, id, fields }, unknown: Object.keys(raw).filter((k) => !KNOWN_FIELDS.has(k)) };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
