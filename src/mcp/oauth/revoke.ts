// Token revocation (RFC 7009) at logout: the refresh token, then the access token, each with its
// `token_type_hint`, authenticated as at the token endpoint — and only at the revocation endpoint the
// issuer's own metadata named at login, so a token never reaches another issuer's endpoint.
import type { Result } from "../../result.ts";
import type { OAuthConfig } from "../config.ts";
import type { StoredAuth } from "./store.ts";
import { clientPost, storedClient } from "./tokens.ts";
import { oauthError, requestJson } from "./wire.ts";

/** `revoked` is false for an entry without a revocation endpoint (stored before zot kept one, or the server offers none). */
export type Revocation = Result<{ revoked: boolean }>;

const REVOKE_MS = 10_000;

export async function revokeTokens(e: StoredAuth, oauth: OAuthConfig | undefined): Promise<Revocation> {
  const endpoint = e.revocation_endpoint;
  if (!endpoint) return { ok: true, revoked: false };
  const client = storedClient(e, oauth);
  const tokens: [string, string][] = [...(e.refresh_token ? [[e.refresh_token, "refresh_token"] as [string, string]] : []), [e.access_token, "access_token"]];
  const unreachable = new Set<string>();
  const refused = new Map<string, string[]>();
  // Both are tried: a server may refuse one hint and still take the other.
  for (const [token, hint] of tokens) {
    const got = await requestJson(
      endpoint,
      { method: "POST", ...clientPost(client, { token, token_type_hint: hint }), timeoutMs: REVOKE_MS },
      `the revocation endpoint ${endpoint}`,
    );
    if (!got.ok) unreachable.add(got.error);
    else if (got.status < 200 || got.status > 299) {
      const why = oauthError(got.doc, got.status);
      refused.set(why, [...(refused.get(why) ?? []), `the ${hint.replace("_", " ")}`]);
    }
  }
  const failures = [...unreachable, ...[...refused].map(([why, what]) => `the revocation endpoint ${endpoint} refused ${what.join(" and ")}: ${why}`)];
  return failures.length ? { ok: false, error: failures.join("; ") } : { ok: true, revoked: true };
}
