// Who zot is to an authorization server, in the MCP order of preference: the client configured in
// the server's `oauth` entry (an https URL is a Client ID Metadata Document, used as such when the
// server accepts them), else Dynamic Client Registration (RFC 7591; deprecated by MCP, still what
// most servers offer) as a native app with the loopback redirect URI.
import type { Result } from "../../result.ts";
import type { OAuthConfig } from "../config.ts";
import type { AuthServerMetadata } from "./discovery.ts";
import type { ClientAuthMethod } from "./store.ts";
import { secretMethod } from "./tokens.ts";
import type { Client } from "./tokens.ts";
import { oauthError, requestJson } from "./wire.ts";

export type Identity = Result<{ client: Client; how: string; registered: boolean }>;

const REGISTER_MS = 15_000;

export async function clientIdentity(
  as: AuthServerMetadata,
  oauth: OAuthConfig | undefined,
  redirectUri: string,
  scope: string | null,
  fix: string,
): Promise<Identity> {
  const id = oauth?.clientId;
  if (id !== undefined) {
    const metadataDocument = /^https:\/\/[^/]+\/./.test(id);
    if (!metadataDocument || as.clientIdMetadataDocuments) {
      const secret = oauth?.clientSecret;
      const method: ClientAuthMethod = secret === undefined ? "none" : secretMethod(as.tokenAuthMethods);
      return {
        ok: true,
        client: { id, method, ...(secret !== undefined ? { secret } : {}) },
        how: metadataDocument ? `client metadata document ${id}` : `configured client ${id}`,
        registered: false,
      };
    }
    if (!as.registrationEndpoint)
      return {
        ok: false,
        error: `the authorization server ${as.issuer} does not accept Client ID Metadata Documents such as ${id} and offers no registration; ${fix}`,
      };
  }
  if (!as.registrationEndpoint) return { ok: false, error: `the authorization server ${as.issuer} offers no dynamic client registration; ${fix}` };
  return register(as.registrationEndpoint, redirectUri, scope);
}

async function register(endpoint: string, redirectUri: string, scope: string | null): Promise<Identity> {
  const body = {
    client_name: "zot",
    application_type: "native",
    redirect_uris: [redirectUri],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    ...(scope ? { scope } : {}),
  };
  const got = await requestJson(
    endpoint,
    { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(body), timeoutMs: REGISTER_MS },
    `the registration endpoint ${endpoint}`,
  );
  if (!got.ok) return got;
  const doc = got.doc;
  if (got.status < 200 || got.status > 299 || !doc || typeof doc.client_id !== "string" || doc.client_id === "")
    return { ok: false, error: `the registration endpoint ${endpoint} did not register zot: ${oauthError(doc, got.status)}` };
  const secret = typeof doc.client_secret === "string" && doc.client_secret !== "" ? doc.client_secret : undefined;
  const said = doc.token_endpoint_auth_method;
  const method: ClientAuthMethod =
    said === "client_secret_basic" || said === "client_secret_post" ? said : secret !== undefined ? "client_secret_basic" : "none";
  return {
    ok: true,
    client: { id: doc.client_id, method, ...(secret !== undefined ? { secret } : {}) },
    how: `registered as client ${doc.client_id}`,
    registered: true,
  };
}
