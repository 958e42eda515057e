// OAuth for Streamable HTTP MCP servers against a real authorization server and a real protected MCP
// server on 127.0.0.1: discovery from the 401, registration, PKCE, the loopback callback, the state
// and iss checks, refreshing, and tokens that never reach another issuer. The test plays the browser
// by fetching the URL the login prints. The CLI and the modes are in oauth.e2e.test.ts.
import { authStorePath } from "../../src/platform/home.ts";
import { describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { UiIntent } from "../../src/ext/types.ts";
import type { McpHost } from "../../src/mcp/host.ts";
import { parseChallenge } from "../../src/mcp/oauth/discovery.ts";
import { login, type LoginOutcome } from "../../src/mcp/oauth/login.ts";
import { listenLoopback } from "../../src/mcp/oauth/loopback.ts";
import { readAuthStore, saveAuth } from "../../src/mcp/oauth/store.ts";
import { startMcpHttpServer, type McpHttpServer } from "../helpers/mcp-http-server.ts";
import { protect, startAuthServer, type AuthServer, type AuthServerOptions } from "../helpers/oauth-server.ts";
import { loadHost, signal, useScratch, writeList } from "./helpers.ts";
import { elements } from "../helpers/elements.ts";

let host: McpHost | null = null;
let mcp: McpHttpServer | null = null;
let servers: AuthServer[] = [];
/** The authorization server the MCP server names right now. */
let current: AuthServer;
const s = useScratch(async () => {
  await host?.shutdown();
  host = null;
  await mcp?.stop();
  mcp = null;
  await Promise.all(servers.map((x) => x.stop()));
  servers = [];
});

function authServer(o: AuthServerOptions = {}): AuthServer {
  const as = startAuthServer(o);
  servers.push(as);
  return as;
}

/** An authorization server and the MCP server it protects, listed as "web" in $ZOT_HOME/mcp.json. */
function setUp(o: AuthServerOptions = {}, entry: Record<string, unknown> = {}, guard: Parameters<typeof protect>[1] = {}): AuthServer {
  current = authServer(o);
  mcp = startMcpHttpServer({ era: "modern", reply: "json", guard: protect(() => current, guard) });
  writeList(join(s.home, "mcp.json"), { web: { type: "http", url: mcp.url, ...entry } });
  return current;
}

/** `zot mcp login web` in-process, with the test as the browser: it fetches the printed URL. */
async function logIn(oauth?: Record<string, unknown>): Promise<{ r: LoginOutcome; lines: string[]; page: string }> {
  const lines: string[] = [];
  let visit: Promise<string> = Promise.resolve("(no URL printed)");
  const r = await login({
    name: "web",
    url: mcp!.url,
    ...(oauth ? { oauth } : {}),
    file: join(s.home, "mcp.json"),
    home: s.home,
    env: {},
    timeoutMs: 20_000,
    say: (line) => {
      lines.push(line);
      const url = /\n\n {2}(\S+)\n/.exec(line)?.[1];
      if (url) visit = fetch(url).then((res) => res.text());
    },
  });
  return { r, lines, page: await visit };
}

/** A login, then a run whose whoami call the server refuses with 403 insufficient_scope for "mcp:admin". */
async function stepUpAsked(): Promise<AuthServer> {
  const as = setUp({}, {}, { toolScopes: { whoami: "mcp:admin" } });
  expect((await logIn()).r.ok).toBe(true);
  const run = await loadHost(s);
  await run.callTool("mcp__web__whoami", {}, { signal: signal() });
  await run.shutdown();
  return as;
}

const tokenRequests = (as: AuthServer) => as.requests.filter((r) => r.path.endsWith("/token"));

describe("logging in", () => {
  test("discovery, registration as a native app and PKCE end with stored tokens, and the MCP tool call carries the bearer token", async () => {
    const as = setUp();
    const { r, lines, page } = await logIn();
    expect(r.ok).toBe(true);
    expect(page).toBe("zot: logged in to MCP server web; you can close this tab.\n");
    expect(lines.join("\n")).toContain("no browser to open here");
    expect(as.registrations).toHaveLength(1);
    expect(as.registrations[0]).toMatchObject({
      application_type: "native",
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      scope: "mcp:tools",
    });
    expect((as.registrations[0]!.redirect_uris as string[])[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const authorize = as.requests.find((x) => x.path === "/authorize")!;
    expect(authorize.query).toMatchObject({ response_type: "code", client_id: "dcr-1", code_challenge_method: "S256", resource: mcp!.url, scope: "mcp:tools" });
    expect(String(authorize.query.state).length).toBeGreaterThanOrEqual(32);
    expect(tokenRequests(as)[0]!.form).toMatchObject({ grant_type: "authorization_code", client_id: "dcr-1", resource: mcp!.url });

    host = await loadHost(s);
    const state = host.serverStates()[0]!;
    expect(state).toMatchObject({ status: "ready" });
    expect(state.auth).toMatch(/^oauth: logged in \(expires \d{4}-\d\d-\d\d \d\d:\d\d UTC\)$/);
    const called = await host.callTool("mcp__web__whoami", {}, { signal: signal() });
    expect((called.content[0] as { text: string }).text).toMatch(/^you sent Bearer at-1-/);
  });

  test("the tokens are kept in mcp-auth.json, mode 0600, under issuer, server and client", async () => {
    const as = setUp();
    expect((await logIn()).r.ok).toBe(true);
    expect(statSync(authStorePath(s.home)).mode & 0o777).toBe(0o600);
    const [entry] = elements(readAuthStore(s.home), 1);
    expect(entry).toMatchObject({
      server: mcp!.url,
      issuer: as.issuer,
      client_id: "dcr-1",
      resource: mcp!.url,
      auth_method: "none",
      token_endpoint: `${as.issuer}/token`,
    });
    expect(entry.access_token).toStartWith("at-1-");
    expect(entry.refresh_token).toStartWith("rt-1-");
  });

  test("without resource_metadata in the challenge the well-known URL is found, and OpenID discovery stands in for RFC 8414", async () => {
    const as = setUp({ openidOnly: true }, {}, { noResourceMetadata: true });
    expect((await logIn()).r.ok).toBe(true);
    const paths = as.requests.map((x) => x.path);
    expect(paths).toContain("/.well-known/oauth-authorization-server");
    expect(paths).toContain("/.well-known/openid-configuration");
    expect(readAuthStore(s.home)).toHaveLength(1);
  });

  test("an issuer with a path (a tenant) is found at the path-suffixed well-known URL", async () => {
    const as = setUp({ issuerPath: "/tenant1" });
    expect((await logIn()).r.ok).toBe(true);
    expect(as.requests[0]!.path).toBe("/.well-known/oauth-authorization-server/tenant1");
    expect(readAuthStore(s.home)[0]).toMatchObject({ issuer: `${as.issuer}`, token_endpoint: `${as.issuer}/token` });
    expect(as.issuer).toEndWith("/tenant1");
  });

  test("authorization server metadata that claims another issuer than the one named is not used", async () => {
    const as = authServer();
    const prm = "/.well-known/oauth-protected-resource/mcp";
    // The resource names "<issuer>/", whose metadata document says "<issuer>": not the same string.
    mcp = startMcpHttpServer({
      era: "modern",
      reply: "json",
      guard: (_req, url) =>
        url.pathname === prm
          ? Response.json({ resource: `${url.origin}/mcp`, authorization_servers: [`${as.issuer}/`] })
          : new Response("", { status: 401, headers: { "www-authenticate": `Bearer resource_metadata="${url.origin}${prm}"` } }),
    });
    writeList(join(s.home, "mcp.json"), { web: { type: "http", url: mcp.url } });
    const { r } = await logIn();
    expect(r).toEqual({
      ok: false,
      error: `the metadata at ${as.issuer}/.well-known/oauth-authorization-server says its issuer is "${as.issuer}", not ${as.issuer}/; zot does not use it`,
    });
    expect(as.requests.map((x) => x.path)).toEqual(["/.well-known/oauth-authorization-server"]);
  });

  test("a configured client is used without registering, and its secret goes as HTTP Basic", async () => {
    const as = setUp({ clients: { "zot-test-client": "s3cret-value-1" } });
    const { r } = await logIn({ clientId: "zot-test-client", clientSecret: "s3cret-value-1", scopes: ["mcp:tools", "mcp:admin"] });
    expect(r.ok).toBe(true);
    expect(as.registrations).toEqual([]);
    expect(as.requests.find((x) => x.path === "/authorize")!.query).toMatchObject({ client_id: "zot-test-client", scope: "mcp:tools mcp:admin" });
    const token = tokenRequests(as)[0]!;
    expect(token.headers.authorization).toBe(`Basic ${Buffer.from("zot-test-client:s3cret-value-1").toString("base64")}`);
    expect(token.form.client_secret).toBeUndefined();
    // A configured secret stays in the server list, not in the token file.
    expect(readAuthStore(s.home)[0]!.client_secret).toBeUndefined();
  });

  test("an https client_id is used as a Client ID Metadata Document when the server accepts them", async () => {
    const as = setUp({ cimd: true });
    const { r, lines } = await logIn({ clientId: "https://zot.example/oauth/client.json" });
    expect(r.ok).toBe(true);
    expect(as.registrations).toEqual([]);
    expect(as.requests.find((x) => x.path === "/authorize")!.query.client_id).toBe("https://zot.example/oauth/client.json");
    expect(lines[0]).toContain("client metadata document https://zot.example/oauth/client.json");
  });

  test("with no configured client and no registration endpoint the error says what to configure and where", async () => {
    setUp({ noRegistration: true });
    const { r } = await logIn();
    expect(r).toEqual({
      ok: false,
      error: `the authorization server ${current.issuer} offers no dynamic client registration; register zot there (redirect URI http://127.0.0.1:PORT/callback) and put "oauth": {"client_id": "…"} in the entry of "web" in ${join(s.home, "mcp.json")}`,
    });
  });
});

describe("the authorization response is checked before its code is redeemed", () => {
  test("a state that is not the login's is refused", async () => {
    const as = setUp({ state: "forged-state" });
    const { r, page } = await logIn();
    expect(r).toEqual({
      ok: false,
      error: "the browser came back with a state that is not this login's (a stale tab, or a forged redirect); zot did not use its code",
    });
    expect(page).toStartWith("zot: the login failed: the browser came back with a state");
    expect(tokenRequests(as)).toEqual([]);
    expect(readAuthStore(s.home)).toEqual([]);
  });

  test("an iss naming another issuer is refused (a mix-up attack)", async () => {
    const as = setUp({ iss: "http://127.0.0.1:1/evil" });
    const { r } = await logIn();
    expect(r).toEqual({
      ok: false,
      error: `the authorization response comes from the issuer http://127.0.0.1:1/evil, not ${as.issuer} (a mix-up attack?); zot did not redeem its code`,
    });
    expect(tokenRequests(as)).toEqual([]);
  });

  test("a missing iss is refused when the server's metadata promises it", async () => {
    const as = setUp({ iss: null });
    const { r } = await logIn();
    expect(r.ok).toBe(false);
    expect((r as { error: string }).error).toBe(`the authorization response lacks the "iss" that ${as.issuer} promises to send; zot did not redeem its code`);
    expect(tokenRequests(as)).toEqual([]);
  });

  test("a token endpoint error fails the login with the server's OAuth error and stores nothing", async () => {
    const as = setUp({ tokenError: "access_denied" });
    const { r } = await logIn();
    expect(r).toEqual({
      ok: false,
      error: `the token endpoint ${as.issuer}/token refused the authorization code: access_denied (the test server refuses codes)`,
    });
    expect(readAuthStore(s.home)).toEqual([]);
  });
});

describe("during a run", () => {
  test("a server that asks for OAuth before any login is not started, with a sentence naming zot mcp login", async () => {
    setUp();
    host = await loadHost(s);
    expect(host.serverStates()[0]).toMatchObject({
      status: "failed",
      error: "it needs login: run zot mcp login web (it asks for authorization and zot holds no token for it)",
      auth: "needs login: run zot mcp login web",
    });
  });

  test("an expired token is refreshed before it is sent, with the resource, and the new tokens are stored", async () => {
    const as = setUp();
    expect((await logIn()).r.ok).toBe(true);
    // An hour later, as far as the stored expiry says.
    const first = { ...readAuthStore(s.home)[0]!, expires_at: Date.now() - 1000 };
    saveAuth(s.home, first);
    host = await loadHost(s);
    expect(host.serverStates()[0]!.status).toBe("ready");
    const refreshes = tokenRequests(as).filter((x) => x.form.grant_type === "refresh_token");
    expect(refreshes[0]!.form).toMatchObject({ refresh_token: first.refresh_token, resource: mcp!.url, client_id: "dcr-1" });
    const stored = readAuthStore(s.home)[0]!;
    expect(stored.access_token).not.toBe(first.access_token);
    expect(stored.refresh_token).not.toBe(first.refresh_token);
    // The old access token was never sent: the first request already carried the new one.
    expect(mcp!.requests.every((x) => x.headers.authorization !== `Bearer ${first.access_token}`)).toBe(true);
  });

  test("a token the server rejects with 401 is refreshed and the request retried once", async () => {
    const as = setUp();
    expect((await logIn()).r.ok).toBe(true);
    host = await loadHost(s);
    expect(host.serverStates()[0]!.status).toBe("ready");
    as.expireAll();
    const called = await host.callTool("mcp__web__whoami", {}, { signal: signal() });
    expect((called.content[0] as { text: string }).text).toMatch(/^you sent Bearer at-2-/);
    expect(tokenRequests(as).filter((x) => x.form.grant_type === "refresh_token")).toHaveLength(1);
  });

  test("a refused refresh leaves the server needing login again, and the spent tokens are dropped", async () => {
    const as = setUp();
    expect((await logIn()).r.ok).toBe(true);
    as.options.refuseRefresh = true;
    as.expireAll();
    host = await loadHost(s);
    expect(host.serverStates()[0]).toMatchObject({
      status: "failed",
      error: `it needs login: run zot mcp login web (refreshing the token failed: the token endpoint ${as.issuer}/token refused the refresh token: invalid_grant (refresh token revoked))`,
      auth: "needs login: run zot mcp login web",
    });
    expect(readAuthStore(s.home)).toEqual([]);
  });

  test("tokens are never sent to another issuer: when the server names a new authorization server, zot needs a new login there", async () => {
    const first = setUp();
    expect((await logIn()).r.ok).toBe(true);
    const old = readAuthStore(s.home)[0]!;
    const other = authServer();
    current = other;
    host = await loadHost(s);
    expect(host.serverStates()[0]).toMatchObject({
      status: "failed",
      error: `it needs login: run zot mcp login web (it now names another authorization server (${other.issuer}); the tokens from ${first.issuer} are never sent there)`,
    });
    const seenByOther = JSON.stringify(other.requests);
    expect(seenByOther).not.toContain(old.access_token);
    expect(seenByOther).not.toContain(old.refresh_token!);
    expect(tokenRequests(first).filter((x) => x.form.grant_type === "refresh_token")).toEqual([]);
    await host.shutdown();
    host = null;

    // The new login registers with the new issuer instead of offering it the old client.
    expect((await logIn()).r.ok).toBe(true);
    expect(other.registrations).toHaveLength(1);
    expect(other.requests.find((x) => x.path === "/authorize")!.query.client_id).toBe("dcr-1");
    expect(
      readAuthStore(s.home)
        .map((e) => e.issuer)
        .sort(),
    ).toEqual([first.issuer, other.issuer].sort());
    host = await loadHost(s);
    expect(host.serverStates()[0]!.status).toBe("ready");
  });

  test("a 403 insufficient_scope names the scope the server asked for, tells the user once, and refreshes nothing", async () => {
    const as = setUp({}, {}, { toolScopes: { whoami: "mcp:admin" } });
    expect((await logIn()).r.ok).toBe(true);
    host = await loadHost(s);
    const intents: UiIntent[] = [];
    host.onIntent((i) => intents.push(i));
    const why = 'it refused the token for lacking the scope "mcp:admin" (the token was granted "mcp:tools"); the next login asks for "mcp:tools mcp:admin"';
    for (let i = 0; i < 2; i++) {
      const called = await host.callTool("mcp__web__whoami", {}, { signal: signal() });
      expect(called).toMatchObject({ isError: true });
      expect((called.content[0] as { text: string }).text).toBe(`tool "whoami" failed on MCP server "web": it needs login: run zot mcp login web (${why})`);
    }
    expect(intents.filter((i) => i.kind === "notify")).toEqual([
      { kind: "notify", extension: "mcp:web", level: "warn", message: `MCP server web needs more access: run zot mcp login web (${why}).` },
    ]);
    expect(readAuthStore(s.home)[0]).toMatchObject({ scope: "mcp:tools", step_up_scope: "mcp:admin" });
    expect(tokenRequests(as).filter((x) => x.form.grant_type === "refresh_token")).toEqual([]);
    // The other tools go on working with the token as it is.
    expect((await host.callTool("mcp__web__echo", { text: "hi" }, { signal: signal() })).content[0]).toEqual({ type: "text", text: "echo: hi" });
  });

  test("the next login asks for the granted scope and the one the server asked for, and the new token gets through", async () => {
    const as = await stepUpAsked();

    const again = await logIn();
    expect(again.r.ok).toBe(true);
    expect(again.lines).toContain('Asking for the scope "mcp:tools mcp:admin": the server asked for "mcp:admin".');
    const asked = as.requests.filter((x) => x.path === "/authorize").map((x) => x.query.scope);
    expect(asked).toEqual(["mcp:tools", "mcp:tools mcp:admin"]);
    const newest = readAuthStore(s.home).sort((a, b) => b.obtained_at - a.obtained_at)[0]!;
    expect(newest.scope).toBe("mcp:tools mcp:admin");
    expect(newest.step_up_scope).toBeUndefined();
    host = await loadHost(s);
    expect(((await host.callTool("mcp__web__whoami", {}, { signal: signal() })).content[0] as { text: string }).text).toBe(
      `you sent Bearer ${newest.access_token}`,
    );
  });

  test("scopes asked for by several requests are all kept for the login, and a refresh keeps them", async () => {
    const as = setUp({}, {}, { toolScopes: { whoami: "mcp:admin", echo: "mcp:write" } });
    expect((await logIn()).r.ok).toBe(true);
    host = await loadHost(s);
    await host.callTool("mcp__web__whoami", {}, { signal: signal() });
    await host.callTool("mcp__web__echo", { text: "x" }, { signal: signal() });
    as.expireAll();
    await host.callTool("mcp__web__fail", {}, { signal: signal() });
    expect(tokenRequests(as).filter((x) => x.form.grant_type === "refresh_token")).toHaveLength(1);
    expect(readAuthStore(s.home)[0]).toMatchObject({ scope: "mcp:tools", step_up_scope: "mcp:admin mcp:write" });
    await host.shutdown();
    host = null;
    expect((await logIn()).r.ok).toBe(true);
    expect(as.requests.filter((x) => x.path === "/authorize").at(-1)!.query.scope).toBe("mcp:tools mcp:admin mcp:write");
  });

  test("a 403 insufficient_scope that names no scope needs a new login and records no scope for it", async () => {
    let narrow = false;
    current = authServer();
    const guard = protect(() => current);
    mcp = startMcpHttpServer({
      era: "modern",
      reply: "json",
      guard: (req, url) => (narrow ? new Response("", { status: 403, headers: { "www-authenticate": 'Bearer error="insufficient_scope"' } }) : guard(req, url)),
    });
    writeList(join(s.home, "mcp.json"), { web: { type: "http", url: mcp.url } });
    expect((await logIn()).r.ok).toBe(true);
    host = await loadHost(s);
    narrow = true;
    const called = await host.callTool("mcp__web__whoami", {}, { signal: signal() });
    expect((called.content[0] as { text: string }).text).toBe(
      'tool "whoami" failed on MCP server "web": it needs login: run zot mcp login web (it wants more access than the token grants, and did not say which scope)',
    );
    expect(readAuthStore(s.home)[0]!.step_up_scope).toBeUndefined();
  });

  test("a 403 insufficient_scope for a scope the token was granted says so instead of claiming it was not granted", async () => {
    let narrow = false;
    current = authServer();
    const guard = protect(() => current);
    mcp = startMcpHttpServer({
      era: "modern",
      reply: "json",
      guard: (req, url) =>
        narrow ? new Response("", { status: 403, headers: { "www-authenticate": 'Bearer error="insufficient_scope", scope="mcp:tools"' } }) : guard(req, url),
    });
    writeList(join(s.home, "mcp.json"), { web: { type: "http", url: mcp.url } });
    expect((await logIn()).r.ok).toBe(true);
    host = await loadHost(s);
    narrow = true;
    const called = await host.callTool("mcp__web__whoami", {}, { signal: signal() });
    expect((called.content[0] as { text: string }).text).toBe(
      'tool "whoami" failed on MCP server "web": it needs login: run zot mcp login web (it refused the token for lacking the scope "mcp:tools", although the token was granted "mcp:tools"; the next login asks for "mcp:tools")',
    );
  });

  test("a step-up recorded for another issuer's tokens does not widen a login at the new issuer", async () => {
    const first = await stepUpAsked();
    const other = authServer();
    current = other;
    expect((await logIn()).r.ok).toBe(true);
    expect(other.requests.find((x) => x.path === "/authorize")!.query.scope).toBe("mcp:tools");
    expect(first.requests.filter((x) => x.path === "/authorize")).toHaveLength(1);
  });

  test("/mcp-login is offered only in the interactive mode, and names the servers it can log in to", async () => {
    setUp();
    host = await loadHost(s);
    expect(host.commands().some((c) => c.name === "mcp-login")).toBe(false);
    await host.shutdown();
    host = await loadHost(s, { interactive: true });
    expect(host.commands().find((c) => c.name === "mcp-login")).toEqual({
      name: "mcp-login",
      description: "log in to an MCP server with OAuth in the browser — <web>",
      extension: "mcp",
    });
    expect(await host.invokeCommand("mcp-login", "nope")).toEqual({
      ok: false,
      error: "/mcp-login needs the name of an HTTP MCP server that logs in with OAuth (web)",
    });
  });

  test("a server error that quotes the token is masked in the server's state and in its log", async () => {
    current = authServer();
    const guard = protect(() => current);
    let echo = false;
    mcp = startMcpHttpServer({
      era: "modern",
      reply: "json",
      guard: (req, url) =>
        echo
          ? Response.json({ jsonrpc: "2.0", id: null, error: { code: -32000, message: `not today, ${req.headers.get("authorization")}` } })
          : guard(req, url),
    });
    writeList(join(s.home, "mcp.json"), { web: { type: "http", url: mcp.url } });
    expect((await logIn()).r.ok).toBe(true);
    echo = true;
    host = await loadHost(s);
    const token = readAuthStore(s.home)[0]!.access_token;
    const state = host.serverStates()[0]!;
    expect(state.status).toBe("failed");
    expect(state.error).toContain(`not today, Bearer ${token.slice(0, 4)}…[redacted]`);
    await host.shutdown();
    host = null;
    expect(readFileSync(join(s.home, "logs", "mcp-web.log"), "utf8")).not.toContain(token);
  });
});

describe("the loopback listener", () => {
  test("takes one callback on 127.0.0.1; a second request gets 404 and the browser's page waits for the outcome", async () => {
    const l = listenLoopback();
    if (!l.ok) throw new Error(l.error);
    const uri = l.loopback.redirectUri;
    expect(uri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const page = fetch(`${uri}?code=first&state=s`).then((r) => r.text());
    const got = await l.loopback.wait(20_000);
    expect("params" in got && got.params.get("code")).toBe("first");
    expect((await fetch(`${uri}?code=second&state=s`)).status).toBe(404);
    l.loopback.answer("done");
    expect(await page).toBe("done\n");
    l.loopback.close();
  });

  test("gives up after its timeout, and is closed afterwards", async () => {
    const l = listenLoopback();
    if (!l.ok) throw new Error(l.error);
    expect(await l.loopback.wait(100)).toEqual({ error: "no answer from the browser within 1 s" });
    l.loopback.close();
    expect(
      await fetch(l.loopback.redirectUri).then(
        () => "answered",
        () => "closed",
      ),
    ).toBe("closed");
  });
});

describe("the WWW-Authenticate challenge", () => {
  test("its Bearer parameters are read, quoted or not, and another scheme's are not", () => {
    expect(parseChallenge('Bearer resource_metadata="https://a.example/.well-known/oauth-protected-resource/mcp", scope="files:read files:write"')).toEqual({
      resourceMetadata: "https://a.example/.well-known/oauth-protected-resource/mcp",
      scope: "files:read files:write",
      error: null,
    });
    expect(parseChallenge('Basic realm="x", Bearer error=invalid_token, scope="a"')).toEqual({ resourceMetadata: null, scope: "a", error: "invalid_token" });
    expect(parseChallenge('Bearer realm="mcp", Basic scope="not-ours"')).toEqual({ resourceMetadata: null, scope: null, error: null });
    expect(parseChallenge('Basic realm="x"')).toBeNull();
    expect(parseChallenge(null)).toBeNull();
  });
});
