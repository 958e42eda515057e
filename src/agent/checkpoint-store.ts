// Where checkpoints live: `$ZOT_HOME/checkpoints/<hash of the workspace>/`, outside the project, so
// the user's own files and git state are never touched. Contents are stored once by their sha256
// (`objects/ab/cdef…`, written through a temp file and a rename); `journal.jsonl` lists, in time
// order, each checkpoint (the manifest of the workspace's files before a prompt), the earlier state
// of files the agent's write/edit touched outside that manifest, and each rewind (what the files
// were just before it, so it can be undone). Pruning drops old entries and the contents nobody names.
import { appendFileSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateDir } from "../platform/home.ts";
import { isObject, type Json, type JsonObject } from "../json.ts";
import { randomHex } from "../random.ts";

/** A file's content and permission bits; `link`: a symbolic link to that target instead. */
export type FileState = { blob: string; mode: number } | { link: string };

/** The workspace's files at one moment, paths relative to its root and `/`-separated. */
export type Manifest = {
  files: Record<string, FileState>;
  /** Present but too large to keep a copy of: a restore leaves them as they are. */
  skipped: string[];
  /** The scan stopped at the file limit: files it did not reach are neither restored nor removed. */
  partial: boolean;
};

/** An absolute path's earlier state: null when it did not exist, "skipped" when too large to copy. */
export type PathState = FileState | null | "skipped";

export type JournalRow =
  | { type: "checkpoint"; id: string; time: number; tree: string }
  | { type: "touch"; id: string; time: number; path: string; state: PathState }
  | { type: "rewind"; time: number; restore: string; tree: string; extras: Record<string, PathState>; session: string | null };

/**
 * Bun's own hasher rather than node:crypto: every run loads this module, and node:crypto's start-up
 * cost (with node:net and node:dns, −3 ms CPU and −2 MiB when they went) is not worth it; the
 * digests are the same.
 */
export function sha256Hex(data: string | Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(data).digest("hex");
}

export class CheckpointStore {
  /** Object directories known to exist, so storing many files does not ask the file system each time. */
  private readonly made = new Set<string>();

  constructor(readonly dir: string) {}

  /** The store of one workspace (an absolute directory) under `root` ($ZOT_HOME/checkpoints). */
  static of(root: string, workspace: string): CheckpointStore {
    return new CheckpointStore(join(root, sha256Hex(workspace).slice(0, 16)));
  }

  private objectPath(hash: string): string {
    return join(this.dir, "objects", hash.slice(0, 2), hash.slice(2));
  }

  /** Stores `bytes` once; returns their hash. */
  put(bytes: Uint8Array): string {
    const hash = sha256Hex(bytes);
    const path = this.objectPath(hash);
    if (existsSync(path)) {
      // A fresh mtime keeps a content that is named again safe from the pruner's grace period.
      touchQuietly(path);
      return hash;
    }
    const prefix = join(this.dir, "objects", hash.slice(0, 2));
    if (!this.made.has(prefix)) this.made.add(ensurePrivateDir(prefix));
    const tmp = `${path}.${randomHex(6)}.tmp`;
    writeFileSync(tmp, bytes, { mode: 0o600 });
    renameSync(tmp, path);
    return hash;
  }

  get(hash: string): Buffer | null {
    try {
      return readFileSync(this.objectPath(hash));
    } catch {
      return null;
    }
  }

  putManifest(m: Manifest): string {
    return this.put(Buffer.from(JSON.stringify(m), "utf8"));
  }

  manifest(hash: string): Manifest | null {
    const bytes = this.get(hash);
    if (!bytes) return null;
    try {
      return decodeManifest(JSON.parse(bytes.toString("utf8")) as Json);
    } catch {
      return null;
    }
  }

  append(row: JournalRow): void {
    ensurePrivateDir(this.dir);
    // One write per row, appended: rows of two zot processes in one workspace never interleave mid-line.
    appendFileSync(this.journalPath(), JSON.stringify(row) + "\n", { mode: 0o600 });
  }

  journalPath(): string {
    return join(this.dir, "journal.jsonl");
  }

  rows(): JournalRow[] {
    return readJournal(this.journalPath()).rows;
  }

  /** The stat cache: what each path's size and mtime hashed to last time, so unchanged files are not read again. */
  readCache(): Map<string, CacheEntry> {
    const out = new Map<string, CacheEntry>();
    try {
      const v = JSON.parse(readFileSync(join(this.dir, "stat-cache.json"), "utf8")) as Json;
      if (!isObject(v)) return out;
      for (const [path, e] of Object.entries(v)) {
        if (Array.isArray(e) && e.length === 4 && e.every((x) => typeof x === "number" || typeof x === "string")) {
          const [size, mtime, ino, blob] = e;
          if (typeof size === "number" && typeof mtime === "number" && typeof ino === "number" && typeof blob === "string")
            out.set(path, { size, mtime, ino, blob });
        }
      }
    } catch {
      // No cache yet, or a damaged one: every file is read once more.
    }
    return out;
  }

  writeCache(cache: Map<string, CacheEntry>): void {
    const obj: Record<string, [number, number, number, string]> = {};
    for (const [path, e] of cache) obj[path] = [e.size, e.mtime, e.ino, e.blob];
    ensurePrivateDir(this.dir);
    const path = join(this.dir, "stat-cache.json");
    const tmp = `${path}.${randomHex(6)}.tmp`;
    writeFileSync(tmp, JSON.stringify(obj), { mode: 0o600 });
    renameSync(tmp, path);
  }
}

export type CacheEntry = { size: number; mtime: number; ino: number; blob: string };

function touchQuietly(path: string): void {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // Only the pruner's grace period depends on it.
  }
}

function decodeState(v: Json | undefined): FileState | null {
  if (!isObject(v)) return null;
  if (typeof v.link === "string") return { link: v.link };
  if (typeof v.blob === "string" && typeof v.mode === "number") return { blob: v.blob, mode: v.mode };
  return null;
}

function decodePathState(v: Json | undefined): PathState | undefined {
  if (v === null) return null;
  if (v === "skipped") return "skipped";
  return decodeState(v) ?? undefined;
}

function decodeManifest(v: Json): Manifest | null {
  if (!isObject(v) || !isObject(v.files) || !Array.isArray(v.skipped)) return null;
  const files: Record<string, FileState> = {};
  for (const [path, s] of Object.entries(v.files)) {
    const state = decodeState(s);
    if (!state) return null;
    files[path] = state;
  }
  return { files, skipped: v.skipped.filter((s): s is string => typeof s === "string"), partial: v.partial === true };
}

function decodeRow(v: JsonObject): JournalRow | null {
  const time = v.time;
  if (typeof time !== "number") return null;
  switch (v.type) {
    case "checkpoint":
      return typeof v.id === "string" && typeof v.tree === "string" ? { type: "checkpoint", id: v.id, time, tree: v.tree } : null;
    case "touch": {
      const state = decodePathState(v.state);
      return typeof v.id === "string" && typeof v.path === "string" && state !== undefined ? { type: "touch", id: v.id, time, path: v.path, state } : null;
    }
    case "rewind": {
      if (typeof v.tree !== "string" || typeof v.restore !== "string" || !isObject(v.extras)) return null;
      const extras: Record<string, PathState> = {};
      for (const [path, s] of Object.entries(v.extras)) {
        const state = decodePathState(s);
        if (state !== undefined) extras[path] = state;
      }
      return { type: "rewind", time, restore: v.restore, tree: v.tree, extras, session: typeof v.session === "string" ? v.session : null };
    }
    default:
      return null;
  }
}

/** The journal's rows; a damaged line (a killed writer) is skipped. `text`: the file as read. */
function readJournal(path: string): { rows: JournalRow[]; text: string } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return { rows: [], text: "" };
  }
  const rows: JournalRow[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const v = JSON.parse(line) as Json;
      const row = isObject(v) ? decodeRow(v) : null;
      if (row) rows.push(row);
    } catch {
      // A cut last line.
    }
  }
  return { rows, text };
}

export type PruneLimits = { keepDays: number; maxBytes: number };
export const DEFAULT_PRUNE: PruneLimits = { keepDays: 30, maxBytes: 1024 * 1024 * 1024 };
/** A content younger than this is never removed: another zot may be about to name it in its journal. */
const GRACE_MS = 60 * 60 * 1000;
const PRUNE_EVERY_MS = 24 * 60 * 60 * 1000;

/**
 * Prunes every workspace's checkpoints under `root` at most once a day (a stamp file says when it
 * last ran): entries older than `keepDays` go, then the oldest until the contents fit in `maxBytes`,
 * then every content no remaining entry names. Returns how many entries were dropped.
 */
export function pruneCheckpoints(root: string, limits: PruneLimits, now = Date.now(), force = false): number {
  const stamp = join(root, "pruned");
  try {
    if (!force && now - statSync(stamp).mtimeMs < PRUNE_EVERY_MS) return 0;
  } catch {
    // Never pruned.
  }
  let workspaces: string[];
  try {
    workspaces = readdirSync(root)
      .filter((n) => /^[0-9a-f]{16}$/.test(n))
      .map((n) => join(root, n));
  } catch {
    return 0;
  }
  ensurePrivateDir(root);
  writeFileSync(stamp, "", { mode: 0o600 });
  type Ws = { dir: string; rows: JournalRow[]; text: string; objects: Map<string, { size: number; mtime: number }> };
  const all: Ws[] = workspaces.map((dir) => ({ dir, ...readJournal(join(dir, "journal.jsonl")), objects: listObjects(dir) }));
  let dropped = 0;
  const cutoff = now - limits.keepDays * 24 * 60 * 60 * 1000;
  for (const ws of all) {
    const kept = ws.rows.filter((r) => r.time >= cutoff);
    dropped += ws.rows.length - kept.length;
    ws.rows = kept;
  }
  // Oldest first across workspaces, until what the remaining entries name fits.
  for (;;) {
    let total = 0;
    for (const ws of all) for (const hash of referenced(ws.dir, ws.rows)) total += ws.objects.get(hash)?.size ?? 0;
    if (total <= limits.maxBytes) break;
    const oldest = all.filter((ws) => ws.rows.length > 0).sort((a, b) => (a.rows[0]?.time ?? 0) - (b.rows[0]?.time ?? 0))[0];
    if (!oldest) break;
    // A tenth at a time: each round reads the manifests again.
    const n = Math.max(1, Math.ceil(oldest.rows.length / 10));
    oldest.rows = oldest.rows.slice(n);
    dropped += n;
  }
  for (const ws of all) {
    const path = join(ws.dir, "journal.jsonl");
    const text = ws.rows.map((r) => JSON.stringify(r) + "\n").join("");
    if (text !== ws.text) {
      // Another zot appended since we read it: leave this journal for the next prune rather than lose its row.
      if (readJournal(path).text !== ws.text) continue;
      const tmp = `${path}.${randomHex(6)}.tmp`;
      writeFileSync(tmp, text, { mode: 0o600 });
      renameSync(tmp, path);
    }
    // The stat cache may name contents about to go; the next scan reads every file again.
    if (text !== ws.text) rmSync(join(ws.dir, "stat-cache.json"), { force: true });
    const keep = referenced(ws.dir, ws.rows);
    for (const [hash, o] of ws.objects)
      if (!keep.has(hash) && now - o.mtime > GRACE_MS) rmSync(join(ws.dir, "objects", hash.slice(0, 2), hash.slice(2)), { force: true });
    if (ws.rows.length === 0 && ws.objects.size === 0) rmSync(ws.dir, { recursive: true, force: true });
  }
  return dropped;
}

function listObjects(dir: string): Map<string, { size: number; mtime: number }> {
  const out = new Map<string, { size: number; mtime: number }>();
  let prefixes: string[];
  try {
    prefixes = readdirSync(join(dir, "objects"));
  } catch {
    return out;
  }
  for (const p of prefixes) {
    let names: string[];
    try {
      names = readdirSync(join(dir, "objects", p));
    } catch {
      continue;
    }
    for (const n of names) {
      if (n.endsWith(".tmp")) continue;
      try {
        const st = statSync(join(dir, "objects", p, n));
        out.set(p + n, { size: st.size, mtime: st.mtimeMs });
      } catch {
        // Removed meanwhile.
      }
    }
  }
  return out;
}

/** Every content the rows name: their manifests and the files those list. */
function referenced(dir: string, rows: readonly JournalRow[]): Set<string> {
  const out = new Set<string>();
  const store = new CheckpointStore(dir);
  const addState = (s: PathState): void => {
    if (s && s !== "skipped" && "blob" in s) out.add(s.blob);
  };
  for (const r of rows) {
    if (r.type === "touch") {
      addState(r.state);
      continue;
    }
    if (r.type === "rewind") for (const s of Object.values(r.extras)) addState(s);
    if (out.has(r.tree)) continue;
    out.add(r.tree);
    const m = store.manifest(r.tree);
    if (m) for (const s of Object.values(m.files)) addState(s);
  }
  return out;
}
