/**
 * A real OAuth 2.1 authorization server for the MCP login tests: `Bun.serve` on 127.0.0.1, port 0.
 *
 *   const as = startAuthServer();
 *   const mcp = startMcpHttpServer({ era: "modern", reply: "json", guard: protect(as) });
 *
 * It serves RFC 8414 metadata (or only OpenID discovery with `openidOnly`), Dynamic Client
 * Registration, an authorize endpoint that plays the consenting user and redirects to the loopback
 * `redirect_uri` with code, state and iss, and a token endpoint that checks the PKCE verifier, the
 * redirect URI and the RFC 8707 `resource` for the code grant, and rotates refresh tokens, grants
 * client_credentials to clients with a secret or a private_key_jwt assertion (`jwtClients`), and a
 * revocation endpoint (RFC 7009) that authenticates the client as the token endpoint does. Knobs
 * break one thing at a time (a forged state, another iss, a failing token endpoint, refused
 * refreshes, a failing revocation). `protect(as)` is the MCP server's side: its RFC 9728 metadata and
 * 401 challenges, only tokens this server issued for that resource get through, and a tool may
 * need a scope (403 insufficient_scope without it).
 */
type Obj = Record<string, unknown>;

export type AuthServerOptions = {
  /** Seconds an access token lives (default 3600). */
  accessTtl?: number;
  /** The authorize redirect carries this `iss` instead of the issuer (null: none). */
  iss?: string | null;
  /** The authorize redirect carries this `state` instead of the client's. */
  state?: string;
  /** The token endpoint refuses the code grant with this OAuth error. */
  tokenError?: string;
  /** The token endpoint refuses refresh grants. */
  refuseRefresh?: boolean;
  /** No registration endpoint. */
  noRegistration?: boolean;
  /** Only /.well-known/openid-configuration, no RFC 8414 document. */
  openidOnly?: boolean;
  /** Client ID Metadata Documents are accepted. */
  cimd?: boolean;
  /** An issuer with a path (a tenant): metadata at the path-suffixed well-known URLs, endpoints under the path. */
  issuerPath?: string;
  /** No revocation endpoint in the metadata. */
  noRevocation?: boolean;
  /** The revocation endpoint answers with this HTTP status instead of revoking. */
  revokeStatus?: number;
  /** Pre-registered clients: id → secret (or null for a public client). */
  clients?: Record<string, string | null>;
  /** Clients that authenticate with private_key_jwt: id → their public key (the assertion's signature, iss, sub, aud and exp are checked). */
  jwtClients?: Record<string, { key: CryptoKey; verify: AlgorithmOf }>;
  /** The token endpoint's advertised client authentication methods (default none, client_secret_basic, client_secret_post). */
  authMethods?: string[];
};

/** What `crypto.subtle.verify` takes as its algorithm. */
export type AlgorithmOf = Parameters<typeof crypto.subtle.verify>[0];

export type AuthRequest = { method: string; path: string; headers: Record<string, string>; query: Obj; form: Obj; json: Obj | null };

export type AuthServer = {
  issuer: string;
  requests: AuthRequest[];
  /** Registered (DCR) bodies. */
  registrations: Obj[];
  /** Access tokens this server issued, with the resource and scope they are for and when they expire. */
  issued: Map<string, { resource: string; scope: string; expires: number }>;
  /** What the revocation endpoint was asked to revoke, by whom (a refused client is not recorded). */
  revoked: { token: string; hint: string | null; client: string }[];
  /** Accepts a bearer token for `resource`. */
  valid(token: string | undefined, resource: string): boolean;
  /** The scope a valid token was granted, else null. */
  scopeOf(token: string | undefined): string | null;
  /** Expires every access token it issued (the next use must refresh). */
  expireAll(): void;
  options: AuthServerOptions;
  stop(): Promise<void>;
};

const b64url = (bytes: ArrayBuffer) => Buffer.from(bytes).toString("base64url");

export function startAuthServer(options: AuthServerOptions = {}): AuthServer {
  const requests: AuthRequest[] = [];
  const registrations: Obj[] = [];
  const clients = new Map<string, { secret: string | null; redirects: string[] | null }>(
    Object.entries(options.clients ?? {}).map(([id, secret]) => [id, { secret, redirects: null }]),
  );
  const codes = new Map<string, { client: string; redirect: string; challenge: string; resource: string; scope: string }>();
  const refresh = new Map<string, { client: string; resource: string; scope: string }>();
  const issued = new Map<string, { resource: string; scope: string; expires: number }>();
  const revoked: AuthServer["revoked"] = [];
  let n = 0;
  let issuer = "";

  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store" } });
  const oauthError = (status: number, error: string, description: string) => json(status, { error, error_description: description });

  function metadata(): Obj {
    return {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      ...(options.noRegistration ? {} : { registration_endpoint: `${issuer}/register` }),
      ...(options.noRevocation ? {} : { revocation_endpoint: `${issuer}/revoke` }),
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token", "client_credentials"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: options.authMethods ?? ["none", "client_secret_basic", "client_secret_post", "private_key_jwt"],
      authorization_response_iss_parameter_supported: true,
      ...(options.cimd ? { client_id_metadata_document_supported: true } : {}),
    };
  }

  /** The client a token request authenticates as, or an error response. */
  async function authenticate(req: Request, form: Obj): Promise<{ id: string } | Response> {
    if (form.client_assertion_type === "urn:ietf:params:oauth:client-assertion-type:jwt-bearer") {
      const [h, p, sig] = String(form.client_assertion ?? "").split(".");
      const claims = JSON.parse(Buffer.from(p ?? "", "base64url").toString()) as Obj;
      const c = options.jwtClients?.[String(claims.iss)];
      if (!c) return oauthError(401, "invalid_client", `unknown client ${String(claims.iss)}`);
      const good = await crypto.subtle.verify(c.verify, c.key, Buffer.from(sig ?? "", "base64url"), new TextEncoder().encode(`${h}.${p}`));
      if (!good) return oauthError(401, "invalid_client", "the assertion's signature does not verify");
      if (claims.sub !== claims.iss || claims.aud !== issuer || Number(claims.exp) * 1000 < Date.now())
        return oauthError(401, "invalid_client", "the assertion's claims are wrong");
      return { id: String(claims.iss) };
    }
    const basic = req.headers.get("authorization");
    let id = typeof form.client_id === "string" ? form.client_id : "";
    let secret: string | null = typeof form.client_secret === "string" ? form.client_secret : null;
    if (basic?.startsWith("Basic ")) {
      const [u = "", p = ""] = Buffer.from(basic.slice(6), "base64").toString().split(":");
      id = decodeURIComponent(u);
      secret = decodeURIComponent(p);
    }
    const c = clients.get(id);
    if (!c && !(options.cimd && id.startsWith("https://"))) return oauthError(401, "invalid_client", `unknown client ${id}`);
    if (c && c.secret !== null && c.secret !== secret) return oauthError(401, "invalid_client", "wrong client secret");
    return { id };
  }

  function tokens(client: string, resource: string, scope: string): Response {
    n++;
    const access = `at-${n}-${crypto.randomUUID()}`;
    const rt = `rt-${n}-${crypto.randomUUID()}`;
    const ttl = options.accessTtl ?? 3600;
    issued.set(access, { resource, scope, expires: Date.now() + ttl * 1000 });
    refresh.set(rt, { client, resource, scope });
    return json(200, { access_token: access, token_type: "Bearer", expires_in: ttl, refresh_token: rt, scope });
  }

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const headers: Record<string, string> = {};
      req.headers.forEach((v, k) => (headers[k] = v));
      const text = req.method === "POST" ? await req.text() : "";
      const form = Object.fromEntries(new URLSearchParams(headers["content-type"]?.includes("form") ? text : ""));
      let body: Obj | null = null;
      if (headers["content-type"]?.includes("json")) body = JSON.parse(text) as Obj;
      requests.push({ method: req.method, path: url.pathname, headers, query: Object.fromEntries(url.searchParams), form, json: body });

      const tenant = options.issuerPath ?? "";
      if (url.pathname === `/.well-known/oauth-authorization-server${tenant}` && !options.openidOnly) return json(200, metadata());
      if (url.pathname === `/.well-known/openid-configuration${tenant}`)
        return json(200, { ...metadata(), jwks_uri: `${issuer}/jwks`, subject_types_supported: ["public"] });
      if (url.pathname === `${tenant}/register` && req.method === "POST" && !options.noRegistration) {
        registrations.push(body ?? {});
        const redirects = Array.isArray(body?.redirect_uris) ? (body!.redirect_uris as string[]) : [];
        if (redirects.length === 0 || !redirects.every((r) => r.startsWith("http://127.0.0.1:")))
          return oauthError(400, "invalid_redirect_uri", "loopback redirect URIs only");
        const id = `dcr-${registrations.length}`;
        clients.set(id, { secret: null, redirects });
        return json(201, { client_id: id, client_id_issued_at: Math.floor(Date.now() / 1000), redirect_uris: redirects, token_endpoint_auth_method: "none" });
      }
      if (url.pathname === `${tenant}/authorize`) {
        const q = url.searchParams;
        const client = q.get("client_id") ?? "";
        const known = clients.get(client);
        const redirect = q.get("redirect_uri") ?? "";
        if (!known && !(options.cimd && client.startsWith("https://"))) return new Response(`unknown client ${client}`, { status: 400 });
        if (known?.redirects && !known.redirects.includes(redirect)) return new Response("redirect_uri not registered", { status: 400 });
        if (q.get("response_type") !== "code" || q.get("code_challenge_method") !== "S256" || !q.get("code_challenge") || !q.get("resource") || !q.get("state"))
          return new Response("bad authorization request", { status: 400 });
        const code = `code-${crypto.randomUUID()}`;
        codes.set(code, { client, redirect, challenge: q.get("code_challenge")!, resource: q.get("resource")!, scope: q.get("scope") ?? "" });
        const back = new URL(redirect);
        back.searchParams.set("code", code);
        back.searchParams.set("state", options.state ?? q.get("state")!);
        const iss = options.iss === undefined ? issuer : options.iss;
        if (iss !== null) back.searchParams.set("iss", iss);
        return new Response(null, { status: 302, headers: { location: back.href } });
      }
      if (url.pathname === `${tenant}/token` && req.method === "POST") {
        const who = await authenticate(req, form);
        if (who instanceof Response) return who;
        if (form.grant_type === "client_credentials") return tokens(who.id, String(form.resource ?? ""), String(form.scope ?? ""));
        if (form.grant_type === "authorization_code") {
          if (options.tokenError) return oauthError(400, options.tokenError, "the test server refuses codes");
          const c = codes.get(String(form.code));
          codes.delete(String(form.code));
          if (!c || c.client !== who.id) return oauthError(400, "invalid_grant", "unknown or used code");
          if (form.redirect_uri !== c.redirect) return oauthError(400, "invalid_grant", "redirect_uri differs");
          if (form.resource !== c.resource) return oauthError(400, "invalid_target", "resource differs");
          const digest = b64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(String(form.code_verifier ?? ""))));
          if (digest !== c.challenge) return oauthError(400, "invalid_grant", "PKCE verifier does not match");
          return tokens(who.id, c.resource, c.scope);
        }
        if (form.grant_type === "refresh_token") {
          const r = refresh.get(String(form.refresh_token));
          if (options.refuseRefresh || !r || r.client !== who.id) return oauthError(400, "invalid_grant", "refresh token revoked");
          if (form.resource !== r.resource) return oauthError(400, "invalid_target", "resource differs");
          refresh.delete(String(form.refresh_token));
          return tokens(who.id, r.resource, r.scope);
        }
        return oauthError(400, "unsupported_grant_type", String(form.grant_type));
      }
      if (url.pathname === `${tenant}/revoke` && req.method === "POST" && !options.noRevocation) {
        const who = await authenticate(req, form);
        if (who instanceof Response) return who;
        if (options.revokeStatus) return oauthError(options.revokeStatus, "temporarily_unavailable", "the test server refuses revocations");
        const token = String(form.token ?? "");
        revoked.push({ token, hint: typeof form.token_type_hint === "string" ? form.token_type_hint : null, client: who.id });
        issued.delete(token);
        refresh.delete(token);
        // RFC 7009 §2.2: 200 whether or not the token was known.
        return new Response(null, { status: 200 });
      }
      return new Response("not found", { status: 404 });
    },
  });
  issuer = `http://127.0.0.1:${server.port}${options.issuerPath ?? ""}`;

  return {
    issuer,
    requests,
    registrations,
    issued,
    revoked,
    options,
    valid(token, resource) {
      const t = token === undefined ? undefined : issued.get(token);
      return t !== undefined && t.resource === resource && t.expires > Date.now();
    },
    scopeOf(token) {
      const t = token === undefined ? undefined : issued.get(token);
      return t !== undefined && t.expires > Date.now() ? t.scope : null;
    },
    expireAll() {
      for (const t of issued.values()) t.expires = 0;
    },
    stop: () => server.stop(true),
  };
}

/**
 * The MCP server's side of OAuth, as its `guard`: RFC 9728 metadata at the path-suffixed well-known
 * URL naming `as()` (a function, so a test can switch authorization servers), and a 401 with a Bearer
 * challenge for any request without a valid token for this resource. A tool in `toolScopes` (by its
 * `Mcp-Name` header) needs that scope: a token without it gets a 403 insufficient_scope challenge
 * naming the scope.
 */
export function protect(
  as: () => AuthServer,
  opts: { scope?: string; noResourceMetadata?: boolean; toolScopes?: Record<string, string> } = {},
): (req: Request, url: URL) => Response | null {
  return (req, url) => {
    const resource = `${url.origin}/mcp`;
    const prm = `${url.origin}/.well-known/oauth-protected-resource/mcp`;
    if (url.pathname === "/.well-known/oauth-protected-resource/mcp")
      return new Response(
        JSON.stringify({ resource, authorization_servers: [as().issuer], scopes_supported: ["mcp:tools"], bearer_methods_supported: ["header"] }),
        { headers: { "content-type": "application/json" } },
      );
    const token = req.headers.get("authorization")?.replace(/^Bearer /, "");
    if (as().valid(token, resource)) {
      const needed = opts.toolScopes?.[req.headers.get("mcp-name") ?? ""];
      if (!needed || as().scopeOf(token)!.split(" ").includes(needed)) return null;
      const challenge = `Bearer error="insufficient_scope", scope="${needed}", resource_metadata="${prm}", error_description="${needed} is needed"`;
      return new Response(JSON.stringify({ error: "insufficient_scope" }), {
        status: 403,
        headers: { "content-type": "application/json", "www-authenticate": challenge },
      });
    }
    const challenge = [
      `Bearer error="invalid_token"`,
      ...(opts.noResourceMetadata ? [] : [`resource_metadata="${prm}"`]),
      ...(opts.scope ? [`scope="${opts.scope}"`] : []),
    ].join(", ");
    return new Response(JSON.stringify({ error: "invalid_token" }), {
      status: 401,
      headers: { "content-type": "application/json", "www-authenticate": challenge },
    });
  };
}
