// A manifest's `"transport": {"type": "websocket", …}`: an extension that already runs in another
// process (an editor, a desktop app, a container) and that zot connects to instead of starting.
// Only loopback addresses, unless the manifest opts in to a remote one over TLS.
import type { Result } from "../../result.ts";
import { isProviderKeyVariable } from "../../provider-keys.ts";
import { isObject, kind } from "../../json.ts";

export type WebSocketTarget = {
  url: string;
  /** The variable in zot's environment whose value is sent as `Authorization: Bearer …`; null sends none. */
  tokenEnv: string | null;
  allowRemote: boolean;
};

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** 127.0.0.0/8, ::1 (also as an IPv4-mapped address) and localhost: the only hosts reached without opting in. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (h === "localhost" || h === "::1") return true;
  const v4 = h.startsWith("::ffff:") ? h.slice(7) : h;
  const parts = v4.split(".");
  return parts.length === 4 && parts[0] === "127" && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}

/** Validates `raw` (the manifest's "transport"); errors name the manifest and the field. */
export function parseWebSocketTarget(raw: unknown, manifestPath: string): Result<{ target: WebSocketTarget }> {
  const bad = (field: string, problem: string) => ({
    ok: false as const,
    error: `${manifestPath}: field "${field}" ${problem}; fix "${field}" in the manifest.`,
  });
  if (!isObject(raw)) return bad("transport", `must be an object like {"type": "websocket", "url": "ws://127.0.0.1:PORT/"}, got ${kind(raw)}`);
  if (raw.type !== "websocket")
    return bad("transport.type", `must be "websocket" (the only transport besides "exec"), got ${JSON.stringify(raw.type) ?? "nothing"}`);
  if (typeof raw.url !== "string" || raw.url === "") return bad("transport.url", `must be a ws:// or wss:// URL, got ${kind(raw.url)}`);
  let url: URL;
  try {
    url = new URL(raw.url);
  } catch {
    return bad("transport.url", `is ${JSON.stringify(raw.url)}, which is not a URL (write it as ws://127.0.0.1:PORT/path)`);
  }
  // The URL is written to logs and errors; a credential belongs in token_env, which never is.
  if (url.username || url.password)
    return bad("transport.url", `must not carry a user name or password; put the token in the variable named by "transport.token_env"`);
  if (url.protocol !== "ws:" && url.protocol !== "wss:") return bad("transport.url", `must start with ws:// or wss://, got ${JSON.stringify(raw.url)}`);
  let allowRemote = false;
  if (raw.allow_remote !== undefined && raw.allow_remote !== null) {
    if (typeof raw.allow_remote !== "boolean") return bad("transport.allow_remote", `must be true or false, got ${kind(raw.allow_remote)}`);
    allowRemote = raw.allow_remote;
  }
  if (!isLoopbackHost(url.hostname)) {
    if (!allowRemote)
      return bad(
        "transport.url",
        `points to ${url.hostname}, which is not this machine (127.0.0.1, ::1 or localhost); a remote extension needs "allow_remote": true and a wss:// URL`,
      );
    if (url.protocol !== "wss:")
      return bad("transport.url", `must use wss:// to reach ${url.hostname}: over plain ws:// the token and every frame cross the network unencrypted`);
  }
  let tokenEnv: string | null = null;
  if (raw.token_env !== undefined && raw.token_env !== null) {
    if (typeof raw.token_env !== "string" || !ENV_NAME.test(raw.token_env))
      return bad("transport.token_env", `must name an environment variable (letters, digits, "_"), got ${JSON.stringify(raw.token_env)}`);
    // A pull must not be able to point a project's WebSocket extension at the user's model key.
    if (isProviderKeyVariable(raw.token_env))
      return bad(
        "transport.token_env",
        `is ${raw.token_env}, which holds a provider API key; zot sends no provider key to an extension, so give it a token of its own in another variable`,
      );
    tokenEnv = raw.token_env;
  }
  return { ok: true, target: { url: url.href, tokenEnv, allowRemote } };
}
