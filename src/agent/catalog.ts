// The model catalog: metadata (context window, output limit, reasoning, prices) for the models zot
// knows, plus what the user adds in $ZOT_HOME/models.json. It never restricts which model ids can
// be used: any id is sent as given, the catalog only improves cost and context reporting.
import { modelsPath } from "../platform/home.ts";
import { readFileSync } from "node:fs";
import type { LongContextPrices, ModelInfo } from "./provider.ts";
import type { Usage } from "./messages.ts";
import { EFFORTS, isChoosableWire, isEffort, isProviderName, orList, PROVIDERS, type ChoosableWire, type Effort, type ProviderName } from "./choices.ts";

export { PROVIDERS, isProviderName, type ProviderName } from "./choices.ts";

type Prices = [input: number, output: number, cacheRead: number, cacheWrite: number, cacheWriteLong: number];
type Extra = Partial<Pick<ModelInfo, "efforts" | "thinking" | "wire" | "deferredTools" | "longContext" | "reasoning">>;

const ALL: readonly Effort[] = EFFORTS;
const NO_XHIGH: readonly Effort[] = ["low", "medium", "high", "max"];
const BASIC: readonly Effort[] = ["low", "medium", "high"];

function model(provider: ProviderName, id: string, name: string, contextWindow: number, maxTokens: number, prices: Prices, extra: Extra = {}): ModelInfo {
  const [priceInput, priceOutput, priceCacheRead, priceCacheWrite, priceCacheWriteLong] = prices;
  // Every Anthropic model zot lists (Haiku 4.5 and later) takes tool search's `defer_loading`.
  const native: Extra = provider === "anthropic" ? { deferredTools: "defer-loading" } : {};
  return {
    id,
    name,
    provider,
    reasoning: extra.reasoning ?? (extra.efforts !== undefined || extra.thinking !== undefined),
    contextWindow,
    maxTokens,
    priceInput,
    priceOutput,
    priceCacheRead,
    priceCacheWrite,
    priceCacheWriteLong,
    ...native,
    ...extra,
    source: "builtin",
  };
}

/** OpenAI bills a whole request above 272K prompt tokens at 2× input and cache, 1.5× output. */
function openaiLong([input, output, cacheRead, cacheWrite]: Prices): LongContextPrices {
  return { above: 272_000, input: input * 2, output: output * 1.5, cacheRead: cacheRead * 2, cacheWrite: cacheWrite * 2 };
}

function gpt(id: string, name: string, prices: Prices, efforts: readonly Effort[] | undefined, long = true): ModelInfo {
  return model("openai", id, name, 1_050_000, 128_000, prices, {
    wire: "responses",
    reasoning: true,
    ...(efforts ? { efforts } : {}),
    ...(long ? { longContext: openaiLong(prices) } : {}),
  });
}

// December 2026. Prices in USD per million tokens from the providers' price pages; where a page
// gives no cache price, Anthropic's standard ratios (read 0.1×, 5 min write 1.25×, 1 h write 2× the
// input price) and OpenAI's 0.1× cached input are used. Retired models (Claude Opus 4, 4.1 and
// Sonnet 4, the 3.x models, GPT-4 and the o-series) are gone; an id that is still served but not
// listed works as given, and live discovery lists it.
const BUILTIN: ModelInfo[] = [
  model("anthropic", "claude-fable-5-1", "Claude Fable 5.1", 1_000_000, 128_000, [10, 50, 0.25, 12.5, 20], { thinking: "adaptive", efforts: ALL }),
  model("anthropic", "claude-fable-5", "Claude Fable 5 (legacy)", 1_000_000, 128_000, [10, 50, 1, 12.5, 20], { thinking: "adaptive", efforts: ALL }),
  model("anthropic", "claude-opus-5-5", "Claude Opus 5.5", 1_000_000, 128_000, [4, 20, 0.2, 5, 8], { thinking: "adaptive", efforts: ALL }),
  model("anthropic", "claude-opus-5", "Claude Opus 5 (legacy)", 1_000_000, 128_000, [5, 25, 0.5, 6.25, 10], { thinking: "adaptive", efforts: ALL }),
  model("anthropic", "claude-sonnet-5-5", "Claude Sonnet 5.5", 1_000_000, 128_000, [2, 10, 0.2, 2.5, 4], { thinking: "adaptive", efforts: ALL }),
  model("anthropic", "claude-sonnet-5", "Claude Sonnet 5 (legacy)", 1_000_000, 128_000, [2, 10, 0.2, 2.5, 4], { thinking: "adaptive", efforts: ALL }),
  model("anthropic", "claude-haiku-5-5", "Claude Haiku 5.5", 1_000_000, 128_000, [0.1, 0.5, 0.01, 0.125, 0.2], {
    thinking: "adaptive",
    efforts: ALL,
    longContext: { above: 100_000, input: 0.5, output: 2.5, cacheRead: 0.05, cacheWrite: 0.625 },
  }),
  model("anthropic", "claude-opus-4-8", "Claude Opus 4.8", 1_000_000, 128_000, [5, 25, 0.5, 6.25, 10], { thinking: "adaptive", efforts: ALL }),
  model("anthropic", "claude-opus-4-7", "Claude Opus 4.7", 1_000_000, 128_000, [5, 25, 0.5, 6.25, 10], { thinking: "adaptive", efforts: ALL }),
  model("anthropic", "claude-opus-4-6", "Claude Opus 4.6", 1_000_000, 128_000, [5, 25, 0.5, 6.25, 10], { thinking: "adaptive", efforts: NO_XHIGH }),
  model("anthropic", "claude-opus-4-5", "Claude Opus 4.5", 200_000, 64_000, [5, 25, 0.5, 6.25, 10], { thinking: "budget+effort", efforts: BASIC }),
  model("anthropic", "claude-sonnet-4-6", "Claude Sonnet 4.6", 1_000_000, 64_000, [3, 15, 0.3, 3.75, 6], { thinking: "adaptive", efforts: NO_XHIGH }),
  model("anthropic", "claude-haiku-4-5", "Claude Haiku 4.5", 200_000, 64_000, [1, 5, 0.1, 1.25, 2], { thinking: "budget" }),
  model("anthropic", "claude-haiku-4-5-20251001", "Claude Haiku 4.5 (2025-10-01)", 200_000, 64_000, [1, 5, 0.1, 1.25, 2], { thinking: "budget" }),
  gpt("gpt-6.2-astra", "GPT-6.2 Astra", [8, 40, 0.8, 0, 0], ALL),
  gpt("gpt-6.2-sol", "GPT-6.2 Sol", [2, 10, 0.1, 2.5, 5], ALL),
  gpt("gpt-6.1-terra", "GPT-6.1 Terra", [1, 5, 0.05, 1.25, 2.5], ALL),
  gpt("gpt-6.1-sol", "GPT-6.1 Sol", [2, 10, 0.1, 2.5, 0], ALL),
  gpt("gpt-6-astra", "GPT-6 Astra", [10, 50, 1, 12.5, 0], ALL),
  gpt("gpt-6-sol", "GPT-6 Sol", [2, 10, 0.2, 2.5, 0], ALL),
  gpt("gpt-6-luna", "GPT-6 Luna", [0.1, 0.5, 0.01, 0.125, 0], ALL),
  gpt("gpt-5.6-sol", "GPT-5.6 Sol", [5, 30, 0.5, 0, 0], ALL),
  gpt("gpt-5.6", "GPT-5.6 Sol (alias)", [5, 30, 0.5, 0, 0], ALL),
  gpt("gpt-5.6-terra", "GPT-5.6 Terra", [2, 12, 0.2, 0, 0], ALL),
  gpt("gpt-5.6-luna", "GPT-5.6 Luna", [0.2, 1.2, 0.02, 0, 0], ALL),
  gpt("gpt-5.5", "GPT-5.5", [5, 30, 0.5, 0, 0], undefined, false),
  gpt("gpt-5.5-pro", "GPT-5.5 Pro", [30, 180, 3, 0, 0], undefined, false),
  model("kimi", "kimi-k3", "Kimi K3", 1_048_576, 131_072, [3, 15, 0.3, 0, 0], { efforts: ["low", "high", "max"], deferredTools: "kimi-dynamic" }),
  model("kimi", "kimi-k3.1-pro", "Kimi K3.1 Pro", 1_048_576, 131_072, [2, 10, 0.2, 0, 0], { reasoning: true }),
  model("kimi", "kimi-k3.1-pro-highspeed", "Kimi K3.1 Pro highspeed", 1_048_576, 131_072, [4, 20, 0.2, 0, 0], { reasoning: true }),
  model("kimi", "kimi-k2.7-code", "Kimi K2.7 Code", 262_144, 262_144, [0, 0, 0, 0, 0], { reasoning: true }),
  model("kimi", "kimi-k2.7-code-highspeed", "Kimi K2.7 Code highspeed", 262_144, 262_144, [0, 0, 0, 0, 0], { reasoning: true }),
  model("kimi", "kimi-k2.6", "Kimi K2.6", 262_144, 262_144, [0, 0, 0, 0, 0], { reasoning: true }),
  model("kimi", "kimi-k2.5", "Kimi K2.5", 262_144, 32_768, [0, 0, 0, 0, 0], { reasoning: true }),
  model("kimi", "kimi-k2-thinking", "Kimi K2 Thinking", 262_144, 16_384, [0.6, 2.5, 0.15, 0, 0], { reasoning: true }),
  model("kimi", "kimi-k2-thinking-turbo", "Kimi K2 Thinking Turbo", 262_144, 16_384, [1.15, 8, 0.15, 0, 0], { reasoning: true }),
  model("kimi", "kimi-k2-0905-preview", "Kimi K2 (0905)", 262_144, 16_384, [0.6, 2.5, 0.15, 0, 0]),
  model("kimi", "kimi-k2-turbo-preview", "Kimi K2 Turbo", 262_144, 16_384, [1.15, 8, 0.15, 0, 0]),
  // Kimi Code is a subscription: no per-token prices.
  model("kimi-code", "k3", "Kimi Code K3", 1_048_576, 32_768, [0, 0, 0, 0, 0], { thinking: "budget" }),
  model("kimi-code", "k3-256k", "Kimi Code K3 (256K)", 262_144, 32_768, [0, 0, 0, 0, 0], { thinking: "budget" }),
  model("kimi-code", "kimi-for-coding", "Kimi for Coding (K2.8 preview)", 262_144, 32_768, [0, 0, 0, 0, 0], { thinking: "budget" }),
  model("kimi-code", "kimi-for-coding-highspeed", "Kimi for Coding highspeed", 262_144, 32_768, [0, 0, 0, 0, 0], { thinking: "budget" }),
  model("ollama", "llama3.2", "Llama 3.2 (local)", 131_072, 8_192, [0, 0, 0, 0, 0]),
  model("ollama", "qwen3", "Qwen3 (local)", 40_960, 8_192, [0, 0, 0, 0, 0], { reasoning: true }),
  model("mock", "mock", "Offline mock model", 200_000, 8_192, [0, 0, 0, 0, 0]),
];

/** The current mid-tier model of each provider: what a fresh key gets with no flags. */
const DEFAULTS: Record<ProviderName, string> = {
  anthropic: "claude-sonnet-5-5",
  openai: "gpt-6.2-sol",
  kimi: "kimi-k3",
  "kimi-code": "k3",
  ollama: "llama3.2",
  mock: "mock",
};

export function builtinModels(): ModelInfo[] {
  return BUILTIN.map((m) => ({ ...m }));
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

/**
 * Why `--reasoning <level>` cannot be used with a model, or undefined when it can. Models without
 * an effort list (unknown ones included) take any level; a model the catalog marks as not
 * reasoning takes none.
 */
export function reasoningProblem(info: ModelInfo | undefined, level: Effort, provider: string, id: string): string | undefined {
  if (!info) return undefined;
  if (!info.reasoning) return `--reasoning ${level}: ${provider}/${id} does not reason; drop --reasoning or pick a reasoning model (zot --list-models)`;
  const efforts = info.efforts;
  if (efforts && !efforts.includes(level)) return `--reasoning ${level} is not supported by ${provider}/${id}; it takes ${orList(efforts)}`;
  return undefined;
}

/**
 * The thinking level to keep when a running session switches to `provider/id` with `level` set:
 * the same one when the model takes it, else the nearest it takes (the highest below, or its
 * lowest), or none for a model that does not reason — with the sentence that tells the user.
 */
export function fitReasoning(info: ModelInfo | undefined, level: Effort, provider: string, id: string): { level: Effort | undefined; notice?: string } {
  if (!info || reasoningProblem(info, level, provider, id) === undefined) return { level };
  if (!info.reasoning)
    return { level: undefined, notice: `${provider}/${id} does not reason: thinking is off for it (it was ${level}; /reasoning sets it again)` };
  const efforts = info.efforts ?? EFFORTS;
  const rank = (e: Effort) => EFFORTS.indexOf(e);
  const below = efforts.filter((e) => rank(e) < rank(level));
  const nearest = below.length > 0 ? below[below.length - 1]! : efforts[0]!;
  return { level: nearest, notice: `${provider}/${id} does not take thinking level ${level}: using ${nearest} (it takes ${orList(efforts)})` };
}

/** Breakdown a usage figure cannot carry: cache-write tokens written with the long TTL. */
export type CostDetail = { cacheWriteLong?: number };

/**
 * USD for one reply. Above a model's long-context threshold the whole request is billed at the
 * long-context prices; cache writes with the long TTL use that price when the reply reports them.
 */
export function costOf(usage: Usage, model: ModelInfo | undefined, detail: CostDetail = {}): number {
  if (!model) return 0;
  const prompt = usage.input + usage.cacheRead + usage.cacheWrite;
  const tier = model.longContext && prompt > model.longContext.above ? model.longContext : undefined;
  const input = tier?.input ?? model.priceInput;
  const output = tier?.output ?? model.priceOutput;
  const cacheRead = tier?.cacheRead ?? model.priceCacheRead;
  const cacheWrite = tier?.cacheWrite ?? model.priceCacheWrite;
  const long = Math.min(usage.cacheWrite, detail.cacheWriteLong ?? 0);
  // A long-TTL price missing from the price list: the standard ratio (1 h = 1.6× the 5 min price).
  const cacheWriteLong = tier ? cacheWrite * 1.6 : model.priceCacheWriteLong || cacheWrite * 1.6;
  return (
    (usage.input * input + usage.output * output + usage.cacheRead * cacheRead + (usage.cacheWrite - long) * cacheWrite + long * cacheWriteLong) / 1_000_000
  );
}

const NUMBER_FIELDS = ["contextWindow", "maxTokens", "priceInput", "priceOutput", "priceCacheRead", "priceCacheWrite", "priceCacheWriteLong"] as const;
/** `input` and `api` are informational in the Go zot's models.json; zot reads past them too. */
const KNOWN_FIELDS = new Set([
  "provider",
  "id",
  "name",
  "reasoning",
  "baseUrl",
  "wire",
  "efforts",
  "thinking",
  "deferred_tools",
  "input",
  "api",
  ...NUMBER_FIELDS,
]);
const THINKING_KINDS = ["adaptive", "budget", "budget+effort"] as const;

/**
 * Provider names the Go zot's models.json may group models under, and the wire a group implies.
 * `kimi-code` needs no alias: it is a provider of its own.
 */
const GO_PROVIDER_ALIASES: Readonly<Record<string, { provider: ProviderName; wire?: ChoosableWire }>> = {
  "openai-codex": { provider: "openai" },
  "openai-responses": { provider: "openai", wire: "responses" },
  "anthropic-messages": { provider: "anthropic" },
  moonshot: { provider: "kimi" },
  "moonshot-ai": { provider: "kimi" },
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
  const file = modelsPath(home);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT")
      warnings.push(`${file}: could not be read (${(err as Error).message}); using the built-in models only`);
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
    warnings.push(
      `${file}: expected an array of models, {"models": [...]}, {"<provider>": [...], …} or the Go zot's {"providers": {…}}; using the built-in models only`,
    );
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
    const base: ModelInfo = models[existing] ?? {
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
      source: "custom",
    };
    const merged: ModelInfo = { ...base, ...entry.fields, source: "custom" };
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
    const alias = Object.hasOwn(GO_PROVIDER_ALIASES, key) ? GO_PROVIDER_ALIASES[key] : undefined;
    const implied = { provider: alias?.provider ?? key, ...(alias?.wire ? { wire: alias.wire } : {}) };
    const entries = isRecord(group) && Array.isArray(group.models) ? group.models : [];
    return entries.map((e: unknown) => (isRecord(e) ? { ...implied, ...e } : e));
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
  if (raw.wire !== undefined) {
    if (typeof raw.wire !== "string" || !isChoosableWire(raw.wire)) return `(${id}): "wire" must be "chat" or "responses"`;
    fields.wire = raw.wire;
  }
  if (raw.efforts !== undefined) {
    const list = raw.efforts;
    if (!Array.isArray(list) || list.length === 0 || !list.every((e): e is Effort => typeof e === "string" && isEffort(e)))
      return `(${id}): "efforts" must be a non-empty array of ${orList(EFFORTS.map((e) => `"${e}"`))}`;
    fields.efforts = list;
    fields.reasoning ??= true;
  }
  if (raw.thinking !== undefined) {
    const kind = THINKING_KINDS.find((k) => k === raw.thinking);
    if (!kind) return `(${id}): "thinking" must be ${orList(THINKING_KINDS.map((k) => `"${k}"`))}`;
    fields.thinking = kind;
  }
  if (raw.deferred_tools !== undefined) {
    if (raw.deferred_tools !== "kimi-dynamic" && raw.deferred_tools !== "defer-loading" && raw.deferred_tools !== null)
      return `(${id}): "deferred_tools" must be "kimi-dynamic", "defer-loading" or null`;
    if (raw.deferred_tools === "kimi-dynamic" || raw.deferred_tools === "defer-loading") fields.deferredTools = raw.deferred_tools;
    else fields.deferredTools = undefined;
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
