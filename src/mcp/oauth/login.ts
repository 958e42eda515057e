// `zot mcp login`: the OAuth 2.1 authorization code flow with PKCE (S256) for one HTTP MCP server.
// Discovery from the server's 401 (or the well-known URLs), the client identity, the authorization
// URL (state, resource, scope) printed and opened, the one-shot loopback callback, the `state` and
// RFC 9207 `iss` checks before the code goes anywhere, the code redeemed at the issuer's token
// endpoint, the tokens stored under issuer + server + client.
import type { Result } from "../../result.ts";
import type { OAuthConfig } from "../config.ts";
import { openBrowser } from "./browser.ts";
import { clientIdentity } from "./client-id.ts";
import { authorizationServer, parseChallenge } from "./discovery.ts";
import type { Challenge } from "./discovery.ts";
import { listenLoopback } from "./loopback.ts";
import { send } from "../../platform/http.ts";
import { joinScopes } from "./scope.ts";
import { findAuth, readAuthStore, saveAuth } from "./store.ts";
import type { StoredAuth } from "./store.ts";
import { redeemCode } from "./tokens.ts";

export type LoginInput = {
  name: string;
  url: string;
  oauth?: OAuthConfig;
  /** The file that defines the server, for the sentence saying what to configure. */
  file: string;
  home: string;
  env: Record<string, string | undefined>;
  /** Progress lines for the user (the URL among them). */
  say: (line: string) => void;
  timeoutMs: number;
};

export type LoginOutcome = Result<{ entry: StoredAuth }>;

const PROBE_MS = 10_000;
/** How long a login waits for the browser. */
export const LOGIN_WAIT_MS = 5 * 60_000;

export async function login(i: LoginInput): Promise<LoginOutcome> {
  const probed = await probe(i.url);
  if (!probed.ok) return probed;
  const found = await authorizationServer(i.url, probed.challenge);
  if (!found.ok) return found;
  const { as, resource, scopesSupported } = found;
  const issuer = as.issuer;
  if (found.how) i.say(`No protected resource metadata for ${i.url}; ${found.how}.`);
  // OAuth 2.1 and MCP: without S256 PKCE the code could be redeemed by whoever intercepts it.
  if (!as.codeChallengeMethods?.includes("S256"))
    return {
      ok: false,
      error: `the authorization server ${issuer} does not offer PKCE with S256 (code_challenge_methods_supported), which MCP requires; zot does not log in without it`,
    };
  const usual = i.oauth?.scopes?.join(" ") || probed.challenge?.scope || scopesSupported.join(" ") || null;
  // Step-up (MCP): after a 403 insufficient_scope, what was granted and what the server asked for.
  const prior = findAuth(readAuthStore(i.home), i.url, i.oauth?.clientId);
  const stepUp = prior?.issuer === issuer ? prior.step_up_scope : undefined;
  const scope = prior && stepUp ? joinScopes(prior.scope || usual, stepUp) : usual;

  const listening = listenLoopback(i.oauth?.callbackPort);
  if (!listening.ok) return listening;
  const loop = listening.loopback;
  try {
    const fix = `register zot there (redirect URI ${i.oauth?.callbackPort ? loop.redirectUri : "http://127.0.0.1:PORT/callback"}) and put "oauth": {"client_id": "…"} in the entry of "${i.name}" in ${i.file}`;
    const identity = await clientIdentity(as, i.oauth, loop.redirectUri, scope, fix);
    if (!identity.ok) return identity;
    const { client } = identity;
    const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
    const challenge = base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
    const state = base64url(crypto.getRandomValues(new Uint8Array(24)));
    const auth = new URL(as.authorizationEndpoint);
    const q = auth.searchParams;
    q.set("response_type", "code");
    q.set("client_id", client.id);
    q.set("redirect_uri", loop.redirectUri);
    q.set("code_challenge", challenge);
    q.set("code_challenge_method", "S256");
    q.set("state", state);
    q.set("resource", resource);
    if (scope) q.set("scope", scope);

    i.say(`Logging in to MCP server ${i.name} at ${issuer} (${identity.how}).`);
    if (stepUp) i.say(`Asking for the scope "${scope}": the server asked for "${stepUp}".`);
    i.say(`Open this URL in a browser to log in:\n\n  ${auth.href}\n`);
    const opener = openBrowser(auth.href, i.env);
    i.say(opener ? `(${opener})` : "(opened in your browser)");
    i.say(`Waiting for the browser (up to ${Math.round(i.timeoutMs / 1000)} s) …`);

    const got = await loop.wait(i.timeoutMs);
    if ("error" in got) return { ok: false, error: `${got.error}; run zot mcp login ${i.name} again` };
    const checked = checkCallback(got.params, state, as.issuer, as.issInResponse);
    if (!checked.ok) {
      loop.answer(`zot: the login failed: ${checked.error}.`);
      return checked;
    }
    const r = await redeemCode(as.tokenEndpoint, client, { code: checked.code, verifier, redirectUri: loop.redirectUri, resource });
    if (!r.ok) {
      loop.answer(`zot: the login failed: ${r.error}.`);
      return { ok: false, error: r.error };
    }
    loop.answer(`zot: logged in to MCP server ${i.name}; you can close this tab.`);
    const entry: StoredAuth = {
      server: i.url,
      issuer: as.issuer,
      client_id: client.id,
      ...(identity.registered && client.secret !== undefined ? { client_secret: client.secret } : {}),
      auth_method: client.method,
      token_endpoint: as.tokenEndpoint,
      ...(as.revocationEndpoint ? { revocation_endpoint: as.revocationEndpoint } : {}),
      resource,
      access_token: r.tokens.accessToken,
      ...(r.tokens.refreshToken ? { refresh_token: r.tokens.refreshToken } : {}),
      ...(r.tokens.expiresAt !== undefined ? { expires_at: r.tokens.expiresAt } : {}),
      ...(r.tokens.scope !== undefined ? { scope: r.tokens.scope } : scope ? { scope } : {}),
      obtained_at: Date.now(),
    };
    const saved = saveAuth(i.home, entry);
    if (!saved.ok) return saved;
    return { ok: true, entry };
  } finally {
    loop.close();
  }
}

/** The authorization response, checked before its code is sent anywhere: our `state`, the issuer's `iss` (RFC 9207), no `error`. */
export function checkCallback(p: URLSearchParams, state: string, issuer: string, issRequired: boolean): Result<{ code: string }> {
  if (p.get("state") !== state)
    return { ok: false, error: "the browser came back with a state that is not this login's (a stale tab, or a forged redirect); zot did not use its code" };
  const iss = p.get("iss");
  // Compared as strings, unnormalised (RFC 9207 §2.4): a look-alike issuer is another issuer.
  if (iss !== null && iss !== issuer)
    return { ok: false, error: `the authorization response comes from the issuer ${iss}, not ${issuer} (a mix-up attack?); zot did not redeem its code` };
  if (iss === null && issRequired)
    return { ok: false, error: `the authorization response lacks the "iss" that ${issuer} promises to send; zot did not redeem its code` };
  const error = p.get("error");
  if (error !== null) {
    const desc = p.get("error_description");
    return { ok: false, error: `the authorization server refused: ${error}${desc ? ` (${desc.slice(0, 200)})` : ""}` };
  }
  const code = p.get("code");
  if (!code) return { ok: false, error: "the browser came back without an authorization code" };
  return { ok: true, code };
}

/** A request the server must authorize: its 401 carries the challenge that points at its metadata. */
async function probe(url: string): Promise<Result<{ challenge: Challenge | null }>> {
  const sent = await send(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Method": "ping" },
    body: JSON.stringify({ jsonrpc: "2.0", id: "zot-login", method: "ping" }),
    headerTimeoutMs: PROBE_MS,
  });
  if (!sent.ok) return { ok: false, error: `cannot reach ${url}: ${sent.cause ?? sent.error}` };
  const res = sent.response;
  await res.discard();
  return { ok: true, challenge: res.status === 401 || res.status === 403 ? parseChallenge(res.headers.get("www-authenticate")) : null };
}

function base64url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64url");
}
