// `zot mcp add` and `zot mcp remove`: edit one server list ($ZOT_HOME/mcp.json, or the project's
// .mcp.json with --project), keeping everything else in it.
import { userConfigPath } from "../../platform/home.ts";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fail } from "../kit/context.ts";
import type { Ctx } from "../kit/context.ts";
import { MANIFEST_NAME_PATTERN } from "../../ext/name-rules.ts";
import type { JsonObject } from "../../protocol.ts";
import { readServerFile, writeServerFile } from "../../mcp/config.ts";

export type AddOptions = {
  command: string[];
  url: string | undefined;
  headers: string[];
  env: string[];
  project: boolean;
  force: boolean;
  /** `--client-id`, `--client-secret`, `--callback-port`: the server's `oauth` entry. */
  oauth: { clientId: string | undefined; clientSecret: string | undefined; callbackPort: string | undefined };
};

export function targetFile(ctx: Ctx, project: boolean): string {
  return project ? join(ctx.cwd, ".mcp.json") : userConfigPath(ctx.home);
}

export function add(ctx: Ctx, name: string, o: AddOptions): number {
  if (!MANIFEST_NAME_PATTERN.test(name))
    return fail(ctx, `"${name}" is not a valid MCP server name; use 1–64 letters, digits, ., _ or -, starting with a letter or digit.`);
  if (o.url !== undefined && o.command.length > 0) return fail(ctx, `give either --url or a command after --, not both, for zot mcp add ${name}.`);
  if (o.url === undefined && o.command.length === 0)
    return fail(ctx, `nothing to run for ${name}: give a command after -- (zot mcp add ${name} -- npx -y PACKAGE) or --url URL.`);
  const [program, ...programArgs] = o.command;
  const entry: JsonObject = {};
  if (o.url !== undefined) {
    if (!/^https?:\/\/\S+$/i.test(o.url)) return fail(ctx, `--url must be an http:// or https:// URL (got "${o.url}").`);
    if (o.env.length) return fail(ctx, `--env is for stdio servers; an HTTP server takes --header K:V.`);
    entry.type = "http";
    entry.url = o.url;
    const headers: JsonObject = {};
    for (const h of o.headers) {
      const i = h.indexOf(":");
      if (i <= 0) return fail(ctx, `--header must look like "Name: value" (got "${h}").`);
      headers[h.slice(0, i).trim()] = h.slice(i + 1).trim();
    }
    if (Object.keys(headers).length) entry.headers = headers;
    const { clientId, clientSecret, callbackPort } = o.oauth;
    if (clientSecret !== undefined && clientId === undefined) return fail(ctx, `--client-secret needs --client-id (the client the secret belongs to).`);
    if (callbackPort !== undefined && !(/^[0-9]+$/.test(callbackPort) && Number(callbackPort) >= 1 && Number(callbackPort) <= 65535))
      return fail(ctx, `--callback-port must be a port number (got "${callbackPort}").`);
    const oauth: JsonObject = {};
    if (clientId !== undefined) oauth.client_id = clientId;
    if (clientSecret !== undefined) oauth.client_secret = clientSecret;
    if (callbackPort !== undefined) oauth.callback_port = Number(callbackPort);
    if (Object.keys(oauth).length) entry.oauth = oauth;
  } else if (program !== undefined) {
    if (o.headers.length) return fail(ctx, `--header is for HTTP servers (--url); a stdio server takes --env K=V.`);
    if (Object.values(o.oauth).some((v) => v !== undefined)) return fail(ctx, `--client-id, --client-secret and --callback-port are for HTTP servers (--url).`);
    entry.command = program;
    entry.args = programArgs;
    const env: JsonObject = {};
    for (const e of o.env) {
      const i = e.indexOf("=");
      if (i <= 0) return fail(ctx, `--env must look like NAME=value (got "${e}").`);
      env[e.slice(0, i)] = e.slice(i + 1);
    }
    if (Object.keys(env).length) entry.env = env;
  }
  const file = targetFile(ctx, o.project);
  if (!o.project) mkdirSync(ctx.home, { recursive: true, mode: 0o700 });
  const existing = readServerFile(file, false);
  if (existing.ok && Object.keys(existing.servers).some((k) => k.toLowerCase() === name.toLowerCase()) && !o.force)
    return fail(ctx, `an MCP server named "${name}" is already in ${file}; pass --force to replace it, or zot mcp remove ${name} first.`);
  const written = writeServerFile(file, (servers) => {
    for (const k of Object.keys(servers)) if (k.toLowerCase() === name.toLowerCase()) delete servers[k];
    servers[name] = entry;
  });
  if (!written.ok) return fail(ctx, `${written.error}.`);
  ctx.out.write(`added MCP server ${name} to ${file}\n`);
  return 0;
}

export function remove(ctx: Ctx, name: string, project: boolean): number {
  const file = targetFile(ctx, project);
  const read = readServerFile(file, false);
  if (!read.ok && read.error) return fail(ctx, `${read.error}.`);
  const key = read.ok ? Object.keys(read.servers).find((k) => k.toLowerCase() === name.toLowerCase()) : undefined;
  if (key === undefined) {
    const other = project ? "" : ` (project servers: zot mcp remove ${name} --project)`;
    return fail(ctx, `no MCP server named "${name}" in ${file}${other}; run zot mcp list to see the configured servers.`);
  }
  const written = writeServerFile(file, (servers) => void delete servers[key]);
  if (!written.ok) return fail(ctx, `${written.error}.`);
  ctx.out.write(`removed MCP server ${key} from ${file}\n`);
  return 0;
}
