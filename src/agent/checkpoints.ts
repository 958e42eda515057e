// Checkpoints: before each prompt, the workspace's files (the git repository root, else the cwd;
// .gitignore respected) are recorded in the checkpoint store, and before the agent's write/edit
// touches a file outside that record (ignored, outside the workspace, past the file limit) its
// earlier state is kept too. A rewind brings the files back to a checkpoint: changed and deleted
// files return byte for byte, files created since are removed. Every rewind first records what it
// replaces, so it can be undone. Limits (files per scan, bytes per file, new bytes per checkpoint)
// keep a checkpoint cheap; what they leave out is named in the plan, never silently lost.
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmdirSync, statSync, symlinkSync, unlinkSync, type Dirent, type Stats } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { atomicWrite } from "../platform/atomic-write.ts";
import {
  CheckpointStore,
  pruneCheckpoints,
  sha256Hex,
  type CacheEntry,
  type FileState,
  type JournalRow,
  type Manifest,
  type PathState,
  type PruneLimits,
} from "./checkpoint-store.ts";
import { IgnoreRules } from "./ignore-rules.ts";

export type CheckpointLimits = { maxFiles: number; maxFileBytes: number; maxNewBytes: number };
export const CHECKPOINT_LIMITS: CheckpointLimits = { maxFiles: 20_000, maxFileBytes: 4 * 1024 * 1024, maxNewBytes: 256 * 1024 * 1024 };

/** What a rewind does to one path (relative to the workspace when inside it). */
export type Change = { path: string; action: "change" | "restore" | "remove" };
/** `kept`: paths a rewind leaves as they are, each with the reason. */
export type RewindPlan = { changes: Change[]; kept: { path: string; why: string }[] };
type Result<T> = ({ ok: true } & T) | { ok: false; error: string };

/** A checkpoint's name for a prompt: its time and text, both kept in the transcript, so forks and resumes find it. */
export function checkpointId(time: string, text: string): string {
  return sha256Hex(`${time}\n${text}`).slice(0, 16);
}

/** A restore's target: the workspace manifest, and the earlier state of paths outside it. */
type Target = { manifest: Manifest; extras: Map<string, PathState> };

export class Checkpoints {
  private readonly store: CheckpointStore;
  private cache: Map<string, CacheEntry> | null = null;
  /** The checkpoint of the running prompt, and the out-of-manifest paths already kept for it. */
  private current: { id: string; manifest: Manifest; touched: Set<string> } | null = null;
  private pruned = false;

  /**
   * `root`: `$ZOT_HOME/checkpoints`; `workspace`: the absolute directory recorded; `exclude`:
   * absolute directories never recorded (zot's own home when it lies inside the workspace);
   * `scan`: false for a workspace too broad to walk (the home directory, `/`), where only the
   * files write/edit touch are kept.
   */
  constructor(
    private readonly root: string,
    readonly workspace: string,
    private readonly opts: { exclude: string[]; scan: boolean; limits?: CheckpointLimits; prune: PruneLimits },
  ) {
    this.store = CheckpointStore.of(root, workspace);
  }

  private get limits(): CheckpointLimits {
    return this.opts.limits ?? CHECKPOINT_LIMITS;
  }

  /** Records the workspace before the prompt `id`. */
  record(id: string): Result<{ files: number; stored: number }> {
    try {
      if (!this.pruned) {
        this.pruned = true;
        pruneCheckpoints(this.root, this.opts.prune);
      }
      const { manifest, stored } = this.scan(true);
      const tree = this.store.putManifest(manifest);
      this.store.append({ type: "checkpoint", id, time: Date.now(), tree });
      this.current = { id, manifest, touched: new Set() };
      return { ok: true, files: Object.keys(manifest.files).length, stored };
    } catch (err) {
      this.current = null;
      return {
        ok: false,
        error: `Could not record a checkpoint of ${this.workspace} in ${this.store.dir} (${err instanceof Error ? err.message : String(err)}); /rewind can restore the conversation but not the files of this prompt.`,
      };
    }
  }

  /** Before write/edit changes `abs`: keeps its state if the prompt's checkpoint does not hold it. */
  touch(abs: string): void {
    const cur = this.current;
    if (!cur || cur.touched.has(abs)) return;
    cur.touched.add(abs);
    const rel = this.relative(abs);
    if (rel !== null && !cur.manifest.partial && (rel in cur.manifest.files || !this.ignored(rel))) return;
    try {
      this.store.append({ type: "touch", id: cur.id, time: Date.now(), path: abs, state: this.keep(abs) });
    } catch {
      // Only a rewind of this one file is lost; the write itself goes on.
    }
  }

  /** The ids of every checkpoint kept for this workspace. */
  ids(): Set<string> {
    return new Set(this.store.rows().flatMap((r) => (r.type === "checkpoint" ? [r.id] : [])));
  }

  /** What restoring checkpoint `id` would change, listed before anything happens. */
  plan(id: string): Result<{ plan: RewindPlan }> {
    const target = this.target(id);
    if (!target.ok) return target;
    return { ok: true, plan: this.diff(target, this.scan(false).manifest) };
  }

  /** Restores checkpoint `id`; `session`: the transcript in use, which an undo returns to. */
  restore(id: string, restore: string, session: string | null): Result<{ plan: RewindPlan; failed: string[] }> {
    const target = this.target(id);
    return target.ok ? this.apply(target, restore, session) : target;
  }

  /** The last rewind in this workspace, if any: an undo restores what it replaced. */
  lastRewind(): Extract<JournalRow, { type: "rewind" }> | null {
    const rows = this.store.rows();
    for (let i = rows.length - 1; i >= 0; i--) {
      const r = rows[i];
      if (r?.type === "rewind") return r;
    }
    return null;
  }

  undoPlan(): Result<{ plan: RewindPlan; session: string | null }> {
    const last = this.lastRewind();
    if (!last) return { ok: false, error: "there is no rewind to undo in this workspace" };
    if (last.tree === "") return { ok: true, plan: { changes: [], kept: [] }, session: last.session };
    const target = this.rewindTarget(last);
    return target.ok ? { ok: true, plan: this.diff(target, this.scan(false).manifest), session: last.session } : target;
  }

  /** Undoes the last rewind; it is itself recorded as a rewind, so undoing again redoes it. */
  undo(session: string | null): Result<{ plan: RewindPlan; failed: string[]; session: string | null }> {
    const last = this.lastRewind();
    if (!last) return { ok: false, error: "there is no rewind to undo in this workspace" };
    if (last.tree === "") {
      this.noteConversation("undo", session);
      return { ok: true, plan: { changes: [], kept: [] }, failed: [], session: last.session };
    }
    const target = this.rewindTarget(last);
    if (!target.ok) return target;
    const r = this.apply(target, "undo", session);
    return r.ok ? { ...r, session: last.session } : r;
  }

  /** A rewind of the conversation alone: an undo goes back to `session` and leaves the files. */
  noteConversation(restore: string, session: string | null): void {
    try {
      this.store.append({ type: "rewind", time: Date.now(), restore, tree: "", extras: {}, session });
    } catch {
      // Only the undo of this rewind is lost.
    }
  }

  private rewindTarget(row: Extract<JournalRow, { type: "rewind" }>): Result<Target> {
    const manifest = this.store.manifest(row.tree);
    if (!manifest) return { ok: false, error: `the record of the last rewind is missing from ${this.store.dir} (pruned or damaged)` };
    return { ok: true, manifest, extras: new Map(Object.entries(row.extras)) };
  }

  private target(id: string): Result<Target> {
    const rows = this.store.rows();
    let at = -1;
    for (let i = rows.length - 1; i >= 0 && at < 0; i--) {
      const r = rows[i];
      if (r?.type === "checkpoint" && r.id === id) at = i;
    }
    const row = rows[at];
    if (row?.type !== "checkpoint")
      return { ok: false, error: "there is no code checkpoint for that prompt (it ran before checkpoints, with them off, or it was pruned)" };
    const manifest = this.store.manifest(row.tree);
    if (!manifest) return { ok: false, error: `the checkpoint's record is missing from ${this.store.dir} (pruned or damaged)` };
    // The earliest state kept since the checkpoint is the one it had then.
    const extras = new Map<string, PathState>();
    for (const r of rows.slice(at)) if (r.type === "touch" && !extras.has(r.path)) extras.set(r.path, r.state);
    return { ok: true, manifest, extras };
  }

  private diff(target: Target, now: Manifest): RewindPlan {
    // By path: a path kept outside the manifest overrides what the manifest alone would do to it.
    const changes = new Map<string, Change>();
    const change = (path: string, action: Change["action"]): void => void changes.set(path, { path, action });
    const kept: RewindPlan["kept"] = [];
    const want = target.manifest;
    const nowSkipped = new Set(now.skipped);
    for (const [rel, state] of Object.entries(want.files)) {
      const have = now.files[rel];
      if (have && sameState(have, state)) continue;
      if (nowSkipped.has(rel)) kept.push({ path: rel, why: "too large to keep a copy of for undo" });
      else change(rel, have ? "change" : "restore");
    }
    const wantSkipped = new Set(want.skipped);
    for (const rel of Object.keys(now.files)) {
      if (rel in want.files || wantSkipped.has(rel)) continue;
      if (want.partial) kept.push({ path: rel, why: "the checkpoint stopped at its file limit before this file" });
      else change(rel, "remove");
    }
    for (const rel of now.skipped)
      if (!(rel in want.files) && !wantSkipped.has(rel) && !want.partial) kept.push({ path: rel, why: "too large to keep a copy of for undo" });
    for (const rel of want.skipped) kept.push({ path: rel, why: "it was too large to keep a copy of" });
    for (const [abs, state] of target.extras) {
      const rel = this.relative(abs);
      if (rel !== null && rel in want.files) continue;
      const shown = rel ?? abs;
      if (state === "skipped") {
        kept.push({ path: shown, why: "it was too large to keep a copy of" });
        continue;
      }
      const have = this.keep(abs);
      changes.delete(shown);
      if (have === "skipped") kept.push({ path: shown, why: "too large to keep a copy of for undo" });
      else if (state === null) {
        if (have !== null) change(shown, "remove");
      } else if (have === null) change(shown, "restore");
      else if (!sameState(have, state)) change(shown, "change");
    }
    return { changes: [...changes.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)), kept };
  }

  private apply(target: Target, restore: string, session: string | null): Result<{ plan: RewindPlan; failed: string[] }> {
    let before: Manifest;
    try {
      before = this.scan(true).manifest;
      const extras: Record<string, PathState> = {};
      for (const abs of target.extras.keys()) extras[abs] = this.keep(abs);
      // What the files are now, so the rewind can be undone; recorded before anything changes.
      this.store.append({ type: "rewind", time: Date.now(), restore, tree: this.store.putManifest(before), extras, session });
    } catch (err) {
      return {
        ok: false,
        error: `Could not record the files before the rewind in ${this.store.dir} (${err instanceof Error ? err.message : String(err)}); nothing was changed.`,
      };
    }
    const plan = this.diff(target, before);
    const failed: string[] = [];
    const removed: string[] = [];
    for (const c of plan.changes) {
      const abs = this.absolute(c.path);
      const state = c.path in target.manifest.files ? target.manifest.files[c.path] : target.extras.get(abs);
      try {
        // A directory replaced by a link since would send the write (or the removal) elsewhere.
        const link = this.linkedParent(abs);
        if (link) throw new Error(`${link} is now a symbolic link; move it away and rewind again`);
        if (c.action === "remove") {
          unlinkSync(abs);
          removed.push(abs);
        } else if (state && state !== "skipped") this.write(abs, state);
      } catch (err) {
        failed.push(`${c.path}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    this.pruneEmptyDirs(removed, target.manifest);
    // The files just written match the checkpoint; the stat cache learns them at the next scan.
    this.current = null;
    return { ok: true, plan, failed };
  }

  private write(abs: string, state: FileState): void {
    let existing: ReturnType<typeof lstatSync> | null = null;
    try {
      existing = lstatSync(abs);
    } catch {
      mkdirSync(dirname(abs), { recursive: true });
    }
    if (existing?.isDirectory()) throw new Error("a directory is in the way");
    if ("link" in state) {
      if (existing) unlinkSync(abs);
      symlinkSync(state.link, abs);
      return;
    }
    const bytes = this.store.get(state.blob);
    if (!bytes) throw new Error(`its recorded content is missing from ${this.store.dir}`);
    // A link where the file was is replaced by the file, not written through.
    if (existing?.isSymbolicLink()) unlinkSync(abs);
    atomicWrite(abs, bytes, state.mode);
  }

  /** The first directory between the workspace and `abs` that is a symbolic link, or null. */
  private linkedParent(abs: string): string | null {
    const rel = this.relative(abs);
    if (rel === null) return null;
    const parts = rel.split("/").slice(0, -1);
    for (let i = 1; i <= parts.length; i++) {
      const dir = join(this.workspace, ...parts.slice(0, i));
      try {
        if (lstatSync(dir).isSymbolicLink()) return dir;
      } catch {
        return null;
      }
    }
    return null;
  }

  /** Directories left empty by removed files, unless the checkpoint has files under them. */
  private pruneEmptyDirs(removed: readonly string[], want: Manifest): void {
    const wanted = new Set<string>();
    for (const rel of Object.keys(want.files)) for (let d = dirname(rel); d !== "." && !wanted.has(d); d = dirname(d)) wanted.add(d);
    for (const abs of removed) {
      for (let dir = dirname(abs); ; dir = dirname(dir)) {
        const rel = this.relative(dir);
        if (rel === null || rel === "" || wanted.has(rel)) break;
        try {
          rmdirSync(dir);
        } catch {
          break;
        }
      }
    }
  }

  /** The state of an absolute path now, its content stored. */
  private keep(abs: string): PathState {
    let st: Stats;
    try {
      st = lstatSync(abs);
    } catch {
      return null;
    }
    if (st.isSymbolicLink()) return { link: readlinkSync(abs) };
    if (!st.isFile()) return null;
    if (st.size > this.limits.maxFileBytes) return "skipped";
    return { blob: this.store.put(readFileSync(abs)), mode: st.mode & 0o7777 };
  }

  /** `abs` relative to the workspace (`/`-separated), or null outside it. */
  private relative(abs: string): string | null {
    const rel = relative(this.workspace, abs);
    if (rel.startsWith("..") || rel.startsWith(sep) || /^[a-zA-Z]:/.test(rel)) return null;
    return sep === "/" ? rel : rel.split(sep).join("/");
  }

  private absolute(shown: string): string {
    return shown.startsWith("/") || /^[a-zA-Z]:/.test(shown) ? shown : join(this.workspace, ...shown.split("/"));
  }

  private ignored(rel: string): boolean {
    const rules = new IgnoreRules(this.workspace);
    const parts = rel.split("/");
    for (let i = 0; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      rules.load(dir);
      if (rules.ignored(parts.slice(0, i + 1).join("/"), i < parts.length - 1)) return true;
    }
    return this.opts.exclude.some((x) => (this.workspace + sep + rel).startsWith(x + sep) || this.workspace + sep + rel === x);
  }

  /**
   * The workspace's files now. Unchanged files (same size, mtime and inode as last time) are not
   * read again; new contents are stored. `learn`: keep the stat cache for the next scan.
   */
  private scan(learn: boolean): { manifest: Manifest; stored: number } {
    if (!this.opts.scan) return { manifest: { files: {}, skipped: [], partial: true }, stored: 0 };
    const limits = this.limits;
    const cache = (this.cache ??= this.store.readCache());
    const next = new Map<string, CacheEntry>();
    const rules = new IgnoreRules(this.workspace);
    const manifest: Manifest = { files: {}, skipped: [], partial: false };
    const now = Date.now();
    let count = 0;
    let stored = 0;
    let misses = 0;
    const stack = [""];
    walk: while (stack.length > 0) {
      const dir = stack.pop() ?? "";
      rules.load(dir);
      let entries: Dirent[];
      try {
        entries = readdirSync(join(this.workspace, dir), { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        const rel = dir === "" ? e.name : `${dir}/${e.name}`;
        const abs = join(this.workspace, rel);
        if (this.opts.exclude.includes(abs)) continue;
        if (e.isDirectory()) {
          if (!rules.ignored(rel, true)) stack.push(rel);
          continue;
        }
        if ((!e.isFile() && !e.isSymbolicLink()) || rules.ignored(rel, false)) continue;
        if (++count > limits.maxFiles) {
          manifest.partial = true;
          break walk;
        }
        try {
          if (e.isSymbolicLink()) {
            manifest.files[rel] = { link: readlinkSync(abs) };
            continue;
          }
          const st = statSync(abs);
          const mode = st.mode & 0o7777;
          const hit = cache.get(rel);
          if (hit && hit.size === st.size && hit.mtime === st.mtimeMs && hit.ino === st.ino) {
            manifest.files[rel] = { blob: hit.blob, mode };
            next.set(rel, hit);
            continue;
          }
          if (st.size > limits.maxFileBytes || stored + st.size > limits.maxNewBytes) {
            manifest.skipped.push(rel);
            continue;
          }
          const bytes = readFileSync(abs);
          stored += bytes.length;
          misses++;
          const blob = this.store.put(bytes);
          manifest.files[rel] = { blob, mode };
          // A file written within the last moments may change again within the same mtime tick: read it next time too.
          if (now - st.mtimeMs > 2000) next.set(rel, { size: st.size, mtime: st.mtimeMs, ino: st.ino, blob });
        } catch {
          // Gone or unreadable since the listing: not part of this checkpoint.
        }
      }
    }
    // Rewritten only when it learned something: an unchanged workspace costs no write.
    if (learn && (next.size !== cache.size || misses > 0)) {
      this.cache = next;
      this.store.writeCache(next);
    }
    return { manifest, stored };
  }
}

function sameState(a: FileState, b: FileState): boolean {
  if ("link" in a || "link" in b) return "link" in a && "link" in b && a.link === b.link;
  return a.blob === b.blob && a.mode === b.mode;
}
