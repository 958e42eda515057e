// Where each provider is reached and over which wire: the official base URLs (one definition for
// the clients, the key check and live discovery) and the rule that picks a model's wire.
import type { ModelInfo } from "../provider.ts";
import type { ChoosableWire, ProviderName, Wire } from "../choices.ts";
import { PROVIDER_ENV_KEYS } from "../config.ts";

export const ANTHROPIC_BASE = "https://api.anthropic.com";
export const ANTHROPIC_VERSION = "2023-06-01";

type HttpProvider = Exclude<ProviderName, "mock">;

type Endpoint = {
  /** Anthropic-wire base, without /v1 (requests go to <base>/v1/messages). */
  anthropic?: string;
  /** OpenAI-wire base, with /v1 (requests go to <base>/chat/completions or <base>/responses). */
  openai?: string;
  /** Other official bases of the same service (China), each in the same convention as above. */
  alternates: string[];
  /** The wires the service speaks; the first is the default. */
  wires: readonly [Wire, ...Wire[]];
};

export const ENDPOINTS: Record<HttpProvider, Endpoint> = {
  anthropic: { anthropic: ANTHROPIC_BASE, alternates: [], wires: ["anthropic"] },
  openai: { openai: "https://api.openai.com/v1", alternates: [], wires: ["chat", "responses"] },
  kimi: { openai: "https://api.moonshot.ai/v1", alternates: ["https://api.moonshot.cn/v1"], wires: ["chat"] },
  // Kimi Code recommends its Anthropic route; its Chat Completions route is there too.
  "kimi-code": {
    anthropic: "https://api.kimi.ai/coding",
    openai: "https://api.kimi.ai/coding/v1",
    alternates: ["https://api.kimi.com/coding", "https://api.kimi.com/coding/v1"],
    wires: ["anthropic", "chat"],
  },
  ollama: { openai: "http://localhost:11434/v1", alternates: [], wires: ["chat", "responses"] },
};

/** How the user supplies the provider's key, for messages ("ANTHROPIC_API_KEY", "KIMI_API_KEY or MOONSHOT_API_KEY"). */
function keyHint(provider: string): string | undefined {
  const names = PROVIDER_ENV_KEYS[provider];
  return names ? names.join(" or ") : undefined;
}

/**
 * Where one request goes and with which key: --base-url, else the model's `baseUrl`, else the
 * provider's official base for the wire family. A keyless request to an official base is refused
 * before anything is sent, with the sentence to show.
 */
export function requestTarget(
  provider: HttpProvider,
  family: "anthropic" | "openai",
  opts: { apiKey?: string | undefined; baseUrl?: string | undefined },
  info: ModelInfo | undefined,
): { base: string; key: string; hint: string | undefined } | { error: string } {
  let base = opts.baseUrl ?? info?.baseUrl ?? ENDPOINTS[provider][family] ?? "";
  while (base.endsWith("/")) base = base.slice(0, -1);
  const key = opts.apiKey ?? "";
  const hint = keyHint(provider);
  if (key === "" && hint && isOfficialBase(provider, family === "anthropic" && base.endsWith("/v1") ? base.slice(0, -3) : base))
    return { error: `no API key for ${provider}; set ${hint} or pass --api-key` };
  return { base, key, hint };
}

/** True for the provider's own servers, where a request without a key cannot work. */
export function isOfficialBase(provider: HttpProvider, base: string): boolean {
  const e = ENDPOINTS[provider];
  return base === e.anthropic || base === e.openai || e.alternates.includes(base);
}

/**
 * The wire for one model: `--wire`, else the model's `wire` (models.json, then the catalog), else
 * the provider's default. An override the provider cannot speak is reported by `wireProblem`.
 */
export function wireFor(provider: HttpProvider, info: ModelInfo | undefined, override?: ChoosableWire): Wire {
  const wires = ENDPOINTS[provider].wires;
  const wanted = override ?? info?.wire;
  return wanted && wires.includes(wanted) ? wanted : wires[0];
}

/** Why `--wire <wire>` cannot be used with a provider, or undefined. */
export function wireProblem(provider: ProviderName, wire: ChoosableWire): string | undefined {
  if (provider === "mock") return `--wire ${wire} does not apply to the mock provider; drop --wire`;
  const wires = ENDPOINTS[provider].wires;
  if (wires.includes(wire)) return undefined;
  const choosable = wires.filter((w) => w !== "anthropic");
  return choosable.length === 0
    ? `--wire ${wire} does not apply to ${provider}, which speaks only the Anthropic Messages API; drop --wire`
    : `--wire ${wire} is not available for ${provider}; use ${choosable.map((w) => `--wire ${w}`).join(" or ")}, or leave --wire out`;
}
