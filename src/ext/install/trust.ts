// Workspace trust: the one owner of `$ZOT_HOME/trust.json` and of the rule deciding whether a
// project's code (its extensions, its MCP server lists) may run. A cloned repository is untrusted
// until the user says otherwise; trust is per real path and covers subdirectories. For each trusted
// project the store also keeps a fingerprint of each extension (its whole manifest and every file
// in its directory) and of each project MCP server (its whole entry), so new or changed project
// code has to be approved again — in a trusted folder's subfolder too: trusting a folder approves
// the code it has, never code that appears later.
import type { Result } from "../../result.ts";
import { trustPath } from "../../platform/home.ts";
import { mkdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { atomicWrite } from "../../platform/atomic-write.ts";
import { isAbsolute, join, resolve, sep } from "node:path";
import { isObject, type Json } from "../../json.ts";
import { hashTree } from "./lockfile.ts";
import { MANIFEST_FILE } from "../name-rules.ts";

export const TRUST_FILE = "trust.json";

/** `ZOT_TRUST_PROJECT=1` trusts the project for one run, like `--trust`. */
export const TRUST_ENV = "ZOT_TRUST_PROJECT";

export type TrustEntry = { path: string; trustedAt: string };

/** An extension's code as trust sees it (`codeFiles`): a change to any of it needs the user's approval again. */
export type ExtensionPrint = { name: string; files: Record<string, string> };

/** What a project MCP server would run: its definitions as written (before `${VAR}` expansion, so no secret of the user's environment is hashed). */
export type ServerPrint = { name: string; definition: Json };

/** The two kinds of project code the store keeps fingerprints of. */
type Kind = "extensions" | "servers";

/**
 * What the store keeps of one piece of code: a fingerprint, or for an approved extension the hash
 * of each of its files, so files it adds itself (its data) are no change while edits are.
 */
type Recorded = string | Record<string, string>;

/** Real project path → lower-cased name → what was recorded. */
type PrintSets = Record<string, Record<string, Recorded>>;

type Store = {
  trusted: TrustEntry[];
  /** Per kind, the sets as last approved. */
  approved: Record<Kind, PrintSets>;
  /** Per kind, the sets the user chose to run without: not asked about again. */
  declined: Record<Kind, PrintSets>;
};

/** The keys of trust.json holding each kind's sets; `projects` and `declined` predate MCP prints. */
const STORE_KEYS: Record<Kind, { approved: string; declined: string }> = {
  extensions: { approved: "projects", declined: "declined" },
  servers: { approved: "mcp_servers", declined: "declined_mcp_servers" },
};

const KINDS: Kind[] = ["extensions", "servers"];

type Hashed = { name: string; hash: Recorded };

/**
 * How one run treats project code: `store` asks trust.json; `all` trusts the project for this run
 * (`--trust`, `ZOT_TRUST_PROJECT=1`).
 */
export type TrustMode = "store" | "all";

/** The per-run override, resolved in one place for every caller. */
export function trustMode(flag: boolean, env: Record<string, string | undefined> = process.env): TrustMode {
  return flag || env[TRUST_ENV] === "1" ? "all" : "store";
}

/** The real path of `dir`, or its absolute path when it does not exist (any more). */
export function realDir(dir: string): string {
  const abs = resolve(dir);
  try {
    return realpathSync(abs);
  } catch {
    return abs;
  }
}

function covers(entry: string, dir: string): boolean {
  if (entry === dir) return true;
  return dir.startsWith(entry.endsWith(sep) ? entry : entry + sep);
}

function readStore(home: string): Result<{ store: Store }> {
  const path = trustPath(home);
  let text: string;
  try {
    if (process.platform !== "win32" && (statSync(path).mode & 0o022) !== 0)
      return { ok: false, error: `${path} is writable by other users, so its trust decisions are ignored; run chmod 600 ${path}.` };
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { ok: true, store: emptyStore() };
    return { ok: false, error: `${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)}); fix its permissions or delete it.` };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, error: `${path} is not valid JSON; fix it or delete it (then trust your folders again with zot ext trust).` };
  }
  const broken = { ok: false as const, error: `${path} does not hold a trust list ({"trusted": [...]}); fix it or delete it.` };
  if (!isObject(raw) || !Array.isArray(raw.trusted)) return broken;
  const trusted: TrustEntry[] = [];
  for (const t of raw.trusted) {
    if (!isObject(t) || typeof t.path !== "string" || t.path === "") return broken;
    trusted.push({ path: t.path, trustedAt: typeof t.trusted_at === "string" ? t.trusted_at : "" });
  }
  const store: Store = { trusted, approved: { extensions: {}, servers: {} }, declined: { extensions: {}, servers: {} } };
  for (const kind of KINDS) {
    store.approved[kind] = printSets(raw[STORE_KEYS[kind].approved]);
    store.declined[kind] = printSets(raw[STORE_KEYS[kind].declined]);
  }
  // A store from before MCP prints approved no server of the projects it knows: each one is new
  // there, asked about once, rather than recorded unseen as a never-reviewed subfolder's would be.
  if (!isObject(raw[STORE_KEYS.servers.approved]))
    for (const dir of [...Object.keys(store.approved.extensions), ...trusted.map((t) => t.path)]) store.approved.servers[dir] = {};
  return { ok: true, store };
}

function emptyStore(): Store {
  return { trusted: [], approved: { extensions: {}, servers: {} }, declined: { extensions: {}, servers: {} } };
}

function printSets(raw: unknown): PrintSets {
  const sets: PrintSets = {};
  if (!isObject(raw)) return sets;
  for (const [dir, set] of Object.entries(raw)) {
    if (!isObject(set)) continue;
    const prints: Record<string, Recorded> = {};
    for (const [name, fp] of Object.entries(set)) {
      if (typeof fp === "string") prints[name] = fp;
      else if (isObject(fp)) prints[name] = Object.fromEntries(Object.entries(fp).filter((e): e is [string, string] => typeof e[1] === "string"));
    }
    sets[dir] = prints;
  }
  return sets;
}

function writeStore(home: string, store: Store): Result<{ path: string }> {
  const path = trustPath(home);
  const body: Record<string, unknown> = { trusted: store.trusted.map((t) => ({ path: t.path, trusted_at: t.trustedAt })) };
  for (const kind of KINDS) {
    body[STORE_KEYS[kind].approved] = store.approved[kind];
    body[STORE_KEYS[kind].declined] = store.declined[kind];
  }
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    atomicWrite(path, JSON.stringify(body, null, 2) + "\n", 0o600);
    return { ok: true, path };
  } catch (e) {
    return { ok: false, error: `could not write ${path} (${(e as NodeJS.ErrnoException).code ?? String(e)}); check that ${home} is writable.` };
  }
}

/** The trusted folder that covers `dir` (itself or a parent), or null; a broken store trusts nothing. */
export function trustedBy(home: string, dir: string): string | null {
  const r = readStore(home);
  if (!r.ok) return null;
  const real = realDir(dir);
  return r.store.trusted.find((t) => covers(t.path, real))?.path ?? null;
}

export function isTrusted(home: string, dir: string): boolean {
  return trustedBy(home, dir) !== null;
}

/**
 * Trusts `dir` (which must exist) and everything under it. `prints` and `servers`, when given, are
 * the project's extension set and MCP server set as the user approved them; each replaces the one
 * recorded for `dir`.
 */
export function trustDir(home: string, dir: string, prints?: ExtensionPrint[], servers?: ServerPrint[]): Result<{ path: string; already: boolean }> {
  let real: string;
  try {
    real = realpathSync(resolve(dir));
    if (!statSync(real).isDirectory()) return { ok: false, error: `${dir} is not a directory; pass the project folder to trust.` };
  } catch {
    return { ok: false, error: `${dir} does not exist; pass an existing project folder to trust.` };
  }
  const r = readStore(home);
  if (!r.ok) return r;
  const store = r.store;
  const already = store.trusted.some((t) => covers(t.path, real));
  if (!store.trusted.some((t) => t.path === real)) store.trusted.push({ path: real, trustedAt: new Date().toISOString() });
  if (prints) store.approved.extensions[real] = printSet(prints.map(approvedFiles));
  if (servers) store.approved.servers[real] = printSet(servers.map(hashServer));
  for (const kind of KINDS) delete store.declined[kind][real];
  const w = writeStore(home, store);
  return w.ok ? { ok: true, path: real, already } : w;
}

/** Adds `prints` to what is approved in the trusted folder `dir`, keeping the rest (zot ext sync's installs). */
export function approveExtensions(home: string, dir: string, prints: ExtensionPrint[]): Result<{ path: string }> {
  const real = realDir(dir);
  const r = readStore(home);
  if (!r.ok) return r;
  const set = (r.store.approved.extensions[real] ??= {});
  for (const p of prints.map(approvedFiles)) set[p.name.toLowerCase()] = p.hash;
  const w = writeStore(home, r.store);
  return w.ok ? { ok: true, path: real } : w;
}

/** Removes the trust of `dir` and every approval recorded under it. */
export function untrustDir(home: string, dir: string): Result<{ path: string }> {
  const real = realDir(dir);
  const r = readStore(home);
  if (!r.ok) return r;
  const store = r.store;
  const kept = store.trusted.filter((t) => !covers(real, t.path));
  if (kept.length === store.trusted.length) {
    const parent = store.trusted.find((t) => covers(t.path, real));
    if (parent) return { ok: false, error: `${real} is trusted through ${parent.path}; run zot ext untrust ${parent.path} to remove that trust.` };
    return { ok: false, error: `${real} is not trusted; zot ext trust --list shows the trusted folders.` };
  }
  store.trusted = kept;
  for (const sets of KINDS.flatMap((kind) => [store.approved[kind], store.declined[kind]]))
    for (const p of Object.keys(sets)) if (covers(real, p)) delete sets[p];
  const w = writeStore(home, store);
  return w.ok ? { ok: true, path: real } : w;
}

export function listTrusted(home: string): Result<{ entries: TrustEntry[] }> {
  const r = readStore(home);
  return r.ok ? { ok: true, entries: r.store.trusted } : r;
}

/** One fingerprint over all of an extension's files: what a "run without" choice remembers. */
export function fingerprint(p: ExtensionPrint): string {
  const all = new Bun.CryptoHasher("sha256");
  for (const path of Object.keys(p.files).sort()) all.update(`${path}\0${p.files[path]}\n`);
  return all.digest("hex").slice(0, 32);
}

/**
 * Everything an extension directory would run, file by file: every file's content (hashed as the
 * lockfile hashes them), the manifest as its canonical JSON minus `enabled` (so `zot ext disable`
 * and `enable` ask nothing again), and the file a relative `exec` names outside the directory
 * (`../../run.sh` is code of the same repository). In a git work tree, files git ignores and does
 * not track are left out: they are the extension's data, which no pull brings.
 */
export function codeFiles(dir: string): Record<string, string> {
  let files: Record<string, string>;
  try {
    files = hashTree(dir).files;
  } catch (e) {
    // Unreadable code cannot have been approved: a file no approval holds.
    return { [MANIFEST_FILE]: `unreadable:${(e as NodeJS.ErrnoException).code ?? String(e)}` };
  }
  const listed = gitListed(dir);
  if (listed && listed.size > 0) for (const path of Object.keys(files)) if (path !== MANIFEST_FILE && !listed.has(path)) delete files[path];
  let manifest: Json | null = null;
  try {
    manifest = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), "utf8")) as Json;
  } catch {
    // No readable manifest: its bytes are in `files` as they are.
  }
  if (isObject(manifest)) {
    const { enabled: _enabled, ...rest } = manifest;
    files[MANIFEST_FILE] = new Bun.CryptoHasher("sha256").update(canonical(rest)).digest("hex");
    const exec = manifest.exec;
    if (typeof exec === "string" && exec.includes("/") && !isAbsolute(exec)) {
      const target = resolve(dir, exec);
      if (!target.startsWith(dir + sep)) files[`exec:${exec}`] = fileHash(target);
    }
  }
  return files;
}

/** The files of `dir` git tracks or would add (not ignored), relative to it; null outside a work tree or without git. */
function gitListed(dir: string): Set<string> | null {
  try {
    const p = Bun.spawnSync(["git", "-C", dir, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "."], {
      stdin: "ignore",
      stdout: "pipe",
      stderr: "ignore",
    });
    if (p.exitCode !== 0) return null;
    return new Set(
      p.stdout
        .toString()
        .split("\0")
        .filter((s) => s !== ""),
    );
  } catch {
    return null;
  }
}

function fileHash(path: string): string {
  try {
    return new Bun.CryptoHasher("sha256").update(readFileSync(path)).digest("hex");
  } catch {
    return "missing";
  }
}

/** The hash of a server's definitions with object keys sorted, so reformatting its list changes nothing. */
export function serverFingerprint(p: ServerPrint): string {
  return new Bun.CryptoHasher("sha256")
    .update(canonical([p.name, p.definition]))
    .digest("hex")
    .slice(0, 32);
}

function canonical(v: Json): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k] ?? null)}`)
      .join(",")}}`;
  return JSON.stringify(v);
}

function hashExtension(p: ExtensionPrint): Hashed {
  return { name: p.name, hash: fingerprint(p) };
}

/** An approved extension is kept file by file, each hash cut to 16 hex digits (64 bits: no pull finds a collision). */
function approvedFiles(p: ExtensionPrint): Hashed {
  return {
    name: p.name,
    hash: Object.fromEntries(Object.entries(p.files).map(([path, h]) => [path, h.replace(/^(link:.*|[0-9a-f]{16})[0-9a-f]*(:x)?$/, "$1$2")])),
  };
}

/**
 * Whether what was recorded still holds for `now`: the same fingerprint, or every recorded file
 * unchanged and still there (files added since are the extension's data, as `zot ext verify` sees them).
 */
function holds(was: Recorded | undefined, now: Recorded): boolean {
  if (was === undefined) return false;
  if (typeof was === "string" || typeof now === "string") return was === now;
  return Object.entries(was).every(([path, h]) => Object.hasOwn(now, path) && now[path] === h);
}

function hashServer(p: ServerPrint): Hashed {
  return { name: p.name, hash: serverFingerprint(p) };
}

function printSet(prints: Hashed[]): Record<string, Recorded> {
  const set: Record<string, Recorded> = {};
  for (const p of prints) set[p.name.toLowerCase()] = p.hash;
  return set;
}

/** The fingerprint `set` holds for `name`; own keys only, as an extension may be named "constructor". */
function recordedHash(set: Record<string, Recorded>, name: string): Recorded | undefined {
  const key = name.toLowerCase();
  return Object.hasOwn(set, key) ? set[key] : undefined;
}

/** Records that the user chose to run `dir` without these extensions and MCP servers, so the TUI does not ask again. */
export function declineProject(home: string, dir: string, prints: ExtensionPrint[], servers: ServerPrint[] = []): Result<{ path: string }> {
  const real = realDir(dir);
  const r = readStore(home);
  if (!r.ok) return r;
  // A kind with nothing pending keeps its earlier choice.
  if (prints.length) r.store.declined.extensions[real] = printSet(prints.map(hashExtension));
  if (servers.length) r.store.declined.servers[real] = printSet(servers.map(hashServer));
  const w = writeStore(home, r.store);
  return w.ok ? { ok: true, path: real } : w;
}

/** Whether the user already chose to run `dir` without exactly these extensions and MCP servers. */
export function wasDeclined(home: string, dir: string, prints: ExtensionPrint[], servers: ServerPrint[] = []): boolean {
  const r = readStore(home);
  if (!r.ok) return false;
  const real = realDir(dir);
  const held = (kind: Kind, hashed: Hashed[]): boolean => {
    if (hashed.length === 0) return true;
    const set = r.store.declined[kind][real];
    return set !== undefined && hashed.every((p) => holds(recordedHash(set, p.name), p.hash));
  };
  return held("extensions", prints.map(hashExtension)) && held("servers", servers.map(hashServer));
}

export type Unapproved = { name: string; why: "untrusted" | "new" | "changed" };

/**
 * The verdict on one project's extensions (or MCP servers) for one run. `approved` names (lower-cased) may run;
 * `unapproved` must not. `warning` carries a broken store's sentence.
 */
export type ProjectReview = {
  approved: Set<string>;
  unapproved: Unapproved[];
  /** The folder whose trust applies (null when untrusted or trusted only for this run). */
  trustedBy: string | null;
  warning: string | null;
};

/**
 * Decides which of `prints` (the extensions found in `cwd`'s project root) may run. In a trusted
 * folder whose set was never recorded (a subfolder of a trusted folder, which a pull can fill with
 * code), every extension is new: trusting a folder approved what the user was shown, not what
 * appears under it later.
 */
export function reviewProject(home: string, cwd: string, prints: ExtensionPrint[], mode: TrustMode): ProjectReview {
  return review(home, cwd, "extensions", prints.map(approvedFiles), mode);
}

/** The same review for the MCP servers of `cwd`'s project lists (`.zot/mcp.json`, `.mcp.json`). */
export function reviewServers(home: string, cwd: string, servers: ServerPrint[], mode: TrustMode): ProjectReview {
  return review(home, cwd, "servers", servers.map(hashServer), mode);
}

function review(home: string, cwd: string, kind: Kind, prints: Hashed[], mode: TrustMode): ProjectReview {
  const all = new Set(prints.map((p) => p.name.toLowerCase()));
  if (mode === "all") return { approved: all, unapproved: [], trustedBy: null, warning: null };
  const refuseAll = (warning: string | null): ProjectReview => ({
    approved: new Set(),
    unapproved: prints.map((p) => ({ name: p.name, why: "untrusted" })),
    trustedBy: null,
    warning,
  });
  if (prints.length === 0) return refuseAll(null);
  const r = readStore(home);
  if (!r.ok) return refuseAll(r.error);
  const real = realDir(cwd);
  const by = r.store.trusted.find((t) => covers(t.path, real))?.path ?? null;
  if (by === null) return refuseAll(null);
  const recorded = r.store.approved[kind][real] ?? {};
  const approved = new Set<string>();
  const unapproved: Unapproved[] = [];
  for (const p of prints) {
    const was = recordedHash(recorded, p.name);
    if (holds(was, p.hash)) approved.add(p.name.toLowerCase());
    else unapproved.push({ name: p.name, why: was === undefined ? "new" : "changed" });
  }
  return { approved, unapproved, trustedBy: by, warning: null };
}

/** Where a notice of skipped project code sends the user: the TUI has /trust, other modes the CLI. */
export type TrustFix = "cli" | "tui";

/** The project extensions a load report says workspace trust kept from running, and why. */
export function skippedExtensions(states: readonly { name: string; status: string; untrusted?: Unapproved["why"] }[]): Unapproved[] {
  return states.flatMap((s) => (s.status === "untrusted" ? [{ name: s.name, why: s.untrusted ?? "untrusted" }] : []));
}

/**
 * The warning line for project code a run skipped, without a word about the store (no file is read).
 * `since`: the trusted folder the code is new or changed against (a parent of `cwd` for a subfolder).
 */
export function skippedLine(cwd: string, what: string, skipped: Unapproved[], fix: TrustFix, since: string = cwd): string | null {
  if (skipped.length === 0) return null;
  const untrusted = skipped.filter((s) => s.why === "untrusted").map((s) => s.name);
  const changed = skipped.filter((s) => s.why !== "untrusted").map((s) => `${s.name} (${s.why})`);
  const parts: string[] = [];
  if (untrusted.length) parts.push(`skipped the project ${what} of the untrusted folder ${cwd}: ${untrusted.join(", ")}`);
  if (changed.length) parts.push(`skipped project ${what} new or changed since ${since} was trusted: ${changed.join(", ")}`);
  const remedy = fix === "tui" ? "type /trust to review them and let them run" : `run zot ext trust ${cwd} to let them run (or --trust for one run)`;
  return `${parts.join("; ")}; ${remedy}.`;
}

/**
 * The one warning line for project code a run skipped (headless modes print it; the TUI shows it).
 * `what` names the kind of code ("extensions", "MCP servers").
 */
export function skippedNotice(home: string, cwd: string, what: string, skipped: Unapproved[], fix: TrustFix = "cli"): string | null {
  const store = readStore(home);
  const real = realDir(cwd);
  const by = store.ok ? store.store.trusted.find((t) => covers(t.path, real))?.path : undefined;
  const line = skippedLine(cwd, what, skipped, fix, by ?? cwd);
  if (line === null) return null;
  // A damaged store trusts nothing; say so, or "untrusted" would puzzle someone who trusted the folder.
  return store.ok ? line : `${line} ${store.error}`;
}
