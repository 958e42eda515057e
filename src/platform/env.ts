// The process environment as zot reads it, and the one every program zot starts gets.

export type Env = Record<string, string | undefined>;

/** The environment of any program zot starts: the user's, minus zot's RPC credential. */
export function childEnv(base: Env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined && k !== "ZOTCORE_RPC_TOKEN") env[k] = v;
  return env;
}
