// One entry point for the runtime: a provider name and credentials in, a Provider out. HTTP
// providers pick the wire per request, from the model (see endpoints.ts), so a /model switch to a
// model that needs another wire just works.
import type { ModelInfo, Provider, ProviderEvent, ProviderRequest } from "../provider.ts";
import { builtinModels, findModel } from "../catalog.ts";
import type { ChoosableWire, ProviderName } from "../choices.ts";
import { anthropicProvider } from "./anthropic.ts";
import { isOfficialBase, requestTarget, wireFor } from "./endpoints.ts";
import type { ClientOptions } from "./http-stream.ts";
import { MockProvider } from "./mock.ts";
import { chatCompletionsProvider } from "./openai.ts";
import { responsesProvider } from "./openai-responses.ts";
import type { RetryPolicy } from "./retry.ts";
import type { StreamLimits } from "./limits.ts";
import { WireMemory } from "./wire-memory.ts";

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
  /** `$ZOT_HOME`, where the base URLs without a Responses API are remembered; without it nothing is. */
  home?: string | undefined;
};

export function createProvider(opts: ProviderOptions): Provider {
  if (opts.provider === "mock") return new MockProvider(opts.mockScript);
  const client: ClientOptions = {
    apiKey: opts.apiKey,
    baseUrl: opts.baseUrl,
    catalog: opts.catalog ?? builtinModels(),
    retry: opts.retry,
    limits: opts.limits,
  };
  return new WireRouter(opts.provider, client, opts.wire, opts.home !== undefined ? new WireMemory(opts.home) : undefined);
}

class WireRouter implements Provider {
  private readonly anthropic?: Provider;
  private readonly chat?: Provider;
  private readonly responses?: Provider;
  /** Base URLs found without the Responses API in this process (the memory keeps them across runs). */
  private readonly chatBases = new Set<string>();

  constructor(
    readonly name: Exclude<ProviderName, "mock">,
    private readonly client: ClientOptions,
    private readonly wire: ChoosableWire | undefined,
    private readonly memory: WireMemory | undefined,
  ) {
    const p = name;
    if (p === "anthropic" || p === "kimi-code") this.anthropic = anthropicProvider(p, client);
    if (p !== "anthropic") this.chat = chatCompletionsProvider(p, client);
    // A Responses-wire model that --wire did not pin falls back to Chat Completions on a server without the Responses API.
    if (p === "openai" || p === "ollama")
      this.responses = responsesProvider(
        p,
        wire === "responses" ? client : { ...client, routeMissing: (req, signal, base) => this.fallBack(req, signal, base) },
      );
  }

  stream(req: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    const info = findModel(this.client.catalog, this.name, req.model);
    const wire = wireFor(this.name, info, this.wire);
    if (wire === "responses" && this.wire === undefined) {
      const target = requestTarget(this.name, "openai", this.client, info);
      if ("base" in target && (this.chatBases.has(target.base) || this.memory?.chatOnly(target.base))) return this.chat!.stream(req, signal);
    }
    const client = wire === "anthropic" ? this.anthropic : wire === "responses" ? this.responses : this.chat;
    // wireFor only returns wires the provider speaks, and each of those has its client.
    return client!.stream(req, signal);
  }

  /**
   * Once per request, on a custom base URL only (the official servers have the Responses API, so a
   * 404 there is a wrong model or path): the same request over Chat Completions, remembered for the base.
   */
  private fallBack(req: ProviderRequest, signal: AbortSignal, base: string): AsyncIterable<ProviderEvent> | undefined {
    if (isOfficialBase(this.name, base)) return undefined;
    this.chatBases.add(base);
    this.memory?.rememberChat(base);
    const kept = this.memory ? ` (remembered in ${this.memory.path}, so later runs use it at once)` : "";
    const reason = `${this.name} at ${base} has no Responses API (HTTP 404 for ${base}/responses); using Chat Completions instead, as --wire chat does${kept}`;
    const chat = this.chat!;
    return (async function* () {
      yield { type: "retry", attempt: 2, attempts: 2, delayMs: 0, reason, wire: "chat" } satisfies ProviderEvent;
      yield* chat.stream(req, signal);
    })();
  }
}
