// Sharing and branching sessions, as the Go zot's `/session` does: export a portable `.zotsession`
// copy (cwd stripped), import one into this directory's sessions with a fresh id, fork a session
// before one of its prompts into a new branch (`parent`, `fork_point` in its meta), and the
// parent/child tree of a directory's sessions. Files are read and written row by row in the shared
// format; rows are copied verbatim, so whatever either program wrote survives.
import type { Result } from "../result.ts";
import { sessionDir } from "../platform/home.ts";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { ZOT_VERSION } from "../version.ts";
import { isObject, type Json, type JsonObject } from "../json.ts";
import { firstText, INTERRUPTED_TEXT, newSessionFile, sessionTimestamp, type SessionInfo, type SessionMeta } from "./session.ts";
import { listSessions } from "./session-list.ts";
import { decodeMetaRow, metaRow } from "./transcript-rows.ts";

export const PORTABLE_EXT = ".zotsession";

/** `meta`: the first row; `last`: the last meta row (the model in effect); `rows`: every row after the first. */
type Rows = { meta: SessionMeta; last: SessionMeta; rows: { line: string; value: JsonObject }[] };

const isMetaRow = (row: { value: JsonObject }): boolean => row.value.type === "meta" || row.value.type === "session";

/** A transcript's rows; its first row must be a meta row (as the Go zot requires too). */
function readRows(path: string, what: string): Result<Rows> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { ok: false, error: `${what} ${path} does not exist; check the path.` };
    if (code === "EISDIR") return { ok: false, error: `${what} ${path} is a directory; give a session file.` };
    return { ok: false, error: `Could not read ${what.toLowerCase()} ${path} (${err instanceof Error ? err.message : String(err)}).` };
  }
  const rows: Rows["rows"] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const value = JSON.parse(line) as Json;
      if (isObject(value)) rows.push({ line, value });
    } catch {
      // A cut last line (a killed writer) is left behind, as loading does.
    }
  }
  const head = rows[0]?.value;
  const meta = head && (head.type === "meta" || head.type === "session") ? decodeMetaRow(head) : "no meta row";
  if (typeof meta === "string") return { ok: false, error: `${what} ${path} is not a zot session (its first line is not a meta row).` };
  let last = meta;
  for (const r of rows.slice(1)) {
    const m = isMetaRow(r) ? decodeMetaRow(r.value) : null;
    if (m && typeof m !== "string") last = m;
  }
  return { ok: true, meta, last, rows: rows.slice(1) };
}

/** Writes a new file exclusively: the meta row, then the given lines. */
function writeRows(path: string, meta: SessionMeta, lines: readonly string[]): Result<{ path: string }> {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const fd = openSync(path, "wx", 0o600);
    try {
      writeSync(fd, [JSON.stringify(metaRow(meta)), ...lines].join("\n") + "\n");
    } finally {
      closeSync(fd);
    }
    return { ok: true, path };
  } catch (err) {
    return { ok: false, error: `Could not write ${path} (${err instanceof Error ? err.message : String(err)}).` };
  }
}

/** `a-b-c`: lowercase letters and digits of the first prompt, at most `max` characters. */
export function slugify(text: string, max = 40): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+/, "")
    .slice(0, max)
    .replace(/-+$/, "");
}

function firstPrompt(rows: Rows["rows"]): string {
  for (const { value } of rows)
    if (value.type === "message" && isObject(value.message) && value.message.role === "user") return firstText(value.message.content);
  return "";
}

/**
 * `/session export [path]`: a portable copy without the cwd. No path: `~/Downloads/<started>-<id>-<prompt slug>.zotsession`;
 * a directory: that name inside it; a file name gets `.zotsession` added if it lacks it.
 */
export function exportSession(source: string, dest?: string, home: string = homedir()): Result<{ path: string }> {
  const r = readRows(source, "Session file");
  if (!r.ok) return r;
  const started = Date.parse(r.meta.started);
  const slug = slugify(firstPrompt(r.rows));
  const name = `${sessionTimestamp(new Date(Number.isFinite(started) ? started : Date.now()))}${r.meta.id ? `-${r.meta.id.slice(0, 8)}` : ""}${slug ? `-${slug}` : ""}${PORTABLE_EXT}`;
  const target = dest === undefined || dest.trim() === "" ? join(home, "Downloads") : resolve(expandHome(unquotePath(dest), home));
  let out = target;
  if (dest === undefined || dest.trim() === "" || isDirectory(target)) out = join(target, name);
  else if (!out.toLowerCase().endsWith(PORTABLE_EXT)) out += PORTABLE_EXT;
  if (existsSync(out)) return { ok: false, error: `${out} already exists; give another path to /session export.` };
  // Every meta row loses its cwd; model switches recorded later in the file stay where they are.
  const strip = (m: SessionMeta): SessionMeta => ({ ...m, cwd: "" });
  const lines = r.rows.map((row) => {
    const m = isMetaRow(row) ? decodeMetaRow(row.value) : null;
    return m && typeof m !== "string" ? JSON.stringify(metaRow(strip(m))) : row.line;
  });
  return writeRows(out, strip(r.meta), lines);
}

/** `/session import <path>`: a copy in this directory's sessions, with a fresh id, this cwd and now as its start. */
export function importSession(source: string, home: string, cwd: string, now = new Date()): Result<{ path: string }> {
  const path = resolve(cwd, expandHome(unquotePath(source), homedir()));
  const r = readRows(path, "Session file");
  if (!r.ok) return r;
  const { id, path: out } = newSessionFile(sessionDir(home, cwd), now);
  const meta: SessionMeta = { id, cwd: resolve(cwd), model: r.last.model, provider: r.last.provider, started: now.toISOString(), version: ZOT_VERSION };
  if (r.meta.title) meta.title = r.meta.title;
  return writeRows(
    out,
    meta,
    r.rows.filter((row) => !isMetaRow(row)).map((row) => row.line),
  );
}

/** `index`: the prompt's place among the transcript's user messages (what forkSession takes); `time`: its ISO time. */
export type Prompt = { index: number; text: string; time: string };

/**
 * The prompts of a transcript, in order: what /session fork, /rewind and Esc Esc offer. The note
 * recorded after an interrupted turn is a user message too, but nobody typed it: it is left out.
 */
export function sessionPrompts(path: string): Result<{ prompts: Prompt[] }> {
  const r = readRows(path, "Session file");
  if (!r.ok) return r;
  const prompts: Prompt[] = [];
  let index = 0;
  for (const { value } of r.rows) {
    if (value.type !== "message" || !isObject(value.message) || value.message.role !== "user") continue;
    const text = firstText(value.message.content);
    if (text !== INTERRUPTED_TEXT) prompts.push({ index, text, time: typeof value.message.time === "string" ? value.message.time : "" });
    index++;
  }
  return { ok: true, prompts };
}

/**
 * Forks `parent` before its prompt number `prompt` (0-based): a new session of `cwd` holding every
 * row before that prompt, with `parent` and `fork_point` (the number of messages copied) in its meta.
 * Returns the prompt's text, for the editor.
 */
export function forkSession(parent: string, prompt: number, home: string, cwd: string, now = new Date()): Result<{ path: string; text: string }> {
  const r = readRows(parent, "Session file");
  if (!r.ok) return r;
  const lines: string[] = [];
  let users = 0;
  let messages = 0;
  let text: string | null = null;
  for (const { line, value } of r.rows) {
    const isMessage = value.type === "message" && isObject(value.message);
    if (isMessage && isObject(value.message) && value.message.role === "user") {
      if (users === prompt) {
        text = firstText(value.message.content);
        break;
      }
      users++;
    }
    if (isMessage) messages++;
    if (isMessage || value.type === "usage" || value.type === "compaction") lines.push(line);
  }
  if (text === null) return { ok: false, error: `The session has ${users} prompt${users === 1 ? "" : "s"}; there is no prompt ${prompt + 1} to fork at.` };
  const { id, path } = newSessionFile(sessionDir(home, cwd), now);
  const meta: SessionMeta = { id, cwd: resolve(cwd), model: r.last.model, provider: r.last.provider, started: now.toISOString(), version: ZOT_VERSION };
  if (r.meta.id) meta.parent = r.meta.id;
  if (messages > 0) meta.fork_point = messages;
  const written = writeRows(path, meta, lines);
  return written.ok ? { ...written, text } : written;
}

export type TreeNode = { session: SessionInfo; current: boolean; children: TreeNode[] };

/** The sessions of `cwd` by parent and child, oldest first; a session whose parent is gone is a root. */
export function sessionTree(home: string, cwd: string, current: string | null): TreeNode[] {
  const sessions = listSessions(home, cwd, current).sort((a, b) => (a.created < b.created ? -1 : a.created > b.created ? 1 : 0));
  const nodes = new Map<string, TreeNode>();
  for (const s of sessions) if (s.id) nodes.set(s.id, { session: s, current: s.path === current, children: [] });
  const roots: TreeNode[] = [];
  for (const s of sessions) {
    const node = s.id ? nodes.get(s.id) : { session: s, current: s.path === current, children: [] };
    if (!node) continue;
    const parent = s.parent ? nodes.get(s.parent) : undefined;
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/** Depth-first, with each node's depth: the rows of a tree picker. */
export function flattenTree(roots: readonly TreeNode[], depth = 0): { node: TreeNode; depth: number }[] {
  return roots.flatMap((node) => [{ node, depth }, ...flattenTree(node.children, depth + 1)]);
}

/** A path as dropped into a terminal: quoted, or with backslash-escaped spaces. */
export function unquotePath(raw: string): string {
  const t = raw.trim();
  const quoted = /^(['"])(.*)\1$/.exec(t);
  if (quoted) return quoted[2] ?? "";
  return t.replace(/\\(.)/g, "$1");
}

function expandHome(path: string, home: string): string {
  return path === "~" ? home : path.startsWith("~/") ? join(home, path.slice(2)) : path;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
