// extension.json: read, validate, resolve `exec`. Every failure is one sentence naming the manifest
// path and the offending field, so `zot ext doctor` can show it as is.
import type { Result } from "../../result.ts";
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { executableProblem, lookPath } from "../../platform/exec-path.ts";
import { MANIFEST_FILE, MANIFEST_NAME_PATTERN, isManifestName } from "../name-rules.ts";
import { isObject, kind } from "../../json.ts";
import { parsePermissions, type Permissions } from "../sandbox/scope.ts";
import { parseSettingsSchema, type SettingSpec } from "./settings.ts";
import type { Manifest } from "../types.ts";
import { parseWebSocketTarget, type WebSocketTarget } from "../connection/websocket-target.ts";

export { MANIFEST_FILE };

export type ManifestResult =
  | { ok: true; manifest: Manifest }
  /** `name` is set when the manifest had a valid name before the failing field (for display only). */
  | { ok: false; error: string; name: string | null };

export type ManifestOptions = {
  /** Theme-only directories may omit `exec`. */
  allowMissingExec?: boolean;
  /** Environment used for `PATH` lookups of bare `exec` names; default `process.env`. */
  env?: Record<string, string | undefined> | undefined;
  platform?: string;
};

/** Reads and validates `manifestPath`; never throws. */
export function readManifest(manifestPath: string, opts: ManifestOptions = {}): ManifestResult {
  let text: string;
  try {
    text = readFileSync(manifestPath, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "does not exist" : `cannot be read (${code ?? String(e)})`;
    return { ok: false, error: `${manifestPath} ${why}; create an extension.json with at least "name" and "exec".`, name: null };
  }
  return parseManifest(text, manifestPath, opts);
}

/** Validates manifest text; `manifestPath` names it in errors and anchors relative `exec` paths. */
export function parseManifest(text: string, manifestPath: string, opts: ManifestOptions = {}): ManifestResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    return { ok: false, error: `${manifestPath} is not valid JSON (${msg}); fix the syntax.`, name: null };
  }
  if (!isObject(raw)) return { ok: false, error: `${manifestPath} must contain a JSON object, not ${kind(raw)}; wrap the fields in {}.`, name: null };

  const bad = (field: string, problem: string, name: string | null): ManifestResult => ({
    ok: false,
    error: `${manifestPath}: field "${field}" ${problem}; fix "${field}" in the manifest.`,
    name,
  });

  if (raw.name === undefined) return bad("name", "is missing (it is required)", null);
  if (typeof raw.name !== "string") return bad("name", `must be a string, got ${kind(raw.name)}`, null);
  if (!isManifestName(raw.name))
    return bad("name", `is ${JSON.stringify(raw.name)}, which does not match ${MANIFEST_NAME_PATTERN.source} (letters, digits, ".", "_", "-"; up to 64)`, null);
  const name = raw.name;

  const info: Record<"version" | "language" | "description", string | null> = { version: null, language: null, description: null };
  for (const field of ["version", "language", "description"] as const) {
    const v = raw[field];
    if (v === undefined || v === null) continue;
    if (typeof v !== "string") return bad(field, `must be a string, got ${kind(v)}`, name);
    info[field] = v;
  }

  let args: string[] = [];
  if (raw.args !== undefined && raw.args !== null) {
    if (!Array.isArray(raw.args) || raw.args.some((a) => typeof a !== "string")) return bad("args", "must be an array of strings", name);
    args = raw.args as string[];
  }

  let enabled = true;
  if (raw.enabled !== undefined && raw.enabled !== null) {
    if (typeof raw.enabled !== "boolean") return bad("enabled", `must be true or false, got ${kind(raw.enabled)}`, name);
    enabled = raw.enabled;
  }

  let transport: WebSocketTarget | null = null;
  if (raw.transport !== undefined && raw.transport !== null) {
    if (raw.exec !== undefined && raw.exec !== null)
      return bad(
        "transport",
        `and "exec" are both set; an extension is either started by zot ("exec") or reached over a WebSocket ("transport"), so remove one`,
        name,
      );
    if (raw.args !== undefined && raw.args !== null)
      return bad("args", `applies only to "exec"; a WebSocket extension is not started by zot, so remove "args"`, name);
    if (raw.permissions !== undefined && raw.permissions !== null)
      return bad("permissions", `cannot apply to a WebSocket extension: zot cannot sandbox a process it did not start, so remove "permissions"`, name);
    const parsed = parseWebSocketTarget(raw.transport, manifestPath);
    if (!parsed.ok) return { ok: false, error: parsed.error, name };
    transport = parsed.target;
  }

  let exec: string | null = null;
  let embeddedRuntime: "bun" | "node" | undefined;
  if (raw.exec === undefined || raw.exec === null) {
    // A WebSocket extension is reached, not started: it has no exec.
    if (!opts.allowMissingExec && transport === null)
      return bad("exec", `is missing (it is required unless the directory ships theme.json or the manifest has a "transport")`, name);
  } else if (typeof raw.exec !== "string" || raw.exec === "") {
    return bad("exec", `must be a non-empty string, got ${typeof raw.exec === "string" ? "an empty string" : kind(raw.exec)}`, name);
  } else {
    const resolved = resolveExec(raw.exec, dirname(manifestPath), opts.env ?? process.env, opts.platform ?? process.platform);
    // A disabled extension is never started, so an exec that is not there (yet) is no error: users
    // disable broken extensions precisely to keep them from counting as failures.
    if (!resolved.ok && enabled) return bad("exec", resolved.error, name);
    exec = resolved.ok ? resolved.path : raw.exec.includes("/") ? resolve(dirname(manifestPath), raw.exec) : raw.exec;
    if (resolved.ok && resolved.embedded) embeddedRuntime = resolved.embedded;
  }

  let permissions: Permissions | null = null;
  if (raw.permissions !== undefined && raw.permissions !== null) {
    const parsed = parsePermissions(raw.permissions, manifestPath);
    if (!parsed.ok) return { ok: false, error: parsed.error, name };
    permissions = parsed.permissions;
  }

  let settings: SettingSpec[] = [];
  if (raw.settings !== undefined && raw.settings !== null) {
    const parsed = parseSettingsSchema(raw.settings, manifestPath);
    if (!parsed.ok) return { ok: false, error: parsed.error, name };
    settings = parsed.settings;
  }

  return {
    ok: true,
    manifest: {
      name,
      version: info.version,
      exec,
      args,
      transport,
      language: info.language,
      description: info.description,
      enabled,
      permissions,
      settings,
      ...(embeddedRuntime ? { embeddedRuntime } : {}),
    },
  };
}

/** The manifest a theme directory without an extension.json stands for: its name, no program. */
export function themeManifest(name: string): Manifest {
  return { name, version: null, exec: null, args: [], transport: null, language: null, description: null, enabled: true, permissions: null, settings: [] };
}

/**
 * Absolute paths are used as is; paths with a separator are relative to the manifest directory; a
 * bare name is looked up on PATH. `bun` or `node` not found there is zot's own binary, which is
 * Bun and runs the script itself (`embedded`), so TypeScript and JavaScript extensions need neither installed.
 */
export function resolveExec(
  exec: string,
  manifestDir: string,
  env: Record<string, string | undefined> = process.env,
  platform: string = process.platform,
): Result<{ path: string; embedded?: "bun" | "node" }> {
  const hasSep = exec.includes("/") || (platform === "win32" && exec.includes("\\"));
  if (isAbsolute(exec) || hasSep) {
    const path = isAbsolute(exec) ? exec : resolve(manifestDir, exec);
    const problem = executableProblem(path, platform);
    if (problem) return { ok: false, error: `points to ${path}, which ${problem}` };
    return { ok: true, path };
  }
  const found = lookPath(exec, env, platform);
  if (!found && (exec === "bun" || exec === "node")) return { ok: true, path: process.execPath, embedded: exec };
  if (!found) return { ok: false, error: `is ${JSON.stringify(exec)}, which was not found on PATH` };
  return { ok: true, path: found };
}
