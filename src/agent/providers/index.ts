// One entry point for the runtime: a provider name and credentials in, a Provider out. HTTP
// providers pick the wire per request, from the model (see endpoints.ts), so a /model switch to a
// model that needs another wire just works.
import type { ModelInfo, Provider, ProviderEvent, ProviderRequest } from "../provider.ts";
import { builtinModels, findModel } from "../catalog.ts";
import type { ChoosableWire, ProviderName } from "../choices.ts";
import { anthropicProvider } from "./anthropic.ts";
import { wireFor } from "./endpoints.ts";
import type { ClientOptions } from "./http-stream.ts";
import { MockProvider } from "./mock.ts";
import { chatCompletionsProvider } from "./openai.ts";
import { responsesProvider } from "./openai-responses.ts";
import type { RetryPolicy } from "./retry.ts";
import type { StreamLimits } from "./limits.ts";

export type { ProviderName } from "../choices.ts";
export type { RetryPolicy } from "./retry.ts";

export type ProviderOptions = {
  provider: ProviderName;
  apiKey?: string | undefined;
  /** Anthropic wire: without /v1 (requests go to <base>/v1/messages). OpenAI wires: with /v1. */
  baseUrl?: string;
  /** `--wire`: overrides the wire the model's catalog entry names. */
  wire?: ChoosableWire | undefined;
  /** JSONL file of scripted responses for the mock provider. */
  mockScript?: string | undefined;
  /** Model metadata for prices, output limits, wires and per-model base URLs; defaults to the built-in catalog. */
  catalog?: ModelInfo[];
  /** Retry tuning; tests inject a sleep that does not wait. */
  retry?: RetryPolicy;
  /** Timeouts and caps (config.json); unset fields take the defaults. */
  limits?: Partial<StreamLimits> | undefined;
};

export function createProvider(opts: ProviderOptions): Provider {
  if (opts.provider === "mock") return new MockProvider(opts.mockScript);
  const client: ClientOptions = { apiKey: opts.apiKey, baseUrl: opts.baseUrl, catalog: opts.catalog ?? builtinModels(), retry: opts.retry, limits: opts.limits };
  return new WireRouter(opts.provider, client, opts.wire);
}

class WireRouter implements Provider {
  private readonly anthropic?: Provider;
  private readonly chat?: Provider;
  private readonly responses?: Provider;

  constructor(
    readonly name: Exclude<ProviderName, "mock">,
    private readonly client: ClientOptions,
    private readonly wire: ChoosableWire | undefined,
  ) {
    const p = name;
    if (p === "anthropic" || p === "kimi-code") this.anthropic = anthropicProvider(p, client);
    if (p !== "anthropic") this.chat = chatCompletionsProvider(p, client);
    if (p === "openai" || p === "ollama") this.responses = responsesProvider(p, client);
  }

  stream(req: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    const wire = wireFor(this.name, findModel(this.client.catalog, this.name, req.model), this.wire);
    const client = wire === "anthropic" ? this.anthropic : wire === "responses" ? this.responses : this.chat;
    // wireFor only returns wires the provider speaks, and each of those has its client.
    return client!.stream(req, signal);
  }
}
