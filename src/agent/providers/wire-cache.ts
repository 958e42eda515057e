// The JSON of what each history message becomes on a wire, kept per message as UTF-8 bytes. A long
// session sends the same history with every request, and serialising it again costs ~7 ms a
// megabyte (a resumed 48 MB transcript: 300 ms of CPU every step); a request body is now one copy
// of the cached bytes. Keyed by the message object, which is never changed once it is in the
// history, and by what else the wire form depends on (the provider and model a request goes to);
// a message that leaves the history takes its bytes with it.
import type { JsonObject, Message } from "../messages.ts";
import type { StreamedBody } from "../../platform/http.ts";
import { madeGarbage } from "../../platform/garbage.ts";

/** UTF-8 bytes of JSON text. */
export type JsonBytes = Uint8Array;

export const jsonBytes = (text: string): JsonBytes => Buffer.from(text, "utf8");

/** No bytes: an empty piece, which every list and body skips. */
export const EMPTY: JsonBytes = new Uint8Array(0);

export class WireCache {
  private readonly texts = new WeakMap<Message, { key: string; json: JsonBytes }>();

  /**
   * The JSON of `build(m)`'s values under `key`, comma-separated in one array (empty when there
   * are none), built once per message and key. One array per message and no list: a request walks
   * every message of the history, and a list per message per step was garbage the size of the
   * history on every step (so is a closure per message: `build` is made once per request).
   */
  json(m: Message, key: string, build: (m: Message) => JsonObject[]): JsonBytes {
    const hit = this.texts.get(m);
    if (hit?.key === key) return hit.json;
    const values = build(m);
    let json = EMPTY;
    if (values.length > 0) {
      const text = values.length === 1 ? JSON.stringify(values[0]) : JSON.stringify(values).slice(1, -1);
      json = jsonBytes(text);
      madeGarbage(text.length);
    }
    this.texts.set(m, { key, json });
    return json;
  }
}

export const COMMA = jsonBytes(",");
const CLOSE = jsonBytes("]}");

/** Bytes sent at once: smaller pieces are copied together into one chunk of this size. */
const CHUNK = 1024 * 1024;

/** Bodies larger than this are streamed; smaller ones are written into a reused buffer. */
export const STREAM_ABOVE = 4 * 1024 * 1024;

/**
 * The buffers bodies up to STREAM_ABOVE are written into, handed back when their call is over and
 * reused by the next. A body is the whole history, so a fresh one per step leaves every earlier
 * step's body to the collector, which lets them pile up (a 2 000-step run peaked at 100 MiB that
 * way, 91 MiB with the buffers reused: bench/step-memory.ts); so would fresh chunks of a stream
 * (85 MiB). Calls that run at once (subagents) each hold their own buffer.
 */
class BodyBuffers {
  /** Smallest first. */
  private readonly free: ArrayBuffer[] = [];

  take(size: number): Uint8Array {
    const fit = this.free.findIndex((b) => b.byteLength >= size);
    const buffer = fit === -1 ? new ArrayBuffer(Math.ceil(size * 1.25)) : this.free.splice(fit, 1)[0];
    return new Uint8Array(buffer ?? new ArrayBuffer(size), 0, size);
  }

  /** `body` is no longer read by anyone (its request, with every retry, is over). */
  give(body: Uint8Array): void {
    if (!(body.buffer instanceof ArrayBuffer) || this.free.includes(body.buffer)) return;
    this.free.push(body.buffer);
    this.free.sort((a, b) => a.byteLength - b.byteLength);
    // Two are enough for a main loop and a subagent taking turns; the smallest goes.
    if (this.free.length > 2) this.free.shift();
  }
}

export const bodyBuffers = new BodyBuffers();

/** Takes the next piece of a body. */
export type Put = (bytes: Uint8Array) => void;

/**
 * Told by a walk of a history's list (see ListWalk) that what it has put so far is the pieces of
 * `messages[0..message)` alone, which no later message changes; `state` is what the walk needs to
 * go on from there.
 */
export type Cut<S> = (message: number, state: S) => void;

/**
 * A wire's walk of the list from message `from`: 0 (with no state), or a place where an earlier
 * walk cut, for the same first `from` messages and key, with the state it cut with.
 */
export type ListWalk<S> = (put: Put, from: number, state: S | undefined, cut: Cut<S>) => void;

/** The pieces of a request's list, in order, and their length in bytes. */
export type Listed = { pieces: readonly Uint8Array[]; bytes: number };

type Place<S> = { message: number; pieces: number; bytes: number; state: S };
/**
 * `blocks` stand for `pieces[0..ends.at(-1))`, in order: runs of small pieces copied together, and
 * each bigger piece as it is. Never changed once made: a streamed body may still be sending one.
 * `open` is the run being copied together after them, `pieces[ends.at(-1)..joined)` in its first
 * `openBytes`: later pieces are appended beyond what a body was given, never over it.
 */
type Kept<S> = {
  key: string;
  messages: Message[];
  pieces: Uint8Array[];
  places: Place<S>[];
  blocks: Uint8Array[];
  ends: number[];
  open: Uint8Array | null;
  openBytes: number;
  joined: number;
};

/** A piece up to this size is copied into a block with its neighbours; a bigger one stays a block of its own. */
const SMALL = 512;
/** A run of small pieces becomes one block once it holds this much. */
const BLOCK = 16 * 1024;
/** The open run's first buffer: a few small pieces' worth. */
const FIRST_ROOM = 2 * 1024;

/**
 * The pieces of each conversation's last list, kept up to the last place its walk cut. A request
 * sends the history of the one before it and a few messages more, so walking every message again
 * (a cache look-up and a few pieces each, in the interpreter) made each step's own work grow with
 * the history: 12 % of a 50-step run's CPU, 18 % of a 300-step one's (bench/RESULTS.md). Now a
 * request compares the kept messages with its own by identity, takes the pieces up to the last
 * place still the same, and walks on from there. Keyed by the conversation's first message, so a
 * subagent's requests, taking turns with the main loop's, do not undo each other's; what the
 * pieces depend on beside the messages is the key. The kept part is handed out as blocks of its
 * small pieces copied together: a body copied every piece (a message's few hundred bytes) one call
 * at a time, which made a 1 500-step run's last steps cost ~0.3 ms more each (bench/RESULTS.md).
 */
export class ListLog<S> {
  private readonly kept = new WeakMap<Message, Kept<S>>();

  /**
   * The list's pieces: valid until the next call for the same conversation. `stable`: no kept
   * place past this message is taken (the wire puts something after it differently this time).
   */
  list(messages: readonly Message[], key: string, walk: ListWalk<S>, stable = messages.length): Listed {
    const first = messages[0];
    let k = first === undefined ? undefined : this.kept.get(first);
    if (k === undefined || k.key !== key) {
      k = { key, messages: [], pieces: [], places: [], blocks: [], ends: [], open: null, openBytes: 0, joined: 0 };
      if (first !== undefined) this.kept.set(first, k);
    }
    const kept = k;
    let same = 0;
    const most = Math.min(kept.messages.length, messages.length);
    while (same < most && kept.messages[same] === messages[same]) same++;
    same = Math.min(same, stable);
    let last = kept.places.length - 1;
    while (last >= 0 && kept.places[last]!.message > same) last--;
    const at = last >= 0 ? kept.places[last] : undefined;
    kept.places.length = last + 1;
    kept.pieces.length = at?.pieces ?? 0;
    kept.messages.length = at?.message ?? 0;
    while ((kept.ends.at(-1) ?? 0) > kept.pieces.length) {
      kept.blocks.pop();
      kept.ends.pop();
    }
    if (kept.joined > kept.pieces.length) {
      // A rewind into the open run: a body may still be reading its bytes, so it starts afresh.
      kept.open = null;
      kept.openBytes = 0;
      kept.joined = kept.ends.at(-1) ?? 0;
    }
    let bytes = at?.bytes ?? 0;
    walk(
      (p) => {
        kept.pieces.push(p);
        bytes += p.length;
      },
      at?.message ?? 0,
      at?.state,
      (message, state) => {
        for (let i = kept.messages.length; i < message; i++) kept.messages.push(messages[i]!);
        kept.places.push({ message, pieces: kept.pieces.length, bytes, state });
      },
    );
    joinKept(kept);
    const pieces = kept.blocks.slice();
    if (kept.open !== null && kept.openBytes > 0) pieces.push(kept.open.subarray(0, kept.openBytes));
    for (let i = kept.joined; i < kept.pieces.length; i++) pieces.push(kept.pieces[i]!);
    return { pieces, bytes };
  }
}

/**
 * Copies the kept pieces up to the last place that are not yet in a block or the open run into
 * them, each piece once: a run walked again at every request (up to a block's worth of pieces, in
 * the interpreter) and handed out piece by piece was the largest item of a short loop's profile.
 */
function joinKept<S>(kept: Kept<S>): void {
  const stable = kept.places.at(-1)?.pieces ?? 0;
  for (let i = kept.joined; i < stable; i++) {
    const piece = kept.pieces[i]!;
    if (piece.length > SMALL) {
      closeOpen(kept, i);
      kept.blocks.push(piece);
      kept.ends.push(i + 1);
      continue;
    }
    if (kept.open === null) kept.open = new Uint8Array(runBytes(kept, i, stable));
    const open = roomFor(kept, kept.open, piece.length);
    open.set(piece, kept.openBytes);
    kept.openBytes += piece.length;
    if (kept.openBytes >= BLOCK) closeOpen(kept, i + 1);
  }
  kept.joined = stable;
}

/**
 * The size of a new run's buffer, starting at piece `from`: the run's bytes when it ends before
 * `stable` (at a big piece, or a block's worth), so a whole history walked at once (a resume)
 * copies each run once into a buffer of its size; else room for it to grow at the next requests.
 */
function runBytes<S>(kept: Kept<S>, from: number, stable: number): number {
  let bytes = 0;
  for (let i = from; i < stable; i++) {
    const size = kept.pieces[i]!.length;
    if (size > SMALL) return bytes;
    bytes += size;
    if (bytes >= BLOCK) return bytes;
  }
  return Math.min(BLOCK + SMALL, Math.max(bytes, FIRST_ROOM));
}

/**
 * The open run's buffer (`had`) with room for `more` bytes after its contents, doubled up to a
 * block as later requests add to the run. A run that a big piece cuts short after a few small ones (most
 * runs of a coding session, where tool output alternates with short messages) must not cost a
 * block-sized buffer: one per run made a resumed 10 000-message session peak 78 MiB higher
 * (bench/RESULTS.md, "A resumed session's runs sized to their bytes"). A buffer outgrown is left to
 * the bodies still reading it, never written again, and counted as garbage for the pacer.
 */
function roomFor<S>(kept: Kept<S>, had: Uint8Array, more: number): Uint8Array {
  const need = kept.openBytes + more;
  if (need <= had.length) return had;
  const open = new Uint8Array(Math.min(BLOCK + SMALL, Math.max(need, 2 * had.length)));
  open.set(had.subarray(0, kept.openBytes));
  madeGarbage(had.length);
  kept.open = open;
  return open;
}

/** Ends the open run at piece `end` as a block; one cut short is copied to its size, so a history of alternating small and big pieces does not keep a mostly empty buffer per step. */
function closeOpen<S>(kept: Kept<S>, end: number): void {
  const open = kept.open;
  if (open !== null && kept.openBytes > 0) {
    const whole = kept.openBytes >= BLOCK || kept.openBytes === open.length;
    kept.blocks.push(whole ? open.subarray(0, kept.openBytes) : open.slice(0, kept.openBytes));
    kept.ends.push(end);
    if (!whole) madeGarbage(open.length);
  }
  kept.open = null;
  kept.openBytes = 0;
}

/**
 * A request body: `fields`, then `serialized` (one field already as JSON, `"name":value`, or
 * empty), then under `key` the list `list`. Its pieces (the messages' cached bytes) are copied into
 * a buffer of `bodyBuffers`, or, past STREAM_ABOVE, sent as a stream of them for every attempt: a
 * big body built whole was a buffer the size of the history and, in fetch, a copy of it (a resumed
 * 48 MB transcript held 100 MB more that way).
 */
export function requestBody(fields: JsonObject, key: string, list: Listed, serialized: JsonBytes = EMPTY): Uint8Array | StreamedBody {
  const json = JSON.stringify(fields);
  const start = jsonBytes(`${json.slice(0, -1)}${json === "{}" ? "" : ","}`);
  const more = serialized.length === 0 ? EMPTY : COMMA;
  const name = listOpen(key);
  const length = start.length + serialized.length + more.length + name.length + list.bytes + CLOSE.length;
  if (length > STREAM_ABOVE) {
    // A copy of the list: the log's pieces change with the conversation's next request.
    const pieces = [start, serialized, more, name, ...list.pieces, CLOSE];
    return { length, open: () => chunked(pieces) };
  }
  const body = bodyBuffers.take(length);
  let at = 0;
  const put = (p: Uint8Array) => {
    body.set(p, at);
    at += p.length;
  };
  put(start);
  put(serialized);
  put(more);
  put(name);
  // An index loop: an iterator per request is garbage, and the interpreter runs it slower.
  for (let i = 0; i < list.pieces.length; i++) put(list.pieces[i]!);
  put(CLOSE);
  return body;
}

const listOpens = new Map<string, JsonBytes>();

/** `"key":[` (a wire's few list names, each encoded once). */
function listOpen(key: string): JsonBytes {
  let bytes = listOpens.get(key);
  if (bytes === undefined) listOpens.set(key, (bytes = jsonBytes(`${JSON.stringify(key)}:[`)));
  return bytes;
}

/** The pieces as a stream of chunks, made as the connection asks for them. */
function chunked(pieces: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    pull(c) {
      // A fresh chunk each time: one handed to the stream may still be unsent (a stream is only for big bodies).
      const chunk = new Uint8Array(CHUNK);
      madeGarbage(CHUNK);
      let at = 0;
      for (;;) {
        const p = pieces[next];
        if (p === undefined) {
          if (at > 0) c.enqueue(chunk.subarray(0, at));
          c.close();
          return;
        }
        if (at + p.length <= CHUNK) {
          chunk.set(p, at);
          at += p.length;
          next++;
        } else if (at > 0) {
          c.enqueue(chunk.subarray(0, at));
          return;
        } else {
          // Larger than a chunk: sent as it is (cached bytes are never changed).
          c.enqueue(p);
          next++;
          return;
        }
      }
    },
  });
}

/** The elements of a list: empty ones skipped, a COMMA between the others. */
export class Separated {
  /** `started`: the list already has an element. */
  constructor(
    private readonly put: Put,
    public started = false,
  ) {}

  item(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (this.started) this.put(COMMA);
    this.put(bytes);
    this.started = true;
  }
}
