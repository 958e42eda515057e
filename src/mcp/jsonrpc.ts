// JSON-RPC 2.0 as MCP uses it: the message shapes, one decoder for what servers send, and the error
// codes zot reacts to. Transports move these values; the client gives them meaning.
import type { Result } from "../result.ts";
import { isObject } from "../json.ts";
import type { Json, JsonObject } from "../protocol.ts";

export type RpcId = number | string;
export type RpcError = { code: number; message: string; data?: Json };

export type RpcRequest = { jsonrpc: "2.0"; id: RpcId; method: string; params?: JsonObject };
export type RpcNotification = { jsonrpc: "2.0"; method: string; params?: JsonObject };

export type ServerMessage =
  | { kind: "response"; id: RpcId; result: JsonObject }
  | { kind: "error"; id: RpcId | null; error: RpcError }
  | { kind: "notification"; method: string; params: JsonObject }
  | { kind: "request"; id: RpcId; method: string; params: JsonObject };

export const METHOD_NOT_FOUND = -32601;
/** 2026-07-28: the codes -32020…-32099 are the spec's own; these three identify a modern server. */
export const HEADER_MISMATCH = -32020;
export const MISSING_CLIENT_CAPABILITY = -32021;
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;
export const MODERN_ERROR_CODES: readonly number[] = [HEADER_MISMATCH, MISSING_CLIENT_CAPABILITY, UNSUPPORTED_PROTOCOL_VERSION];

/** One line or body from a server, decoded; an error sentence says what was wrong with it. */
export function decodeServerMessage(raw: unknown): Result<{ message: ServerMessage }> {
  if (!isObject(raw)) return { ok: false, error: "a message that is not a JSON object" };
  if (raw.jsonrpc !== "2.0") return { ok: false, error: 'a message without "jsonrpc": "2.0"' };
  const id = raw.id;
  const hasId = typeof id === "string" || typeof id === "number";
  if (typeof raw.method === "string") {
    const params = isObject(raw.params) ? raw.params : {};
    if (hasId) return { ok: true, message: { kind: "request", id, method: raw.method, params } };
    return { ok: true, message: { kind: "notification", method: raw.method, params } };
  }
  if (raw.error !== undefined) {
    const e = raw.error;
    if (!isObject(e) || typeof e.code !== "number") return { ok: false, error: "an error response without a numeric error code" };
    const error: RpcError = { code: e.code, message: typeof e.message === "string" ? e.message : "" };
    if (e.data !== undefined) error.data = e.data;
    return { ok: true, message: { kind: "error", id: hasId ? id : null, error } };
  }
  if (!hasId) return { ok: false, error: "a response without an id" };
  if (!isObject(raw.result)) return { ok: false, error: `the response to request ${JSON.stringify(id)} has no result object` };
  return { ok: true, message: { kind: "response", id, result: raw.result } };
}

export function request(id: RpcId, method: string, params?: JsonObject): RpcRequest {
  return params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
}

export function notification(method: string, params?: JsonObject): RpcNotification {
  return params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
}

/** The request id a notification belongs to: its progress token or its subscription id (zot uses request ids for both). */
export function relatedId(n: { method: string; params: JsonObject }): string | null {
  const meta = isObject(n.params._meta) ? n.params._meta : {};
  const token = n.params.progressToken ?? meta.progressToken ?? meta["io.modelcontextprotocol/subscriptionId"];
  return typeof token === "string" || typeof token === "number" ? String(token) : null;
}

export function describeRpcError(e: RpcError): string {
  return `${e.message || "error"} (code ${e.code})`;
}
