// One entry point for the runtime: a provider name and credentials in, a Provider out.
import type { ModelInfo, Provider } from "../provider.ts";
import { builtinModels, type ProviderName } from "../catalog.ts";
import { AnthropicProvider } from "./anthropic.ts";
import { MockProvider } from "./mock.ts";
import { OpenAIProvider } from "./openai.ts";
import type { RetryPolicy } from "./retry.ts";
import type { StreamLimits } from "./limits.ts";

export type { ProviderName } from "../catalog.ts";
export type { RetryPolicy } from "./retry.ts";

export type ProviderOptions = {
  provider: ProviderName;
  apiKey?: string;
  /** Anthropic: without /v1 (requests go to <base>/v1/messages). Others: with /v1 (<base>/chat/completions). */
  baseUrl?: string;
  /** JSONL file of scripted responses for the mock provider. */
  mockScript?: string;
  /** Model metadata for prices, output limits and per-model base URLs; defaults to the built-in catalog. */
  catalog?: ModelInfo[];
  /** Retry tuning; tests inject a sleep that does not wait. */
  retry?: RetryPolicy;
  /** Timeouts and caps (config.json); unset fields take the defaults. */
  limits?: Partial<StreamLimits>;
};

export function createProvider(opts: ProviderOptions): Provider {
  const client = { apiKey: opts.apiKey, baseUrl: opts.baseUrl, catalog: opts.catalog ?? builtinModels(), retry: opts.retry, limits: opts.limits };
  switch (opts.provider) {
    case "anthropic":
      return new AnthropicProvider(client);
    case "openai":
    case "kimi":
    case "ollama":
      return new OpenAIProvider(opts.provider, client);
    case "mock":
      return new MockProvider(opts.mockScript);
  }
}
