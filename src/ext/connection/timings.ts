// How long the host waits for what: the one set of deadlines the host and `zot ext test` share.
import type { ConnectionTimings } from "./connection.ts";
import { MAX_LINE_BYTES } from "./lines.ts";

export type HostTimings = ConnectionTimings & {
  commandMs: number;
  toolMs: number;
  /** One shared deadline for every extension to exit after `shutdown`. */
  shutdownGraceMs: number;
  /** Between SIGTERM and SIGKILL. */
  killAfterMs: number;
  /** A dropped WebSocket extension is reconnected after this long, doubling per failed try up to `reconnectMaxMs`. */
  reconnectMs: number;
  reconnectMaxMs: number;
};

export const DEFAULT_TIMINGS: HostTimings = {
  helloMs: 10_000,
  readyGraceMs: 250,
  readyMaxMs: 3_000,
  lingerMs: 200,
  maxQueueBytes: 64 * 1024 * 1024,
  maxLineBytes: MAX_LINE_BYTES,
  commandMs: 30_000,
  toolMs: 60_000,
  shutdownGraceMs: 2_000,
  killAfterMs: 1_000,
  reconnectMs: 500,
  reconnectMaxMs: 30_000,
};
