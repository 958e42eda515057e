// `$ZOT_HOME/mcp-auth.json`: the OAuth tokens of MCP servers, one entry per issuer + server URL +
// client id (RFC 9207 / MCP: credentials belong to the authorization server that issued them and are
// never offered to another). Mode 0600, replaced atomically, so a crash or a second zot leaves the
// old or the new file, never half of one; changes are made under a lock (`mcp-auth.json.lock`), so
// two processes saving at once keep both entries.
import type { Failure, Result } from "../../result.ts";
import { authStorePath } from "../../platform/home.ts";
import { mkdirSync, readFileSync } from "node:fs";
import { atomicWrite } from "../../platform/atomic-write.ts";
import { withFileLock } from "../../platform/file-lock.ts";
import { isObject } from "../../json.ts";

export type ClientAuthMethod = "none" | "client_secret_basic" | "client_secret_post";

export type StoredAuth = {
  /** The MCP endpoint as configured. */
  server: string;
  issuer: string;
  client_id: string;
  /** Only a secret the registration handed out; a configured one stays in the server list. */
  client_secret?: string;
  auth_method: ClientAuthMethod;
  token_endpoint: string;
  /** RFC 7009, from the issuer's metadata at login; entries stored before it simply are not revoked. */
  revocation_endpoint?: string;
  /** The RFC 8707 resource the tokens were issued for. */
  resource: string;
  access_token: string;
  refresh_token?: string;
  /** Milliseconds since the epoch; absent when the server did not say. */
  expires_at?: number;
  scope?: string;
  /** The scope a server asked for in a 403 insufficient_scope: the next login asks for it too. */
  step_up_scope?: string;
  obtained_at: number;
};

type StoreFile = { version: 1; tokens: StoredAuth[] };

/** Every stored entry; a missing or unreadable file holds none (login writes a fresh one). */
export function readAuthStore(home: string): StoredAuth[] {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(authStorePath(home), "utf8"));
  } catch {
    return [];
  }
  if (!isObject(doc) || !Array.isArray(doc.tokens)) return [];
  return doc.tokens.filter(
    (t): t is StoredAuth =>
      isObject(t) &&
      typeof t.server === "string" &&
      typeof t.issuer === "string" &&
      typeof t.client_id === "string" &&
      typeof t.access_token === "string" &&
      typeof t.token_endpoint === "string",
  );
}

const sameKey = (a: StoredAuth, b: Pick<StoredAuth, "server" | "issuer" | "client_id">) =>
  a.server === b.server && a.issuer === b.issuer && a.client_id === b.client_id;

/** The entry for a server: the configured client's if one is configured, the newest otherwise. */
export function findAuth(entries: StoredAuth[], server: string, clientId?: string): StoredAuth | null {
  const mine = entries.filter((e) => e.server === server && (clientId === undefined || e.client_id === clientId));
  return mine.sort((a, b) => b.obtained_at - a.obtained_at)[0] ?? null;
}

export function saveAuth(home: string, entry: StoredAuth): Result {
  return underLock(home, () => writeStore(home, [...readAuthStore(home).filter((e) => !sameKey(e, entry)), entry]));
}

/** Changes the stored entry of `key`'s issuer, server and client as the file holds it now (another zot may have refreshed its tokens); nothing when it is gone. */
export function updateAuth(home: string, key: StoredAuth, change: (e: StoredAuth) => StoredAuth): Result {
  return underLock(home, () => {
    const all = readAuthStore(home);
    const now = all.find((e) => sameKey(e, key));
    return now
      ? writeStore(
          home,
          all.map((e) => (e === now ? change(now) : e)),
        )
      : { ok: true };
  });
}

/** Drops the entries `drop` picks; returns how many went. */
export function removeAuth(home: string, drop: (e: StoredAuth) => boolean): Result<{ removed: StoredAuth[] }> {
  return underLock(home, () => {
    const all = readAuthStore(home);
    const removed = all.filter(drop);
    if (removed.length === 0) return { ok: true, removed };
    const w = writeStore(
      home,
      all.filter((e) => !drop(e)),
    );
    return w.ok ? { ok: true, removed } : w;
  });
}

/** A read-modify-write of the store: two zot processes logging in or refreshing at once keep both entries. */
function underLock<T extends Result>(home: string, change: () => T): T | Failure {
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 });
  } catch (e) {
    return { ok: false, error: `cannot write ${authStorePath(home)}: ${(e as Error).message}` };
  }
  const r = withFileLock(`${authStorePath(home)}.lock`, change);
  return r.ok ? r.value : r;
}

function writeStore(home: string, tokens: StoredAuth[]): Result {
  const path = authStorePath(home);
  const doc: StoreFile = { version: 1, tokens };
  try {
    // The home exists: every write is made under the lock, which created it.
    atomicWrite(path, JSON.stringify(doc, null, 2) + "\n", 0o600);
    return { ok: true };
  } catch (e) {
    return { ok: false, error: `cannot write ${path}: ${(e as Error).message}` };
  }
}

/** The stored values to mask wherever zot writes text. */
export function secretsOf(e: StoredAuth): string[] {
  return [e.access_token, ...(e.refresh_token ? [e.refresh_token] : []), ...(e.client_secret ? [e.client_secret] : [])];
}
