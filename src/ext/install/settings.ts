// Extension settings handled by the host: the schema a manifest declares (`settings`), the values
// the user set (`$ZOT_HOME/extension-settings/<name>.json`, 0600), and what reaches the extension
// (`hello_ack.settings`, `settings_changed`). Secrets are stored like provider keys and masked.
import type { Result } from "../../result.ts";
import { settingsDir } from "../../platform/home.ts";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { atomicWrite } from "../../platform/atomic-write.ts";
import { join } from "node:path";
import { isObject, kind, type Json, type JsonObject } from "../../json.ts";

export type SettingType = "string" | "number" | "boolean" | "enum" | "secret";
export const SETTING_TYPES: readonly SettingType[] = ["string", "number", "boolean", "enum", "secret"];

export type SettingSpec = {
  name: string;
  type: SettingType;
  description: string;
  default: Json | undefined;
  required: boolean;
  /** The choices of an `enum`. */
  values: string[];
};

export type SchemaResult = Result<{ settings: SettingSpec[] }>;

const SETTING_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;

/** Decodes the manifest's `settings` array; `where` names the manifest in errors. */
export function parseSettingsSchema(raw: unknown, where: string): SchemaResult {
  const bad = (field: string, problem: string): SchemaResult => ({ ok: false, error: `${where}: field "${field}" ${problem}; fix it in the manifest.` });
  if (!Array.isArray(raw)) return bad("settings", `must be an array of {name, type, description}, got ${kind(raw)}`);
  const out: SettingSpec[] = [];
  for (const [i, s] of raw.entries()) {
    const at = `settings[${i}]`;
    if (!isObject(s)) return bad(at, `must be an object, got ${kind(s)}`);
    if (typeof s.name !== "string" || !SETTING_NAME.test(s.name))
      return bad(`${at}.name`, `must be a name of letters, digits, "_", "." or "-", got ${JSON.stringify(s.name ?? null)}`);
    if (out.some((o) => o.name === s.name)) return bad(`${at}.name`, `repeats the setting "${s.name}"`);
    if (typeof s.type !== "string" || !(SETTING_TYPES as readonly string[]).includes(s.type))
      return bad(`${at}.type`, `must be one of ${SETTING_TYPES.join(", ")}, got ${JSON.stringify(s.type ?? null)}`);
    const type = s.type as SettingType;
    if (s.description !== undefined && typeof s.description !== "string") return bad(`${at}.description`, `must be a string, got ${kind(s.description)}`);
    if (s.required !== undefined && typeof s.required !== "boolean") return bad(`${at}.required`, `must be true or false, got ${kind(s.required)}`);
    let values: string[] = [];
    if (type === "enum") {
      if (!Array.isArray(s.values) || s.values.length === 0 || s.values.some((v) => typeof v !== "string"))
        return bad(`${at}.values`, "must be a non-empty array of strings for an enum");
      values = s.values as string[];
    } else if (s.values !== undefined) return bad(`${at}.values`, `is only for "enum" settings`);
    const spec: SettingSpec = { name: s.name, type, description: s.description ?? "", default: undefined, required: s.required ?? false, values };
    if (s.default !== undefined) {
      if (type === "secret") return bad(`${at}.default`, "is not allowed for a secret (a manifest is not a place for one)");
      const problem = valueProblem(spec, s.default);
      if (problem) return bad(`${at}.default`, problem);
      spec.default = s.default;
    }
    out.push(spec);
  }
  return { ok: true, settings: out };
}

function valueProblem(spec: SettingSpec, v: Json): string | null {
  switch (spec.type) {
    case "string":
    case "secret":
      return typeof v === "string" ? null : `must be a string, got ${kind(v)}`;
    case "number":
      return typeof v === "number" && Number.isFinite(v) ? null : `must be a number, got ${kind(v)}`;
    case "boolean":
      return typeof v === "boolean" ? null : `must be true or false, got ${kind(v)}`;
    case "enum":
      return typeof v === "string" && spec.values.includes(v) ? null : `must be one of ${spec.values.join(", ")}, got ${JSON.stringify(v)}`;
  }
}

/** A value typed on the command line (`key=value`) as the setting's JSON type. */
export function parseSettingValue(spec: SettingSpec, text: string): Result<{ value: Json }> {
  let value: Json = text;
  if (spec.type === "number") {
    const n = Number(text);
    if (text.trim() === "" || !Number.isFinite(n)) return { ok: false, error: `"${spec.name}" is a number; "${text}" is not one` };
    value = n;
  } else if (spec.type === "boolean") {
    if (!["true", "false", "yes", "no", "on", "off", "1", "0"].includes(text.toLowerCase()))
      return { ok: false, error: `"${spec.name}" is true or false; "${text}" is neither` };
    value = ["true", "yes", "on", "1"].includes(text.toLowerCase());
  }
  const problem = valueProblem(spec, value);
  return problem ? { ok: false, error: `"${spec.name}" ${problem}` } : { ok: true, value };
}

// ---------------------------------------------------------------- the store

export type Stored = { values: JsonObject; secrets: string[] };

export function settingsFile(home: string, extension: string): string {
  return join(settingsDir(home), `${extension.toLowerCase()}.json`);
}

/** The values the user set; a missing file is none, a damaged one is an error naming it. */
export function readStored(home: string, extension: string): Result<{ stored: Stored }> {
  const path = settingsFile(home, extension);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return { ok: true, stored: { values: {}, secrets: [] } };
  }
  try {
    const raw: unknown = JSON.parse(text);
    if (!isObject(raw) || !isObject(raw.values)) throw new Error('not an object with "values"');
    const secrets = Array.isArray(raw.secrets) ? raw.secrets.filter((s): s is string => typeof s === "string") : [];
    return { ok: true, stored: { values: raw.values, secrets } };
  } catch (e) {
    return {
      ok: false,
      error: `${path} is damaged (${e instanceof Error ? e.message : String(e)}); fix it or delete it and set the values again with zot ext config ${extension}.`,
    };
  }
}

/** Writes the values atomically, readable only by the user; `secrets` names the values to mask. */
export function writeStored(home: string, extension: string, stored: Stored): Result<{ path: string }> {
  const path = settingsFile(home, extension);
  try {
    mkdirSync(settingsDir(home), { recursive: true, mode: 0o700 });
    atomicWrite(path, JSON.stringify(stored, null, 2) + "\n", 0o600);
    return { ok: true, path };
  } catch (e) {
    return { ok: false, error: `could not write ${path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}` };
  }
}

/** What the extension gets: each declared setting's value or default; stored keys it no longer declares are left out. */
export function effectiveSettings(specs: SettingSpec[], stored: Stored): { values: JsonObject; missing: string[] } {
  const values: JsonObject = {};
  const missing: string[] = [];
  for (const spec of specs) {
    const v = stored.values[spec.name];
    if (v !== undefined && valueProblem(spec, v) === null) values[spec.name] = v;
    else if (spec.default !== undefined) values[spec.name] = spec.default;
    else if (spec.required) missing.push(spec.name);
  }
  return { values, missing };
}

/** The values of the secret settings among `values` (what `hello_ack` or `settings_changed` hands over), for the mask. */
export function secretValues(specs: readonly SettingSpec[], values: JsonObject | null | undefined): string[] {
  if (!values) return [];
  return specs.flatMap((s) => {
    const v = values[s.name];
    return s.type === "secret" && typeof v === "string" && v !== "" ? [v] : [];
  });
}

/** Every stored secret value under `home`, for the mask that keeps them out of logs and transcripts. */
export function storedSecretValues(home: string): string[] {
  const out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(settingsDir(home));
  } catch {
    return out;
  }
  for (const file of names) {
    if (!file.endsWith(".json")) continue;
    const read = readStored(home, file.slice(0, -5));
    if (!read.ok) continue;
    for (const key of read.stored.secrets) {
      const v = read.stored.values[key];
      if (typeof v === "string" && v !== "") out.push(v);
    }
  }
  return out;
}

/** One line telling the user how to set what is missing. */
export function needsConfigError(extension: string, missing: string[]): string {
  const args = missing.map((m) => `${m}=VALUE`).join(" ");
  return `extension "${extension}" needs ${missing.length === 1 ? "the setting" : "the settings"} ${missing.map((m) => `"${m}"`).join(", ")}; run zot ext config ${extension} ${args}`;
}

/**
 * `stored` with `set` (key → text as typed) and `unset` applied, checked against the declared
 * settings; the secrets list is recomputed. Nothing changes unless every entry is valid.
 */
export function changeSettings(extension: string, specs: SettingSpec[], stored: Stored, set: [string, string][], unset: string[]): Result<{ stored: Stored }> {
  const known = specs.map((s) => s.name).join(", ");
  const values: JsonObject = { ...stored.values };
  const spec = (key: string) => specs.find((s) => s.name === key);
  for (const key of unset) {
    if (!spec(key)) return { ok: false, error: `extension "${extension}" has no setting "${key}" (its settings: ${known})` };
    delete values[key];
  }
  for (const [key, text] of set) {
    const s = spec(key);
    if (!s) return { ok: false, error: `extension "${extension}" has no setting "${key}" (its settings: ${known})` };
    const parsed = parseSettingValue(s, text);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    values[key] = parsed.value;
  }
  const secrets = specs.filter((s) => s.type === "secret" && values[s.name] !== undefined).map((s) => s.name);
  return { ok: true, stored: { values, secrets } };
}
