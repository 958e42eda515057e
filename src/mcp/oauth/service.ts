// The client_credentials grant (OAuth 2.1 §4.2, MCP's client-credentials extension) for a server
// configured with `"grant_type": "client_credentials"`: zot is a service with its own client id and
// secret or private key, so a run gets its tokens itself, with no login and no browser. The first
// 401 leads to the authorization server (as a login finds it), the token is asked for with the
// resource and the scopes, kept in memory for the run and asked for again when it expires or is
// refused. A secret goes as HTTP Basic (or as a form field when the server lists only that); a key
// signs a fresh JWT assertion for every request (private_key_jwt).
import type { OAuthConfig } from "../config.ts";
import type { HttpAuth } from "../http.ts";
import { authorizationServer, parseChallenge } from "./discovery.ts";
import type { AuthServerMetadata } from "./discovery.ts";
import { ASSERTION_TYPE, clientAssertion, signingKey } from "./jwt.ts";
import { joinScopes } from "./scope.ts";
import { secretMethod, tokenRequest } from "./tokens.ts";
import type { Client, Tokens } from "./tokens.ts";

export type ServiceOptions = {
  name: string;
  url: string;
  oauth: OAuthConfig & { clientId: string };
  onSecret: (value: string) => void;
  log: (line: string) => void;
};

/** A token this close to its expiry is replaced before it is sent. */
const EXPIRY_SLACK_MS = 30_000;

type Found = { as: AuthServerMetadata; resource: string; scope: string | null };

export class ServiceCredentials implements HttpAuth {
  private found: Found | null = null;
  private token: Tokens | null = null;
  private why: string | null = null;
  private pending: Promise<boolean> | null = null;
  /** The scopes insufficient_scope challenges asked for; each widens the next token request once. */
  private readonly asked = new Set<string>();

  constructor(private readonly o: ServiceOptions) {
    if (o.oauth.clientSecret) o.onSecret(o.oauth.clientSecret);
    if (o.oauth.privateKey) o.onSecret(o.oauth.privateKey);
  }

  /** The `auth` line of `zot mcp doctor`. */
  describe(): string | null {
    if (this.why) return `oauth: client credentials refused: ${this.why}`;
    if (!this.token || !this.found) return null;
    const until = this.token.expiresAt === undefined ? "" : `, expires ${new Date(this.token.expiresAt).toISOString().slice(0, 16).replace("T", " ")} UTC`;
    return `oauth: client credentials (token from ${this.found.as.issuer}${until})`;
  }

  async authorization(): Promise<string | null> {
    const t = this.token;
    if (t && t.expiresAt !== undefined && t.expiresAt - EXPIRY_SLACK_MS <= Date.now() && this.found) await this.obtain(this.found.scope);
    return this.token ? `Bearer ${this.token.accessToken}` : null;
  }

  async unauthorized(status: number, header: string | null): Promise<boolean> {
    const challenge = parseChallenge(header);
    if (!this.found) {
      const d = await authorizationServer(this.o.url, challenge);
      if (!d.ok) return this.fail(d.error);
      this.found = { as: d.as, resource: d.resource, scope: this.o.oauth.scopes?.join(" ") || challenge?.scope || d.scopesSupported.join(" ") || null };
      this.o.log(`OAuth: client credentials at ${d.as.tokenEndpoint} for ${d.resource}`);
      return this.obtain(this.found.scope);
    }
    if (status === 403 && challenge?.error === "insufficient_scope") {
      // A service can ask for the wider token itself; once per scope, so a server that keeps refusing is not asked forever.
      if (!challenge.scope || this.asked.has(challenge.scope))
        return this.fail(`it wants more access than the client credentials were granted${challenge.scope ? ` (the scope "${challenge.scope}")` : ""}`);
      this.asked.add(challenge.scope);
      this.found.scope = joinScopes(this.found.scope, challenge.scope);
      return this.obtain(this.found.scope);
    }
    return this.obtain(this.found.scope);
  }

  refusal(status: number): string {
    return `its client credentials did not get through (${this.why ?? `HTTP ${status}`}); check "client_id" and the secret or key of its "oauth" entry`;
  }

  /** Requests refused at once share one token request. */
  private obtain(scope: string | null): Promise<boolean> {
    return (this.pending ??= this.request(scope).finally(() => (this.pending = null)));
  }

  private async request(scope: string | null): Promise<boolean> {
    const found = this.found!;
    const grant: Record<string, string> = { grant_type: "client_credentials", resource: found.resource, ...(scope ? { scope } : {}) };
    const o = this.o.oauth;
    let client: Client;
    if (o.privateKey !== undefined) {
      const key = await signingKey(o.privateKey, o.signingAlgorithm);
      if (!key.ok) return this.fail(key.error);
      grant.client_assertion_type = ASSERTION_TYPE;
      grant.client_assertion = await clientAssertion(key.value, o.clientId, found.as.issuer);
      client = { id: o.clientId, method: "none" };
    } else client = { id: o.clientId, method: secretMethod(found.as.tokenAuthMethods), ...(o.clientSecret !== undefined ? { secret: o.clientSecret } : {}) };
    const r = await tokenRequest(found.as.tokenEndpoint, client, grant, "the client credentials");
    if (!r.ok) return this.fail(r.error);
    this.o.onSecret(r.tokens.accessToken);
    this.token = r.tokens;
    this.why = null;
    return true;
  }

  private fail(why: string): false {
    this.why = why;
    this.token = null;
    this.o.log(`OAuth: ${why}`);
    return false;
  }
}
