// Live model discovery, as the Go zot does it: `GET <base>/models` with the user's key, the answer
// cached for 6 h in $ZOT_HOME/models-cache.json (per provider and base URL) and merged into the
// catalog as `source: "live"` entries. Start-up only reads the cache; refreshing it happens in the
// background and never without a key.
import type { Result } from "../result.ts";
import { readFileSync } from "node:fs";
import { ensurePrivateDir, modelsCachePath } from "../platform/home.ts";
import type { ModelInfo } from "./provider.ts";
import type { ProviderName } from "./choices.ts";
import { ANTHROPIC_VERSION, ENDPOINTS } from "./providers/endpoints.ts";
import { arr, num, parseObject, rec, str } from "./providers/json.ts";
import { atomicWrite } from "../platform/atomic-write.ts";
import { send } from "../platform/http.ts";

export const CACHE_TTL_MS = 6 * 60 * 60 * 1000;
const CACHE_VERSION = 1;
/** Anthropic pages its list; one page this size holds every model it serves. */
const ANTHROPIC_PAGE = 1000;
/** A model list is a few KiB; a server that sends more is not answering the question. */
const MAX_LIST_BYTES = 4 * 1024 * 1024;
/** Discovery runs in the background: a server that does not answer or stalls must not hold a request open. */
const LIST_TIMEOUT_MS = 15_000;

export type LiveModel = { id: string; name?: string; contextWindow?: number };
type CacheEntry = { fetchedAt: number; baseUrl: string; models: LiveModel[] };
type CacheFile = Record<string, CacheEntry>;

/** The base URL discovery asks: --base-url when given, else the provider's official one (Kimi Code: its Anthropic route). */
export function discoveryBase(provider: Exclude<ProviderName, "mock">, baseUrl?: string): string {
  const e = ENDPOINTS[provider];
  return (baseUrl ?? e.anthropic ?? e.openai ?? "").replace(/\/+$/, "");
}

/** The authenticated request that lists a provider's models (also /login's key check). */
export function modelsRequest(provider: string, key: string, base: string): { url: string; headers: Record<string, string> } {
  const trimmed = base.replace(/\/+$/, "");
  if (provider === "anthropic" || provider === "kimi-code") {
    const root = trimmed.endsWith("/v1") ? trimmed.slice(0, -3) : trimmed;
    return { url: `${root}/v1/models?limit=${ANTHROPIC_PAGE}`, headers: { "x-api-key": key, "anthropic-version": ANTHROPIC_VERSION } };
  }
  return { url: `${trimmed}/models`, headers: { authorization: `Bearer ${key}` } };
}

/** The model list in either shape (`data: [{id, display_name | context_length …}]`); undefined when it is not one. */
export function parseModelList(text: string): LiveModel[] | undefined {
  const data = arr(parseObject(text)?.data);
  if (!data) return undefined;
  const out: LiveModel[] = [];
  for (const raw of data) {
    const m = rec(raw);
    const id = str(m?.id);
    if (!m || !id) continue;
    const entry: LiveModel = { id };
    const name = str(m.display_name) ?? str(m.name);
    if (name && name !== id) entry.name = name;
    const context = num(m.context_length) ?? num(m.context_window) ?? num(m.max_input_tokens);
    if (context && context > 0) entry.contextWindow = context;
    out.push(entry);
  }
  return out;
}

function readCache(home: string): CacheFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(modelsCachePath(home), "utf8"));
  } catch {
    return {}; // missing or damaged: it is only a cache, the next refresh rewrites it
  }
  const file = rec(parsed);
  if (!file || file.version !== CACHE_VERSION) return {};
  const out: CacheFile = {};
  for (const [provider, raw] of Object.entries(rec(file.providers) ?? {})) {
    const e = rec(raw);
    const fetchedAt = Date.parse(str(e?.fetched_at) ?? "");
    const baseUrl = str(e?.base_url);
    const models = arr(e?.models);
    if (!e || Number.isNaN(fetchedAt) || !baseUrl || !models) continue;
    out[provider] = { fetchedAt, baseUrl, models: parseModelList(JSON.stringify({ data: models })) ?? [] };
  }
  return out;
}

/** Cached live models of a provider at a base URL, and whether they are younger than 6 h. */
export function cachedModels(home: string, provider: string, base: string, now = Date.now()): { models: LiveModel[]; fresh: boolean } | undefined {
  const e = readCache(home)[provider];
  if (!e || e.baseUrl !== base) return undefined;
  return { models: e.models, fresh: now - e.fetchedAt < CACHE_TTL_MS };
}

/** Stores one provider's list, keeping the others' (written whole, atomically). */
export function writeCache(home: string, provider: string, base: string, models: LiveModel[], now = Date.now()): void {
  const all = readCache(home);
  all[provider] = { fetchedAt: now, baseUrl: base, models };
  const providers: Record<string, unknown> = {};
  for (const [p, e] of Object.entries(all)) {
    providers[p] = {
      fetched_at: new Date(e.fetchedAt).toISOString(),
      base_url: e.baseUrl,
      models: e.models.map((m) => ({ id: m.id, ...(m.name ? { display_name: m.name } : {}), ...(m.contextWindow ? { context_window: m.contextWindow } : {}) })),
    };
  }
  ensurePrivateDir(home);
  atomicWrite(modelsCachePath(home), JSON.stringify({ version: CACHE_VERSION, providers }, null, 2) + "\n");
}

/**
 * Adds the live ids the catalog lacks, in place (the provider clients hold the same array), as
 * `source: "live"`. Their prices are unknown (0); they are taken to reason, so `--reasoning` is
 * sent as asked. Built-in and models.json entries keep their own metadata. Returns how many were added.
 */
export function mergeLive(catalog: ModelInfo[], provider: string, live: readonly LiveModel[]): number {
  let added = 0;
  for (const m of live) {
    if (catalog.some((c) => c.provider === provider && c.id === m.id)) continue;
    catalog.push({
      id: m.id,
      name: m.name ?? m.id,
      provider,
      reasoning: true,
      contextWindow: m.contextWindow ?? 128_000,
      maxTokens: 8_192,
      priceInput: 0,
      priceOutput: 0,
      priceCacheRead: 0,
      priceCacheWrite: 0,
      source: "live",
    });
    added++;
  }
  return added;
}

/** Merges the cached list for `d` into `catalog`; true when it is fresh (no refresh needed). */
export function mergeCached(catalog: ModelInfo[], d: Omit<Discovery, "key">): boolean {
  const cached = cachedModels(d.home, d.provider, d.base);
  if (cached) mergeLive(catalog, d.provider, cached.models);
  return cached?.fresh ?? false;
}

export type FetchResult = Result<{ models: LiveModel[] }>;

/** One listing request. Never throws; a failure is a sentence (the caller decides whether anyone sees it). */
export async function fetchModels(provider: string, key: string, base: string, signal: AbortSignal): Promise<FetchResult> {
  const req = modelsRequest(provider, key, base);
  const fail = (why: string): FetchResult => ({ ok: false, error: `listing the ${provider} models at ${req.url} failed (${why})` });
  const sent = await send(req.url, { headers: req.headers, signal, headerTimeoutMs: LIST_TIMEOUT_MS, idleTimeoutMs: LIST_TIMEOUT_MS });
  if (!sent.ok) return fail(sent.error);
  const res = sent.response;
  const text = await res.readText(MAX_LIST_BYTES);
  if (!text.ok) return fail(text.error);
  if (!res.ok) return fail(`HTTP ${res.status}`);
  const models = parseModelList(text.value);
  return models ? { ok: true, models } : { ok: false, error: `${req.url} did not answer with a model list` };
}

export type Discovery = { home: string; provider: Exclude<ProviderName, "mock">; key: string; base: string };

/**
 * Fetches the list when the cache is missing or older than 6 h, stores it and merges it into
 * `catalog`. Resolves when done (or aborted); a failed fetch leaves the cache as it was.
 */
export async function refreshModels(d: Discovery, catalog: ModelInfo[], signal: AbortSignal): Promise<void> {
  if (d.key === "" || cachedModels(d.home, d.provider, d.base)?.fresh) return;
  const r = await fetchModels(d.provider, d.key, d.base, signal);
  if (!r.ok || signal.aborted) return;
  try {
    writeCache(d.home, d.provider, d.base, r.models);
  } catch {
    // An unwritable ZOT_HOME costs only the cache; the list is still merged for this run.
  }
  mergeLive(catalog, d.provider, r.models);
}
