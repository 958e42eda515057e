// What the MCP client needs from a transport (stdio or Streamable HTTP). Requests resolve with their
// answer or with a failure value, never by throwing; the client owns timeouts and retries.
import type { Result } from "../result.ts";
import type { JsonObject } from "../protocol.ts";
import type { RpcError, RpcNotification, RpcRequest } from "./jsonrpc.ts";

export type SendOutcome =
  | { ok: true; result: JsonObject }
  | { ok: false; kind: "rpc"; error: RpcError; status?: number }
  /** The transport is gone (process exited, connection refused) or the reply was unusable. */
  | { ok: false; kind: "gone" | "invalid"; error: string }
  | { ok: false; kind: "cancelled"; error: string }
  /** HTTP only: a non-2xx answer without a JSON-RPC error in it. */
  | { ok: false; kind: "http"; status: number; error: string; body: string };

export type Inbound = { method: string; params: JsonObject };

export type SendOptions = {
  /** Aborting cancels the request on the wire: `notifications/cancelled` on stdio, closing the stream on HTTP. */
  signal: AbortSignal;
  /** Notifications tied to this request (progress, or the notifications of a `subscriptions/listen`). */
  onRelated?: (n: Inbound) => void;
  /** HTTP only: extra request headers (`Mcp-Param-*`). */
  headers?: Record<string, string>;
};

export type ServerRequestHandler = (method: string, params: JsonObject) => Promise<{ result: JsonObject } | { error: RpcError }>;

export interface Transport {
  readonly kind: "stdio" | "http";
  /** Spawns the process (stdio) or checks the URL (HTTP). */
  start(): Promise<Result>;
  send(req: RpcRequest, opts: SendOptions): Promise<SendOutcome>;
  notify(n: RpcNotification): Promise<void>;
  /** Notifications tied to no request of ours (list changes, logs). */
  onNotification: (n: Inbound) => void;
  /** Requests from the server (the `initialize` era: elicitation, roots, ping). */
  onRequest: ServerRequestHandler;
  /** Sentences for the server's log (garbage lines, dropped messages). */
  onWarning: (text: string) => void;
  /** Resolves with a sentence once the transport ended on its own (the process exited). */
  readonly ended: Promise<string>;
  /** The negotiated version, for transports that put it in headers (HTTP). */
  setProtocolVersion(version: string): void;
  close(): Promise<void>;
}
