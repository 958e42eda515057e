// OAuth for servers of the 2025-03-26 revision, on 127.0.0.1: the MCP server asks for authorization
// but publishes no protected resource metadata, so its origin is the authorization server — with
// RFC 8414 metadata at the root, or with none and the default /authorize, /token and /register.
// The test plays the browser by fetching the URL the login prints.
import { expect, test } from "bun:test";
import { join } from "node:path";
import type { McpHost } from "../../src/mcp/host.ts";
import { login, type LoginOutcome } from "../../src/mcp/oauth/login.ts";
import { startMcpHttpServer, type McpHttpServer } from "../helpers/mcp-http-server.ts";
import { loadHost, signal, useScratch, writeList } from "./helpers.ts";

let host: McpHost | null = null;
let mcp: McpHttpServer | null = null;
const s = useScratch(async () => {
  await host?.shutdown();
  host = null;
  await mcp?.stop();
  mcp = null;
});

const TOKEN = "legacy-access-token";

/** The MCP server and, at its origin, the authorization server: with metadata under /oauth claiming `issuer` (`metadata`), or only the default endpoints. */
function start(metadata: boolean, issuer = (base: string) => base): { paths: string[] } {
  const paths: string[] = [];
  const srv: McpHttpServer = startMcpHttpServer({
    era: "legacy",
    reply: "json",
    guard: (req, url) => {
      paths.push(`${req.method} ${url.pathname}`);
      const base = url.origin;
      const prefix = metadata ? "/oauth" : "";
      if (url.pathname.startsWith("/.well-known/")) {
        if (metadata && url.pathname === "/.well-known/oauth-authorization-server")
          return Response.json({
            issuer: issuer(base),
            authorization_endpoint: `${base}/oauth/authorize`,
            token_endpoint: `${base}/oauth/token`,
            registration_endpoint: `${base}/oauth/register`,
            code_challenge_methods_supported: ["S256"],
          });
        return new Response("not found", { status: 404 });
      }
      if (url.pathname === `${prefix}/register`) return Response.json({ client_id: "registered-client" }, { status: 201 });
      if (url.pathname === `${prefix}/authorize`) {
        const back = new URL(url.searchParams.get("redirect_uri")!);
        back.searchParams.set("code", "the-code");
        back.searchParams.set("state", url.searchParams.get("state")!);
        return Response.redirect(back.href, 302);
      }
      if (url.pathname === `${prefix}/token`) return Response.json({ access_token: TOKEN, token_type: "Bearer", expires_in: 3600 });
      if (req.headers.get("authorization") !== `Bearer ${TOKEN}`) return new Response("", { status: 401, headers: { "www-authenticate": "Bearer" } });
      return null;
    },
  });
  mcp = srv;
  writeList(join(s.home, "mcp.json"), { web: { type: "http", url: srv.url } });
  return { paths };
}

async function logIn(): Promise<{ r: LoginOutcome; lines: string[] }> {
  const lines: string[] = [];
  let visit: Promise<unknown> = Promise.resolve();
  const r = await login({
    name: "web",
    url: mcp!.url,
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
  await visit;
  return { r, lines };
}

test("without resource metadata, the authorization server metadata at the server's origin is used, and the token then opens the server", async () => {
  const { paths } = start(true);
  const { r, lines } = await logIn();
  expect(r.ok).toBe(true);
  const origin = new URL(mcp!.url).origin;
  expect(lines).toContain(`No protected resource metadata for ${mcp!.url}; authorization metadata at ${origin} (MCP 2025-03-26: no resource metadata).`);
  expect(paths.filter((p) => p.startsWith("POST /oauth/") || p.startsWith("GET /oauth/"))).toEqual([
    "POST /oauth/register",
    "GET /oauth/authorize",
    "POST /oauth/token",
  ]);
  if (r.ok) expect(r.entry).toMatchObject({ issuer: origin, token_endpoint: `${origin}/oauth/token`, access_token: TOKEN });
  expect(paths.filter((p) => p.includes("/.well-known/"))).toEqual([
    "GET /.well-known/oauth-protected-resource/mcp",
    "GET /.well-known/oauth-protected-resource",
    "GET /.well-known/oauth-authorization-server",
  ]);
  host = await loadHost(s);
  expect(host.serverStates()[0]).toMatchObject({ status: "ready", era: "legacy" });
  expect((await host.callTool("mcp__web__whoami", {}, { signal: signal() })).content[0]).toEqual({ type: "text", text: `you sent Bearer ${TOKEN}` });
});

test("without any metadata, the default /authorize, /token and /register at the server's origin are used", async () => {
  const { paths } = start(false);
  const { r, lines } = await logIn();
  expect(r.ok).toBe(true);
  const origin = new URL(mcp!.url).origin;
  expect(lines).toContain(
    `No protected resource metadata for ${mcp!.url}; no authorization metadata at ${origin}: using its default /authorize, /token and /register (MCP 2025-03-26).`,
  );
  expect(paths).toContain("POST /register");
  expect(paths).toContain("GET /authorize");
  expect(paths).toContain("POST /token");
  host = await loadHost(s);
  expect((await host.callTool("mcp__web__whoami", {}, { signal: signal() })).content[0]).toEqual({ type: "text", text: `you sent Bearer ${TOKEN}` });
});

test("root metadata whose issuer is a path on the same origin is used with that issuer", async () => {
  start(true, (base) => `${base}/oauth`);
  const { r } = await logIn();
  const origin = new URL(mcp!.url).origin;
  expect(r.ok && r.entry.issuer).toBe(`${origin}/oauth`);
});

test("root metadata that claims an issuer on another origin is not used", async () => {
  start(true, () => "https://elsewhere.example");
  const { r } = await logIn();
  const origin = new URL(mcp!.url).origin;
  expect(r.ok).toBe(false);
  if (!r.ok)
    expect(r.error).toEndWith(
      `and the metadata at ${origin}/.well-known/oauth-authorization-server says its issuer is "https://elsewhere.example", not on ${origin}; zot does not use it`,
    );
});
