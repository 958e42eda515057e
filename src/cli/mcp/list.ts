// `zot mcp list`: the configured servers, where each comes from and whether it would start; spawns
// nothing. Project lists of an untrusted folder are named, not read; project servers new or changed
// since the folder was trusted are named, not loaded.
import type { Ctx } from "../kit/context.ts";
import { trustMode } from "../../ext/install/trust.ts";
import { redactSecrets } from "../../redact.ts";
import { loadConfig, skippedLine, targetOf } from "../../mcp/config.ts";
import type { LoadedConfig, ServerConfig } from "../../mcp/config.ts";
import { describeAuth, oauthApplies } from "../../mcp/oauth/bearer.ts";
import { findAuth, readAuthStore } from "../../mcp/oauth/store.ts";
import { tableLines } from "../../platform/text-table.ts";

export type ListedServer = {
  name: string;
  scope: ServerConfig["source"];
  type: "stdio" | "http" | null;
  state: ServerConfig["status"];
  target: string;
  file: string;
  error: string | null;
  shadowed_by: string | null;
  /** OAuth state from $ZOT_HOME/mcp-auth.json (HTTP servers without an Authorization header of their own; null when nothing is known). */
  auth: string | null;
};

function configFor(ctx: Ctx, files: string[], none: boolean): LoadedConfig {
  return loadConfig({ files, none, cwd: ctx.cwd, home: ctx.home, env: ctx.env, trust: trustMode(false, ctx.env) });
}

export function list(ctx: Ctx, json: boolean): number {
  const cfg = configFor(ctx, [], false);
  const mask = (text: string) => redactSecrets(text, cfg.expanded);
  const tokens = readAuthStore(ctx.home);
  const servers: ListedServer[] = cfg.servers.map((s) => ({
    name: s.name,
    scope: s.source,
    type: s.transport?.kind ?? null,
    state: s.status,
    target: mask(targetOf(s.transport)),
    file: s.file,
    error: s.error === null ? null : mask(s.error),
    shadowed_by: s.shadowedBy ?? null,
    auth: authOf(s, tokens),
  }));
  if (json) {
    ctx.out.write(
      JSON.stringify({ home: ctx.home, cwd: ctx.cwd, servers, untrusted: cfg.untrusted, unapproved: cfg.unapproved, errors: cfg.errors }, null, 2) + "\n",
    );
    return 0;
  }
  for (const e of cfg.errors) ctx.out.write(`error: ${e}\n`);
  for (const u of cfg.untrusted) ctx.out.write(`not read: ${u} (the folder is not trusted; zot ext trust ${ctx.cwd} lets it load)\n`);
  for (const u of cfg.unapproved) ctx.out.write(`${skippedLine(u)}\n`);
  if (servers.length === 0) {
    if (cfg.unapproved.length === 0)
      ctx.out.write(
        `no MCP servers configured (looked in ${ctx.cwd}/.zot/mcp.json, ${ctx.cwd}/.mcp.json and ${ctx.home}/mcp.json); add one with zot mcp add\n`,
      );
    return 0;
  }
  const rows = servers.map((s) => [s.name, s.scope, s.type ?? "-", s.state, s.target || "-"]);
  const header = ["NAME", "SCOPE", "TYPE", "STATE", "RUNS"];
  const [head, ...lines] = tableLines(header, rows);
  ctx.out.write(`${head}\n`);
  servers.forEach((s, i) => {
    ctx.out.write(`${lines[i]}\n`);
    if (s.error) ctx.out.write(`  error: ${s.error}\n`);
    if (s.shadowed_by) ctx.out.write(`  shadowed by ${s.shadowed_by}\n`);
    if (s.auth) ctx.out.write(`  ${s.auth}\n`);
  });
  return 0;
}

const SERVICE_AUTH = "oauth: client credentials (each run gets its own token; no login)";

/** What zot knows without asking the server: a stored login, or an `oauth` entry that has none yet. */
function authOf(s: ServerConfig, tokens: ReturnType<typeof readAuthStore>): string | null {
  const t = s.transport;
  if (t?.kind !== "http" || !oauthApplies(t)) return null;
  if (t.oauth?.grantType === "client_credentials") return SERVICE_AUTH;
  const entry = findAuth(tokens, t.url, t.oauth?.clientId);
  return entry || t.oauth ? describeAuth(entry, s.name) : null;
}

/** `zot mcp login` and `logout` find their server in the same lists. */
export { configFor };
