// The frames between zot and its confined command server (command-server.ts), over the server's
// stdin and stdout: a u32 length, then a body of one kind byte, a u32 command id and the kind's
// payload. Output travels as raw bytes, so binary output arrives byte-exact and unescaped. Both
// directions are decoded here and validated: a malformed frame is an error value, never a throw.
import type { Result } from "../result.ts";
import { signallable } from "./signallable.ts";

export type Signal = "SIGTERM" | "SIGKILL";

export type Request =
  /** zot's first frame (id 0): the confinement (confine.ts's encoding) the server applies before it runs anything. */
  | { kind: "confine"; id: number; spec: string }
  | { kind: "start"; id: number; argv: string[]; cwd: string; env: Record<string, string> }
  | { kind: "kill"; id: number; signal: Signal };

export type Confined = { ok: true; abi: number } | { ok: false; refusal: string };

export type Event =
  /** The server's first frame (id 0): it confined itself (under the kernel's Landlock ABI), or why it could not (it then runs nothing). */
  | { kind: "ready"; id: number; outcome: Confined }
  | { kind: "started"; id: number; pid: number }
  | { kind: "failed"; id: number; message: string }
  | { kind: "output"; id: number; bytes: Uint8Array }
  /** `drained`: false when a process that left the group still held the output open and it was cut. */
  | { kind: "exit"; id: number; code: number | null; signal: string | null; drained: boolean };

/** Far above any real frame (output comes in pipe-sized chunks): a larger length means a corrupt stream. */
const MAX_FRAME = 64 * 1024 * 1024;
const KINDS = { start: 1, kill: 2, started: 3, failed: 4, output: 5, exit: 6, ready: 7, confine: 8 } as const;
const SIGNALS: readonly Signal[] = ["SIGTERM", "SIGKILL"];

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

function frame(kind: number, id: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(9 + payload.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, 5 + payload.length, true);
  out[4] = kind;
  view.setUint32(5, id, true);
  out.set(payload, 9);
  return out;
}

export function encodeRequest(r: Request): Uint8Array {
  if (r.kind === "kill") return frame(KINDS.kill, r.id, encoder.encode(r.signal));
  if (r.kind === "confine") return frame(KINDS.confine, r.id, encoder.encode(r.spec));
  return frame(KINDS.start, r.id, encoder.encode(JSON.stringify({ argv: r.argv, cwd: r.cwd, env: r.env })));
}

export function encodeEvent(e: Event): Uint8Array {
  switch (e.kind) {
    case "ready": {
      if (!e.outcome.ok) return frame(KINDS.ready, e.id, new Uint8Array([0, ...encoder.encode(e.outcome.refusal)]));
      const p = new Uint8Array(5);
      p[0] = 1;
      new DataView(p.buffer).setUint32(1, e.outcome.abi, true);
      return frame(KINDS.ready, e.id, p);
    }
    case "started": {
      const p = new Uint8Array(4);
      new DataView(p.buffer).setUint32(0, e.pid, true);
      return frame(KINDS.started, e.id, p);
    }
    case "failed":
      return frame(KINDS.failed, e.id, encoder.encode(e.message));
    case "output":
      return frame(KINDS.output, e.id, e.bytes);
    case "exit": {
      const sig = encoder.encode(e.signal ?? "");
      const p = new Uint8Array(5 + sig.length);
      new DataView(p.buffer).setInt32(0, e.code ?? -1, true);
      p[4] = e.drained ? 1 : 0;
      p.set(sig, 5);
      return frame(KINDS.exit, e.id, p);
    }
  }
}

type Body = { kind: number; id: number; payload: Uint8Array };

const bad = (what: string): { ok: false; error: string } => ({ ok: false, error: `malformed command-server frame: ${what}` });

function text(payload: Uint8Array): string | null {
  try {
    return decoder.decode(payload);
  } catch {
    return null;
  }
}

function decodeRequest(b: Body): Result<{ value: Request }> {
  if (b.kind === KINDS.kill) {
    const signal = SIGNALS.find((s) => s === text(b.payload));
    return signal ? { ok: true, value: { kind: "kill", id: b.id, signal } } : bad("a kill names no known signal");
  }
  if (b.kind === KINDS.confine) {
    const spec = text(b.payload);
    return spec ? { ok: true, value: { kind: "confine", id: b.id, spec } } : bad("a confine carries no confinement");
  }
  if (b.kind !== KINDS.start) return bad(`kind ${b.kind} is not a request`);
  const t = text(b.payload);
  let raw: unknown;
  try {
    raw = t === null ? null : JSON.parse(t);
  } catch {
    raw = null;
  }
  if (typeof raw !== "object" || raw === null) return bad("a start is not a JSON object");
  const { argv, cwd, env } = raw as Record<string, unknown>;
  if (!Array.isArray(argv) || argv.length === 0 || !argv.every((a) => typeof a === "string")) return bad("a start's argv is not a list of strings");
  if (typeof cwd !== "string") return bad("a start's cwd is not a string");
  if (typeof env !== "object" || env === null || !Object.values(env).every((v) => typeof v === "string")) return bad("a start's env is not a map of strings");
  return { ok: true, value: { kind: "start", id: b.id, argv, cwd, env: env as Record<string, string> } };
}

function decodeEvent(b: Body): Result<{ value: Event }> {
  const view = new DataView(b.payload.buffer, b.payload.byteOffset, b.payload.byteLength);
  switch (b.kind) {
    case KINDS.ready: {
      // 1 and the ABI as a u32, or 0 and why not as UTF-8.
      if (b.payload[0] === 1 && b.payload.length === 5)
        return { ok: true, value: { kind: "ready", id: b.id, outcome: { ok: true, abi: view.getUint32(1, true) } } };
      const refusal = b.payload[0] === 0 ? text(b.payload.subarray(1)) : null;
      return refusal ? { ok: true, value: { kind: "ready", id: b.id, outcome: { ok: false, refusal } } } : bad("a ready is neither an ABI nor a reason");
    }
    case KINDS.started: {
      const pid = b.payload.length === 4 ? view.getUint32(0, true) : 0;
      // Never 0 or 1: zot signals a command's group by this pid.
      return signallable(pid) ? { ok: true, value: { kind: "started", id: b.id, pid } } : bad("a started has no pid");
    }
    case KINDS.failed: {
      const message = text(b.payload);
      return message === null ? bad("a failed is not UTF-8") : { ok: true, value: { kind: "failed", id: b.id, message } };
    }
    case KINDS.output:
      return { ok: true, value: { kind: "output", id: b.id, bytes: b.payload } };
    case KINDS.exit: {
      const signal = b.payload.length >= 5 ? text(b.payload.subarray(5)) : null;
      if (signal === null || b.payload[4]! > 1) return bad("an exit is cut short or not UTF-8");
      const code = view.getInt32(0, true);
      return { ok: true, value: { kind: "exit", id: b.id, code: code < 0 ? null : code, signal: signal || null, drained: b.payload[4] === 1 } };
    }
    default:
      return bad(`kind ${b.kind} is not an event`);
  }
}

/** Cuts a byte stream into frames; `push` returns the whole frames so far, or the first error (the stream is then unusable). */
class Frames<T> {
  private buf = new Uint8Array(0);
  private failed: string | null = null;

  constructor(private readonly decode: (b: Body) => Result<{ value: T }>) {}

  push(chunk: Uint8Array): Result<{ values: T[] }> {
    if (this.failed !== null) return { ok: false, error: this.failed };
    // Most chunks hold whole frames: only a partial frame left from the last chunk is copied.
    let joined = chunk;
    if (this.buf.length > 0) {
      joined = new Uint8Array(this.buf.length + chunk.length);
      joined.set(this.buf);
      joined.set(chunk, this.buf.length);
    }
    const values: T[] = [];
    let off = 0;
    const view = new DataView(joined.buffer, joined.byteOffset, joined.byteLength);
    while (joined.length - off >= 4) {
      const len = view.getUint32(off, true);
      if (len < 5 || len > MAX_FRAME) return this.fail(`length ${len} is out of range`);
      if (joined.length - off - 4 < len) break;
      const body = { kind: joined[off + 4]!, id: view.getUint32(off + 5, true), payload: joined.slice(off + 9, off + 4 + len) };
      const r = this.decode(body);
      if (!r.ok) return this.fail(r.error.replace("malformed command-server frame: ", ""));
      values.push(r.value);
      off += 4 + len;
    }
    this.buf = joined.slice(off);
    return { ok: true, values };
  }

  private fail(what: string): { ok: false; error: string } {
    const r = bad(what);
    this.failed = r.error;
    return r;
  }
}

export const requestFrames = (): Frames<Request> => new Frames(decodeRequest);
export const eventFrames = (): Frames<Event> => new Frames(decodeEvent);
