// `zot --list-models [--json]`: the catalog merged with models.json and the live lists, one row per
// model with where it came from. Stale or missing lists are fetched first for every provider with a
// key (this one-shot query may wait for that, at most LIST_TIMEOUT_MS), so the output is current.
import { loadModels } from "../agent/catalog.ts";
import { KEYED_PROVIDERS, readAuth, resolveCredentials } from "../agent/config.ts";
import type { Env } from "../platform/env.ts";
import { discoveryBase, mergeCached, refreshModels } from "../agent/model-discovery.ts";
import { isProviderName, type ProviderName } from "../agent/choices.ts";
import type { ModelInfo } from "../agent/provider.ts";
import { wireFor } from "../agent/providers/endpoints.ts";
import { tableLines } from "../platform/text-table.ts";

const LIST_TIMEOUT_MS = 5000;

export type ListOptions = {
  home: string;
  env: Env;
  json: boolean;
  provider?: ProviderName | undefined;
  apiKey?: string | undefined;
  baseUrl?: string | undefined;
};

export async function listModels(o: ListOptions, out: (text: string) => void, err: (text: string) => void): Promise<number> {
  const { models, warnings } = loadModels(o.home);
  for (const w of warnings) err(`zot: ${w}\n`);
  const auth = readAuth(o.home);
  const signal = AbortSignal.timeout(LIST_TIMEOUT_MS);
  const refreshes: Promise<void>[] = [];
  for (const p of KEYED_PROVIDERS) {
    if (!isProviderName(p) || p === "mock" || (o.provider && o.provider !== p)) continue;
    // --api-key and --base-url belong to --provider; the others use their own keys and endpoints.
    const own = o.provider === p;
    const key = resolveCredentials({ provider: p, home: o.home, env: o.env, auth, ...(own && o.apiKey ? { apiKey: o.apiKey } : {}) }).credential?.key;
    const where = { home: o.home, provider: p, base: discoveryBase(p, own ? o.baseUrl : undefined) };
    if (!mergeCached(models, where) && key) refreshes.push(refreshModels({ ...where, key }, models, signal));
  }
  await Promise.all(refreshes);
  const shown = o.provider ? models.filter((m) => m.provider === o.provider) : models;
  if (o.json) {
    for (const m of shown) out(JSON.stringify(jsonRow(m)) + "\n");
    return 0;
  }
  const rows = shown.map((m) => [m.provider, m.id, m.name, String(m.contextWindow), String(m.maxTokens), reasoningCell(m), wireOf(m), m.source]);
  const head = ["PROVIDER", "MODEL", "NAME", "CONTEXT", "MAX_OUT", "REASONING", "WIRE", "SOURCE"];
  for (const line of tableLines(head, rows)) out(line + "\n");
  return 0;
}

function wireOf(m: ModelInfo): string {
  return isProviderName(m.provider) && m.provider !== "mock" ? wireFor(m.provider, m) : "-";
}

/** "low..max", "yes" (any level), or "no". */
function reasoningCell(m: ModelInfo): string {
  if (!m.reasoning) return "no";
  const e = m.efforts;
  if (!e) return "yes";
  return e.join(",");
}

function jsonRow(m: ModelInfo): Record<string, unknown> {
  return {
    provider: m.provider,
    id: m.id,
    name: m.name,
    context_window: m.contextWindow,
    max_output: m.maxTokens,
    reasoning: m.reasoning,
    ...(m.efforts ? { efforts: m.efforts } : {}),
    wire: wireOf(m),
    ...(m.deferredTools ? { deferred_tools: m.deferredTools } : {}),
    price: {
      input: m.priceInput,
      output: m.priceOutput,
      cache_read: m.priceCacheRead,
      cache_write: m.priceCacheWrite,
      ...(m.priceCacheWriteLong ? { cache_write_long: m.priceCacheWriteLong } : {}),
      ...(m.longContext
        ? {
            long_context: {
              above: m.longContext.above,
              input: m.longContext.input,
              output: m.longContext.output,
              cache_read: m.longContext.cacheRead,
              cache_write: m.longContext.cacheWrite,
            },
          }
        : {}),
    },
    ...(m.baseUrl ? { base_url: m.baseUrl } : {}),
    source: m.source,
  };
}
