// extensions.lock.json: what `zot ext install` put in an extensions root and where it came from, so
// an install can be reproduced (`zot ext sync`), updated and rolled back, and checked for changes
// made behind zot's back (`zot ext verify`). One lockfile per root: `$ZOT_HOME/extensions.lock.json`
// for the user's extensions, `<project>/.zot/extensions.lock.json` for a project's (commit it).
import type { Result } from "../../result.ts";
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { atomicWrite } from "../../platform/atomic-write.ts";
import { dirname, join, relative, sep } from "node:path";
import { parsePermissions, permissionsJson, type Permissions, type PermissionsJson } from "../sandbox/scope.ts";
import { POWER_WORDS } from "../powers.ts";
import { isObject, type Json } from "../../json.ts";
import type { SettingSpec } from "./settings.ts";

export const LOCK_VERSION = 1;
export const LOCK_FILE = "extensions.lock.json";

export type LockSource = { type: "path"; path: string } | { type: "git"; url: string; ref: string | null; commit: string };

export type LockEntry = {
  source: LockSource;
  version: string | null;
  /** sha256 over the installed tree (paths, kinds and contents; `.git` left out). */
  hash: string;
  /** sha256 of each file, by path relative to the extension directory. */
  files: Record<string, string>;
  permissions: PermissionsJson | null;
  settings: { name: string; type: string; required: boolean }[];
  installed_at: string;
};

export type Lock = { version: number; extensions: Record<string, LockEntry> };

/** The lockfile of an extensions root (`…/extensions` → `…/extensions.lock.json`). */
export function lockPathFor(root: string): string {
  return join(dirname(root), LOCK_FILE);
}

export function readLock(path: string): Result<{ lock: Lock }> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return { ok: true, lock: { version: LOCK_VERSION, extensions: {} } };
  }
  try {
    const raw: unknown = JSON.parse(text);
    if (!isObject(raw) || !isObject(raw.extensions)) throw new Error('it has no "extensions" object');
    const extensions: Record<string, LockEntry> = {};
    for (const [name, e] of Object.entries(raw.extensions)) {
      const entry = decodeEntry(e);
      if (!entry) throw new Error(`the entry "${name}" is not a lock entry`);
      extensions[name] = entry;
    }
    return { ok: true, lock: { version: typeof raw.version === "number" ? raw.version : LOCK_VERSION, extensions } };
  } catch (e) {
    return {
      ok: false,
      error: `${path} is damaged (${e instanceof Error ? e.message : String(e)}); restore it from version control or delete it and reinstall.`,
    };
  }
}

function decodeEntry(e: Json): LockEntry | null {
  if (!isObject(e) || !isObject(e.source) || typeof e.hash !== "string" || !isObject(e.files)) return null;
  const s = e.source;
  let source: LockSource;
  if (s.type === "path" && typeof s.path === "string") source = { type: "path", path: s.path };
  else if (s.type === "git" && typeof s.url === "string" && typeof s.commit === "string")
    source = { type: "git", url: s.url, ref: typeof s.ref === "string" ? s.ref : null, commit: s.commit };
  else return null;
  const files: Record<string, string> = {};
  for (const [p, h] of Object.entries(e.files)) if (typeof h === "string") files[p] = h;
  return {
    source,
    version: typeof e.version === "string" ? e.version : null,
    hash: e.hash,
    files,
    permissions: lockedPermissions(e.permissions),
    settings: Array.isArray(e.settings) ? e.settings.flatMap(lockedSetting) : [],
    installed_at: typeof e.installed_at === "string" ? e.installed_at : "",
  };
}

/** A recorded scope, decoded by the manifest's own rules; an entry that fails them counts as none. */
function lockedPermissions(v: Json | undefined): PermissionsJson | null {
  if (!isObject(v)) return null;
  const parsed = parsePermissions(v, "the lockfile");
  return parsed.ok ? permissionsJson(parsed.permissions) : null;
}

function lockedSetting(v: Json): LockEntry["settings"] {
  if (!isObject(v) || typeof v.name !== "string" || typeof v.type !== "string") return [];
  return [{ name: v.name, type: v.type, required: v.required === true }];
}

export function writeLock(path: string, lock: Lock): Result {
  const sorted: Record<string, LockEntry> = {};
  for (const name of Object.keys(lock.extensions).sort()) sorted[name] = lock.extensions[name]!;
  try {
    atomicWrite(path, JSON.stringify({ version: LOCK_VERSION, extensions: sorted }, null, 2) + "\n");
    return { ok: true };
  } catch (e) {
    return { ok: false, error: `could not write ${path} (${(e as NodeJS.ErrnoException).code ?? String(e)})` };
  }
}

/** Each file's sha256 under `dir` (symlinks by target), and one digest over all of them. */
export function hashTree(dir: string): { hash: string; files: Record<string, string> } {
  const files: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      if (name === ".git") continue;
      const p = join(d, name);
      const st = lstatSync(p);
      const rel = relative(dir, p).split(sep).join("/");
      if (st.isSymbolicLink()) files[rel] = "link:" + readlinkSync(p);
      else if (st.isDirectory()) walk(p);
      else if (st.isFile()) files[rel] = fileEntry(readFileSync(p), st.mode);
    }
  };
  walk(dir);
  return { hash: treeDigest(files), files };
}

/** A regular file's entry in `files`: its sha256, `:x` when executable. */
function fileEntry(bytes: Uint8Array, mode: number): string {
  return sha256(bytes) + (mode & 0o111 ? ":x" : "");
}

/** The tree digest over `files` in walk order (sorted paths). */
function treeDigest(files: Record<string, string>): string {
  const all = new Bun.CryptoHasher("sha256");
  for (const [p, h] of Object.entries(files)) all.update(`${p}\0${h}\n`);
  return `sha256:${all.digest("hex")}`;
}

/**
 * zot itself rewrote `file` of the locked extension `name` (`zot ext enable`/`disable` edit the
 * manifest): the lock follows, so `verify` does not report zot's own edit as tampering. Only when
 * the file was as locked before the edit; a file already changed behind zot's back stays reported.
 */
export function relockEdit(
  root: string,
  name: string,
  file: string,
  before: Uint8Array,
  after: Uint8Array,
  mode: number,
): { ok: true } | { ok: false; error: string } {
  const path = lockPathFor(root);
  const read = readLock(path);
  if (!read.ok) return read;
  const key = Object.keys(read.lock.extensions).find((k) => k.toLowerCase() === name.toLowerCase());
  const entry = key === undefined ? undefined : read.lock.extensions[key];
  if (!entry || entry.files[file] !== fileEntry(before, mode)) return { ok: true };
  entry.files[file] = fileEntry(after, mode);
  entry.hash = treeDigest(entry.files);
  return writeLock(path, read.lock);
}

/** `zot ext remove` took `name` out of `root`: its lock entry goes too, so `verify` does not miss it. */
export function unlock(root: string, name: string): { ok: true } | { ok: false; error: string } {
  const path = lockPathFor(root);
  const read = readLock(path);
  if (!read.ok) return read;
  const key = Object.keys(read.lock.extensions).find((k) => k.toLowerCase() === name.toLowerCase());
  if (key === undefined) return { ok: true };
  delete read.lock.extensions[key];
  return writeLock(path, read.lock);
}

function sha256(bytes: Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
}

export type TreeChanges = { modified: string[]; removed: string[]; added: string[] };

/** How `dir` differs from what was installed. */
export function treeChanges(entry: LockEntry, dir: string): TreeChanges {
  const now = hashTree(dir).files;
  const modified: string[] = [];
  const removed: string[] = [];
  for (const [p, h] of Object.entries(entry.files)) {
    if (!(p in now)) removed.push(p);
    else if (now[p] !== h) modified.push(p);
  }
  const added = Object.keys(now).filter((p) => !(p in entry.files));
  return { modified, removed, added };
}

export function lockEntry(source: LockSource, version: string | null, dir: string, permissions: Permissions | null, settings: SettingSpec[]): LockEntry {
  const tree = hashTree(dir);
  return {
    source,
    version,
    hash: tree.hash,
    files: tree.files,
    permissions: permissions ? permissionsJson(permissions) : null,
    settings: settings.map((s) => ({ name: s.name, type: s.type, required: s.required })),
    installed_at: new Date().toISOString(),
  };
}

/** What a new scope grants that the old did not (null old: it ran unrestricted; null new: it will). */
export function widening(old: PermissionsJson | null, next: PermissionsJson | null): string[] {
  if (next === null) return old === null ? [] : ["everything: it no longer declares permissions, so it would run with your full privileges"];
  if (old === null) return [];
  const out: string[] = [];
  for (const p of next.fs.read) if (!old.fs.read.includes(p) && !old.fs.write.includes(p)) out.push(`read ${p}`);
  for (const p of next.fs.write) if (!old.fs.write.includes(p)) out.push(`write ${p}`);
  const ports = (n: PermissionsJson["net"]) => (n === true ? null : n === false ? [] : n.connect);
  const oldPorts = ports(old.net);
  const newPorts = ports(next.net);
  if (newPorts === null && oldPorts !== null) out.push("any network connection");
  else if (newPorts !== null && oldPorts !== null) for (const t of newPorts) if (!oldPorts.includes(t)) out.push(`connect to ${t}`);
  for (const e of next.env) if (!old.env.includes(e)) out.push(`the environment variable ${e}`);
  if (next.exec && !old.exec) out.push("starting other programs");
  for (const p of next.powers ?? []) if (!(old.powers ?? []).includes(p)) out.push(POWER_WORDS[p]);
  return out;
}

/** The reverse: what the old scope granted that the new one drops. */
export function narrowing(old: PermissionsJson | null, next: PermissionsJson | null): string[] {
  if (old === null) return next === null ? [] : ["it now declares permissions instead of running with your full privileges"];
  return widening(next, old);
}

/** The declared scope as a short list of grants, for consent prompts. */
export function grants(p: PermissionsJson): string[] {
  return widening({ fs: { read: [], write: [] }, net: false, env: [], exec: false }, p);
}
