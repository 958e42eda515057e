// Session transcripts: $ZOT_HOME/sessions/<hash of cwd>/<UTC YYYYMMDD-HHMMSS>-<id>.jsonl, one JSON
// object per line in the row format shared with the Go zot (transcript-rows.ts), appended and handed
// to the kernel as each record happens, so a crash (even kill -9) loses at most the line being
// written. Loading tolerates exactly that: a cut last line is skipped with a warning, and tool calls
// left without results get "aborted" results so providers accept the history.
import type { Result } from "../result.ts";
import { ensurePrivateDir, sessionDir } from "../platform/home.ts";
import { madeGarbage } from "../platform/garbage.ts";
import { closeSync, openSync, readSync, writeSync, fstatSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ZOT_VERSION } from "../version.ts";
import { isObject, type Json, type JsonObject } from "../json.ts";
import { emptyUsage } from "./messages.ts";
import type { PermissionMode } from "./choices.ts";
import type { AgentRef } from "../protocol.ts";
import type { Message, ToolResultMessage, Usage, UserMessage } from "./messages.ts";
import { redactSecrets } from "../redact.ts";
import { repairToolPairs } from "./session-repair.ts";
import { addModelUsage, type ModelUsage } from "./model-usage.ts";
import {
  compactionRow,
  renameRow,
  decodeMessageRow,
  decodeMetaRow,
  decodeUsage,
  messageRow,
  metaRow,
  timeOf,
  toolRow,
  usageRow,
  type ReadContext,
  type SessionMeta,
} from "./transcript-rows.ts";

export type { SessionMeta } from "./transcript-rows.ts";

export interface SessionWriter {
  /** Where the transcript is (created on the first record), or null with --no-session. */
  readonly path: string | null;
  /** Writes the message, with its `intercept` record beside it in the row rather than inside. */
  message(message: Message): void;
  /** One response's usage and the session's totals after it. */
  usage(usage: Usage, total: Usage, provider: string, model: string): void;
  /** The model was switched: a new `meta` row, which a reload takes as the model in effect. */
  model(provider: string, model: string): void;
  /** The permission mode changed: a new `meta` row too (nothing when it is the mode already recorded). */
  permissionMode(mode: PermissionMode): void;
  /** The first `replaced` messages were replaced by `summary`, the last `kept` stay; a reload starts from them. */
  compaction(summary: string, replaced: number, kept: number): void;
  /**
   * A message of a subagent's conversation (the `task` tool): a `subagent` row carrying the agent
   * and the message as a `message` row would, which a reload of the main conversation skips.
   */
  subagent(agent: AgentRef, message: Message): void;
  /** /rename: a `rename` row (the Go zot's), which pickers and a reload take as the title. */
  rename(title: string): void;
  close(): void;
}

export type LoadedSession = {
  path: string;
  /** The last `meta` row (provider and model in effect), or null for a file without one. */
  meta: SessionMeta | null;
  messages: Message[];
  /** The provider/model in effect at the end of the file. */
  provider: string | null;
  model: string | null;
  usage: Usage;
  /** The usage rows model by model (/cost), tallied in the same pass: a second read of a long transcript was a second copy of it. */
  byModel: ModelUsage[];
  title: string | null;
  warnings: string[];
};

export type SessionInfo = {
  path: string;
  id: string;
  created: string;
  modified: number;
  /** The first user prompt, on one line. */
  preview: string;
  messages: number;
  provider: string;
  model: string;
  /** USD, from the last usage row. */
  cost: number;
  title: string;
  parent: string;
  forkPoint: number;
};

/** `20261129-191500` (UTC), as the Go zot names transcripts: sorts by name in time order. */
export function sessionTimestamp(d: Date): string {
  return d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "")
    .replace("T", "-");
}

/** A fresh session id (a UUID, as the Go zot uses) and the file name it gets. */
export function newSessionFile(dir: string, now: Date): { id: string; path: string } {
  const id = crypto.randomUUID();
  return { id, path: join(dir, `${sessionTimestamp(now)}-${id.slice(0, 8)}.jsonl`) };
}

export type NewSessionOptions = {
  home: string;
  cwd: string;
  provider: string;
  model: string;
  secrets?: string[];
  now?: Date;
  /** A fork: the parent session's id and how many of its messages were copied. */
  parent?: string;
  forkPoint?: number;
  permissionMode?: PermissionMode;
  /** Told once if the transcript can't be written (default: a line on stderr). */
  onError?: (message: string) => void;
};

/** A new transcript; the file appears with the first message, so a session without messages leaves nothing. */
export function createSession(opts: NewSessionOptions): SessionWriter {
  const now = opts.now ?? new Date();
  const { id, path } = newSessionFile(sessionDir(opts.home, opts.cwd), now);
  const meta: SessionMeta = { id, cwd: resolve(opts.cwd), model: opts.model, provider: opts.provider, started: now.toISOString(), version: ZOT_VERSION };
  if (opts.parent) meta.parent = opts.parent;
  if (opts.forkPoint) meta.fork_point = opts.forkPoint;
  if (opts.permissionMode) meta.permission_mode = opts.permissionMode;
  return new FileWriter(path, opts.secrets ?? [], meta, true, opts.onError ?? printError);
}

/** Appends to an existing transcript (resume); `meta` is its last meta row, repeated with a new model on a switch. */
export function appendSession(
  loaded: Pick<LoadedSession, "path" | "meta" | "provider" | "model">,
  secrets: string[] = [],
  onError: (message: string) => void = printError,
): SessionWriter {
  const meta: SessionMeta = loaded.meta ?? { id: "", cwd: "", model: loaded.model ?? "", provider: loaded.provider ?? "", started: "", version: ZOT_VERSION };
  return new FileWriter(loaded.path, secrets, { ...meta }, false, onError);
}

function printError(message: string): void {
  process.stderr.write(`zot: ${message}\n`);
}

/** --no-session: records go nowhere. */
export const noSession: SessionWriter = {
  path: null,
  message() {},
  usage() {},
  model() {},
  permissionMode() {},
  compaction() {},
  subagent() {},
  rename() {},
  close() {},
};

class FileWriter implements SessionWriter {
  private fd: number | null = null;
  private failed = false;
  /** The meta row is written with the first message of a new file. */
  private metaPending: boolean;
  /** Results of the last assistant message's tool calls, written as one `tool` row once all are in. */
  private results: ToolResultMessage[] = [];
  private awaiting = new Set<string>();

  constructor(
    readonly path: string,
    private readonly secrets: string[],
    private readonly meta: SessionMeta,
    fresh: boolean,
    private readonly onError: (message: string) => void,
  ) {
    this.metaPending = fresh;
  }

  message(message: Message): void {
    if (message.role === "toolResult") {
      this.results.push(message);
      this.awaiting.delete(message.toolCallId);
      if (this.awaiting.size === 0) this.flushResults();
      return;
    }
    this.flushResults();
    this.write(messageRow(message));
    if (message.role === "assistant") for (const p of message.content) if (p.type === "toolCall") this.awaiting.add(p.id);
  }
  usage(usage: Usage, total: Usage, provider: string, model: string): void {
    this.flushResults();
    this.write(usageRow(usage, total, provider, model, Date.now()));
  }
  model(provider: string, model: string): void {
    this.flushResults();
    this.meta.provider = provider;
    this.meta.model = model;
    // Before the first message the pending meta row simply carries the new model.
    if (!this.metaPending) this.write(metaRow(this.meta));
  }
  permissionMode(mode: PermissionMode): void {
    if (this.meta.permission_mode === mode) return;
    this.flushResults();
    this.meta.permission_mode = mode;
    if (!this.metaPending) this.write(metaRow(this.meta));
  }
  compaction(summary: string, replaced: number, kept: number): void {
    this.flushResults();
    this.write(compactionRow(summary, replaced, kept, Date.now()));
  }
  subagent(agent: AgentRef, message: Message): void {
    const row = message.role === "toolResult" ? toolRow([message]) : messageRow(message);
    this.write({ ...row, type: "subagent", agent });
  }
  rename(title: string): void {
    // Before the first message the pending meta row carries the title: no file for an empty session.
    if (this.metaPending) {
      this.meta.title = title;
      return;
    }
    this.flushResults();
    this.write(renameRow(title, Date.now()));
  }
  close(): void {
    this.flushResults();
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private flushResults(): void {
    if (this.results.length === 0) return;
    const results = this.results;
    this.results = [];
    this.awaiting.clear();
    this.write(toolRow(results));
  }

  private write(row: JsonObject): void {
    if (this.failed) return;
    try {
      if (this.fd === null) this.open();
      if (this.metaPending) {
        this.metaPending = false;
        this.writeLine(metaRow(this.meta));
      }
      this.writeLine(row);
    } catch (err) {
      // A transcript that can't be written must not take the conversation down; say so once.
      this.failed = true;
      this.onError(
        `could not write the session transcript ${this.path} (${err instanceof Error ? err.message : String(err)}); this session is not being saved.`,
      );
    }
  }

  private writeLine(row: JsonObject): void {
    const bytes = Buffer.from(redactSecrets(JSON.stringify(row), this.secrets) + "\n", "utf8");
    // One write per line: with O_APPEND the line lands whole, and the kernel has it even if we die next.
    let off = 0;
    while (off < bytes.length) off += writeSync(this.fd as number, bytes, off, bytes.length - off);
  }

  private open(): void {
    ensurePrivateDir(dirname(this.path));
    // A new transcript is created exclusively, as the Go zot does: two writers never share a name.
    const fd = openSync(this.path, this.metaPending ? "ax" : "a", 0o600);
    this.fd = fd;
    // A file cut mid-line (kill -9) must not swallow the next record into its broken last line.
    const size = fstatSync(fd).size;
    if (size > 0) {
      const last = Buffer.alloc(1);
      const rfd = openSync(this.path, "r");
      try {
        readSync(rfd, last, 0, 1, size - 1);
      } finally {
        closeSync(rfd);
      }
      if (last[0] !== 10) writeSync(fd, "\n");
    }
  }
}

export const INTERRUPTED_TEXT = "[interrupted by user]";

/** Recorded after a turn the user interrupted: the partial reply stays, and this says why it ends there. */
export function interruptedMessage(ts: number): UserMessage {
  return { role: "user", content: [{ type: "text", text: INTERRUPTED_TEXT }], ts };
}

export function isInterruption(m: Message): boolean {
  return m.role === "user" && m.content.length === 1 && m.content[0]!.type === "text" && m.content[0]!.text === INTERRUPTED_TEXT;
}

/** The user message a compaction summary stands in for the replaced conversation. */
export function summaryMessage(summary: string, ts: number): UserMessage {
  return { role: "user", content: [{ type: "text", text: `[Summary of the earlier conversation]\n${summary}` }], ts };
}

export function openSession(path: string): Result<{ session: LoadedSession }> {
  const session: LoadedSession = {
    path: resolve(path),
    meta: null,
    messages: [],
    provider: null,
    model: null,
    usage: emptyUsage(),
    byModel: [],
    title: null,
    warnings: [],
  };
  const ctx: ReadContext = { provider: "", model: "", toolNames: new Map() };
  let fd: number | null = null;
  try {
    fd = openSync(path, "r");
    forEachFileRow(fd, (value, i, isLast, endsClean) => {
      if (value === undefined) {
        session.warnings.push(
          isLast && !endsClean
            ? `The last line of ${session.path} was cut off mid-write (the previous run was probably killed) and was skipped.`
            : `Line ${i + 1} of ${session.path} is not valid JSON and was skipped.`,
        );
        return;
      }
      const err = applyRow(session, ctx, value);
      if (err !== null && err !== "") session.warnings.push(`Line ${i + 1} of ${session.path} was skipped: ${err}.`);
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const where = resolve(path);
    if (code === "ENOENT") return { ok: false, error: `Session file ${where} does not exist; run "zot --resume" to list the sessions of this directory.` };
    if (code === "EISDIR")
      return { ok: false, error: `Session path ${where} is a directory; give a .jsonl transcript file (run "zot --resume" to list them).` };
    return { ok: false, error: `Could not read the session file ${where} (${err instanceof Error ? err.message : String(err)}).` };
  } finally {
    if (fd !== null) closeSync(fd);
  }
  if (session.meta === null && session.messages.length === 0) {
    return {
      ok: false,
      error: `${session.path} is not a zot session transcript (no meta or message lines); run "zot --resume" to list the sessions of this directory.`,
    };
  }
  const repair = repairToolPairs(session.messages);
  session.messages = repair.messages;
  if (repair.dropped > 0)
    session.warnings.push(
      `${session.path} had ${repair.dropped} tool ${repair.dropped === 1 ? "result" : "results"} without a matching call (two writers, or a damaged file); ${repair.dropped === 1 ? "it was" : "they were"} left out so the conversation stays valid.`,
    );
  return { ok: true, session };
}

/** What a row reader is told of each non-blank line: its JSON value (undefined when it is not JSON), its index, whether it is the last line and whether the text ends with a line break. */
type RowFn = (value: Json | undefined, index: number, isLast: boolean, endsClean: boolean) => void;

/** A row's value; its text is garbage once parsed, so it is reported to the pacer (platform/garbage.ts). */
function parseRow(line: string): Json | undefined {
  madeGarbage(line.length);
  try {
    return JSON.parse(line) as Json;
  } catch {
    return undefined;
  }
}

/** Calls `fn` for each non-blank line of `text`. */
export function forEachRow(text: string, fn: RowFn): void {
  const lines = text.split("\n");
  const endsClean = text.endsWith("\n") || text === "";
  if (endsClean) lines.pop();
  lines.forEach((line, i) => {
    if (line.trim() !== "") fn(parseRow(line), i, i === lines.length - 1, endsClean);
  });
}

/** Bytes read at a time from a transcript. */
const ROW_CHUNK = 1 << 20;

/**
 * forEachRow over an open file, read a chunk at a time and decoded a line at a time: a long
 * transcript as one string would be a second copy of it while its messages are built. Line breaks
 * are single bytes that never occur inside a UTF-8 sequence, so lines decode as the whole text would.
 */
function forEachFileRow(fd: number, fn: RowFn): void {
  const size = fstatSync(fd).size;
  let endsClean = true;
  if (size > 0) {
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    endsClean = last[0] === 10;
  }
  let index = 0;
  const emit = (line: string, end: number) => {
    if (line.trim() !== "") fn(parseRow(line), index, end >= size - 1, endsClean);
    index++;
  };
  const buf = Buffer.allocUnsafe(Math.max(1, Math.min(ROW_CHUNK, size)));
  // The start of a line the chunk's end cut, copied (the buffer is reused).
  let carry: Buffer[] = [];
  for (let pos = 0; pos < size; ) {
    const n = readSync(fd, buf, 0, Math.min(buf.length, size - pos), pos);
    if (n === 0) break;
    let start = 0;
    for (let nl = buf.indexOf(10, 0); nl !== -1 && nl < n; nl = buf.indexOf(10, start)) {
      emit(carry.length > 0 ? Buffer.concat([...carry, buf.subarray(start, nl)]).toString("utf8") : buf.toString("utf8", start, nl), pos + nl);
      carry = [];
      start = nl + 1;
    }
    if (start < n) carry.push(Buffer.from(buf.subarray(start, n)));
    pos += n;
  }
  if (carry.length > 0) emit(Buffer.concat(carry).toString("utf8"), size);
}

/** Applies one row; null when used, "" when skipped quietly, else why it was skipped. */
function applyRow(s: LoadedSession, ctx: ReadContext, v: Json): string | null {
  if (!isObject(v) || typeof v.type !== "string") return "not a record object with a type";
  switch (v.type) {
    case "meta":
    case "session": {
      const meta = decodeMetaRow(v);
      if (typeof meta === "string") return meta;
      // The first meta row names the session; later ones (switches) only change the model and the permission mode.
      s.meta = s.meta
        ? {
            ...s.meta,
            provider: meta.provider,
            model: meta.model,
            ...(meta.title ? { title: meta.title } : {}),
            ...(meta.permission_mode ? { permission_mode: meta.permission_mode } : {}),
          }
        : meta;
      if (meta.title) s.title = meta.title;
      if (meta.provider !== "") s.provider = ctx.provider = meta.provider;
      if (meta.model !== "") s.model = ctx.model = meta.model;
      return null;
    }
    case "message": {
      const decoded = decodeMessageRow(v, ctx);
      if (typeof decoded === "string") return decoded;
      decoded.messages.forEach((m, i) => {
        const intercept = decoded.intercepts[i];
        if (intercept && m.role !== "user") m.intercept = intercept;
        s.messages.push(m);
      });
      return null;
    }
    case "usage": {
      const u = decodeUsage(v.usage);
      if (u) addModelUsage(s.byModel, typeof v.provider === "string" ? v.provider : "", typeof v.model === "string" ? v.model : "", u);
      // The Go zot's rule: the last row's `cumulative` is the session total. Rows of earlier zot
      // versions have no cumulative and add up.
      const total = decodeUsage(v.cumulative);
      if (total) {
        s.usage = total;
        return null;
      }
      if (!u) return "a usage line needs numeric input and output token counts";
      s.usage = {
        input: s.usage.input + u.input,
        output: s.usage.output + u.output,
        cacheRead: s.usage.cacheRead + u.cacheRead,
        cacheWrite: s.usage.cacheWrite + u.cacheWrite,
        cost: s.usage.cost + u.cost,
      };
      return null;
    }
    case "rename":
      if (typeof v.title === "string" && v.title !== "") s.title = v.title;
      return null;
    case "model":
      if (typeof v.provider !== "string" || typeof v.model !== "string") return "a model line needs provider and model";
      s.provider = ctx.provider = v.provider;
      s.model = ctx.model = v.model;
      if (s.meta) s.meta = { ...s.meta, provider: v.provider, model: v.model };
      return null;
    case "compaction":
      if (typeof v.summary !== "string") return "a compaction line needs a summary";
      {
        const kept = typeof v.kept === "number" && Number.isInteger(v.kept) && v.kept > 0 ? s.messages.slice(-v.kept) : [];
        s.messages = [summaryMessage(v.summary, timeOf(v)), ...kept];
      }
      return null;
    default:
      // Newer versions (of either program) may add row types; older ones skip them quietly.
      return "";
  }
}

// ---------------------------------------------------------------- listing

/** One line for pickers and `zot --resume`: message count, model, cost, then the title or first prompt. */
export function sessionSummary(s: SessionInfo): string {
  const parts = [`${s.messages} msgs`];
  if (s.model) parts.push(s.model);
  parts.push(`$${s.cost.toFixed(4)}`);
  const what = s.title || s.preview;
  if (what) parts.push(what);
  return parts.join(" · ");
}

/** The first non-empty text of a content array (typed or untyped blocks). */
export function firstText(content: Json | undefined): string {
  if (!Array.isArray(content)) return "";
  for (const b of content) if (isObject(b) && typeof b.text === "string" && b.text !== "") return b.text;
  return "";
}
