// The user's policy over extension permissions (config.json "extensions"): whether extensions that
// declare no scope may run, and per-extension scopes that replace what a manifest declares.
import type { Result } from "../../result.ts";
import { readFileSync } from "node:fs";
import { parsePermissions, type Permissions } from "./scope.ts";
import { isObject, kind } from "../../json.ts";

export type UnrestrictedRule = "allow" | "warn" | "deny";
export const UNRESTRICTED_RULES: readonly UnrestrictedRule[] = ["allow", "warn", "deny"];

export type ExtensionPolicy = {
  unrestricted: UnrestrictedRule;
  /** By extension name: the scope to use instead of the manifest's; null runs it unrestricted. */
  permissions: Map<string, Permissions | null>;
};

export const DEFAULT_POLICY: ExtensionPolicy = { unrestricted: "allow", permissions: new Map() };

/** Decodes config.json's "extensions" value; a bad entry is a warning and is left out, never fatal. */
export function parseExtensionPolicy(raw: unknown, where: string): { policy: ExtensionPolicy; warnings: string[] } {
  const warnings: string[] = [];
  const policy: ExtensionPolicy = { unrestricted: "allow", permissions: new Map() };
  if (raw === undefined || raw === null) return { policy, warnings };
  if (!isObject(raw)) return { policy, warnings: [`${where}: "extensions" must be an object, got ${kind(raw)}; it is ignored.`] };
  const rule = raw.unrestricted;
  if (rule !== undefined) {
    if (typeof rule === "string" && (UNRESTRICTED_RULES as readonly string[]).includes(rule)) policy.unrestricted = rule as UnrestrictedRule;
    else warnings.push(`${where}: "extensions.unrestricted" must be one of ${UNRESTRICTED_RULES.join(", ")}, got ${JSON.stringify(rule)}; using "allow".`);
  }
  const scopes = raw.permissions;
  if (scopes !== undefined) {
    if (!isObject(scopes)) warnings.push(`${where}: "extensions.permissions" must map extension names to scopes, got ${kind(scopes)}; it is ignored.`);
    else
      for (const [name, scope] of Object.entries(scopes)) {
        if (scope === "unrestricted") {
          policy.permissions.set(name.toLowerCase(), null);
          continue;
        }
        const parsed = parsePermissions(scope, `${where} "extensions.permissions.${name}"`);
        if (parsed.ok) policy.permissions.set(name.toLowerCase(), parsed.permissions);
        else warnings.push(`${parsed.error.replace(/; fix it in the manifest\.$/, "")}; the override is ignored.`);
      }
  }
  return { policy, warnings };
}

export type Scope = Result<{ permissions: Permissions | null; overridden: boolean; warning: string | null }>;

/** The scope an extension runs with under `policy`, or why it may not run at all. */
export function effectiveScope(m: { name: string; permissions: Permissions | null; transport?: unknown }, policy: ExtensionPolicy): Scope {
  const key = m.name.toLowerCase();
  const overridden = policy.permissions.has(key);
  const permissions = overridden ? (policy.permissions.get(key) ?? null) : m.permissions;
  if (permissions === null && !overridden) {
    if (policy.unrestricted === "deny" && m.transport)
      return {
        ok: false,
        error: `extension "${m.name}" runs outside zot (WebSocket), so zot cannot restrict it, and config.json has "extensions": {"unrestricted": "deny"}; to allow it anyway, set config.json "extensions.permissions.${m.name}" to "unrestricted".`,
      };
    if (policy.unrestricted === "deny")
      return {
        ok: false,
        error: `extension "${m.name}" declares no permissions and config.json has "extensions": {"unrestricted": "deny"}; ask its author to declare "permissions", or grant a scope in config.json "extensions.permissions.${m.name}".`,
      };
    if (policy.unrestricted === "warn")
      return { ok: true, permissions, overridden, warning: `extension "${m.name}" declares no permissions, so it runs with your full privileges` };
  }
  return { ok: true, permissions, overridden, warning: null };
}

/** The policy in `$ZOT_HOME/config.json`, read for the `zot ext` commands (the agent passes its own). */
export function readExtensionPolicy(configFile: string): { policy: ExtensionPolicy; warnings: string[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(configFile, "utf8"));
  } catch {
    // A missing or broken config.json is reported by the agent's own start-up; here it means no policy.
    return { policy: DEFAULT_POLICY, warnings: [] };
  }
  return parseExtensionPolicy(isObject(raw) ? raw.extensions : undefined, configFile);
}
