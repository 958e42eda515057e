// `zot mcp login NAME` and `zot mcp logout NAME`: the OAuth login of one configured HTTP server
// (interactive: a browser, or the printed URL), and forgetting its tokens after telling the
// authorization server to revoke them (RFC 7009) where it offers that.
import { authStorePath } from "../../platform/home.ts";
import { fail } from "../kit/context.ts";
import type { Ctx } from "../kit/context.ts";
import type { HttpConfig, ServerConfig } from "../../mcp/config.ts";
import { describeAuth, oauthApplies } from "../../mcp/oauth/bearer.ts";
import { readAuthStore, removeAuth } from "../../mcp/oauth/store.ts";
import type { StoredAuth } from "../../mcp/oauth/store.ts";
import { configFor } from "./list.ts";

type Found = { ok: true; server: ServerConfig; http: HttpConfig } | { ok: false; code: number };

function httpServer(ctx: Ctx, name: string, verb: "login" | "logout"): Found {
  const cfg = configFor(ctx, [], false);
  const server = cfg.servers.find((s) => s.name.toLowerCase() === name.toLowerCase() && s.status !== "shadowed");
  if (!server)
    return {
      ok: false,
      code: fail(ctx, `no MCP server named "${name}" is configured here; run zot mcp list to see the servers (or zot mcp add ${name} --url URL).`),
    };
  if (server.status === "invalid") return { ok: false, code: fail(ctx, `${server.error}.`) };
  const t = server.transport;
  if (t?.kind !== "http")
    return {
      ok: false,
      code: fail(ctx, `MCP server "${server.name}" is a stdio server; OAuth ${verb} is for HTTP servers (stdio servers take credentials in "env").`),
    };
  if (verb === "login" && !oauthApplies(t))
    return {
      ok: false,
      code: fail(ctx, `MCP server "${server.name}" sends an Authorization header from ${server.file}; remove it from "headers" to log in with OAuth instead.`),
    };
  if (verb === "login" && t.oauth?.grantType === "client_credentials")
    return {
      ok: false,
      code: fail(
        ctx,
        `MCP server "${server.name}" uses the client_credentials grant (${server.file}): every run gets its token with the configured client credentials, so there is nothing to log in to.`,
      ),
    };
  return { ok: true, server, http: t };
}

export async function loginCommand(ctx: Ctx, name: string): Promise<number> {
  const found = httpServer(ctx, name, "login");
  if (!found.ok) return found.code;
  const { server, http } = found;
  const { login, LOGIN_WAIT_MS } = await import("../../mcp/oauth/login.ts");
  const r = await login({
    name: server.name,
    url: http.url,
    ...(http.oauth ? { oauth: http.oauth } : {}),
    file: server.file,
    home: ctx.home,
    env: ctx.env,
    say: (line) => ctx.out.write(`${line}\n`),
    timeoutMs: LOGIN_WAIT_MS,
  });
  if (!r.ok) return fail(ctx, `login to MCP server "${server.name}" failed: ${r.error}.`);
  ctx.out.write(`logged in to MCP server ${server.name}: ${describeAuth(r.entry, server.name)}; tokens kept in ${authStorePath(ctx.home)}\n`);
  return 0;
}

export async function logoutCommand(ctx: Ctx, name: string): Promise<number> {
  const found = httpServer(ctx, name, "logout");
  if (!found.ok) return found.code;
  const { server, http } = found;
  const mine = (e: StoredAuth) => e.server === http.url;
  const held = readAuthStore(ctx.home).filter(mine);
  const revoked = new Set<string>();
  if (held.some((e) => e.revocation_endpoint)) {
    const { revokeTokens } = await import("../../mcp/oauth/revoke.ts");
    for (const e of held) {
      const r = await revokeTokens(e, http.oauth);
      if (!r.ok)
        ctx.err.write(
          `zot: the authorization server ${e.issuer} could not be told to revoke the tokens of MCP server ${server.name}, which are forgotten here all the same: ${r.error}.\n`,
        );
      else if (r.revoked) revoked.add(e.issuer);
    }
  }
  // Forgotten whatever the server said: a logout that kept the tokens would not be one.
  const r = removeAuth(ctx.home, mine);
  if (!r.ok) return fail(ctx, `${r.error}.`);
  if (r.removed.length === 0) {
    ctx.out.write(`not logged in to MCP server ${server.name}; nothing to remove\n`);
    return 0;
  }
  const issuers = [...new Set(r.removed.map((e) => e.issuer))];
  const told = issuers.filter((i) => revoked.has(i));
  const only = issuers.filter((i) => !revoked.has(i));
  const parts = [
    ...(told.length ? [`revoked and forgot the tokens from ${told.join(", ")}`] : []),
    ...(only.length ? [`forgot the tokens from ${only.join(", ")}`] : []),
  ];
  ctx.out.write(`logged out of MCP server ${server.name} (${parts.join("; ")})\n`);
  return 0;
}
