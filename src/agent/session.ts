// Session transcripts: $ZOT_HOME/sessions/<hash of cwd>/<timestamp>-<id>.jsonl, one JSON object per
// line, appended and handed to the kernel as each record happens, so a crash (even kill -9) loses at
// most the line being written. Loading tolerates exactly that: a cut last line is skipped with a
// warning, and tool calls left without results get "aborted" results so providers accept the history.
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, statSync, writeSync, fstatSync } from "node:fs";
import { randomHex } from "./random.ts";
import { dirname, join, resolve } from "node:path";
import { isObject, type Json, type JsonObject } from "../ext/protocol.ts";
import { emptyUsage } from "./messages.ts";
import type { AssistantMessage, ImagePart, Message, StopReason, TextPart, ThinkingPart, ToolCallPart, Usage, UserMessage } from "./messages.ts";
import { decodeIntercept, noteIntercept } from "./intercepts.ts";
import { redactSecrets } from "./redact.ts";

const SESSION_VERSION = 1;

export type SessionMeta = { type: "session"; version: number; id: string; cwd: string; created: string; provider: string; model: string };

/** What interception did to a tool call or an assistant message, kept beside the message it concerns. */
export type InterceptRecord = {
  /** tool_call: the args the tool actually ran with (the model's own args stay in its tool call). */
  args?: JsonObject;
  rewritten_by?: string[];
  /** tool_result interception: the extensions that rewrote the result before the model saw it. */
  result_rewritten_by?: string[];
  blocked_by?: string;
  reason?: string;
  /** assistant_message: the text the user saw instead of the model's (which the message keeps). */
  shown_text?: string;
  hidden?: boolean;
};

export type SessionRecord =
  | SessionMeta
  | { type: "message"; message: Message; intercept?: InterceptRecord }
  | { type: "usage"; usage: Usage; provider: string; model: string; ts: number }
  | { type: "model"; provider: string; model: string; ts: number }
  /** `kept`: how many of the latest messages before this line stay verbatim after the summary. */
  | { type: "compaction"; summary: string; replaced: number; kept?: number; ts: number };

export interface SessionWriter {
  /** Where the transcript is (created on the first record), or null with --no-session. */
  readonly path: string | null;
  message(message: Message, intercept?: InterceptRecord): void;
  usage(usage: Usage, provider: string, model: string): void;
  model(provider: string, model: string): void;
  /** The first `replaced` messages were replaced by `summary`, the last `kept` stay; a reload starts from them. */
  compaction(summary: string, replaced: number, kept: number): void;
  close(): void;
}

export type LoadedSession = {
  path: string;
  meta: SessionMeta | null;
  messages: Message[];
  /** The provider/model in effect at the end of the file. */
  provider: string | null;
  model: string | null;
  usage: Usage;
  warnings: string[];
};

/** `model`: `provider/model` in effect at the end of the file; `cost`: the recorded spend. */
export type SessionInfo = { path: string; id: string; created: string; modified: number; preview: string; messages: number; model: string | null; cost: number };

/** First 16 hex digits of the sha256 of the absolute cwd. */
export function sessionDir(home: string, cwd: string): string {
  return join(home, "sessions", new Bun.CryptoHasher("sha256").update(resolve(cwd)).digest("hex").slice(0, 16));
}

/** `20261129T191500Z`: sorts by name in time order. */
export function sessionTimestamp(d: Date): string {
  return d.toISOString().replace(/[-:]/g, "").replace(/\.\d+/, "");
}

export type NewSessionOptions = {
  home: string;
  cwd: string;
  provider: string;
  model: string;
  secrets?: string[];
  now?: Date;
  /** Told once if the transcript can't be written (default: a line on stderr). */
  onError?: (message: string) => void;
};

/** A new transcript; the file appears with the first record, so a session without messages leaves nothing. */
export function createSession(opts: NewSessionOptions): SessionWriter {
  const now = opts.now ?? new Date();
  const id = randomHex(4);
  const path = join(sessionDir(opts.home, opts.cwd), `${sessionTimestamp(now)}-${id}.jsonl`);
  const meta: SessionMeta = { type: "session", version: SESSION_VERSION, id, cwd: resolve(opts.cwd), created: now.toISOString(), provider: opts.provider, model: opts.model };
  return new FileWriter(path, opts.secrets ?? [], meta, opts.onError ?? printError);
}

/** Appends to an existing transcript (resume). */
export function appendSession(path: string, secrets: string[] = [], onError: (message: string) => void = printError): SessionWriter {
  return new FileWriter(path, secrets, null, onError);
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
  compaction() {},
  close() {},
};

class FileWriter implements SessionWriter {
  private fd: number | null = null;
  private failed = false;

  constructor(
    readonly path: string,
    private readonly secrets: string[],
    private meta: SessionMeta | null,
    private readonly onError: (message: string) => void,
  ) {}

  message(message: Message, intercept?: InterceptRecord): void {
    this.write(intercept ? { type: "message", message, intercept } : { type: "message", message });
  }
  usage(usage: Usage, provider: string, model: string): void {
    this.write({ type: "usage", usage, provider, model, ts: Date.now() });
  }
  model(provider: string, model: string): void {
    this.write({ type: "model", provider, model, ts: Date.now() });
  }
  compaction(summary: string, replaced: number, kept: number): void {
    this.write(kept > 0 ? { type: "compaction", summary, replaced, kept, ts: Date.now() } : { type: "compaction", summary, replaced, ts: Date.now() });
  }
  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private write(record: SessionRecord): void {
    if (this.failed) return;
    try {
      if (this.fd === null) this.open();
      const line = redactSecrets(JSON.stringify(record), this.secrets) + "\n";
      const bytes = Buffer.from(line, "utf8");
      // One write per line: with O_APPEND the line lands whole, and the kernel has it even if we die next.
      let off = 0;
      while (off < bytes.length) off += writeSync(this.fd as number, bytes, off, bytes.length - off);
    } catch (err) {
      // A transcript that can't be written must not take the conversation down; say so once.
      this.failed = true;
      this.onError(`could not write the session transcript ${this.path} (${err instanceof Error ? err.message : String(err)}); this session is not being saved.`);
    }
  }

  private open(): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    const fd = openSync(this.path, "a", 0o600);
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
    if (this.meta) {
      const meta = this.meta;
      this.meta = null;
      this.write(meta);
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

export function openSession(path: string): { ok: true; session: LoadedSession } | { ok: false; error: string } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const where = resolve(path);
    if (code === "ENOENT") return { ok: false, error: `Session file ${where} does not exist; run "zot --resume" to list the sessions of this directory.` };
    if (code === "EISDIR") return { ok: false, error: `Session path ${where} is a directory; give a .jsonl transcript file (run "zot --resume" to list them).` };
    return { ok: false, error: `Could not read the session file ${where} (${err instanceof Error ? err.message : String(err)}).` };
  }
  const session: LoadedSession = { path: resolve(path), meta: null, messages: [], provider: null, model: null, usage: emptyUsage(), warnings: [] };
  const lines = text.split("\n");
  const endsClean = text.endsWith("\n") || text === "";
  if (endsClean) lines.pop();
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    const isLast = i === lines.length - 1;
    let value: Json;
    try {
      value = JSON.parse(line) as Json;
    } catch {
      session.warnings.push(
        isLast && !endsClean
          ? `The last line of ${session.path} was cut off mid-write (the previous run was probably killed) and was skipped.`
          : `Line ${i + 1} of ${session.path} is not valid JSON and was skipped.`,
      );
      return;
    }
    const err = applyRecord(session, value);
    if (err) session.warnings.push(`Line ${i + 1} of ${session.path} was skipped: ${err}.`);
  });
  if (session.meta === null && session.messages.length === 0) {
    return { ok: false, error: `${session.path} is not a zot session transcript (no session or message lines); run "zot --resume" to list the sessions of this directory.` };
  }
  session.messages = closeOrphanToolCalls(session.messages);
  return { ok: true, session };
}

function applyRecord(s: LoadedSession, v: Json): string | null {
  if (!isObject(v) || typeof v.type !== "string") return "not a record object with a type";
  switch (v.type) {
    case "session": {
      if (typeof v.cwd !== "string" || typeof v.provider !== "string" || typeof v.model !== "string") return "a session line needs cwd, provider and model";
      s.meta = { type: "session", version: typeof v.version === "number" ? v.version : SESSION_VERSION, id: typeof v.id === "string" ? v.id : "", cwd: v.cwd, created: typeof v.created === "string" ? v.created : "", provider: v.provider, model: v.model };
      s.provider ??= v.provider;
      s.model ??= v.model;
      return null;
    }
    case "message": {
      const m = decodeMessage(v.message);
      if (typeof m === "string") return m;
      const intercept = decodeIntercept(v.intercept);
      if (intercept) noteIntercept(m, intercept);
      s.messages.push(m);
      return null;
    }
    case "usage": {
      const u = decodeUsage(v.usage);
      if (!u) return "a usage line needs numeric input, output, cacheRead, cacheWrite and cost";
      s.usage = { input: s.usage.input + u.input, output: s.usage.output + u.output, cacheRead: s.usage.cacheRead + u.cacheRead, cacheWrite: s.usage.cacheWrite + u.cacheWrite, cost: s.usage.cost + u.cost };
      return null;
    }
    case "model":
      if (typeof v.provider !== "string" || typeof v.model !== "string") return "a model line needs provider and model";
      s.provider = v.provider;
      s.model = v.model;
      return null;
    case "compaction":
      if (typeof v.summary !== "string") return "a compaction line needs a summary";
      {
        const kept = typeof v.kept === "number" && Number.isInteger(v.kept) && v.kept > 0 ? s.messages.slice(-v.kept) : [];
        s.messages = [summaryMessage(v.summary, typeof v.ts === "number" ? v.ts : 0), ...kept];
      }
      return null;
    default:
      // Newer zot versions may add record types; older ones skip them quietly.
      return null;
  }
}

/** Every tool call gets a result right after its assistant message; missing ones become "aborted". */
export function closeOrphanToolCalls(messages: Message[]): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    out.push(m);
    if (m.role !== "assistant") continue;
    const calls = m.content.filter((p): p is ToolCallPart => p.type === "toolCall");
    if (calls.length === 0) continue;
    const answered = new Set<string>();
    while (i + 1 < messages.length && messages[i + 1].role === "toolResult") {
      const r = messages[++i];
      if (r.role === "toolResult") answered.add(r.toolCallId);
      out.push(r);
    }
    for (const c of calls) {
      if (answered.has(c.id)) continue;
      out.push({ role: "toolResult", toolCallId: c.id, toolName: c.name, content: [{ type: "text", text: "aborted: the tool call did not finish (zot was interrupted)." }], isError: true, ts: m.ts });
    }
  }
  return out;
}

// ---------------------------------------------------------------- listing

/** Transcripts of this cwd, newest first. */
export function listSessions(home: string, cwd: string): SessionInfo[] {
  const dir = sessionDir(home, cwd);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".jsonl"));
  } catch {
    return [];
  }
  const out: SessionInfo[] = [];
  for (const name of names) {
    const path = join(dir, name);
    let text: string;
    let modified: number;
    try {
      modified = statSync(path).mtimeMs;
      text = readFileSync(path, "utf8");
    } catch {
      continue;
    }
    out.push(summarize(path, name, text, modified));
  }
  return out.sort((a, b) => (a.created === b.created ? b.modified - a.modified : a.created < b.created ? 1 : -1));
}

export function latestSession(home: string, cwd: string): string | null {
  return listSessions(home, cwd)[0]?.path ?? null;
}

function summarize(path: string, name: string, text: string, modified: number): SessionInfo {
  const id = name.replace(/\.jsonl$/, "").split("-").pop() ?? "";
  let created = "";
  let preview = "";
  let messages = 0;
  let model: string | null = null;
  let cost = 0;
  for (const line of text.split("\n")) {
    if (line === "") continue;
    let v: Json;
    try {
      v = JSON.parse(line) as Json;
    } catch {
      continue;
    }
    if (!isObject(v)) continue;
    if (v.type === "session" && typeof v.created === "string") created = v.created;
    if ((v.type === "session" || v.type === "model") && typeof v.provider === "string" && typeof v.model === "string") model = `${v.provider}/${v.model}`;
    if (v.type === "usage" && isObject(v.usage) && typeof v.usage.cost === "number") cost += v.usage.cost;
    if (v.type !== "message" || !isObject(v.message)) continue;
    messages++;
    if (preview === "" && v.message.role === "user" && Array.isArray(v.message.content)) {
      const first = v.message.content.find((p) => isObject(p) && p.type === "text");
      if (isObject(first) && typeof first.text === "string") preview = oneLine(first.text, 80);
    }
  }
  if (created === "") created = createdFromName(name) ?? new Date(modified).toISOString();
  return { path, id, created, modified, preview, messages, model, cost };
}

function createdFromName(name: string): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z/.exec(name);
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.000Z` : null;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
}

// ---------------------------------------------------------------- decoding

const STOPS: readonly StopReason[] = ["end_turn", "tool_use", "max_tokens", "error", "aborted"];

function decodeMessage(v: Json | undefined): Message | string {
  if (!isObject(v)) return "the message is not an object";
  const ts = typeof v.ts === "number" ? v.ts : 0;
  if (!Array.isArray(v.content)) return "the message has no content array";
  const parts: (TextPart | ImagePart | ThinkingPart | ToolCallPart)[] = [];
  for (const p of v.content) {
    const part = decodePart(p);
    if (typeof part === "string") return part;
    parts.push(part);
  }
  const plain = (): (TextPart | ImagePart)[] | string =>
    parts.every((p): p is TextPart | ImagePart => p.type === "text" || p.type === "image") ? parts : `a ${String(v.role)} message may hold only text and images`;
  switch (v.role) {
    case "user": {
      const content = plain();
      return typeof content === "string" ? content : { role: "user", content, ts };
    }
    case "toolResult": {
      const content = plain();
      if (typeof content === "string") return content;
      if (typeof v.toolCallId !== "string" || typeof v.toolName !== "string") return "a tool result needs toolCallId and toolName";
      const m: Message = { role: "toolResult", toolCallId: v.toolCallId, toolName: v.toolName, content, isError: v.isError === true, ts };
      if (typeof v.extension === "string") m.extension = v.extension;
      return m;
    }
    case "assistant": {
      const content = parts.filter((p): p is TextPart | ThinkingPart | ToolCallPart => p.type !== "image");
      if (content.length !== parts.length) return "an assistant message may not hold images";
      const stop = STOPS.find((s) => s === v.stop) ?? "end_turn";
      const m: AssistantMessage = {
        role: "assistant",
        content,
        stop,
        provider: typeof v.provider === "string" ? v.provider : "",
        model: typeof v.model === "string" ? v.model : "",
        usage: decodeUsage(v.usage) ?? emptyUsage(),
        ts,
      };
      if (typeof v.error === "string") m.error = v.error;
      return m;
    }
    default:
      return `unknown message role ${JSON.stringify(v.role ?? null)}`;
  }
}

function decodePart(p: Json): TextPart | ImagePart | ThinkingPart | ToolCallPart | string {
  if (!isObject(p)) return "a content part is not an object";
  switch (p.type) {
    case "text":
      return typeof p.text === "string" ? { type: "text", text: p.text } : "a text part needs text";
    case "image":
      return typeof p.mimeType === "string" && typeof p.data === "string" ? { type: "image", mimeType: p.mimeType, data: p.data } : "an image part needs mimeType and data";
    case "thinking": {
      if (typeof p.thinking !== "string") return "a thinking part needs thinking";
      const t: ThinkingPart = { type: "thinking", thinking: p.thinking };
      if (typeof p.signature === "string") t.signature = p.signature;
      if (typeof p.redacted === "string") t.redacted = p.redacted;
      return t;
    }
    case "toolCall": {
      if (typeof p.id !== "string" || typeof p.name !== "string" || !isObject(p.args)) return "a tool call needs id, name and args";
      const c: ToolCallPart = { type: "toolCall", id: p.id, name: p.name, args: p.args };
      if (typeof p.invalidArgs === "string") c.invalidArgs = p.invalidArgs;
      return c;
    }
    default:
      return `unknown content part type ${JSON.stringify(p.type ?? null)}`;
  }
}

function decodeUsage(v: Json | undefined): Usage | null {
  if (!isObject(v)) return null;
  const n = (k: string): number | null => (typeof v[k] === "number" ? (v[k] as number) : null);
  const input = n("input");
  const output = n("output");
  if (input === null || output === null) return null;
  return { input, output, cacheRead: n("cacheRead") ?? 0, cacheWrite: n("cacheWrite") ?? 0, cost: n("cost") ?? 0 };
}
