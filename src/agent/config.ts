// $ZOT_HOME/config.json (remembered choices), $ZOT_HOME/auth.json (API keys) and the credential
// lookup: --api-key, then the provider's environment variables, then auth.json.
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Json, JsonObject } from "../ext/protocol.ts";
import type { PermissionRule } from "./events.ts";
import { atomicWrite } from "./tools/common.ts";

export type Env = Record<string, string | undefined>;

/** Environment variables checked for each provider, in order. Providers not listed need no key. */
export const PROVIDER_ENV_KEYS: Readonly<Record<string, readonly string[]>> = {
  anthropic: ["ANTHROPIC_API_KEY"],
  openai: ["OPENAI_API_KEY"],
  kimi: ["KIMI_API_KEY", "MOONSHOT_API_KEY"],
};

/** Providers that can't work without a key, in the order the default-provider choice tries them. */
export const KEYED_PROVIDERS: readonly string[] = Object.keys(PROVIDER_ENV_KEYS);

export const configPath = (home: string): string => join(home, "config.json");
export const authPath = (home: string): string => join(home, "auth.json");
const systemMdPath = (home: string): string => join(home, "SYSTEM.md");
export const permissionsPath = (home: string): string => join(home, "permissions.json");
/** The user's own instructions for every project. */
export const globalInstructionsPath = (home: string): string => join(home, "AGENTS.md");

// ---------------------------------------------------------------- config.json

/** `autoCompact`: percent of the context window at which a finished turn condenses the history, or false for never. */
export const NOTIFY_MODES = ["auto", "bell", "osc9", "osc777", "off"] as const;
export type NotifyMode = (typeof NOTIFY_MODES)[number];

/** `notify`: how the TUI gets attention when a long turn ends or an approval waits. */
export type ConfigValues = { provider?: string; model?: string; theme?: string; autoCompact?: number | false; notify?: NotifyMode };

export type ConfigRead = { values: ConfigValues; raw: JsonObject; warning?: string };

export function readConfig(home: string): ConfigRead {
  const path = configPath(home);
  const loaded = readJsonObject(path);
  if ("missing" in loaded) return { values: {}, raw: {} };
  if ("error" in loaded) return { values: {}, raw: {}, warning: `Ignoring ${path}: ${loaded.error}; fix or delete the file.` };
  const raw = loaded.value;
  const values: ConfigValues = {};
  if (typeof raw.provider === "string") values.provider = raw.provider;
  if (typeof raw.model === "string") values.model = raw.model;
  if (typeof raw.theme === "string") values.theme = raw.theme;
  const nm = raw.notify;
  if (typeof nm === "string" && (NOTIFY_MODES as readonly string[]).includes(nm)) values.notify = nm as NotifyMode;
  else if (nm !== undefined) return { values, raw, warning: `Ignoring "notify" in ${path}: it must be one of ${NOTIFY_MODES.join(", ")}.` };
  const ac = raw.auto_compact;
  if (ac === false || (typeof ac === "number" && ac > 0 && ac <= 100)) values.autoCompact = ac;
  else if (ac !== undefined)
    return { values, raw, warning: `Ignoring "auto_compact" in ${path}: it must be a percentage of the context window from 1 to 100, or false to turn automatic compaction off.` };
  return { values, raw };
}

/**
 * Merges `patch` into config.json, keeping every key it doesn't mention (other zot versions and the
 * user may keep their own). A key set to null is removed. A file that isn't valid JSON is left alone.
 */
export function updateConfig(home: string, patch: Record<string, Json>): { ok: true } | { ok: false; error: string } {
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
export function rememberModel(home: string, provider: string, model: string): { ok: true } | { ok: false; error: string } {
  return updateConfig(home, { provider, model });
}

// ---------------------------------------------------------------- auth.json

/** auth.json maps a provider to `{"type":"api_key","key":"…"}` (a bare string is accepted on read). */
export type AuthRead = { keys: Record<string, string>; warning?: string };

export function readAuth(home: string): AuthRead {
  const path = authPath(home);
  try {
    const mode = statSync(path).mode & 0o777;
    if ((mode & 0o077) !== 0) {
      return {
        keys: {},
        warning: `Ignoring ${path}: it is readable by other users (mode ${mode.toString(8).padStart(3, "0")}); run \`chmod 600 ${path}\` to use the keys in it.`,
      };
    }
  } catch {
    return { keys: {} };
  }
  const loaded = readJsonObject(path);
  if ("missing" in loaded) return { keys: {} };
  if ("error" in loaded) return { keys: {}, warning: `Ignoring ${path}: ${loaded.error}; fix or delete the file.` };
  const keys: Record<string, string> = {};
  for (const [provider, v] of Object.entries(loaded.value)) {
    if (typeof v === "string" && v !== "") keys[provider] = v;
    else if (typeof v === "object" && v !== null && !Array.isArray(v) && typeof v.key === "string" && v.key !== "") keys[provider] = v.key;
  }
  return { keys };
}

/** Stores a key in auth.json (mode 0600), keeping the other providers' entries. */
export function saveApiKey(home: string, provider: string, key: string): { ok: true; path: string } | { ok: false; error: string } {
  return editAuth(home, (entries) => {
    entries[provider] = { type: "api_key", key };
  });
}

/** Removes a provider's key; `removed` says whether there was one. */
export function removeApiKey(home: string, provider: string): { ok: true; path: string; removed: boolean } | { ok: false; error: string } {
  let removed = false;
  const r = editAuth(home, (entries) => {
    removed = provider in entries;
    delete entries[provider];
  });
  return r.ok ? { ...r, removed } : r;
}

function editAuth(home: string, change: (entries: JsonObject) => void): { ok: true; path: string } | { ok: false; error: string } {
  const path = authPath(home);
  const loaded = readJsonObject(path);
  if ("error" in loaded) return { ok: false, error: `Could not update ${path}: ${loaded.error}; fix or delete the file.` };
  const entries: JsonObject = "missing" in loaded ? {} : { ...loaded.value };
  change(entries);
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    // Always 0600, which also repairs a file that had become readable by others.
    atomicWrite(path, JSON.stringify(entries, null, 2) + "\n", 0o600);
    return { ok: true, path };
  } catch (err) {
    return { ok: false, error: `Could not write ${path} (${message(err)}).` };
  }
}

// ---------------------------------------------------------------- credentials

export type CredentialSource = "flag" | "env" | "auth.json";
export type Credential = { key: string; source: CredentialSource; /** The env var or file it came from. */ from: string };

/** `auth`: auth.json already read by the caller, so one startup reads the file once. */
export type CredentialQuery = { provider: string; home: string; env: Env; apiKey?: string; auth?: AuthRead };

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
export function defaultProvider(q: { home: string; env: Env; apiKey?: string; last?: string; auth?: AuthRead }): ProviderChoice {
  const auth = q.auth ?? readAuth(q.home);
  const usable = (p: string): boolean => !(p in PROVIDER_ENV_KEYS) || resolveCredentials({ provider: p, home: q.home, env: q.env, apiKey: q.apiKey, auth }).credential !== null;
  if (q.last && q.last !== "mock" && usable(q.last)) return { provider: q.last };
  // --api-key alone can't say which provider it belongs to; it counts for the first keyed provider.
  for (const p of KEYED_PROVIDERS) if (usable(p)) return { provider: p };
  return {
    provider: "mock",
    notice: `No API key found, so zot is using the offline mock provider; set ANTHROPIC_API_KEY (or OPENAI_API_KEY, KIMI_API_KEY), pass --api-key with --provider, or add the key to ${authPath(q.home)}.`,
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
 * "Always" approvals per project: `{"projects": {"<project root>": [{"tool": "bash", "prefix": "git status"}, {"tool": "edit"}]}}`.
 * Entries that are not rules are skipped with a warning; other projects' entries are kept on write.
 */
export function readProjectPermissions(home: string, project: string): { rules: PermissionRule[]; warning?: string } {
  const path = permissionsPath(home);
  const loaded = readJsonObject(path);
  if ("missing" in loaded) return { rules: [] };
  if ("error" in loaded) return { rules: [], warning: `Ignoring ${path}: ${loaded.error}; fix or delete the file.` };
  const projects = loaded.value.projects;
  const list = projects && typeof projects === "object" && !Array.isArray(projects) ? projects[project] : undefined;
  if (list === undefined) return { rules: [] };
  if (!Array.isArray(list)) return { rules: [], warning: `Ignoring the rules for ${project} in ${path}: they must be a list.` };
  const rules: PermissionRule[] = [];
  let bad = 0;
  for (const r of list) {
    if (r && typeof r === "object" && !Array.isArray(r) && typeof r.tool === "string" && r.tool !== "" && (r.prefix === undefined || typeof r.prefix === "string")) {
      rules.push(typeof r.prefix === "string" ? { tool: r.tool, prefix: r.prefix } : { tool: r.tool });
    } else bad++;
  }
  return bad > 0 ? { rules, warning: `Skipped ${bad} malformed rule${bad === 1 ? "" : "s"} for ${project} in ${path}; each must be {"tool": name} or {"tool": "bash", "prefix": command}.` } : { rules };
}

export function writeProjectPermissions(home: string, project: string, rules: readonly PermissionRule[]): { ok: true } | { ok: false; error: string } {
  const path = permissionsPath(home);
  const loaded = readJsonObject(path);
  if ("error" in loaded) return { ok: false, error: `Could not update ${path}: ${loaded.error}; fix or delete the file.` };
  const next: JsonObject = "missing" in loaded ? {} : { ...loaded.value };
  const old = next.projects;
  const projects: JsonObject = old && typeof old === "object" && !Array.isArray(old) ? { ...old } : {};
  if (rules.length === 0) delete projects[project];
  else projects[project] = rules.map((r): JsonObject => (r.prefix !== undefined ? { tool: r.tool, prefix: r.prefix } : { tool: r.tool }));
  next.projects = projects;
  return writeJson(home, path, next);
}

// ---------------------------------------------------------------- helpers

/** Writes a JSON file under $ZOT_HOME atomically (creating the directory). */
function writeJson(home: string, path: string, value: JsonObject): { ok: true } | { ok: false; error: string } {
  try {
    mkdirSync(home, { recursive: true });
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
