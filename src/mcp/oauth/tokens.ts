// The token endpoint: redeeming an authorization code (with the PKCE verifier) and refreshing, both
// with the RFC 8707 `resource`, and the client authentication the client was registered with.
import type { OAuthConfig } from "../config.ts";
import type { ClientAuthMethod, StoredAuth } from "./store.ts";
import { oauthError, requestJson } from "./wire.ts";

export type Client = { id: string; secret?: string; method: ClientAuthMethod };

export type Tokens = { accessToken: string; refreshToken?: string; expiresAt?: number; scope?: string };

export type TokenOutcome =
  | { ok: true; tokens: Tokens }
  | { ok: false; error: string /** The server said the grant is no good (not a network problem). */; rejected: boolean };

const TOKEN_MS = 15_000;

export function redeemCode(
  endpoint: string,
  client: Client,
  p: { code: string; verifier: string; redirectUri: string; resource: string },
): Promise<TokenOutcome> {
  return tokenRequest(
    endpoint,
    client,
    { grant_type: "authorization_code", code: p.code, code_verifier: p.verifier, redirect_uri: p.redirectUri, resource: p.resource },
    "the authorization code",
  );
}

export function refreshTokens(endpoint: string, client: Client, p: { refreshToken: string; resource: string; scope?: string }): Promise<TokenOutcome> {
  return tokenRequest(
    endpoint,
    client,
    { grant_type: "refresh_token", refresh_token: p.refreshToken, resource: p.resource, ...(p.scope ? { scope: p.scope } : {}) },
    "the refresh token",
  );
}

/** How a configured secret is sent: Basic unless the server lists only the form field (RFC 8414's default is Basic). */
export function secretMethod(supported: string[] | null): ClientAuthMethod {
  return supported && !supported.includes("client_secret_basic") && supported.includes("client_secret_post") ? "client_secret_post" : "client_secret_basic";
}

/** The client of a stored entry: its registered secret, else the configured one when the entry is the configured client's. */
export function storedClient(e: StoredAuth, oauth: OAuthConfig | undefined): Client {
  const secret = e.client_secret ?? (e.client_id === oauth?.clientId ? oauth.clientSecret : undefined);
  return { id: e.client_id, method: e.auth_method, ...(secret !== undefined ? { secret } : {}) };
}

/** A form POST to the token or revocation endpoint (RFC 7009 §2.1 authenticates as the token endpoint does). */
export function clientPost(client: Client, form: Record<string, string>): { headers: Record<string, string>; body: URLSearchParams } {
  const body = new URLSearchParams(form);
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" };
  if (client.method === "client_secret_basic" && client.secret !== undefined) {
    headers.Authorization = `Basic ${Buffer.from(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`).toString("base64")}`;
  } else {
    body.set("client_id", client.id);
    if (client.method === "client_secret_post" && client.secret !== undefined) body.set("client_secret", client.secret);
  }
  return { headers, body };
}

export async function tokenRequest(endpoint: string, client: Client, grant: Record<string, string>, what: string): Promise<TokenOutcome> {
  const got = await requestJson(endpoint, { method: "POST", ...clientPost(client, grant), timeoutMs: TOKEN_MS }, `the token endpoint ${endpoint}`);
  if (!got.ok) return { ...got, rejected: false };
  const { status, doc } = got;
  const ok = status >= 200 && status < 300;
  if (!ok || !doc || typeof doc.access_token !== "string" || doc.access_token === "") {
    const why = ok ? "answered without an access_token" : `refused ${what}: ${oauthError(doc, status)}`;
    return { ok: false, rejected: status >= 400 && status < 500, error: `the token endpoint ${endpoint} ${why}` };
  }
  if (typeof doc.token_type === "string" && doc.token_type.toLowerCase() !== "bearer")
    return { ok: false, rejected: true, error: `the token endpoint ${endpoint} issued a ${doc.token_type} token; zot only sends Bearer tokens` };
  const tokens: Tokens = { accessToken: doc.access_token };
  if (typeof doc.refresh_token === "string" && doc.refresh_token !== "") tokens.refreshToken = doc.refresh_token;
  if (typeof doc.expires_in === "number" && doc.expires_in > 0) tokens.expiresAt = Date.now() + doc.expires_in * 1000;
  if (typeof doc.scope === "string") tokens.scope = doc.scope;
  return { ok: true, tokens };
}
