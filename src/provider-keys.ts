// The environment variables that hold provider API keys. A leaf, so the extension host can refuse
// to hand one to an extension (a WebSocket extension's `token_env`) without knowing the agent.

/**
 * Environment variables checked for each provider, in order. Providers not listed need no key.
 * Null prototype: a provider name from a file ("constructor", "__proto__") must find nothing here.
 */
export const PROVIDER_ENV_KEYS: Readonly<Record<string, readonly string[]>> = Object.assign(Object.create(null) as Record<string, readonly string[]>, {
  anthropic: ["ANTHROPIC_API_KEY"],
  openai: ["OPENAI_API_KEY"],
  kimi: ["KIMI_API_KEY", "MOONSHOT_API_KEY"],
  "kimi-code": ["KIMI_CODE_API_KEY", "KIMI_API_KEY"],
});

/** Whether `name` is one of the variables a provider key is read from. */
export function isProviderKeyVariable(name: string): boolean {
  return Object.values(PROVIDER_ENV_KEYS).some((names) => names.includes(name));
}
