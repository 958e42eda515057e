// JSON-RPC 2.0 as ACP carries it: one JSON object per line on stdin and stdout, requests both ways
// (the editor asks the agent to prompt; the agent asks the editor for permission, files and
// terminals). Each line is decoded here into a discriminated union before anything acts on it.
import type { Json, JsonObject } from "../../json.ts";
import { isObject, kind } from "../../json.ts";

export type RequestId = string | number | null;

/** The JSON-RPC and ACP error codes zot answers with. */
export const ErrorCode = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  cancelled: -32800,
  authRequired: -32000,
  notFound: -32002,
} as const;

/** A failure that becomes a JSON-RPC error response; thrown by handlers, or carried by a rejected request of ours. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Json,
  ) {
    super(message);
  }
}

export type Frame =
  | { kind: "request"; id: string | number; method: string; params: Json | undefined }
  | { kind: "notification"; method: string; params: Json | undefined }
  | { kind: "result"; id: string | number; result: Json }
  | { kind: "error"; id: RequestId; code: number; message: string }
  /** Not a JSON-RPC message: answered with this error (to `id` when one could be read). */
  | { kind: "invalid"; id: RequestId; code: number; message: string };

function isId(v: unknown): v is string | number {
  return typeof v === "string" || (typeof v === "number" && Number.isInteger(v));
}

export function decodeFrame(line: string): Frame {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch (err) {
    return {
      kind: "invalid",
      id: null,
      code: ErrorCode.parse,
      message: `The line is not valid JSON (${(err as Error).message}); ACP sends one JSON-RPC message per line.`,
    };
  }
  if (!isObject(raw))
    return {
      kind: "invalid",
      id: null,
      code: ErrorCode.invalidRequest,
      message: `A JSON-RPC message must be an object (got ${kind(raw)}); batches are not part of ACP.`,
    };
  const id = isId(raw.id) ? raw.id : null;
  if (raw.jsonrpc !== "2.0") return { kind: "invalid", id, code: ErrorCode.invalidRequest, message: `The message lacks "jsonrpc": "2.0".` };
  if (typeof raw.method === "string") {
    if (raw.params !== undefined && !isObject(raw.params) && !Array.isArray(raw.params))
      return { kind: "invalid", id, code: ErrorCode.invalidRequest, message: `"params" of ${raw.method} must be an object (got ${kind(raw.params)}).` };
    if (raw.id === undefined) return { kind: "notification", method: raw.method, params: raw.params };
    if (!isId(raw.id))
      return {
        kind: "invalid",
        id: null,
        code: ErrorCode.invalidRequest,
        message: `The "id" of ${raw.method} must be a string or an integer (got ${kind(raw.id)}).`,
      };
    return { kind: "request", id: raw.id, method: raw.method, params: raw.params };
  }
  if (raw.id !== undefined && (isId(raw.id) || raw.id === null)) {
    if ("result" in raw && raw.id !== null) return { kind: "result", id: raw.id, result: raw.result ?? null };
    const e = raw.error;
    if (isObject(e) && typeof e.code === "number" && typeof e.message === "string") return { kind: "error", id: raw.id, code: e.code, message: e.message };
  }
  return {
    kind: "invalid",
    id,
    code: ErrorCode.invalidRequest,
    message: `The message is neither a request (a string "method") nor a response (an "id" with "result" or "error").`,
  };
}

/**
 * Our side of the connection: answers to the editor's requests, our notifications, and our own
 * requests to the editor, whose answers arrive as frames and settle the promises `request` returned.
 */
export class Peer {
  private nextId = 1;
  private pending = new Map<string | number, { resolve: (v: Json) => void; reject: (e: RpcError) => void }>();
  private closed = false;

  constructor(private readonly write: (line: string) => void) {}

  private send(message: JsonObject): void {
    this.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  }

  respond(id: string | number, result: Json): void {
    this.send({ id, result });
  }

  fail(id: RequestId, error: RpcError): void {
    this.send({ id, error: { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) } });
  }

  notify(method: string, params: JsonObject): void {
    if (!this.closed) this.send({ method, params });
  }

  request(method: string, params: JsonObject): Promise<Json> {
    if (this.closed) return Promise.reject(new RpcError(ErrorCode.internal, `The editor has disconnected; ${method} was not sent.`));
    const id = this.nextId++;
    return new Promise<Json>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.send({ id, method, params });
    });
  }

  /** A response to one of our requests; false when it answers nothing we asked. */
  settle(frame: Extract<Frame, { kind: "result" } | { kind: "error" }>): boolean {
    if (frame.id === null) return false;
    const waiting = this.pending.get(frame.id);
    if (!waiting) return false;
    this.pending.delete(frame.id);
    if (frame.kind === "result") waiting.resolve(frame.result);
    else waiting.reject(new RpcError(frame.code, frame.message));
    return true;
  }

  /** The editor went away: what we asked it will never be answered. */
  close(): void {
    this.closed = true;
    for (const w of this.pending.values()) w.reject(new RpcError(ErrorCode.internal, "The editor disconnected before answering."));
    this.pending.clear();
  }
}
