// The sessions of a directory, at a glance, for `-c`, `-r`, /sessions, /resume and the session
// tree. Users keep hundreds of transcripts, some of many megabytes, so nothing here reads them
// whole on every listing: `-c` only looks at modification times, and the descriptions are kept in
// an index beside the transcripts (`index.json` in the directory), from which a transcript that
// grew is read on from where its last complete line ended — transcripts are append-only — and one
// that changed otherwise is read again. The index is a cache: a missing, damaged or foreign one
// costs one full reading and is written anew; an index that cannot be written changes nothing.
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { isObject, type Json, type JsonObject } from "../json.ts";
import { atomicWrite } from "../platform/atomic-write.ts";
import { sessionDir } from "../platform/home.ts";
import { firstText, forEachRow, type SessionInfo } from "./session.ts";
import { decodeMetaRow, decodeUsage, timeOf } from "./transcript-rows.ts";

/**
 * Transcripts of this cwd, most recently modified first (ties: by name, newest first), as the Go
 * zot orders them, so `-c` in either program continues the same session. A fork nobody wrote in
 * (a rewind or fork that was left) holds nothing its parent lacks: it is left out, except `keep`
 * (the session in use) or, with "all", every one.
 */
export function listSessions(home: string, cwd: string, keep: string | "all" | null = null): SessionInfo[] {
  const dir = sessionDir(home, cwd);
  const names = transcriptNames(dir);
  if (names.length === 0) return [];
  const index = readIndex(dir);
  const next: Record<string, IndexEntry> = {};
  let changed = Object.keys(index).some((name) => !names.includes(name));
  const out: SessionInfo[] = [];
  for (const name of names) {
    const entry = describe(join(dir, name), index[name]);
    if (!entry) continue;
    if (entry !== index[name]) changed = true;
    next[name] = entry;
    const tally = entry.shown ?? entry.tally;
    const info = finish(tally, join(dir, name), entry.mtimeMs);
    if (keep === "all" || info.path === keep || !isEmptyFork(info, tally)) out.push(info);
  }
  if (changed) writeIndex(dir, next);
  return byRecency(out);
}

/** The session `-c` continues: the newest transcript by modification time, found without reading any. */
export function latestSession(home: string, cwd: string): string | null {
  const dir = sessionDir(home, cwd);
  const found: { path: string; modified: number }[] = [];
  for (const name of transcriptNames(dir)) {
    const path = join(dir, name);
    try {
      found.push({ path, modified: statSync(path).mtimeMs });
    } catch {
      // Removed while we looked: no candidate.
    }
  }
  return byRecency(found)[0]?.path ?? null;
}

/** One transcript at a glance: its meta, first prompt, message rows and last cumulative cost. */
export function describeSession(path: string, text: string, modified: number): SessionInfo {
  const tally = emptyTally();
  summarize(tally, text);
  return finish(tally, path, modified);
}

/** A fork holding only what was copied from its parent: no more messages, none written after it started. */
function isEmptyFork(s: SessionInfo, t: Tally): boolean {
  const started = Date.parse(s.created);
  return s.parent !== "" && s.messages <= s.forkPoint && !(Number.isFinite(started) && t.lastAt >= started);
}

function transcriptNames(dir: string): string[] {
  try {
    return readdirSync(dir).filter((n) => n.endsWith(".jsonl"));
  } catch {
    return [];
  }
}

function byRecency<T extends { path: string; modified: number }>(list: T[]): T[] {
  return list.sort((a, b) => (a.modified === b.modified ? (a.path < b.path ? 1 : -1) : b.modified - a.modified));
}

// ---------------------------------------------------------------- reading rows into a description

/** What the rows read so far say; `finish` turns it into a SessionInfo. */
type Tally = {
  id: string;
  created: string;
  parent: string;
  forkPoint: number;
  provider: string;
  model: string;
  title: string;
  preview: string;
  messages: number;
  cost: number;
  legacyCost: number;
  cumulative: boolean;
  /** The time of the newest message row (ms), 0 when none has one: a fork written in has one after it started. */
  lastAt: number;
};

function emptyTally(): Tally {
  return {
    id: "",
    created: "",
    parent: "",
    forkPoint: 0,
    provider: "",
    model: "",
    title: "",
    preview: "",
    messages: 0,
    cost: 0,
    legacyCost: 0,
    cumulative: false,
    lastAt: 0,
  };
}

/** Adds the rows of `text`, which follows what `t` has seen, to it. */
function summarize(t: Tally, text: string): void {
  forEachRow(text, (v) => {
    if (!isObject(v)) return;
    switch (v.type) {
      case "meta":
      case "session": {
        const meta = decodeMetaRow(v);
        if (typeof meta === "string") return;
        if (t.id === "") {
          t.id = meta.id;
          t.created = meta.started;
          t.parent = meta.parent ?? "";
          t.forkPoint = meta.fork_point ?? 0;
        }
        t.provider = meta.provider;
        t.model = meta.model;
        if (meta.title) t.title = meta.title;
        return;
      }
      case "model":
        if (typeof v.provider === "string") t.provider = v.provider;
        if (typeof v.model === "string") t.model = v.model;
        return;
      case "rename":
        if (typeof v.title === "string" && v.title !== "") t.title = v.title;
        return;
      case "usage": {
        const total = decodeUsage(v.cumulative);
        if (total) {
          t.cumulative = true;
          t.cost = total.cost;
        } else t.legacyCost += decodeUsage(v.usage)?.cost ?? 0;
        return;
      }
      case "message":
        if (!isObject(v.message)) return;
        t.messages++;
        t.lastAt = Math.max(t.lastAt, timeOf(v), timeOf(v.message));
        if (t.preview === "" && v.message.role === "user") t.preview = oneLine(firstText(v.message.content), 80);
        return;
    }
  });
}

/** The description, with what the rows did not say taken from the file name. */
function finish(t: Tally, path: string, modified: number): SessionInfo {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return {
    path,
    id:
      t.id ||
      (name
        .replace(/\.jsonl$/, "")
        .split("-")
        .pop() ??
        ""),
    created: t.created || (createdFromName(name) ?? new Date(modified).toISOString()),
    modified,
    preview: t.preview,
    messages: t.messages,
    provider: t.provider,
    model: t.model,
    cost: t.cumulative ? t.cost : t.legacyCost,
    title: t.title,
    parent: t.parent,
    forkPoint: t.forkPoint,
  };
}

function createdFromName(name: string): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})[T-](\d{2})(\d{2})(\d{2})/.exec(name);
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.000Z` : null;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
}

// ---------------------------------------------------------------- the index

/**
 * `read`: the byte offset just past the last complete line, which `tally` covers; `size`/`mtimeMs`:
 * the file when it was read. `shown` adds a last line without its newline (a crash cut it, or a
 * writer is between two writes), counted as loading would count it but read again next time.
 */
type IndexEntry = { size: number; mtimeMs: number; read: number; tally: Tally; shown?: Tally };

const INDEX_FILE = "index.json";
const INDEX_VERSION = 1;

/**
 * The entry for the transcript at `path` as it is now: the cached one when the file is unchanged,
 * else the cached tally carried on over the bytes appended since (a fresh one over the whole file
 * when it shrank or none is cached). Undefined when the file cannot be read.
 */
function describe(path: string, cached: IndexEntry | undefined): IndexEntry | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (cached && cached.size === st.size && cached.mtimeMs === st.mtimeMs) return cached;
    const resume = cached && st.size >= cached.size ? cached : undefined;
    const from = resume?.read ?? 0;
    const bytes = Buffer.alloc(st.size - from);
    let got = 0;
    while (got < bytes.length) {
      const n = readSync(fd, bytes, got, bytes.length - got, from + got);
      if (n === 0) break;
      got += n;
    }
    const end = bytes.lastIndexOf(0x0a, got - 1) + 1;
    const tally: Tally = resume ? { ...resume.tally } : emptyTally();
    summarize(tally, bytes.subarray(0, end).toString("utf8"));
    const entry: IndexEntry = { size: st.size, mtimeMs: st.mtimeMs, read: from + end, tally };
    if (end < got) {
      entry.shown = { ...tally };
      summarize(entry.shown, bytes.subarray(end, got).toString("utf8"));
    }
    return entry;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function readIndex(dir: string): Record<string, IndexEntry> {
  let raw: Json;
  try {
    raw = JSON.parse(readFileSync(join(dir, INDEX_FILE), "utf8")) as Json;
  } catch {
    return {};
  }
  if (!isObject(raw) || raw.version !== INDEX_VERSION || !isObject(raw.sessions)) return {};
  const out: Record<string, IndexEntry> = {};
  for (const [name, v] of Object.entries(raw.sessions)) {
    const entry = decodeEntry(v);
    if (entry && Object.hasOwn(raw.sessions, name)) out[name] = entry;
  }
  return out;
}

function decodeEntry(v: Json): IndexEntry | undefined {
  if (!isObject(v)) return undefined;
  const { size, mtimeMs, read } = v;
  if (typeof size !== "number" || typeof mtimeMs !== "number" || typeof read !== "number" || read > size) return undefined;
  const tally = decodeTally(v.tally);
  if (!tally) return undefined;
  const shown = v.shown === undefined ? undefined : decodeTally(v.shown);
  if (v.shown !== undefined && !shown) return undefined;
  return shown ? { size, mtimeMs, read, tally, shown } : { size, mtimeMs, read, tally };
}

function decodeTally(v: Json | undefined): Tally | undefined {
  if (!isObject(v)) return undefined;
  const t = emptyTally();
  for (const key of Object.keys(t) as (keyof Tally)[]) {
    const value = v[key];
    if (typeof value !== typeof t[key]) return undefined;
    (t as Record<keyof Tally, unknown>)[key] = value;
  }
  return t;
}

function writeIndex(dir: string, sessions: Record<string, IndexEntry>): void {
  const body: JsonObject = { version: INDEX_VERSION, sessions: sessions as unknown as JsonObject };
  try {
    atomicWrite(join(dir, INDEX_FILE), JSON.stringify(body), 0o600);
  } catch {
    // A cache that cannot be written costs the next listing a reading; nothing else.
  }
}
