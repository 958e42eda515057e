// The OAuth side of one HTTP MCP server during a run: the stored access token on every request,
// refreshed when it expired or the server answers 401 — at the token endpoint of the issuer that
// issued it, and only while the server still names that issuer. Runs never open a browser: when no
// token works, the server needs `zot mcp login NAME`, and the refusal says so.
import type { HttpConfig, OAuthConfig } from "../config.ts";
import type { HttpAuth } from "../http.ts";
import { parseChallenge, resourceMetadata } from "./discovery.ts";
import { joinScopes } from "./scope.ts";
import { findAuth, readAuthStore, removeAuth, saveAuth, secretsOf, updateAuth } from "./store.ts";
import type { StoredAuth } from "./store.ts";
import { refreshTokens, storedClient } from "./tokens.ts";

export type BearerOptions = {
  home: string;
  name: string;
  url: string;
  oauth?: OAuthConfig;
  /** Every token zot holds for the server is masked like an API key. */
  onSecret: (value: string) => void;
  log: (line: string) => void;
  /** A notice for the user (not only the log): the server wants more access than the token grants. */
  notify: (line: string) => void;
};

/** A token this close to its expiry is refreshed before it is sent. */
const EXPIRY_SLACK_MS = 30_000;

/** OAuth applies to an HTTP server unless its config sends an Authorization header of its own. */
export function oauthApplies(t: HttpConfig): boolean {
  return !Object.keys(t.headers).some((k) => k.toLowerCase() === "authorization");
}

export function expired(e: StoredAuth, now = Date.now()): boolean {
  return e.expires_at !== undefined && e.expires_at - EXPIRY_SLACK_MS <= now;
}

/** The `auth` line of `zot mcp list` and `zot mcp doctor`. */
export function describeAuth(e: StoredAuth | null, name: string): string {
  if (!e) return `needs login: run zot mcp login ${name}`;
  if (e.expires_at === undefined) return `oauth: logged in (${e.issuer})`;
  const when = new Date(e.expires_at).toISOString().slice(0, 16).replace("T", " ");
  if (!expired(e)) return `oauth: logged in (expires ${when} UTC)`;
  return e.refresh_token
    ? `oauth: logged in (token expired ${when} UTC; refreshed on next use)`
    : `needs login: the token expired ${when} UTC; run zot mcp login ${name}`;
}

/** What the token was granted, as it bears on the scope a server says it lacks. */
function grantNote(granted: string | undefined, asked: string): string {
  if (!granted) return "";
  const has = new Set(granted.split(/\s+/));
  const covered = asked.split(/\s+/).every((x) => x === "" || has.has(x));
  // The grant names the scope and the server still refuses: say both, without claiming either is wrong.
  return covered ? `, although the token was granted "${granted}"` : ` (the token was granted "${granted}")`;
}

function nextLogin(granted: string | undefined, stepUp: string): string {
  return granted ? `the next login asks for "${joinScopes(granted, stepUp)}"` : `the next login asks for "${stepUp}" as well`;
}

export class OAuthBearer implements HttpAuth {
  private entry: StoredAuth | null;
  private pending: Promise<boolean> | null = null;
  /** Why no token works, once none does. */
  private why: string | null = null;
  /** The insufficient_scope challenges already told to the user in this run. */
  private readonly asked = new Set<string>();

  constructor(private readonly o: BearerOptions) {
    this.entry = findAuth(readAuthStore(o.home), o.url, o.oauth?.clientId);
    if (o.oauth?.clientSecret) o.onSecret(o.oauth.clientSecret);
    if (this.entry) for (const s of secretsOf(this.entry)) o.onSecret(s);
  }

  /** The stored entry in use (null when there is none, or it stopped working). */
  get current(): StoredAuth | null {
    return this.entry;
  }

  get needsLogin(): boolean {
    return this.why !== null;
  }

  async authorization(): Promise<string | null> {
    if (this.entry && expired(this.entry) && this.entry.refresh_token) await this.refresh();
    return this.entry ? `Bearer ${this.entry.access_token}` : null;
  }

  async unauthorized(status: number, header: string | null): Promise<boolean> {
    const e = this.entry;
    const challenge = parseChallenge(header);
    if (!e) return this.fail("it asks for authorization and zot holds no token for it");
    if (status === 403 && challenge?.error === "insufficient_scope") return this.stepUp(e, challenge.scope);
    if (!e.refresh_token) return this.fail("it refused the stored token, and there is no refresh token");
    // The refresh token belongs to its issuer: if the server now names another authorization
    // server, asking ours for a new token is pointless and asking theirs would hand our token over.
    const prm = await resourceMetadata(this.o.url, challenge);
    if (prm.ok && !prm.value.authorizationServers.includes(e.issuer))
      return this.fail(`it now names another authorization server (${prm.value.authorizationServers[0]}); the tokens from ${e.issuer} are never sent there`);
    return this.refresh();
  }

  refusal(status: number): string {
    const why = this.why ?? `it answered HTTP ${status}`;
    return `it needs login: run zot mcp login ${this.o.name} (${why})`;
  }

  /** A token without the scope a request needs: no refresh helps (it cannot widen a grant), a new login does, asking for the union. */
  private stepUp(e: StoredAuth, asked: string | null): false {
    if (!asked) return this.fail("it wants more access than the token grants, and did not say which scope");
    const saved = updateAuth(this.o.home, e, (now) => ({ ...now, step_up_scope: joinScopes(now.step_up_scope, asked) }));
    // A later refresh saves this entry again, and must keep what the server asked for.
    const stepUp = joinScopes(e.step_up_scope, asked);
    this.entry = { ...e, step_up_scope: stepUp };
    const why = `it refused the token for lacking the scope "${asked}"${grantNote(e.scope, asked)}; ${saved.ok ? nextLogin(e.scope, stepUp) : `the next login cannot know it: ${saved.error}`}`;
    if (!this.asked.has(asked)) {
      this.asked.add(asked);
      this.o.notify(`MCP server ${this.o.name} needs more access: run zot mcp login ${this.o.name} (${why})`);
    }
    return this.fail(why);
  }

  private fail(why: string): false {
    this.why = why;
    this.o.log(`OAuth: ${why}`);
    return false;
  }

  private refresh(): Promise<boolean> {
    return (this.pending ??= this.renew().finally(() => (this.pending = null)));
  }

  private async renew(): Promise<boolean> {
    const e = this.entry!;
    // Another zot may have refreshed it meanwhile (and a rotated refresh token works only once).
    const stored = findAuth(readAuthStore(this.o.home), e.server, e.client_id);
    if (stored && stored.issuer === e.issuer && stored.access_token !== e.access_token && !expired(stored)) {
      this.adopt(stored);
      return true;
    }
    const r = await refreshTokens(e.token_endpoint, storedClient(e, this.o.oauth), { refreshToken: e.refresh_token!, resource: e.resource });
    if (!r.ok) {
      if (r.rejected) {
        // A refused refresh token is spent: keeping it would only fail again on every run.
        removeAuth(this.o.home, (x) => x.server === e.server && x.issuer === e.issuer && x.client_id === e.client_id);
        this.entry = null;
      }
      return this.fail(`refreshing the token failed: ${r.error}`);
    }
    const next: StoredAuth = { ...e, access_token: r.tokens.accessToken, obtained_at: Date.now() };
    if (r.tokens.refreshToken) next.refresh_token = r.tokens.refreshToken;
    if (r.tokens.expiresAt !== undefined) next.expires_at = r.tokens.expiresAt;
    else delete next.expires_at;
    if (r.tokens.scope !== undefined) next.scope = r.tokens.scope;
    this.adopt(next);
    const saved = saveAuth(this.o.home, next);
    if (!saved.ok) this.o.log(`OAuth: the refreshed token is used for this run only: ${saved.error}`);
    this.o.log(`OAuth: refreshed the token at ${e.token_endpoint}`);
    return true;
  }

  private adopt(e: StoredAuth): void {
    for (const s of secretsOf(e)) this.o.onSecret(s);
    this.entry = e;
    this.why = null;
  }
}
