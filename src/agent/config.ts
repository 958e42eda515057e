// $ZOT_HOME/config.json (remembered choices), $ZOT_HOME/auth.json (API keys) and the credential
// lookup: --api-key, then the provider's environment variables, then auth.json.
import type { Result } from "../result.ts";
import { authPath, configFile, ensurePrivateDir, permissionsPath, systemMdPath } from "../platform/home.ts";
import { readFileSync, statSync } from "node:fs";
import { isObject, type Json, type JsonObject } from "../json.ts";
import { atomicWrite } from "../platform/atomic-write.ts";
import type { Env } from "../platform/env.ts";
import { PROVIDER_ENV_KEYS } from "../provider-keys.ts";
import type { PermissionRule } from "./events.ts";
import { isProviderName, PROVIDERS } from "./catalog.ts";
import { EFFORTS, isEffort, isPermissionMode, orList, PERMISSION_MODES, type Effort, type PermissionMode } from "./choices.ts";
import type { StreamLimits } from "./providers/limits.ts";
import { DEFAULT_PRUNE, type PruneLimits } from "./checkpoint-store.ts";

/** Where each provider's key may come from in the environment: one list, a leaf the extension host reads too. */
export { PROVIDER_ENV_KEYS };

/** Providers that can't work without a key, in the order the default-provider choice tries them. */
export const KEYED_PROVIDERS: readonly string[] = Object.keys(PROVIDER_ENV_KEYS);

/** One definition of where config.json is: platform/home.ts, which the extension policy reads too. */
export const configPath = configFile;

// ---------------------------------------------------------------- config.json

export const NOTIFY_MODES = ["auto", "bell", "osc9", "osc777", "off"] as const;
export type NotifyMode = (typeof NOTIFY_MODES)[number];

/**
 * The keys zot uses; the Go zot's other keys (`inline_images_enabled`, …) stay in the file untouched.
 * `autoCompact`: percent of the context window at which a finished turn condenses the history, or
 * false for never. `notify`: how the TUI gets attention when a long turn ends or an approval waits.
 */
export type ConfigValues = {
  provider?: string;
  model?: string;
  theme?: string;
  reasoning?: Effort;
  limits?: Partial<StreamLimits>;
  autoCompact?: number | false;
  notify?: NotifyMode;
  /** `"permissionMode"`: the mode a new session starts in (a resumed one keeps its own). */
  permissionMode?: PermissionMode;
  /** `checkpoints`: false turns code checkpoints off; else how long and how much of them to keep. */
  checkpoints?: PruneLimits | false;
  webFetch?: WebFetchSettings;
  /** `"subagents"`: how many `task` calls of one message run at once, and the dollars one subagent may spend. */
  subagents?: SubagentSettings;
};

export type SubagentSettings = { concurrency?: number; maxCost?: number };

/**
 * `"webFetch"`: what the web_fetch tool may reach. Loopback and private addresses only with
 * `allowPrivate`; `deny` domains never, and when `allow` is not empty only its domains (a domain
 * covers its subdomains).
 */
export type WebFetchSettings = { allowPrivate: boolean; allow: string[]; deny: string[] };

export type ConfigRead = { values: ConfigValues; raw: JsonObject; warnings: string[] };

/** config.json keys for the stream limits, in seconds (timeouts) and MiB (the cap). */
const LIMIT_KEYS: readonly [key: string, field: keyof StreamLimits, unit: number][] = [
  ["connect_timeout", "connectTimeoutMs", 1000],
  ["idle_timeout", "idleTimeoutMs", 1000],
  ["ping_timeout", "pingTimeoutMs", 1000],
  ["max_response_mib", "maxResponseBytes", 1024 * 1024],
];

/**
 * Every value is checked as its flag would be (a provider name, a non-empty model id, a positive
 * number); a bad one is ignored with a warning naming the file and the key, the rest still apply.
 * Only the file's own keys count: "__proto__" or "toString" are not settings.
 */
export function readConfig(home: string): ConfigRead {
  const path = configPath(home);
  const loaded = readJsonObject(path);
  if ("missing" in loaded) return { values: {}, raw: {}, warnings: [] };
  if ("error" in loaded) return { values: {}, raw: {}, warnings: [`Ignoring ${path}: ${loaded.error}; fix or delete the file.`] };
  const raw = loaded.value;
  const values: ConfigValues = {};
  const warnings: string[] = [];
  const own = (key: string): Json | undefined => (Object.hasOwn(raw, key) ? raw[key] : undefined);
  const bad = (key: string, want: string): void => {
    warnings.push(`Ignoring "${key}" in ${path}: it must be ${want} (got ${JSON.stringify(own(key))?.slice(0, 60)}).`);
  };
  const provider = own("provider");
  if (provider !== undefined) {
    if (typeof provider === "string" && isProviderName(provider.toLowerCase())) values.provider = provider.toLowerCase();
    else bad("provider", `one of ${PROVIDERS.join(", ")}`);
  }
  for (const key of ["model", "theme"] as const) {
    const v = own(key);
    if (v === undefined) continue;
    if (typeof v === "string" && v.trim() !== "") values[key] = v;
    else bad(key, "a non-empty string");
  }
  const reasoning = own("reasoning");
  if (reasoning !== undefined) {
    if (typeof reasoning === "string" && isEffort(reasoning)) values.reasoning = reasoning;
    else bad("reasoning", orList(EFFORTS));
  }
  for (const [key, field, unit] of LIMIT_KEYS) {
    const v = own(key);
    if (v === undefined) continue;
    if (typeof v !== "number" || !Number.isFinite(v) || v <= 0) {
      bad(key, unit === 1000 ? "a positive number of seconds" : "a positive number of MiB");
      continue;
    }
    (values.limits ??= {})[field] = Math.round(v * unit);
  }
  const notify = own("notify");
  if (notify !== undefined) {
    if (typeof notify === "string" && (NOTIFY_MODES as readonly string[]).includes(notify)) values.notify = notify as NotifyMode;
    else bad("notify", `one of ${NOTIFY_MODES.join(", ")}`);
  }
  const permissionMode = own("permissionMode");
  if (permissionMode !== undefined) {
    if (typeof permissionMode === "string" && isPermissionMode(permissionMode)) values.permissionMode = permissionMode;
    else bad("permissionMode", orList(PERMISSION_MODES));
  }
  const webFetch = own("webFetch");
  if (webFetch !== undefined) {
    const decoded = decodeWebFetch(webFetch);
    if (typeof decoded === "string") bad("webFetch", decoded);
    else values.webFetch = decoded;
  }
  const subagents = own("subagents");
  if (subagents !== undefined) {
    const decoded = decodeSubagents(subagents);
    if (decoded === null) bad("subagents", 'an object like {"concurrency": 4, "maxCost": 0.5} (a whole number from 1 to 16, and dollars above 0)');
    else values.subagents = decoded;
  }
  const autoCompact = own("auto_compact");
  if (autoCompact !== undefined) {
    if (autoCompact === false || (typeof autoCompact === "number" && autoCompact > 0 && autoCompact <= 100)) values.autoCompact = autoCompact;
    else bad("auto_compact", "a percentage of the context window from 1 to 100, or false to turn automatic compaction off");
  }
  const checkpoints = own("checkpoints");
  if (checkpoints !== undefined) {
    const c = checkpointSetting(checkpoints);
    if (c === null)
      bad(
        "checkpoints",
        `false, or an object with "keep_days" (default ${DEFAULT_PRUNE.keepDays}) and "max_mib" (default ${DEFAULT_PRUNE.maxBytes / 1024 / 1024}), both positive numbers`,
      );
    else values.checkpoints = c;
  }
  return { values, raw, warnings };
}

/** `"checkpoints": false` or `{"keep_days": n, "max_mib": n}` (either may be left out), or null when malformed. */
function checkpointSetting(v: Json): PruneLimits | false | null {
  if (v === false) return false;
  if (!isObject(v)) return null;
  const positive = (x: Json | undefined): x is number => typeof x === "number" && Number.isFinite(x) && x > 0;
  const days = v.keep_days;
  const mib = v.max_mib;
  if ((days !== undefined && !positive(days)) || (mib !== undefined && !positive(mib))) return null;
  return { keepDays: positive(days) ? days : DEFAULT_PRUNE.keepDays, maxBytes: positive(mib) ? Math.round(mib * 1024 * 1024) : DEFAULT_PRUNE.maxBytes };
}

function decodeSubagents(v: Json): SubagentSettings | null {
  if (!isObject(v)) return null;
  const out: SubagentSettings = {};
  const { concurrency, maxCost } = v;
  if (concurrency !== undefined) {
    if (typeof concurrency !== "number" || !Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16) return null;
    out.concurrency = concurrency;
  }
  if (maxCost !== undefined) {
    if (typeof maxCost !== "number" || !Number.isFinite(maxCost) || maxCost <= 0) return null;
    out.maxCost = maxCost;
  }
  return out;
}

function decodeWebFetch(v: Json): WebFetchSettings | string {
  const want = 'an object like {"allowPrivate": false, "allow": ["example.com"], "deny": []}';
  if (typeof v !== "object" || v === null || Array.isArray(v)) return want;
  const allowPrivate = v.allowPrivate ?? false;
  const domains = (x: Json | undefined): string[] | null =>
    x === undefined
      ? []
      : Array.isArray(x) && x.every((d) => typeof d === "string" && d.trim() !== "")
        ? (x as string[]).map((d) =>
            d
              .trim()
              .toLowerCase()
              .replace(/^\*?\./, ""),
          )
        : null;
  const allow = domains(v.allow);
  const deny = domains(v.deny);
  if (typeof allowPrivate !== "boolean" || allow === null || deny === null) return want;
  return { allowPrivate, allow, deny };
}

/**
 * Merges `patch` into config.json, keeping every key it doesn't mention (other zot versions and the
 * user may keep their own). A key set to null is removed. A file that isn't valid JSON is left alone.
 */
export function updateConfig(home: string, patch: Record<string, Json>): Result {
  const path = configPath(home);
  const loaded = readJsonObject(path);
  if ("error" in loaded) return { ok: false, error: `Could not update ${path}: ${loaded.error}; fix or delete the file.` };
  const next: JsonObject = "missing" in loaded ? {} : { ...loaded.value };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete next[k];
    else next[k] = v;
  }
  return writeJson(home, path, next);
}

/** Remembers the provider and model for the next run. */
export function rememberModel(home: string, provider: string, model: string): Result {
  return updateConfig(home, { provider, model });
}

// ---------------------------------------------------------------- auth.json

/**
 * auth.json in the Go zot's schema: `{"anthropic":{"api_key":"…"},"openai":{…}}`. A provider
 * the Go zot signed in with a subscription holds `{"oauth":{access_token,…}}`, which zot does not
 * use (it uses API keys) and keeps as it is. Read too: a bare string, and earlier zot versions'
 * `{"type":"api_key","key":"…"}`.
 */
export type AuthRead = {
  keys: Record<string, string>;
  /** Providers with only a Go zot subscription (OAuth) login, no key. */
  subscriptions: string[];
  warning?: string;
};

/** What /login says of a provider signed in only through the Go zot's subscription login. */
export const SUBSCRIPTION_NOTE = "signed in with a subscription through the Go zot; zot uses API keys";

export function readAuth(home: string): AuthRead {
  const path = authPath(home);
  try {
    const mode = statSync(path).mode & 0o777;
    if ((mode & 0o077) !== 0) {
      return {
        keys: {},
        subscriptions: [],
        warning: `Ignoring ${path}: it is readable by other users (mode ${mode.toString(8).padStart(3, "0")}); run \`chmod 600 ${path}\` to use the keys in it.`,
      };
    }
  } catch {
    return { keys: {}, subscriptions: [] };
  }
  const loaded = readJsonObject(path);
  if ("missing" in loaded) return { keys: {}, subscriptions: [] };
  if ("error" in loaded) return { keys: {}, subscriptions: [], warning: `Ignoring ${path}: ${loaded.error}; fix or delete the file.` };
  // Null prototype: looking up a provider name that is also an Object method must find no key.
  const keys = Object.create(null) as Record<string, string>;
  const subscriptions: string[] = [];
  for (const [provider, v] of Object.entries(loaded.value)) {
    const key = entryKey(v);
    if (key) keys[provider] = key;
    else if (isObject(v) && isObject(v.oauth)) subscriptions.push(provider);
  }
  return { keys, subscriptions };
}

function entryKey(v: Json): string | null {
  if (typeof v === "string") return v !== "" ? v : null;
  if (!isObject(v)) return null;
  if (typeof v.api_key === "string" && v.api_key !== "") return v.api_key;
  if (typeof v.key === "string" && v.key !== "") return v.key;
  return null;
}

/** Stores a key in auth.json (mode 0600) in the Go zot's shape, keeping everything else in the file and the entry. */
export function saveApiKey(home: string, provider: string, key: string): Result<{ path: string }> {
  return editAuth(home, (entries) => {
    const { type: _type, key: _key, ...kept } = isObject(entries[provider]) ? entries[provider] : {};
    entries[provider] = { ...kept, api_key: key };
  });
}

/**
 * Removes a provider's key; `removed` says whether there was one. A Go zot subscription login in
 * the same entry stays, so the Go zot is still signed in.
 */
export function removeApiKey(home: string, provider: string): Result<{ path: string; removed: boolean }> {
  let removed = false;
  const r = editAuth(home, (entries) => {
    const entry = entries[provider];
    if (entry === undefined || entryKey(entry) === null) return;
    removed = true;
    const { type: _type, key: _key, api_key: _apiKey, ...kept } = isObject(entry) ? entry : {};
    if (Object.keys(kept).length > 0) entries[provider] = kept;
    else delete entries[provider];
  });
  return r.ok ? { ...r, removed } : r;
}

function editAuth(home: string, change: (entries: JsonObject) => void): Result<{ path: string }> {
  const path = authPath(home);
  const loaded = readJsonObject(path);
  if ("error" in loaded) return { ok: false, error: `Could not update ${path}: ${loaded.error}; fix or delete the file.` };
  const entries: JsonObject = "missing" in loaded ? {} : { ...loaded.value };
  change(entries);
  try {
    ensurePrivateDir(home);
    // Always 0600, which also repairs a file that had become readable by others.
    atomicWrite(path, JSON.stringify(entries, null, 2) + "\n", 0o600);
    return { ok: true, path };
  } catch (err) {
    return { ok: false, error: `Could not write ${path} (${message(err)}).` };
  }
}

// ---------------------------------------------------------------- credentials

export type CredentialSource = "flag" | "env" | "auth.json";
export type Credential = { key: string; source: CredentialSource /** The env var or file it came from. */; from: string };

/** `auth`: auth.json already read by the caller, so one startup reads the file once. */
export type CredentialQuery = { provider: string; home: string; env: Env; apiKey?: string | undefined; auth?: AuthRead | undefined };

/** --api-key → environment → auth.json. `warnings` carries an ignored (insecure or broken) auth.json. */
export function resolveCredentials(q: CredentialQuery): { credential: Credential | null; warnings: string[] } {
  if (q.apiKey !== undefined && q.apiKey !== "") return { credential: { key: q.apiKey, source: "flag", from: "--api-key" }, warnings: [] };
  for (const name of PROVIDER_ENV_KEYS[q.provider] ?? []) {
    const v = q.env[name];
    if (v !== undefined && v.trim() !== "") return { credential: { key: v.trim(), source: "env", from: name }, warnings: [] };
  }
  const auth = q.auth ?? readAuth(q.home);
  const key = auth.keys[q.provider];
  return { credential: key ? { key, source: "auth.json", from: authPath(q.home) } : null, warnings: auth.warning ? [auth.warning] : [] };
}

/** Every key zot knows of, for redaction: flag, environment and auth.json. */
export function knownSecrets(home: string, env: Env, apiKey?: string, auth: AuthRead = readAuth(home)): string[] {
  const out: string[] = [];
  if (apiKey) out.push(apiKey);
  for (const names of Object.values(PROVIDER_ENV_KEYS)) for (const n of names) if (env[n]) out.push(String(env[n]).trim());
  out.push(...Object.values(auth.keys));
  if (env.ZOTCORE_RPC_TOKEN) out.push(env.ZOTCORE_RPC_TOKEN);
  return out;
}

export type ProviderChoice = { provider: string; notice?: string };

/**
 * The provider when --provider is not given: the last one used if it is still usable (it needs no
 * key, or has one); else the first keyed provider with credentials; else the offline mock provider.
 */
/** How to give zot a key when it found none. */
export function addKeyAdvice(home: string): string {
  return `set ANTHROPIC_API_KEY (or OPENAI_API_KEY, KIMI_API_KEY), pass --api-key with --provider, or add the key to ${authPath(home)}`;
}

export function defaultProvider(q: {
  home: string;
  env: Env;
  apiKey?: string | undefined;
  last?: string | undefined;
  auth?: AuthRead | undefined;
}): ProviderChoice {
  const auth = q.auth ?? readAuth(q.home);
  const usable = (p: string): boolean =>
    !Object.hasOwn(PROVIDER_ENV_KEYS, p) || resolveCredentials({ provider: p, home: q.home, env: q.env, apiKey: q.apiKey, auth }).credential !== null;
  if (q.last && q.last !== "mock" && usable(q.last)) return { provider: q.last };
  // --api-key alone can't say which provider it belongs to; it counts for the first keyed provider.
  for (const p of KEYED_PROVIDERS) if (usable(p)) return { provider: p };
  return {
    provider: "mock",
    notice: `No API key found, so zot is using the offline mock provider; ${addKeyAdvice(q.home)}.`,
  };
}

// ---------------------------------------------------------------- SYSTEM.md

/** The user's replacement for the default system prompt, or null when there is none (or it is empty). */
export function readSystemMd(home: string): string | null {
  try {
    const text = readFileSync(systemMdPath(home), "utf8");
    return text.trim() === "" ? null : text.trim();
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------- permissions.json

/**
 * "Always" approvals per project: `{"projects": {"<project root>": [{"tool": "bash", "command": "git status", "more": true}, {"tool": "edit", "dir": "/p/src"}]}}`
 * (rule shapes in events.ts). Earlier versions' `{"tool": "bash", "prefix": "git status"}` reads as
 * that command with more arguments. Entries that are not rules are skipped with a warning; other
 * projects' entries are kept on write.
 */
export function readProjectPermissions(home: string, project: string): { rules: PermissionRule[]; warning?: string } {
  const path = permissionsPath(home);
  const loaded = readJsonObject(path);
  if ("missing" in loaded) return { rules: [] };
  if ("error" in loaded) return { rules: [], warning: `Ignoring ${path}: ${loaded.error}; fix or delete the file.` };
  const projects = loaded.value.projects;
  const list = isObject(projects) && Object.hasOwn(projects, project) ? projects[project] : undefined;
  if (list === undefined) return { rules: [] };
  if (!Array.isArray(list)) return { rules: [], warning: `Ignoring the rules for ${project} in ${path}: they must be a list.` };
  const rules: PermissionRule[] = [];
  let bad = 0;
  for (const r of list) {
    const rule = decodeRule(r);
    if (rule) rules.push(rule);
    else bad++;
  }
  return bad > 0
    ? {
        rules,
        warning: `Skipped ${bad} malformed rule${bad === 1 ? "" : "s"} for ${project} in ${path}; each must be {"tool": name}, {"tool": "bash", "command": text, "more": boolean}, or {"tool": name, "path" or "dir": absolute path}.`,
      }
    : { rules };
}

function decodeRule(r: Json): PermissionRule | null {
  if (!isObject(r) || typeof r.tool !== "string" || r.tool === "") return null;
  const tool = r.tool;
  const absolute = (v: Json | undefined): v is string => typeof v === "string" && v.startsWith("/");
  if (typeof r.command === "string" && r.command.trim() !== "") return typeof r.more === "boolean" ? { tool, command: r.command, more: r.more } : null;
  if (typeof r.prefix === "string" && r.prefix.trim() !== "") return { tool, command: r.prefix.trim().split(/\s+/).join(" "), more: true };
  if (r.path !== undefined) return absolute(r.path) ? { tool, path: r.path } : null;
  if (r.dir !== undefined) return absolute(r.dir) ? { tool, dir: r.dir } : null;
  return r.command === undefined && r.prefix === undefined ? { tool } : null;
}

export function writeProjectPermissions(home: string, project: string, rules: readonly PermissionRule[]): Result {
  const path = permissionsPath(home);
  const loaded = readJsonObject(path);
  if ("error" in loaded) return { ok: false, error: `Could not update ${path}: ${loaded.error}; fix or delete the file.` };
  const next: JsonObject = "missing" in loaded ? {} : { ...loaded.value };
  const old = next.projects;
  const projects: JsonObject = isObject(old) ? { ...old } : {};
  if (rules.length === 0) delete projects[project];
  else projects[project] = rules.map((r): JsonObject => ({ ...r }));
  next.projects = projects;
  return writeJson(home, path, next);
}

// ---------------------------------------------------------------- helpers

/** Writes a JSON file under $ZOT_HOME atomically (creating the directory). */
function writeJson(home: string, path: string, value: JsonObject): Result {
  try {
    ensurePrivateDir(home);
    atomicWrite(path, JSON.stringify(value, null, 2) + "\n");
    return { ok: true };
  } catch (err) {
    return { ok: false, error: `Could not write ${path} (${message(err)}).` };
  }
}

function readJsonObject(path: string): { value: JsonObject } | { missing: true } | { error: string } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { missing: true };
    return { error: `it can't be read (${message(err)})` };
  }
  if (text.trim() === "") return { missing: true };
  let v: Json;
  try {
    v = JSON.parse(text) as Json;
  } catch {
    // The parser's message can quote the text around the error, which in auth.json is a key.
    return { error: "it is not valid JSON" };
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return { error: "it must hold a JSON object" };
  return { value: v };
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
