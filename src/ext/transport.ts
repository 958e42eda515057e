// The channel between the host and one extension, whatever carries it: a child's stdin/stdout or a
// WebSocket. A transport moves frame texts both ways and says when the other side is gone; the
// connection above it owns the handshake, the registration window, requests and timeouts.
import type { TreeSignal } from "../platform/process-tree.ts";
import type { ExitInfo } from "./process.ts";

export type TransportHooks = {
  /** One frame's text as it arrived (a stdout line, a WebSocket message), not yet parsed. */
  onLine: (line: string) => void;
  /** A frame longer than the line limit was dropped; `bytes` is its length. */
  onOversize: (bytes: number) => void;
  /** Nothing more will be read. */
  onInputClosed: () => void;
  /** The other side is gone (the process exited); called once. */
  onExit: (exit: ExitInfo) => void;
  /** The extension stopped reading: more than the queue limit is waiting to be written. */
  onHung: (pendingBytes: number) => void;
};

export interface Transport {
  /** Queues one frame's JSON text; never blocks. */
  send(text: string): void;
  /** Graceful end: no more frames will be sent once the queued ones are written. */
  end(): void;
  /** The extension is gone or stopped: forget the backlog. */
  drop(): void;
  /** SIGTERM asks it to go, SIGKILL ends it now; harmless once it is gone. */
  signal(sig: TreeSignal): void;
}

export type Opened = { ok: true; transport: Transport } | { ok: false; error: string };
