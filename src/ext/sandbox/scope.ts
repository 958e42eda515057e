// An extension's declared permission scope (manifest `permissions`): decoded and validated at
// discovery, placeholders expanded just before launch. The one definition of the declaration;
// the sandbox turns it into kernel rules, doctor shows it, the lockfile records it.
import type { Result } from "../../result.ts";
import { isAbsolute, normalize, posix, resolve, sep } from "node:path";
import { isObject, kind } from "../../json.ts";
import { POWERS, type Power } from "../../protocol.ts";

/** A `net.connect` entry: a port, optionally with the host the author meant (hosts are not enforceable). */
export type NetTarget = { host: string | null; port: number };

export type Permissions = {
  fs: { read: string[]; write: string[] };
  /** false: no TCP at all; true: unrestricted; a list: outgoing TCP to these ports only. */
  net: boolean | { connect: NetTarget[] };
  /** Environment variables passed through beyond the minimal set. */
  env: string[];
  /** May the extension start other programs? */
  exec: boolean;
  /** What it may make zot do for it (powers.ts); none unless declared. */
  powers: Power[];
};

/** What every absent field means: the least privilege, so a declaration only ever widens. */
export const DEFAULT_PERMISSIONS: Permissions = { fs: { read: [], write: [] }, net: false, env: [], exec: false, powers: [] };

export const PLACEHOLDERS = ["$EXTENSION_DIR", "$CWD", "$ZOT_HOME", "$TMP"] as const;
export type PlaceholderValues = { extensionDir: string; cwd: string; home: string; tmp: string };

export type PermissionsResult = Result<{ permissions: Permissions }>;

const KNOWN_FIELDS = ["fs", "net", "env", "exec", "powers"];

/** Decodes `raw` (the manifest's `permissions` value); `where` names the manifest in errors. */
export function parsePermissions(raw: unknown, where: string): PermissionsResult {
  const bad = (field: string, problem: string): PermissionsResult => ({
    ok: false,
    error: `${where}: field "permissions.${field}" ${problem}; fix it in the manifest.`,
  });
  if (!isObject(raw)) return { ok: false, error: `${where}: field "permissions" must be an object, got ${kind(raw)}; fix it in the manifest.` };
  for (const key of Object.keys(raw)) {
    if (!KNOWN_FIELDS.includes(key)) return bad(key, `is not a known permission (known: ${KNOWN_FIELDS.join(", ")})`);
  }
  const out: Permissions = { fs: { read: [], write: [] }, net: false, env: [], exec: false, powers: [] };

  if (raw.fs !== undefined) {
    if (!isObject(raw.fs)) return bad("fs", `must be an object with "read" and/or "write", got ${kind(raw.fs)}`);
    for (const key of Object.keys(raw.fs)) if (key !== "read" && key !== "write") return bad(`fs.${key}`, `is not known (use "read" or "write")`);
    for (const mode of ["read", "write"] as const) {
      const list = raw.fs[mode];
      if (list === undefined) continue;
      if (!Array.isArray(list)) return bad(`fs.${mode}`, `must be an array of paths, got ${kind(list)}`);
      for (const [i, p] of list.entries()) {
        const path = declaredPath(p);
        if (!path.ok) return bad(`fs.${mode}[${i}]`, path.problem);
        out.fs[mode].push(path.path);
      }
    }
  }

  if (raw.net !== undefined) {
    if (typeof raw.net === "boolean") out.net = raw.net;
    else if (isObject(raw.net)) {
      for (const key of Object.keys(raw.net)) if (key !== "connect") return bad(`net.${key}`, `is not known (use "connect")`);
      const list = raw.net.connect;
      if (!Array.isArray(list)) return bad("net.connect", `must be an array of "host:port" or ":port" strings, got ${kind(list)}`);
      const targets: NetTarget[] = [];
      for (const [i, t] of list.entries()) {
        const parsed = typeof t === "string" ? parseTarget(t) : null;
        if (!parsed) return bad(`net.connect[${i}]`, `is ${JSON.stringify(t)}, which is not "host:port" or ":port" with a port from 1 to 65535`);
        targets.push(parsed);
      }
      out.net = { connect: targets };
    } else return bad("net", `must be true, false or {"connect": [...]}, got ${kind(raw.net)}`);
  }

  if (raw.env !== undefined) {
    if (!Array.isArray(raw.env)) return bad("env", `must be an array of variable names, got ${kind(raw.env)}`);
    for (const [i, name] of raw.env.entries()) {
      if (typeof name !== "string" || !isEnvName(name)) return bad(`env[${i}]`, `is ${JSON.stringify(name)}, which is not an environment variable name`);
      out.env.push(name);
    }
  }

  if (raw.exec !== undefined) {
    if (typeof raw.exec !== "boolean") return bad("exec", `must be true or false, got ${kind(raw.exec)}`);
    out.exec = raw.exec;
  }

  if (raw.powers !== undefined) {
    if (!Array.isArray(raw.powers)) return bad("powers", `must be an array of power names (${POWERS.join(", ")}), got ${kind(raw.powers)}`);
    for (const [i, name] of raw.powers.entries()) {
      const power = POWERS.find((p) => p === name);
      if (!power) return bad(`powers[${i}]`, `is ${JSON.stringify(name)}, which is not a power (known: ${POWERS.join(", ")})`);
      if (!out.powers.includes(power)) out.powers.push(power);
    }
  }
  return { ok: true, permissions: out };
}

/**
 * A declared path in its normal form (`$EXTENSION_DIR/./a/../b` → `$EXTENSION_DIR/b`), so what consent,
 * doctor and the lockfile show is what is granted. A placeholder path may not climb out of its
 * placeholder: `$EXTENSION_DIR/../..` would name `$ZOT_HOME` while reading as the extension's own.
 */
function declaredPath(p: unknown): { ok: true; path: string } | { ok: false; problem: string } {
  const no = (problem: string) => ({ ok: false as const, problem });
  if (typeof p !== "string" || p === "") return no(`must be a non-empty string, got ${typeof p === "string" ? "an empty string" : kind(p)}`);
  if (p.startsWith("$")) {
    const placeholder = PLACEHOLDERS.find((ph) => p === ph || p.startsWith(ph + "/"));
    if (!placeholder) return no(`is ${JSON.stringify(p)}, which starts with an unknown placeholder (known: ${PLACEHOLDERS.join(", ")})`);
    const rest = posix.normalize(p.slice(placeholder.length + 1).replace(/^\/+/, "") || ".");
    if (rest === ".." || rest.startsWith("../"))
      return no(`is ${JSON.stringify(p)}, which climbs out of ${placeholder}; name a path inside ${placeholder}, or an absolute path`);
    return { ok: true, path: rest === "." ? placeholder : `${placeholder}/${rest.replace(/\/$/, "")}` };
  }
  if (p.startsWith("~")) return no(`is ${JSON.stringify(p)}; "~" is not expanded, write an absolute path or use a placeholder (${PLACEHOLDERS.join(", ")})`);
  if (!isAbsolute(p)) return no(`is ${JSON.stringify(p)}, which is relative; start it with "/" or a placeholder (${PLACEHOLDERS.join(", ")})`);
  const normal = normalize(p);
  return { ok: true, path: normal.length > 1 && normal.endsWith(sep) ? normal.slice(0, -1) : normal };
}

function parseTarget(t: string): NetTarget | null {
  const colon = t.lastIndexOf(":");
  if (colon < 0) return null;
  const host = t.slice(0, colon);
  const portText = t.slice(colon + 1);
  if (!/^[0-9]{1,5}$/.test(portText)) return null;
  const port = Number(portText);
  if (port < 1 || port > 65535) return null;
  if (host.includes(" ")) return null;
  return { host: host === "" ? null : host, port };
}

function isEnvName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
}

/** The declaration with every placeholder replaced by an absolute path. */
export function expandPermissions(p: Permissions, at: PlaceholderValues): Permissions {
  const values: Record<(typeof PLACEHOLDERS)[number], string> = {
    $EXTENSION_DIR: at.extensionDir,
    $CWD: at.cwd,
    $ZOT_HOME: at.home,
    $TMP: at.tmp,
  };
  const expand = (path: string): string => {
    for (const ph of PLACEHOLDERS) {
      if (path === ph) return resolve(values[ph]);
      if (path.startsWith(ph + "/")) return resolve(values[ph], path.slice(ph.length + 1));
    }
    return resolve(path);
  };
  return { ...p, fs: { read: p.fs.read.map(expand), write: p.fs.write.map(expand) } };
}

/** `powers` only when some are declared: a scope from before powers reads (and hashes) as it always did. */
export type PermissionsJson = { fs: { read: string[]; write: string[] }; net: boolean | { connect: string[] }; env: string[]; exec: boolean; powers?: Power[] };

/** The declaration as it is written in a manifest (for doctor, list and the lockfile). */
export function permissionsJson(p: Permissions): PermissionsJson {
  const net = typeof p.net === "boolean" ? p.net : { connect: p.net.connect.map((t) => `${t.host ?? ""}:${t.port}`) };
  const out: PermissionsJson = { fs: { read: [...p.fs.read], write: [...p.fs.write] }, net, env: [...p.env], exec: p.exec };
  if (p.powers.length > 0) out.powers = [...p.powers];
  return out;
}

/** One line for doctor and logs: `fs read: …; fs write: …; net: …; env: …; exec: …; powers: …`. */
export function describePermissions(j: PermissionsJson): string {
  const list = (xs: string[]) => (xs.length === 0 ? "none" : xs.join(", "));
  const net = j.net === true ? "any" : j.net === false ? "none" : `connect ${j.net.connect.join(", ")}`;
  return `fs read: ${list(j.fs.read)}; fs write: ${list(j.fs.write)}; net: ${net}; env: ${list(j.env)}; exec: ${j.exec ? "yes" : "no"}; powers: ${list(j.powers ?? [])}`;
}
