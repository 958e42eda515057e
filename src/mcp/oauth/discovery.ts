// Where an MCP server's authorization server is and what it offers: the `WWW-Authenticate: Bearer`
// challenge, the protected resource metadata (RFC 9728: the challenge's `resource_metadata`, else the
// well-known URLs at the endpoint's path and at the root) and the authorization server metadata
// (RFC 8414, falling back to OpenID discovery), whose `issuer` must be the one it was fetched for.
// A server of the 2025-03-26 revision publishes no resource metadata: its origin is the
// authorization server, with RFC 8414 metadata there or else the default endpoints.
import type { Result } from "../../result.ts";
import type { JsonObject } from "../../protocol.ts";
import { firstDocument, requestJson } from "./wire.ts";

export type Challenge = { resourceMetadata: string | null; scope: string | null; error: string | null };

export type ResourceMetadata = { resource: string; authorizationServers: [string, ...string[]]; scopesSupported: string[] };

export type AuthServerMetadata = {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  registrationEndpoint: string | null;
  /** RFC 7009: where a logout tells the server to forget its tokens. */
  revocationEndpoint: string | null;
  codeChallengeMethods: string[] | null;
  tokenAuthMethods: string[] | null;
  /** RFC 9207: the server puts `iss` in every authorization response, so one without it is rejected. */
  issInResponse: boolean;
  /** Client ID Metadata Documents: an https URL is accepted as a client_id. */
  clientIdMetadataDocuments: boolean;
};

const FETCH_MS = 10_000;

/** The Bearer challenge of a `WWW-Authenticate` header (other schemes are skipped). */
export function parseChallenge(header: string | null): Challenge | null {
  if (!header) return null;
  const bearer = /(?:^|,)\s*Bearer(?=[\s,]|$)/i.exec(header);
  if (!bearer) return null;
  let rest = header.slice(bearer.index + bearer[0].length);
  // Another scheme's challenge may follow (`, Basic realm="…"`); its parameters are not ours.
  const unquoted = rest.replace(/"(?:[^"\\]|\\.)*"/g, (q) => "_".repeat(q.length));
  const next = /,\s*[A-Za-z][\w.~+-]*\s+[A-Za-z_][\w-]*\s*=/.exec(unquoted);
  if (next) rest = rest.slice(0, next.index);
  const params: Record<string, string> = {};
  for (const [, key = "", quoted, bare = ""] of rest.matchAll(/([A-Za-z_][\w-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,"]+))/g))
    params[key.toLowerCase()] = quoted !== undefined ? quoted.replace(/\\(.)/g, "$1") : bare;
  return { resourceMetadata: params.resource_metadata ?? null, scope: params.scope ?? null, error: params.error ?? null };
}

/** The protected resource metadata of the MCP endpoint `serverUrl`; `missing` when no URL had a document at all. */
export async function resourceMetadata(
  serverUrl: string,
  challenge: Challenge | null,
): Promise<{ ok: true; value: ResourceMetadata } | { ok: false; error: string; missing?: true }> {
  const u = new URL(serverUrl);
  const path = u.pathname === "/" ? "" : u.pathname.replace(/\/$/, "");
  const candidates = challenge?.resourceMetadata
    ? [challenge.resourceMetadata]
    : [...(path ? [`${u.origin}/.well-known/oauth-protected-resource${path}`] : []), `${u.origin}/.well-known/oauth-protected-resource`];
  const found = await firstDocument(candidates, FETCH_MS);
  if (!found.ok) return { ok: false, missing: true, error: `found no protected resource metadata for ${serverUrl} (${found.tried.join("; ")})` };
  const { url, doc } = found;
  const servers = Array.isArray(doc.authorization_servers) ? doc.authorization_servers.filter((s): s is string => typeof s === "string" && s !== "") : [];
  const [firstServer, ...moreServers] = servers;
  if (firstServer === undefined) return { ok: false, error: `the protected resource metadata at ${url} names no "authorization_servers"` };
  const resource = typeof doc.resource === "string" ? doc.resource : serverUrl;
  // RFC 9728 §3.3: metadata for another resource must not be used for this one.
  if (!sameOrigin(resource, serverUrl)) return { ok: false, error: `the protected resource metadata at ${url} is for ${resource}, not for ${serverUrl}` };
  const scopes = Array.isArray(doc.scopes_supported) ? doc.scopes_supported.filter((s): s is string => typeof s === "string") : [];
  return { ok: true, value: { resource, authorizationServers: [firstServer, ...moreServers], scopesSupported: scopes } };
}

/** The metadata of the authorization server `issuer`, from the first well-known URL that has it. */
export async function authServerMetadata(issuer: string): Promise<Result<{ value: AuthServerMetadata }>> {
  let u: URL;
  try {
    u = new URL(issuer);
  } catch {
    return { ok: false, error: `the authorization server ${JSON.stringify(issuer)} is not a URL` };
  }
  const path = u.pathname === "/" ? "" : u.pathname.replace(/\/$/, "");
  const candidates = path
    ? [
        `${u.origin}/.well-known/oauth-authorization-server${path}`,
        `${u.origin}/.well-known/openid-configuration${path}`,
        `${u.origin}${path}/.well-known/openid-configuration`,
      ]
    : [`${u.origin}/.well-known/oauth-authorization-server`, `${u.origin}/.well-known/openid-configuration`];
  const found = await firstDocument(candidates, FETCH_MS);
  if (!found.ok) return { ok: false, error: `found no metadata for the authorization server ${issuer} (${found.tried.join("; ")})` };
  // RFC 8414 §3.3: a document claiming another issuer is not this server's (a mix-up attempt, or a misconfiguration).
  if (found.doc.issuer !== issuer)
    return { ok: false, error: `the metadata at ${found.url} says its issuer is ${JSON.stringify(found.doc.issuer)}, not ${issuer}; zot does not use it` };
  return decodeMetadata(issuer, found.url, found.doc);
}

/**
 * The 2025-03-26 revision, for a server without resource metadata: the authorization server is the
 * MCP server's origin; its RFC 8414 metadata is at the root, and without one the endpoints are the
 * defaults `/authorize`, `/token` and `/register` there (with S256 PKCE, which that revision requires).
 */
export async function legacyAuthServer(serverUrl: string): Promise<Result<{ value: AuthServerMetadata; how: string }>> {
  const origin = new URL(serverUrl).origin;
  const url = `${origin}/.well-known/oauth-authorization-server`;
  const got = await requestJson(url, { headers: { Accept: "application/json" }, timeoutMs: FETCH_MS }, url);
  if (!got.ok) return got;
  if (got.status === 404) {
    const value: AuthServerMetadata = {
      issuer: origin,
      authorizationEndpoint: `${origin}/authorize`,
      tokenEndpoint: `${origin}/token`,
      registrationEndpoint: `${origin}/register`,
      revocationEndpoint: null,
      codeChallengeMethods: ["S256"],
      tokenAuthMethods: null,
      issInResponse: false,
      clientIdMetadataDocuments: false,
    };
    return { ok: true, value, how: `no authorization metadata at ${origin}: using its default /authorize, /token and /register (MCP 2025-03-26)` };
  }
  if (got.status < 200 || got.status > 299 || !got.doc)
    return { ok: false, error: `the authorization server metadata at ${url} could not be read (HTTP ${got.status}${got.doc ? "" : ", not a JSON object"})` };
  // That revision finds the document by the origin alone, so its issuer is taken when it is on that
  // origin (servers put their endpoints under a path, `/oauth`): the MCP server's own origin vouches for it.
  const claimed = got.doc.issuer;
  if (typeof claimed !== "string" || !sameOrigin(claimed, origin))
    return { ok: false, error: `the metadata at ${url} says its issuer is ${JSON.stringify(claimed)}, not on ${origin}; zot does not use it` };
  const decoded = decodeMetadata(claimed, url, got.doc);
  return decoded.ok ? { ok: true, value: decoded.value, how: `authorization metadata at ${origin} (MCP 2025-03-26: no resource metadata)` } : decoded;
}

function decodeMetadata(issuer: string, url: string, d: JsonObject): Result<{ value: AuthServerMetadata }> {
  if (typeof d.authorization_endpoint !== "string" || typeof d.token_endpoint !== "string")
    return { ok: false, error: `the authorization server metadata at ${url} lacks "authorization_endpoint" or "token_endpoint"` };
  const list = (k: string) => (Array.isArray(d[k]) ? (d[k] as unknown[]).filter((x): x is string => typeof x === "string") : null);
  return {
    ok: true,
    value: {
      issuer,
      authorizationEndpoint: d.authorization_endpoint,
      tokenEndpoint: d.token_endpoint,
      registrationEndpoint: typeof d.registration_endpoint === "string" ? d.registration_endpoint : null,
      revocationEndpoint: typeof d.revocation_endpoint === "string" && d.revocation_endpoint !== "" ? d.revocation_endpoint : null,
      codeChallengeMethods: list("code_challenge_methods_supported"),
      tokenAuthMethods: list("token_endpoint_auth_methods_supported"),
      issInResponse: d.authorization_response_iss_parameter_supported === true,
      clientIdMetadataDocuments: d.client_id_metadata_document_supported === true,
    },
  };
}

export type Discovered = Result<{
  as: AuthServerMetadata;
  resource: string;
  scopesSupported: string[] /** Set when the 2025-03-26 fallback found it. */;
  how?: string;
}>;

/**
 * The authorization server of an MCP endpoint: the first one its protected resource metadata names;
 * for a server that asks for authorization and publishes no such metadata (the 2025-03-26
 * revision), its origin, as `legacyAuthServer` finds it.
 */
export async function authorizationServer(url: string, challenge: Challenge | null): Promise<Discovered> {
  const prm = await resourceMetadata(url, challenge);
  if (prm.ok) {
    const meta = await authServerMetadata(prm.value.authorizationServers[0]);
    if (!meta.ok) return meta;
    return { ok: true, as: meta.value, resource: prm.value.resource, scopesSupported: prm.value.scopesSupported };
  }
  if (!challenge) return { ok: false, error: `${url} did not ask for authorization and ${prm.error}; it may need no login (or a token in "headers")` };
  // A challenge that names its metadata document and then has none is broken, not of an older revision.
  if (!prm.missing || challenge.resourceMetadata) return prm;
  const legacy = await legacyAuthServer(url);
  if (!legacy.ok) return { ok: false, error: `${prm.error}, and ${legacy.error}` };
  return { ok: true, as: legacy.value, resource: url, scopesSupported: [], how: legacy.how };
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}
