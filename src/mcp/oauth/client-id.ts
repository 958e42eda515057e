// Who zot is to an authorization server, in the MCP order of preference: the client configured in
// the server's `oauth` entry (an https URL is a Client ID Metadata Document, used as such when the
// server accepts them), else Dynamic Client Registration (RFC 7591; deprecated by MCP, still what
// most servers offer) as a native app with the loopback redirect URI.
import { isObject } from "../../ext/protocol.ts";
import type { OAuthConfig } from "../config.ts";
import type { AuthServerMetadata } from "./discovery.ts";
import type { ClientAuthMethod } from "./store.ts";
import { secretMethod } from "./tokens.ts";
import type { Client } from "./tokens.ts";

export type Identity = { ok: true; client: Client; how: string; registered: boolean } | { ok: false; error: string };

const REGISTER_MS = 15_000;

export async function clientIdentity(as: AuthServerMetadata, oauth: OAuthConfig | undefined, redirectUri: string, scope: string | null, fix: string): Promise<Identity> {
  const id = oauth?.clientId;
  if (id !== undefined) {
    const metadataDocument = /^https:\/\/[^/]+\/./.test(id);
    if (!metadataDocument || as.clientIdMetadataDocuments) {
      const secret = oauth?.clientSecret;
      const method: ClientAuthMethod = secret === undefined ? "none" : secretMethod(as.tokenAuthMethods);
      return { ok: true, client: { id, method, ...(secret !== undefined ? { secret } : {}) }, how: metadataDocument ? `client metadata document ${id}` : `configured client ${id}`, registered: false };
    }
    if (!as.registrationEndpoint)
      return { ok: false, error: `the authorization server ${as.issuer} does not accept Client ID Metadata Documents such as ${id} and offers no registration; ${fix}` };
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
  let res: Response;
  try {
    res = await fetch(endpoint, { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(body), redirect: "error", signal: AbortSignal.timeout(REGISTER_MS) });
  } catch (e) {
    return { ok: false, error: `cannot reach the registration endpoint ${endpoint}: ${(e as Error).message}` };
  }
  let doc: unknown = null;
  try {
    doc = await res.json();
  } catch {
    doc = null;
  }
  if (!res.ok || !isObject(doc) || typeof doc.client_id !== "string" || doc.client_id === "") {
    const why = isObject(doc) && typeof doc.error === "string" ? `${doc.error}${typeof doc.error_description === "string" ? ` (${doc.error_description.slice(0, 200)})` : ""}` : `HTTP ${res.status}`;
    return { ok: false, error: `the registration endpoint ${endpoint} did not register zot: ${why}` };
  }
  const secret = typeof doc.client_secret === "string" && doc.client_secret !== "" ? doc.client_secret : undefined;
  const said = doc.token_endpoint_auth_method;
  const method: ClientAuthMethod = said === "client_secret_basic" || said === "client_secret_post" ? said : secret !== undefined ? "client_secret_basic" : "none";
  return { ok: true, client: { id: doc.client_id, method, ...(secret !== undefined ? { secret } : {}) }, how: `registered as client ${doc.client_id}`, registered: true };
}
