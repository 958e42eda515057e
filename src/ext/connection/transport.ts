// The channel between the host and one extension, whatever carries it: a child's stdin/stdout or a
// WebSocket. A transport moves frame texts both ways and says when the other side is gone; the
// connection above it owns the handshake, the registration window, requests and timeouts.
import type { Result } from "../../result.ts";
import type { TreeSignal } from "../../platform/process-tree.ts";
import type { ExitInfo } from "./process.ts";
import type { Permissions } from "../sandbox/scope.ts";
import type { ImplicitGrants } from "../sandbox/confinement.ts";
import type { Manifest } from "../types.ts";
import type { WebSocketTarget } from "./websocket-target.ts";

/** When an end happened, for the sentence that reports it; null: after registration completed. */
export type EndedWhen = "before hello" | "during registration" | null;

/** The words sentences about an extension use for its channel. */
export type TransportTerms = {
  /** Who ends, in the log's end line: "process" ("process exited with exit code 0"). */
  who: string;
  /** One incoming frame: "stdout line", "WebSocket message". */
  unit: string;
  /** An incoming frame where its origin comes after it: "line from stdout". */
  unitFrom: string;
  /** What the host writes to: "stdin". */
  input: string;
  /** After "its first <unit> must be a hello frame ": "(write logs to stderr)". */
  firstHint: string;
};

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
  /** How "no hello within 10s; …" ends: what the extension should have done, or what kept it from it. */
  helloHint(): string;
  /** How its end reads after `extension "x" `, e.g. "exited with exit code 3 during registration". */
  ended(exit: ExitInfo, when: EndedWhen): string;
}

/** What the sandbox of a scoped process granted on its own, and the declared paths that do not exist. */
export type SandboxGrants = { grants: ImplicitGrants; missing: string[] };

export type Opened = Result<{ transport: Transport; sandbox?: SandboxGrants | null }>;

/** What carries one extension: a process zot starts, or a WebSocket server it connects to. */
/** A process zot starts and speaks to over its stdin and stdout. */
export type StdioTarget = {
  exec: string;
  args: string[];
  /** The manifest's declared scope; null runs the extension with the user's full privileges. */
  permissions: Permissions | null;
  /** `exec` is zot's own binary standing in for a missing `bun` or `node` (Manifest.embeddedRuntime). */
  embedded?: "bun" | "node";
};

export type ExtensionTarget = ({ kind: "stdio" } & StdioTarget) | ({ kind: "websocket" } & WebSocketTarget);

/** The target a manifest describes; null for one with nothing to run (theme-only). */
export function targetOf(m: Manifest): ExtensionTarget | null {
  if (m.transport) return { kind: "websocket", ...m.transport };
  return m.exec
    ? { kind: "stdio", exec: m.exec, args: m.args, permissions: m.permissions, ...(m.embeddedRuntime ? { embedded: m.embeddedRuntime } : {}) }
    : null;
}
