// MCP server lists in the format Claude Code uses (`{"mcpServers": {name: {...}}}`), read from
// `--mcp` files, the project (`.zot/mcp.json`, `.mcp.json`; trusted directories only, and there
// only the servers workspace trust approved as written) and `$ZOT_HOME/mcp.json`. The first
// definition of a name wins; later ones are shadowed, as with extensions. `${VAR}` and
// `${VAR:-default}` expand in command, args, env, url and headers.
import type { Result } from "../result.ts";
import { userConfigPath } from "../platform/home.ts";
import { existsSync, readFileSync } from "node:fs";
import { atomicWrite } from "../platform/atomic-write.ts";
import { dirname, join, resolve } from "node:path";
import { MANIFEST_NAME_PATTERN } from "../ext/name-rules.ts";
import { isObject } from "../json.ts";
import type { JsonObject } from "../protocol.ts";
import { isTrusted, reviewServers, type ServerPrint, type TrustMode, type Unapproved } from "../ext/install/trust.ts";

export type ConfigSource = "flag" | "project" | "user";

export type StdioConfig = { kind: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd: string };
export type HttpConfig = { kind: "http"; url: string; headers: Record<string, string>; oauth?: OAuthConfig };

/** How zot logs in to the server (Claude Code's `oauth` entry; snake_case or camelCase keys): the client it is registered as, the scopes, a fixed callback port. */
export type OAuthConfig = {
  clientId?: string;
  clientSecret?: string;
  scopes?: string[];
  callbackPort?: number;
  /** `client_credentials`: zot gets tokens as a service, with no login and no browser. */
  grantType?: "authorization_code" | "client_credentials";
  /** PKCS#8 PEM: the client authenticates with a signed JWT (private_key_jwt) instead of a secret. */
  privateKey?: string;
  signingAlgorithm?: SigningAlgorithm;
};

export const SIGNING_ALGORITHMS = ["RS256", "PS256", "ES256", "ES384"] as const;
export type SigningAlgorithm = (typeof SIGNING_ALGORITHMS)[number];

export type ServerConfig = {
  name: string;
  source: ConfigSource;
  /** The file that defines it. */
  file: string;
  status: "enabled" | "invalid" | "disabled" | "shadowed";
  error: string | null;
  shadowedBy?: string;
  transport: StdioConfig | HttpConfig | null;
  /** Per tool call; default 60 s. */
  timeoutMs: number;
  /** For the probe and handshake; default 30 s (npx may download first). */
  startupMs: number;
  /** Force deferral on or off; default: decided by the share of the context. */
  defer: boolean | null;
};

export type ConfigInput = {
  /** `--mcp FILE` paths in argument order (absolute). */
  files: string[];
  /** `--no-mcp`: skip the project and user lists, keep `files`. */
  none: boolean;
  cwd: string;
  home: string;
  env: Record<string, string | undefined>;
  /** How workspace trust treats the project lists this run. */
  trust: TrustMode;
};

/** A project server workspace trust did not approve (new or changed since the folder was trusted). */
export type SkippedServer = Unapproved & { file: string };

/** The line `zot mcp list` and `doctor` print for a skipped project server. */
export function skippedLine(s: SkippedServer): string {
  return `not loaded: ${s.name} from ${s.file} (${s.why} since the folder was trusted; review it, then zot ext trust lets it load)`;
}

export type LoadedConfig = {
  servers: ServerConfig[];
  /** Problems with whole files (unreadable JSON), as sentences. */
  errors: string[];
  /** Project lists that exist but were skipped because the directory is not trusted. */
  untrusted: string[];
  /** Project servers of a trusted folder skipped because they are new or changed since it was trusted. */
  unapproved: SkippedServer[];
  /** Fraction of the context window above which a server's tools are deferred. */
  deferShare: number;
  /** Values `${VAR}` expanded to (paths aside): tokens, often, so zot masks them wherever it writes a server's state down. */
  expanded: string[];
};

/** What a server runs, as one line: the command line or the URL. */
export function targetOf(t: StdioConfig | HttpConfig | null): string {
  return !t ? "" : t.kind === "stdio" ? [t.command, ...t.args].join(" ") : t.url;
}

export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;
export const DEFAULT_STARTUP_MS = 30_000;
export const DEFAULT_DEFER_SHARE = 0.1;

export function projectConfigPaths(cwd: string): string[] {
  return [join(cwd, ".zot", "mcp.json"), join(cwd, ".mcp.json")];
}

export function hasProjectLists(cwd: string): boolean {
  return projectConfigPaths(cwd).some((p) => existsSync(p));
}

/** A project server as workspace trust reviews it: every definition of its name in the project's lists, as written. */
export type ProjectServer = {
  name: string;
  /** The list holding its first definition, the one that loads. */
  file: string;
  /** What that definition runs or connects to, as written (`transport`, then command, args, env and cwd, or url, headers and oauth). */
  written: JsonObject;
  disabled: boolean;
  print: ServerPrint;
};

/**
 * The servers of `cwd`'s project lists that could run, in list order. Entries that can never run
 * (a bad name, not an object, an unknown transport) are left out, and so are unreadable lists:
 * loading reports those.
 */
export function projectServers(cwd: string): ProjectServer[] {
  const found = new Map<string, { first: Omit<ProjectServer, "print">; definitions: JsonObject[] }>();
  for (const path of projectConfigPaths(cwd)) {
    const read = readServerFile(path, false);
    if (!read.ok) continue;
    for (const [name, raw] of Object.entries(read.servers)) {
      if (!isObject(raw)) continue;
      const definition = writtenDefinition(name, raw);
      if (definition === null) continue;
      const seen = found.get(name.toLowerCase());
      // A later definition of the name is shadowed now, but loads once the first is removed: it is part of what was approved.
      if (seen) seen.definitions.push(definition);
      else found.set(name.toLowerCase(), { first: { name, file: path, written: definition, disabled: isDisabled(raw) }, definitions: [definition] });
    }
  }
  return [...found.values()].map(({ first, definitions }) => ({ ...first, print: { name: first.name, definition: definitions } }));
}

/** What a definition runs or connects to, as written; null when it can never run. */
function writtenDefinition(name: string, raw: JsonObject): JsonObject | null {
  if (!MANIFEST_NAME_PATTERN.test(name)) return null;
  const type = transportOf(raw);
  if (type === "stdio") return { name, transport: "stdio", command: raw.command ?? null, args: raw.args ?? [], env: raw.env ?? {}, cwd: raw.cwd ?? null };
  // The OAuth client too: it decides whom zot asks for a token, and with which redirect port. Left out
  // when absent, so approvals from before OAuth keep their fingerprint.
  if (type === "http" || type === "streamable-http")
    return { name, transport: "http", url: raw.url ?? null, headers: raw.headers ?? {}, ...(raw.oauth !== undefined ? { oauth: raw.oauth } : {}) };
  return null;
}

function transportOf(raw: JsonObject): unknown {
  return raw.type ?? (raw.url !== undefined ? "http" : "stdio");
}

function isDisabled(raw: JsonObject): boolean {
  return raw.disabled === true || raw.enabled === false;
}

export function loadConfig(input: ConfigInput): LoadedConfig {
  const files: { path: string; source: ConfigSource }[] = input.files.map((path) => ({ path, source: "flag" as const }));
  const untrusted: string[] = [];
  const unapproved: SkippedServer[] = [];
  const errors: string[] = [];
  /** Lower-cased names of the project servers trust reviewed, and of those it approved. */
  const reviewed = new Set<string>();
  let approved = new Set<string>();
  if (!input.none) {
    const present = projectConfigPaths(input.cwd).filter((path) => existsSync(path));
    const [firstPresent] = present;
    if (firstPresent !== undefined && (input.trust === "all" || isTrusted(input.home, input.cwd))) {
      const found = projectServers(input.cwd);
      const review = reviewServers(
        input.home,
        input.cwd,
        found.map((f) => f.print),
        input.trust,
      );
      if (review.warning) errors.push(review.warning);
      for (const f of found) reviewed.add(f.name.toLowerCase());
      approved = review.approved;
      const fileOf = new Map(found.map((f) => [f.name, f.file]));
      for (const u of review.unapproved) unapproved.push({ ...u, file: fileOf.get(u.name) ?? firstPresent });
      files.push(...present.map((path) => ({ path, source: "project" as const })));
    } else untrusted.push(...present);
    files.push({ path: userConfigPath(input.home), source: "user" });
  }
  const servers: ServerConfig[] = [];
  const expanded = new Set<string>();
  let deferShare = DEFAULT_DEFER_SHARE;
  let shareSet = false;
  for (const f of files) {
    const read = readServerFile(f.path, f.source === "flag");
    if (!read.ok) {
      if (read.error) errors.push(read.error);
      continue;
    }
    if (!shareSet && typeof read.doc.deferShare === "number" && read.doc.deferShare > 0 && read.doc.deferShare <= 1) {
      deferShare = read.doc.deferShare;
      shareSet = true;
    }
    for (const [name, raw] of Object.entries(read.servers)) {
      if (f.source === "project" && reviewed.has(name.toLowerCase()) && !approved.has(name.toLowerCase())) continue;
      const s = decodeServer(name, raw, f.path, f.source, input, expanded);
      const winner = servers.find((x) => x.name.toLowerCase() === name.toLowerCase() && x.status !== "invalid");
      if (winner && s.status !== "invalid") servers.push({ ...s, status: "shadowed", shadowedBy: `${winner.file} (${winner.source})` });
      else servers.push(s);
    }
  }
  return { servers, errors, untrusted, unapproved, deferShare, expanded: [...expanded] };
}

type ReadFile = { ok: true; doc: JsonObject; servers: JsonObject } | { ok: false; error: string | null };

/** A missing file is no error (`required`: a `--mcp` file must exist). */
export function readServerFile(path: string, required: boolean): ReadFile {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    const missing = (e as NodeJS.ErrnoException).code === "ENOENT";
    if (missing && !required) return { ok: false, error: null };
    return { ok: false, error: missing ? `the MCP server list ${path} does not exist` : `cannot read the MCP server list ${path}: ${(e as Error).message}` };
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `the MCP server list ${path} is not valid JSON (${(e as Error).message}); fix or remove it` };
  }
  if (!isObject(doc)) return { ok: false, error: `the MCP server list ${path} must be a JSON object with "mcpServers"` };
  const servers = doc.mcpServers ?? {};
  if (!isObject(servers)) return { ok: false, error: `"mcpServers" in ${path} must be an object mapping names to servers` };
  return { ok: true, doc, servers };
}

function decodeServer(name: string, raw: unknown, file: string, source: ConfigSource, input: ConfigInput, expanded: Set<string>): ServerConfig {
  const base: ServerConfig = {
    name,
    source,
    file,
    status: "enabled",
    error: null,
    transport: null,
    timeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
    startupMs: DEFAULT_STARTUP_MS,
    defer: null,
  };
  const invalid = (why: string): ServerConfig => ({ ...base, status: "invalid", error: `MCP server "${name}" in ${file}: ${why}` });
  if (!MANIFEST_NAME_PATTERN.test(name)) return invalid("names are 1–64 characters from letters, digits, ., _ and -, starting with a letter or digit");
  if (!isObject(raw)) return invalid("the entry must be an object");
  for (const [key, field] of [
    ["timeout", "timeoutMs"],
    ["startupTimeout", "startupMs"],
  ] as const) {
    const v = raw[key];
    if (v === undefined) continue;
    if (typeof v !== "number" || !(v > 0)) return invalid(`"${key}" must be a positive number of milliseconds`);
    base[field] = v;
  }
  if (raw.defer !== undefined) {
    if (typeof raw.defer !== "boolean") return invalid(`"defer" must be true or false`);
    base.defer = raw.defer;
  }
  const type = transportOf(raw);
  const disabled = isDisabled(raw);
  const expand = (v: string, where: string) => expandVars(v, input.env, where, expanded);
  try {
    if (type === "stdio") {
      if (typeof raw.command !== "string" || raw.command.trim() === "") return invalid(`a stdio server needs a "command"`);
      const args = raw.args ?? [];
      if (!Array.isArray(args) || !args.every((a) => typeof a === "string")) return invalid(`"args" must be an array of strings`);
      const env = stringMap(raw.env, "env");
      if (typeof env === "string") return invalid(env);
      if (raw.cwd !== undefined && typeof raw.cwd !== "string") return invalid(`"cwd" must be a string`);
      const cwd = typeof raw.cwd === "string" ? resolve(input.cwd, expand(raw.cwd, "cwd")) : input.cwd;
      const expandedEnv: Record<string, string> = {};
      for (const [k, v] of Object.entries(env)) expandedEnv[k] = expand(v, `env.${k}`);
      base.transport = { kind: "stdio", command: expand(raw.command, "command"), args: args.map((a, i) => expand(a, `args[${i}]`)), env: expandedEnv, cwd };
    } else if (type === "http" || type === "streamable-http") {
      if (typeof raw.url !== "string" || raw.url === "") return invalid(`an http server needs a "url"`);
      const headers = stringMap(raw.headers, "headers");
      if (typeof headers === "string") return invalid(headers);
      const expandedHeaders: Record<string, string> = {};
      for (const [k, v] of Object.entries(headers)) expandedHeaders[k] = expand(v, `headers.${k}`);
      const oauth = oauthConfig(raw.oauth, expand);
      if (typeof oauth === "string") return invalid(oauth);
      base.transport = { kind: "http", url: expand(raw.url, "url"), headers: expandedHeaders, ...(oauth ? { oauth } : {}) };
    } else if (type === "sse") {
      return invalid(`the HTTP+SSE transport is deprecated and zot does not speak it; if the server offers Streamable HTTP, use "type": "http"`);
    } else {
      return invalid(`unknown "type" ${JSON.stringify(type)} (use "stdio" or "http")`);
    }
  } catch (e) {
    return invalid((e as Error).message);
  }
  return disabled ? { ...base, status: "disabled" } : base;
}

function oauthConfig(v: unknown, expand: (v: string, where: string) => string): OAuthConfig | null | string {
  if (v === undefined) return null;
  if (!isObject(v)) return `"oauth" must be an object such as {"client_id": "…", "scopes": ["…"]}`;
  const id = v.client_id ?? v.clientId;
  const secret = v.client_secret ?? v.clientSecret;
  const port = v.callback_port ?? v.callbackPort;
  if (id !== undefined && (typeof id !== "string" || id === ""))
    return `"oauth.client_id" must be a non-empty string (the client zot is registered as with the authorization server)`;
  if (secret !== undefined && typeof secret !== "string") return `"oauth.client_secret" must be a string (best as "\${VAR}")`;
  if (v.scopes !== undefined && (!Array.isArray(v.scopes) || !v.scopes.every((x) => typeof x === "string")))
    return `"oauth.scopes" must be an array of strings`;
  if (port !== undefined && (typeof port !== "number" || !Number.isInteger(port) || port < 1 || port > 65535))
    return `"oauth.callback_port" must be a port number (1–65535)`;
  const grant = v.grant_type ?? v.grantType;
  const key = v.private_key ?? v.privateKey;
  const alg = v.signing_algorithm ?? v.signingAlgorithm;
  if (grant !== undefined && grant !== "authorization_code" && grant !== "client_credentials")
    return `"oauth.grant_type" must be "authorization_code" (a login in the browser, the default) or "client_credentials" (a service's own credentials)`;
  if (grant === "client_credentials" && (typeof id !== "string" || (secret === undefined && key === undefined)))
    return `"oauth.grant_type": "client_credentials" needs "client_id" and either "client_secret" or "private_key"`;
  if (key !== undefined && (typeof key !== "string" || key === "")) return `"oauth.private_key" must be a PEM string (best as "\${VAR}")`;
  if (key !== undefined && grant !== "client_credentials") return `"oauth.private_key" is used only with "grant_type": "client_credentials"`;
  if (key !== undefined && secret !== undefined) return `"oauth" has both "client_secret" and "private_key"; give the one the client is registered with`;
  if (alg !== undefined && (typeof alg !== "string" || !(SIGNING_ALGORITHMS as readonly string[]).includes(alg)))
    return `"oauth.signing_algorithm" must be one of ${SIGNING_ALGORITHMS.join(", ")}`;
  return {
    ...(grant === "client_credentials" ? { grantType: grant } : {}),
    ...(typeof key === "string" ? { privateKey: expand(key, "oauth.private_key") } : {}),
    ...(typeof alg === "string" ? { signingAlgorithm: alg as SigningAlgorithm } : {}),
    ...(typeof id === "string" ? { clientId: expand(id, "oauth.client_id") } : {}),
    ...(typeof secret === "string" ? { clientSecret: expand(secret, "oauth.client_secret") } : {}),
    ...(Array.isArray(v.scopes) ? { scopes: v.scopes as string[] } : {}),
    ...(typeof port === "number" ? { callbackPort: port } : {}),
  };
}

function stringMap(v: unknown, key: string): Record<string, string> | string {
  if (v === undefined) return {};
  if (!isObject(v)) return `"${key}" must be an object of strings`;
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x !== "string") return `"${key}.${k}" must be a string`;
    out[k] = x;
  }
  return out;
}

/** `${VAR}` and `${VAR:-default}`; an unset variable without a default is an error naming it. Values taken from `env` are added to `found`. */
export function expandVars(text: string, env: Record<string, string | undefined>, where: string, found?: Set<string>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_m, name: string, fallback: string | undefined) => {
    const v = env[name];
    if (v !== undefined && v !== "") {
      // A path (${HOME}, ${PWD}) is no secret, and masking it would garble every line naming a file.
      if (!/^[/.~]/.test(v)) found?.add(v);
      return v;
    }
    if (fallback !== undefined) return fallback;
    throw new Error(`${where} uses \${${name}}, which is not set; set it in the environment or give a default as \${${name}:-value}`);
  });
}

/** Writes a server list back, keeping whatever else the file holds; replaced atomically. */
export function writeServerFile(path: string, update: (servers: JsonObject) => void): Result {
  const read = readServerFile(path, false);
  if (!read.ok && read.error) return { ok: false, error: read.error };
  const doc: JsonObject = read.ok ? { ...read.doc } : {};
  const servers: JsonObject = read.ok ? { ...read.servers } : {};
  update(servers);
  doc.mcpServers = servers;
  try {
    if (!existsSync(dirname(path))) return { ok: false, error: `the directory ${dirname(path)} does not exist` };
    atomicWrite(path, JSON.stringify(doc, null, 2) + "\n", 0o600);
    return { ok: true };
  } catch (e) {
    return { ok: false, error: `cannot write ${path}: ${(e as Error).message}` };
  }
}
