// OAuth for HTTP MCP servers through the built binary: `zot mcp login` with a browser opener
// ($ZOT_BROWSER, played by a fixture that follows the redirects) and without one (the printed URL),
// the login shown by `zot mcp list` and `zot mcp doctor`, `zot mcp logout`, a headless run that
// skips a server needing login with a notice, and tokens masked in a run's output and transcript;
// logout revoking the tokens (RFC 7009) and step-up after a 403 insufficient_scope.
import { beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readAuthStore } from "../../src/mcp/oauth/store.ts";
import { anthropic, jsonLines, sessionFiles, useZotHome, ZOT, zotEnv } from "../e2e/zot.ts";
import { startMcpHttpServer, type McpHttpServer } from "../helpers/mcp-http-server.ts";
import { protect, startAuthServer, type AuthServer } from "../helpers/oauth-server.ts";
import { MCP_FIXTURES, writeList } from "./helpers.ts";
import { waitFor } from "../helpers/wait.ts";

const e2e = useZotHome({ prefix: "zot-mcp-oauth-", homeDir: "home" });
let as: AuthServer;
let mcp: McpHttpServer;
let browserLog: string;

beforeEach(() => {
  as = startAuthServer();
  mcp = startMcpHttpServer({ era: "modern", reply: "json", guard: protect(() => as) });
  e2e.defer(() => Promise.all([as.stop(), mcp.stop()]));
  writeList(join(e2e.home, "mcp.json"), { web: { type: "http", url: mcp.url } });
  browserLog = join(e2e.root, "browser.jsonl");
});

const browser = () => ({ ZOT_BROWSER: join(MCP_FIXTURES, "browser.ts"), MCP_BROWSER_LOG: browserLog });

test("zot mcp login opens the browser, and list, doctor and logout show and end the login", async () => {
  const before = await e2e.run(["mcp", "doctor"]);
  expect(before.code).toBe(1);
  expect(before.stdout).toContain("  auth      needs login: run zot mcp login web\n");

  const r = await e2e.run(["mcp", "login", "web"], { env: browser() });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(`Logging in to MCP server web at ${as.issuer} (registered as client dcr-1).`);
  expect(r.stdout).toContain(`Open this URL in a browser to log in:\n\n  ${as.issuer}/authorize?response_type=code&client_id=dcr-1&`);
  expect(r.stdout).toMatch(/logged in to MCP server web: oauth: logged in \(expires [0-9-]+ [0-9:]+ UTC\); tokens kept in .*mcp-auth\.json\n$/);
  // The opener is not waited for: it may write down the page it got after zot has exited.
  const visited = await waitFor(() => existsSync(browserLog) && jsonLines(readFileSync(browserLog, "utf8"))[0]);
  expect(visited).toMatchObject({ status: 200, page: "zot: logged in to MCP server web; you can close this tab.\n" });
  expect(statSync(join(e2e.home, "mcp-auth.json")).mode & 0o777).toBe(0o600);

  const list = await e2e.run(["mcp", "list"]);
  expect(list.stdout).toMatch(/\n {2}oauth: logged in \(expires [^)]+\)\n/);
  const doctor = await e2e.run(["mcp", "doctor", "--json"]);
  expect(doctor.code).toBe(0);
  const report = JSON.parse(doctor.stdout) as { servers: { status: string; auth: string; tools: { name: string }[] }[] };
  expect(report.servers[0]).toMatchObject({ status: "ready" });
  expect(report.servers[0]!.auth).toStartWith("oauth: logged in (expires ");
  expect(report.servers[0]!.tools.map((t) => t.name)).toContain("mcp__web__whoami");

  expect((await e2e.run(["mcp", "logout", "web"])).stdout).toBe(`logged out of MCP server web (revoked and forgot the tokens from ${as.issuer})\n`);
  expect(readAuthStore(e2e.home)).toEqual([]);
  expect((await e2e.run(["mcp", "logout", "web"])).stdout).toBe("not logged in to MCP server web; nothing to remove\n");
  expect((await e2e.run(["mcp", "list"])).stdout).not.toContain("oauth:");
});

test("without a browser opener (an SSH session) the login prints the URL and finishes once it is visited", async () => {
  const proc = Bun.spawn([ZOT, "mcp", "login", "web"], {
    cwd: e2e.home,
    env: zotEnv(e2e.home, { DISPLAY: "", WAYLAND_DISPLAY: "" }),
    stdout: "pipe",
    stderr: "pipe",
  });
  e2e.defer(() => {
    if (proc.exitCode === null) proc.kill("SIGKILL");
  });
  const reader = proc.stdout.getReader();
  let out = "";
  while (!out.includes("Waiting for the browser")) {
    const { value, done } = await reader.read();
    if (done) break;
    out += new TextDecoder().decode(value);
  }
  const url = /\n\n {2}(\S+)\n/.exec(out)?.[1];
  expect(out).toContain("(no browser to open here (no desktop session); open the URL above in any browser that can reach this machine's 127.0.0.1)");
  expect(await (await fetch(url!)).text()).toBe("zot: logged in to MCP server web; you can close this tab.\n");
  expect(await proc.exited).toBe(0);
  expect(readAuthStore(e2e.home)).toHaveLength(1);
});

test("a login refused by the authorization response's state is an error on stderr, and nothing is stored", async () => {
  as.options.state = "forged";
  const r = await e2e.run(["mcp", "login", "web"], { env: browser() });
  expect(r.code).toBe(1);
  expect(r.stderr).toBe(
    `zot: login to MCP server "web" failed: the browser came back with a state that is not this login's (a stale tab, or a forged redirect); zot did not use its code.\n`,
  );
  expect(readAuthStore(e2e.home)).toEqual([]);
});

test("login refuses a stdio server and one whose config sends its own Authorization header", async () => {
  writeList(join(e2e.home, "mcp.json"), {
    local: { command: "python3", args: ["x.py"] },
    tokened: { type: "http", url: mcp.url, headers: { Authorization: "Bearer abc" } },
  });
  expect((await e2e.run(["mcp", "login", "local"])).stderr).toBe(
    'zot: MCP server "local" is a stdio server; OAuth login is for HTTP servers (stdio servers take credentials in "env").\n',
  );
  expect((await e2e.run(["mcp", "login", "tokened"])).stderr).toBe(
    `zot: MCP server "tokened" sends an Authorization header from ${join(e2e.home, "mcp.json")}; remove it from "headers" to log in with OAuth instead.\n`,
  );
  expect((await e2e.run(["mcp", "login", "nope"])).stderr).toBe(
    'zot: no MCP server named "nope" is configured here; run zot mcp list to see the servers (or zot mcp add nope --url URL).\n',
  );
});

test("a print-mode run skips a server that needs login with a notice naming zot mcp login, and never opens a browser", async () => {
  const server = e2e.serve({ replies: [{ kind: "turn", text: "fine without it" }] });
  const r = await e2e.run(["--permission-mode", "yolo", "-p", ...anthropic(server), "hello"], { env: browser() });
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("fine without it\n");
  expect(r.stderr).toContain(
    "zot: MCP server web did not start: it needs login: run zot mcp login web (it asks for authorization and zot holds no token for it)",
  );
  expect(as.requests.filter((x) => x.path === "/authorize")).toEqual([]);
});

test("an OAuth token is masked like an API key in JSON output and in the transcript", async () => {
  expect((await e2e.run(["mcp", "login", "web"], { env: browser() })).code).toBe(0);
  const token = readAuthStore(e2e.home)[0]!.access_token;
  const server = e2e.serve({
    replies: [
      { kind: "turn", toolCalls: [{ id: "toolu_1", name: "mcp__web__whoami", args: {} }] },
      { kind: "turn", text: "done" },
    ],
  });
  const r = await e2e.run(["--permission-mode", "yolo", "--json", ...anthropic(server), "who am I"]);
  expect(r.code).toBe(0);
  const result = jsonLines(r.stdout).find((e) => e.type === "tool_result") as { content: { text: string }[] };
  expect(result.content[0]!.text).toBe(`you sent Bearer ${token.slice(0, 4)}…[redacted]`);
  expect(r.stdout).not.toContain(token);
  expect(readFileSync(sessionFiles(e2e.home)[0]!, "utf8")).not.toContain(token);
});

test("an oauth entry in mcp.json (Claude Code's camelCase, the secret from ${VAR}) logs in as that client without registering", async () => {
  await as.stop();
  as = startAuthServer({ clients: { "zot-cli": "s3cret-value-1" } });
  e2e.defer(() => as.stop());
  writeList(join(e2e.home, "mcp.json"), {
    web: { type: "http", url: mcp.url, oauth: { clientId: "zot-cli", clientSecret: "${WEB_SECRET}", scopes: ["mcp:tools"] } },
  });
  const r = await e2e.run(["mcp", "login", "web"], { env: { ...browser(), WEB_SECRET: "s3cret-value-1" } });
  expect(r.stderr).toBe("");
  expect(r.stdout).toContain("(configured client zot-cli)");
  expect(as.registrations).toEqual([]);
  const token = as.requests.find((x) => x.path === "/token")!;
  expect(token.headers.authorization).toBe(`Basic ${Buffer.from("zot-cli:s3cret-value-1").toString("base64")}`);
  expect(readAuthStore(e2e.home)[0]).toMatchObject({ client_id: "zot-cli", auth_method: "client_secret_basic" });
  expect((await e2e.run(["mcp", "doctor"], { env: { WEB_SECRET: "s3cret-value-1" } })).code).toBe(0);
});

test("a bad oauth entry makes the server invalid with a sentence naming the field and the file", async () => {
  const file = writeList(join(e2e.home, "mcp.json"), {
    a: { type: "http", url: mcp.url, oauth: { client_id: "x", scopes: "read" } },
    b: { type: "http", url: mcp.url, oauth: { callback_port: 0 } },
    c: { type: "http", url: mcp.url, oauth: "zot" },
  });
  const r = await e2e.run(["mcp", "list"]);
  expect(r.stdout).toContain(`  error: MCP server "a" in ${file}: "oauth.scopes" must be an array of strings\n`);
  expect(r.stdout).toContain(`  error: MCP server "b" in ${file}: "oauth.callback_port" must be a port number (1–65535)\n`);
  expect(r.stdout).toContain(`  error: MCP server "c" in ${file}: "oauth" must be an object such as {"client_id": "…", "scopes": ["…"]}\n`);
});

describe("zot mcp logout revokes the tokens at the authorization server", () => {
  test("the refresh token and the access token are revoked with their hints and the client's authentication, then forgotten", async () => {
    expect((await e2e.run(["mcp", "login", "web"], { env: browser() })).code).toBe(0);
    const entry = readAuthStore(e2e.home)[0]!;
    expect(entry.revocation_endpoint).toBe(`${as.issuer}/revoke`);
    const r = await e2e.run(["mcp", "logout", "web"]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(`logged out of MCP server web (revoked and forgot the tokens from ${as.issuer})\n`);
    expect(as.revoked).toEqual([
      { token: entry.refresh_token!, hint: "refresh_token", client: "dcr-1" },
      { token: entry.access_token, hint: "access_token", client: "dcr-1" },
    ]);
    // A public client says who it is in the form, as at the token endpoint.
    expect(as.requests.filter((x) => x.path === "/revoke").map((x) => x.form.client_id)).toEqual(["dcr-1", "dcr-1"]);
    expect(readAuthStore(e2e.home)).toEqual([]);
    expect(as.valid(entry.access_token, mcp.url)).toBe(false);
  });

  test("a configured client with a secret authenticates at the revocation endpoint with HTTP Basic, as at the token endpoint", async () => {
    await as.stop();
    as = startAuthServer({ clients: { "zot-cli": "s3cret-value-1" } });
    e2e.defer(() => as.stop());
    writeList(join(e2e.home, "mcp.json"), { web: { type: "http", url: mcp.url, oauth: { clientId: "zot-cli", clientSecret: "${WEB_SECRET}" } } });
    const env = { ...browser(), WEB_SECRET: "s3cret-value-1" };
    expect((await e2e.run(["mcp", "login", "web"], { env })).code).toBe(0);
    const r = await e2e.run(["mcp", "logout", "web"], { env });
    expect(r.stdout).toBe(`logged out of MCP server web (revoked and forgot the tokens from ${as.issuer})\n`);
    const revokes = as.requests.filter((x) => x.path === "/revoke");
    expect(revokes.map((x) => x.headers.authorization)).toEqual(Array(2).fill(`Basic ${Buffer.from("zot-cli:s3cret-value-1").toString("base64")}`));
    expect(revokes.map((x) => x.form.token_type_hint)).toEqual(["refresh_token", "access_token"]);
    expect(as.revoked.map((x) => x.client)).toEqual(["zot-cli", "zot-cli"]);
  });

  test("a revocation endpoint that refuses still ends the login here, and the output says the server could not be told", async () => {
    expect((await e2e.run(["mcp", "login", "web"], { env: browser() })).code).toBe(0);
    as.options.revokeStatus = 503;
    const r = await e2e.run(["mcp", "logout", "web"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`logged out of MCP server web (forgot the tokens from ${as.issuer})\n`);
    expect(r.stderr).toBe(
      `zot: the authorization server ${as.issuer} could not be told to revoke the tokens of MCP server web, which are forgotten here all the same: the revocation endpoint ${as.issuer}/revoke refused the refresh token and the access token: temporarily_unavailable (the test server refuses revocations).\n`,
    );
    expect(readAuthStore(e2e.home)).toEqual([]);
  });

  test("an unreachable revocation endpoint still ends the login here, naming the network failure", async () => {
    expect((await e2e.run(["mcp", "login", "web"], { env: browser() })).code).toBe(0);
    await as.stop();
    const r = await e2e.run(["mcp", "logout", "web"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`logged out of MCP server web (forgot the tokens from ${as.issuer})\n`);
    expect(r.stderr).toStartWith(
      `zot: the authorization server ${as.issuer} could not be told to revoke the tokens of MCP server web, which are forgotten here all the same: cannot reach the revocation endpoint ${as.issuer}/revoke: `,
    );
    expect(r.stderr.split("\n")).toHaveLength(2);
    expect(readAuthStore(e2e.home)).toEqual([]);
  });

  test("an entry stored without a revocation endpoint (an older login, or a server without one) is just forgotten", async () => {
    expect((await e2e.run(["mcp", "login", "web"], { env: browser() })).code).toBe(0);
    const file = join(e2e.home, "mcp-auth.json");
    const doc = JSON.parse(readFileSync(file, "utf8")) as { tokens: Record<string, unknown>[] };
    delete doc.tokens[0]!.revocation_endpoint;
    writeFileSync(file, JSON.stringify(doc));
    const r = await e2e.run(["mcp", "logout", "web"]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(`logged out of MCP server web (forgot the tokens from ${as.issuer})\n`);
    expect(as.requests.filter((x) => x.path === "/revoke")).toEqual([]);
    expect(readAuthStore(e2e.home)).toEqual([]);

    as.options.noRevocation = true;
    expect((await e2e.run(["mcp", "login", "web"], { env: browser() })).code).toBe(0);
    expect(readAuthStore(e2e.home)[0]!.revocation_endpoint).toBeUndefined();
    expect((await e2e.run(["mcp", "logout", "web"])).stdout).toBe(`logged out of MCP server web (forgot the tokens from ${as.issuer})\n`);
    expect(as.requests.filter((x) => x.path === "/revoke")).toEqual([]);
  });
});

test("a print-mode run whose tool meets 403 insufficient_scope says which scope on stderr, opens no browser, and the next login asks for it", async () => {
  await mcp.stop();
  mcp = startMcpHttpServer({ era: "modern", reply: "json", guard: protect(() => as, { toolScopes: { whoami: "mcp:admin" } }) });
  e2e.defer(() => mcp.stop());
  writeList(join(e2e.home, "mcp.json"), { web: { type: "http", url: mcp.url } });
  expect((await e2e.run(["mcp", "login", "web"], { env: browser() })).code).toBe(0);
  const turns = () =>
    e2e.serve({
      replies: [
        { kind: "turn", toolCalls: [{ id: "toolu_1", name: "mcp__web__whoami", args: {} }] },
        { kind: "turn", text: "done" },
      ],
    });
  const r = await e2e.run(["--permission-mode", "yolo", "-p", ...anthropic(turns()), "who am I"], { env: browser() });
  expect(r.code).toBe(0);
  const why = 'it refused the token for lacking the scope "mcp:admin" (the token was granted "mcp:tools"); the next login asks for "mcp:tools mcp:admin"';
  expect(r.stderr).toContain(`[mcp:web] warn: MCP server web needs more access: run zot mcp login web (${why}).\n`);
  expect(as.requests.filter((x) => x.path === "/authorize")).toHaveLength(1);

  const again = await e2e.run(["mcp", "login", "web"], { env: browser() });
  expect(again.stdout).toContain('Asking for the scope "mcp:tools mcp:admin": the server asked for "mcp:admin".\n');
  expect(as.requests.filter((x) => x.path === "/authorize").at(-1)!.query.scope).toBe("mcp:tools mcp:admin");
  const after = await e2e.run(["--permission-mode", "yolo", "--json", ...anthropic(turns()), "who am I"]);
  const result = jsonLines(after.stdout).find((e) => e.type === "tool_result") as { is_error: boolean; content: { text: string }[] };
  expect(result.is_error).toBe(false);
  expect(result.content[0]!.text).toStartWith("you sent Bearer ");
});
