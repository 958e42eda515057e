// The stdio transport: the server is a subprocess leading its own process group, newline-delimited
// JSON-RPC on stdin/stdout, stderr read by zot and masked into $ZOT_HOME/logs/mcp-<name>.log. Shutdown closes
// stdin, then SIGTERMs and finally SIGKILLs the group, so nothing it started outlives zot.
import type { Result } from "../result.ts";
import { resolve } from "node:path";
import { LineReader, MAX_LINE_BYTES } from "../ext/connection/lines.ts";
import type { ExtensionLog } from "../ext/connection/log.ts";
import { describeExit, extensionEnv, spawnExtension } from "../ext/connection/process.ts";
import { pumpStderr } from "../ext/connection/stderr-log.ts";
import { killTree, type TreeSignal } from "../platform/process-tree.ts";
import type { ChildProcess } from "../ext/connection/process.ts";
import type { JsonObject } from "../protocol.ts";
import { WriteQueue } from "../ext/connection/write-queue.ts";
import { METHOD_NOT_FOUND, decodeServerMessage, notification, relatedId } from "./jsonrpc.ts";
import type { RpcNotification, RpcRequest } from "./jsonrpc.ts";
import type { Inbound, SendOptions, SendOutcome, ServerRequestHandler, Transport } from "./transport.ts";
import { onAbort } from "../abort.ts";

export type StdioSpec = {
  command: string;
  args: string[];
  /** Added to zot's environment (already `${VAR}`-expanded). */
  env: Record<string, string>;
  cwd: string;
  home: string;
  log: ExtensionLog;
  /** Between closing stdin and SIGTERM, and between SIGTERM and SIGKILL. */
  graceMs: number;
  killAfterMs: number;
};

type Pending = { resolve: (o: SendOutcome) => void; onRelated?: (n: Inbound) => void };

const encoder = new TextEncoder();
/** A server that stops reading its stdin gets this much queued before zot gives up on it. */
const MAX_QUEUE_BYTES = 64 * 1024 * 1024;
/** How many unreadable stdout lines are logged one by one; the rest are counted. */
const MAX_GARBAGE_NOTES = 20;

/** Every live stdio server, so zot's exit kills them even when shutdown was never called. */
const live = new Set<StdioTransport>();
let exitGuard = false;

export class StdioTransport implements Transport {
  readonly kind = "stdio" as const;
  onNotification: (n: Inbound) => void = () => {};
  onRequest: ServerRequestHandler = async () => ({ error: { code: METHOD_NOT_FOUND, message: "method not found" } });
  onWarning: (text: string) => void = () => {};
  readonly ended: Promise<string>;
  private end!: (why: string) => void;
  private child: ChildProcess | null = null;
  private queue: WriteQueue | null = null;
  private readonly pending = new Map<string, Pending>();
  private gone: string | null = null;
  private exited = false;
  private garbage = 0;

  constructor(private readonly spec: StdioSpec) {
    this.ended = new Promise((r) => (this.end = r));
  }

  async start(): Promise<Result> {
    const s = this.spec;
    const env = { ...extensionEnv(process.env, { home: s.home, dir: s.cwd, cwd: s.cwd }), ...s.env };
    // A path is relative to the server's directory; a bare name is looked up on the PATH it gets.
    const exec = s.command.includes("/") ? resolve(s.cwd, s.command) : Bun.which(s.command, { PATH: env.PATH ?? "", cwd: s.cwd });
    if (!exec) return { ok: false, error: `the command "${s.command}" was not found on PATH` };
    const spawned = spawnExtension({ exec, args: s.args, cwd: s.cwd, env });
    if (!spawned.ok) return { ok: false, error: `could not start ${s.command}: ${spawned.error}` };
    const child = spawned.child;
    this.child = child;
    live.add(this);
    if (!exitGuard) {
      exitGuard = true;
      process.on("exit", () => {
        for (const t of live) t.kill("SIGKILL");
      });
    }
    this.queue = new WriteQueue(child.stdin, MAX_QUEUE_BYTES, (n) => {
      this.onWarning(`stopped: it is not reading its stdin (${Math.round(n / 1048576)} MiB queued)`);
      this.kill("SIGKILL");
    });
    // Its stderr reaches the log through zot, masked, whole lines at a time (as an extension's does).
    const stderr = pumpStderr(child.stderr, s.log);
    void child.exited.then(async (exit) => {
      this.exited = true;
      live.delete(this);
      // Grandchildren in the group go too, even when the leader exited cleanly.
      killTree(child.pid, "SIGKILL");
      // Reported once its last stderr lines are in the log, where the error points.
      await stderr.finish();
      this.fail(`the server process exited (${describeExit(exit)})`);
    });
    void this.read(child.stdout);
    return { ok: true };
  }

  send(req: RpcRequest, opts: SendOptions): Promise<SendOutcome> {
    if (this.gone) return Promise.resolve({ ok: false, kind: "gone", error: this.gone });
    if (opts.signal.aborted) return Promise.resolve({ ok: false, kind: "cancelled", error: "the request was cancelled before it was sent" });
    const key = String(req.id);
    return new Promise<SendOutcome>((resolve) => {
      let unlisten = () => {};
      this.pending.set(key, {
        resolve: (o) => {
          unlisten();
          resolve(o);
        },
        ...(opts.onRelated ? { onRelated: opts.onRelated } : {}),
      });
      this.write(req);
      unlisten = onAbort(opts.signal, () => {
        if (!this.pending.delete(key)) return;
        this.write(notification("notifications/cancelled", { requestId: req.id, reason: "cancelled by zot" }));
        resolve({ ok: false, kind: "cancelled", error: "the request was cancelled" });
      });
    });
  }

  async notify(n: RpcNotification): Promise<void> {
    this.write(n);
  }

  setProtocolVersion(): void {
    // stdio carries the version in the message body only.
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.queue?.end();
    if (!(await exitsWithin(child, this.spec.graceMs))) {
      this.spec.log.line(`did not exit within ${this.spec.graceMs} ms of its stdin closing; sending SIGTERM`);
      this.kill("SIGTERM");
      if (!(await exitsWithin(child, this.spec.killAfterMs))) this.spec.log.line("did not exit after SIGTERM; sending SIGKILL");
    }
    this.kill("SIGKILL");
    await exitsWithin(child, this.spec.killAfterMs);
    this.fail("the server was shut down");
  }

  private kill(signal: TreeSignal): void {
    if (this.child) killTree(this.child.pid, signal);
  }

  private write(msg: RpcRequest | RpcNotification | JsonObject): void {
    if (this.gone || !this.queue) return;
    this.queue.write(encoder.encode(JSON.stringify(msg) + "\n"));
  }

  private fail(why: string): void {
    if (this.gone) return;
    this.gone = why;
    this.queue?.drop();
    for (const p of this.pending.values()) p.resolve({ ok: false, kind: "gone", error: why });
    this.pending.clear();
    this.end(why);
  }

  private async read(stdout: ReadableStream<Uint8Array>): Promise<void> {
    const reader = new LineReader({
      onLine: (line) => this.onLine(line),
      onOversize: (bytes) => this.onWarning(`dropped a stdout line of ${bytes} bytes (the limit is ${MAX_LINE_BYTES})`),
    });
    try {
      for await (const chunk of stdout) reader.push(chunk);
    } catch {
      // The pipe broke: the exit handler reports why.
    }
    reader.end();
    // Usually the process is exiting; its exit status says more than the closed pipe does.
    if (this.child) await exitsWithin(this.child, 500);
    // stdout closed while the process lives on: nothing more can be answered.
    if (!this.exited) this.fail("the server closed its stdout");
  }

  private onLine(line: string): void {
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      return this.noteGarbage(`ignored a stdout line that is not JSON: ${line.slice(0, 120)}`);
    }
    const decoded = decodeServerMessage(raw);
    if (!decoded.ok) return this.noteGarbage(`ignored ${decoded.error}: ${line.slice(0, 120)}`);
    const m = decoded.message;
    switch (m.kind) {
      case "response":
      case "error": {
        const key = m.id === null ? "" : String(m.id);
        const p = this.pending.get(key);
        if (!p) return this.noteGarbage(`ignored an answer to unknown request ${JSON.stringify(m.id)}`);
        this.pending.delete(key);
        p.resolve(m.kind === "response" ? { ok: true, result: m.result } : { ok: false, kind: "rpc", error: m.error });
        return;
      }
      case "notification": {
        const id = relatedId(m);
        const p = id === null ? undefined : this.pending.get(id);
        if (p?.onRelated) p.onRelated(m);
        else this.onNotification(m);
        return;
      }
      case "request":
        void this.onRequest(m.method, m.params).then((answer) => this.write({ jsonrpc: "2.0", id: m.id, ...answer }));
        return;
    }
  }

  private noteGarbage(text: string): void {
    this.garbage++;
    if (this.garbage <= MAX_GARBAGE_NOTES) this.onWarning(text);
    else if (this.garbage === MAX_GARBAGE_NOTES + 1) this.onWarning("more unreadable stdout lines follow; no longer logging them one by one");
  }
}

async function exitsWithin(child: ChildProcess, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const done = await Promise.race([child.exited.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)))]);
  clearTimeout(timer);
  return done;
}
