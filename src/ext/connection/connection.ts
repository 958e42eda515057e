// One running extension: its process, the handshake, registration, requests waiting for answers,
// and the frames it sends. The host above decides what registrations mean; this file only keeps
// them, in arrival order, and reports changes.
import { resolve as resolvePath } from "node:path";
import { ExtensionLog } from "./log.ts";
import { unmasked } from "../mask.ts";
import type { Mask } from "../mask.ts";
import type { TreeSignal } from "../../platform/process-tree.ts";
import type { ExitInfo } from "./process.ts";
import { HOST_CAPABILITIES, PROTOCOL_VERSION, decodeExtensionFrame } from "../../protocol.ts";
import { isObject } from "../../json.ts";
import type { EventName, ExtensionFrame, HostFrame, InterceptSpec, JsonObject } from "../../protocol.ts";
import { checkAgent, checkCommand, checkTool, type AgentReg } from "../registry.ts";
import type { CommandReg, ToolReg } from "../registry.ts";
import type { FrameRecorder } from "./trace.ts";
import type { HostInfo, UiIntent } from "../types.ts";
import type { EndedWhen, ExtensionTarget, SandboxGrants, Transport, TransportHooks, TransportTerms } from "./transport.ts";
import { openStdio, STDIO_TERMS } from "./transport-stdio.ts";
import { within } from "./within.ts";
import { explainDenial } from "../sandbox/denial.ts";
import { openWebSocket, WEBSOCKET_TERMS } from "./transport-websocket.ts";
import { seconds } from "../../duration.ts";
import { onAbort } from "../../abort.ts";

export type ConnectionTimings = {
  /** First line must be a hello within this long. */
  helloMs: number;
  /** Silence after the last registration frame that completes registration without `ready`. */
  readyGraceMs: number;
  /** Registration is complete this long after hello, `ready` or not. */
  readyMaxMs: number;
  /** After stdout closes or the process exits, how long to wait for the other before calling it gone. */
  lingerMs: number;
  maxQueueBytes: number;
  maxLineBytes: number;
};

export type ConnectionConfig = {
  name: string;
  version: string | null;
  dir: string;
  /** A process to start, or a WebSocket server to connect to. */
  target: ExtensionTarget;
  /** hello_ack.settings; null when the manifest declares no settings. */
  settings: JsonObject | null;
  home: string;
  info: () => HostInfo;
  /** The environment the extension's environment (or a WebSocket token) is read from. Default: zot's own. */
  env?: Record<string, string | undefined> | undefined;
  /** Sees every line both ways: the `--ext-trace` file, or `zot ext test`'s harness. */
  trace: FrameRecorder | null;
  /** For the log, warnings and errors, which may quote what the extension sent. Default: none. */
  mask?: Mask | undefined;
  /** Told of the WebSocket token before it is sent, so the caller masks it (see LoadOptions). */
  onSecret?: (value: string) => void;
  timings: ConnectionTimings;
  /** A registration frame was accepted (before or after registration completed). */
  onRegistration: (conn: Connection) => void;
  onIntent: (intent: UiIntent) => void;
  /** The process went away after registration completed (not during load, not during shutdown). */
  onExit: (conn: Connection, message: string) => void;
};

export type ConnectionStatus = "starting" | "ready" | "auto_ready" | "failed" | "exited";

export type Reply<F> = { ok: true; frame: F } | { ok: false; kind: "timeout" | "gone" | "cancelled" | "invalid"; error: string };

type Expect = "command_response" | "tool_result" | "event_intercept_response";
type Pending = {
  expect: Expect;
  resolve: (r: Reply<ExtensionFrame>) => void;
  timer: ReturnType<typeof setTimeout>;
  onProgress?: ((text: string) => void) | undefined;
};

const MAX_WARNINGS = 100;
let nextId = 0;

export class Connection {
  readonly name: string;
  readonly dir: string;
  error: string | null = null;
  helloVersion: string | null = null;
  /** A `ready` frame arrived (possibly after auto-ready). */
  readySeen = false;
  /** The name of the first line's hello frame, matching the manifest or not. */
  helloName: string | null = null;
  /** `performance.now()` at spawn and when the hello was accepted. */
  spawnedAt = 0;
  helloAt: number | null = null;
  /** What completed registration: a `ready` frame, the silence after a registration frame, or the deadline after hello. */
  completedBy: "ready" | "silence" | "deadline" | null = null;
  startupMs: number | null = null;
  logPath = "";
  /** What the sandbox of a scoped process granted on its own; null when it has no scope. */
  sandbox: SandboxGrants | null = null;
  /** Accepted registrations, in arrival order. */
  readonly commands: CommandReg[] = [];
  readonly tools: ToolReg[] = [];
  readonly agents: AgentReg[] = [];
  readonly events = new Set<EventName>();
  readonly intercept: InterceptSpec[] = [];
  /** What the host rejected or ignored of the registrations (also in `warnings()`). */
  readonly registrationWarnings: string[] = [];
  /** Resolves once registration completed or the load failed. */
  readonly settled: Promise<void>;
  /** Resolves when the process has exited (immediately if it never started). */
  readonly exited: Promise<void>;
  /** Resolves when the connection is over: exited and its output read (or given up on). */
  readonly finished: Promise<void>;
  /** Set when the host is stopping it: its exit is expected, not a crash. */
  stopping = false;

  private readonly cfg: ConnectionConfig;
  private readonly mask: Mask;
  /** The words for its channel in sentences ("stdout line", "WebSocket message"). */
  readonly terms: TransportTerms;
  private log: ExtensionLog | null = null;
  private transport: Transport | null = null;
  private readonly pending = new Map<string, Pending>();
  private readonly warningList: string[] = [];
  private extraWarnings = 0;
  /** The one lifecycle state; `status` is what it looks like from outside. */
  private phase: "hello" | "registering" | "loaded" | "failed" | "exited" = "hello";
  private sawRegistration = false;
  private helloTimer: ReturnType<typeof setTimeout> | null = null;
  private graceTimer: ReturnType<typeof setTimeout> | null = null;
  private maxTimer: ReturnType<typeof setTimeout> | null = null;
  private lingerTimer: ReturnType<typeof setTimeout> | null = null;
  private exitInfo: ExitInfo | null = null;
  private inputClosed = false;
  private settle!: () => void;
  private markExited!: () => void;
  private markFinished!: () => void;

  constructor(cfg: ConnectionConfig) {
    this.cfg = cfg;
    this.mask = cfg.mask ?? unmasked;
    this.terms = cfg.target.kind === "websocket" ? WEBSOCKET_TERMS : STDIO_TERMS;
    this.name = cfg.name;
    this.dir = cfg.dir;
    this.settled = new Promise((r) => (this.settle = r));
    this.exited = new Promise((r) => (this.markExited = r));
    this.finished = new Promise((r) => (this.markFinished = r));
  }

  get status(): ConnectionStatus {
    switch (this.phase) {
      case "hello":
      case "registering":
        return "starting";
      case "loaded":
        return this.readySeen ? "ready" : "auto_ready";
      default:
        return this.phase;
    }
  }

  get running(): boolean {
    return this.phase === "registering" || this.phase === "loaded";
  }

  get hasExited(): boolean {
    return this.exitInfo !== null || this.transport === null;
  }

  /** How the process ended, once it has. */
  get exit(): ExitInfo | null {
    return this.exitInfo;
  }

  /** Over: failed, exited or stopped; nothing more is sent or read. */
  get gone(): boolean {
    return this.phase === "failed" || this.phase === "exited";
  }

  /** The extension's last stderr line of this run, or null when it wrote none. */
  lastStderrLine(): string | null {
    return this.log?.lastWords() ?? null;
  }

  warnings(): string[] {
    if (this.extraWarnings === 0) return [...this.warningList];
    const shown = this.warningList.slice(0, MAX_WARNINGS - 1);
    shown.push(`…and ${this.extraWarnings + 1} more warnings; see ${this.logPath}`);
    return shown;
  }

  /** How the extension ended ("exited with exit code 3"), once it has. */
  ended(): string | null {
    return this.exitInfo && this.transport ? this.transport.ended(this.exitInfo, null) : null;
  }

  /** Opens the log and spawns the process or opens the connection; failures end up in `status`/`error`. */
  start(): void {
    const opened = ExtensionLog.open(this.cfg.home, this.name, this.mask);
    if (!opened.ok) return this.failStart(opened.error);
    this.log = opened.log;
    this.logPath = opened.log.path;
    this.log.line(`starting ${this.name} ${this.cfg.version ?? "(no version)"} at ${new Date().toISOString()}`);
    const hooks: TransportHooks = {
      onLine: (line) => this.onLine(line),
      onOversize: (n) => this.warn(`dropped a ${n}-byte ${this.terms.unitFrom} (limit ${this.cfg.timings.maxLineBytes} bytes)`),
      onInputClosed: () => {
        this.inputClosed = true;
        this.whenBothGone();
      },
      onExit: (exit) => this.onProcessExit(exit),
      onHung: (n) => this.onHung(n),
    };
    this.spawnedAt = performance.now();
    const { target } = this.cfg;
    const env = this.cfg.env ?? process.env;
    const limits = { maxQueueBytes: this.cfg.timings.maxQueueBytes, maxLineBytes: this.cfg.timings.maxLineBytes };
    const channel =
      target.kind === "websocket"
        ? openWebSocket({ target, env, log: this.log, ...limits, hooks, ...(this.cfg.onSecret ? { onSecret: this.cfg.onSecret } : {}) })
        : openStdio({ target, dir: this.dir, cwd: this.cfg.info().cwd, home: this.cfg.home, env, log: this.log, ...limits, hooks });
    if (!channel.ok) return this.failStart(channel.error);
    const transport = channel.transport;
    this.sandbox = channel.sandbox ?? null;
    for (const path of this.sandbox?.missing ?? []) this.warn(`declared path ${path} does not exist, so the sandbox does not grant it`);
    this.transport = transport;
    this.helloTimer = setTimeout(
      () =>
        this.fail(
          `no hello within ${seconds(this.cfg.timings.helloMs)}; ${transport.helloHint()}${this.lastWords().replace(/^: /, "; its last words on stderr: ")}`,
          true,
        ),
      this.cfg.timings.helloMs,
    );
  }

  /** Queues one frame for the extension; never blocks. */
  send(frame: HostFrame): void {
    if (!this.transport || this.gone) return;
    const json = JSON.stringify(frame);
    this.cfg.trace?.record(this.name, "out", json);
    this.transport.send(json);
  }

  /**
   * Sends a request frame (its `id` is filled in) and waits for the answer of type `expect`.
   * A `tool_call` that times out or is aborted is followed by `tool_cancel`.
   */
  request<F extends ExtensionFrame>(
    build: (id: string) => HostFrame,
    expect: Expect,
    timeoutMs: number,
    opts: { signal?: AbortSignal | undefined; onProgress?: ((text: string) => void) | undefined; what: string } = { what: "request" },
  ): Promise<Reply<F>> {
    if (this.gone || !this.transport) return Promise.resolve({ ok: false, kind: "gone", error: this.error ?? `extension "${this.name}" is not running` });
    if (opts.signal?.aborted) return Promise.resolve({ ok: false, kind: "cancelled", error: `${opts.what} was cancelled` });
    const id = `${++nextId}`;
    const frame = build(id);
    return new Promise<Reply<F>>((resolveReply) => {
      const finish = (r: Reply<ExtensionFrame>) => {
        if (!this.pending.delete(id)) return;
        clearTimeout(pending.timer);
        unlisten();
        if (!r.ok && (r.kind === "timeout" || r.kind === "cancelled") && frame.type === "tool_call") this.send({ type: "tool_cancel", id });
        resolveReply(r as Reply<F>);
      };
      let unlisten = () => {};
      const pending: Pending = {
        expect,
        resolve: finish,
        onProgress: opts.onProgress,
        timer: setTimeout(
          () => finish({ ok: false, kind: "timeout", error: `extension "${this.name}" did not answer ${opts.what} within ${seconds(timeoutMs)}` }),
          timeoutMs,
        ),
      };
      this.pending.set(id, pending);
      unlisten = onAbort(opts.signal, () => finish({ ok: false, kind: "cancelled", error: `${opts.what} was cancelled` }));
      this.send(frame);
    });
  }

  /** Graceful part of shutdown: `shutdown`, then end of input. Signals are the host's job. */
  beginShutdown(): void {
    this.stopping = true;
    if (!this.transport || this.hasExited) return;
    this.send({ type: "shutdown" });
    this.transport.end();
  }

  /** Signals the whole process group (harmless once the group is empty). */
  signal(sig: TreeSignal): void {
    this.transport?.signal(sig);
  }

  /** A host-side note in the extension's log (conflicts, exits, shutdown). */
  note(text: string): void {
    this.log?.line(text);
  }

  /** A warning: into the log and into `doctor`'s list. */
  warn(text: string): void {
    const masked = this.mask(text);
    this.log?.line(`warning: ${masked}`);
    if (this.warningList.length < MAX_WARNINGS) this.warningList.push(masked);
    else this.extraWarnings++;
  }

  private warnRegistration(text: string): void {
    this.registrationWarnings.push(this.mask(text));
    this.warn(text);
  }

  closeLog(): void {
    this.log?.close();
  }

  // ---------------------------------------------------------------- reading

  private onLine(line: string): void {
    if (this.gone) return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      this.cfg.trace?.record(this.name, "in", line, false);
      if (this.phase === "hello") return this.failFirstLine(line);
      return this.warn(`ignored a ${this.terms.unit} that is not JSON: ${quote(line)}`);
    }
    this.cfg.trace?.record(this.name, "in", line);
    const decoded = decodeExtensionFrame(raw);
    if (this.phase === "hello") {
      if (!decoded.ok && isObject(raw) && raw.type === "hello") return this.failFirstLine(line, decoded.error);
      if (!decoded.ok || decoded.value.type !== "hello") return this.failFirstLine(line);
      return this.onHello(decoded.value.name, decoded.value.version);
    }
    // Any frame, even one ignored below, shows the extension is still sending (docs/decisions.md "Auto-ready").
    if (this.phase === "registering" && this.sawRegistration) this.restartGrace();
    if (!decoded.ok) {
      if ("unknownType" in decoded) return this.warn(`ignored a frame of unknown type "${decoded.unknownType}"`);
      this.warn(`ignored an invalid frame: ${decoded.error}`);
      return this.failPending(raw, decoded.error);
    }
    this.onFrame(decoded.value);
  }

  private onHello(name: string, version: string): void {
    if (this.helloTimer) clearTimeout(this.helloTimer);
    this.helloName = name;
    if (name !== this.name)
      return this.fail(`hello.name ${JSON.stringify(name)} does not match the manifest name ${JSON.stringify(this.name)}; make them equal`, true);
    this.helloVersion = version || null;
    this.helloAt = performance.now();
    this.phase = "registering";
    const info = this.cfg.info();
    this.send({
      type: "hello_ack",
      protocol_version: PROTOCOL_VERSION,
      zot_version: info.zotVersion,
      provider: info.provider,
      model: info.model,
      cwd: resolvePath(info.cwd),
      extension_dir: this.dir,
      data_dir: this.dir,
      capabilities: [...HOST_CAPABILITIES],
      ...(info.jail ? { jail: { root: info.jail } } : {}),
      ...(this.cfg.settings ? { settings: this.cfg.settings } : {}),
    });
    this.maxTimer = setTimeout(() => this.complete("deadline"), this.cfg.timings.readyMaxMs);
  }

  private onFrame(f: ExtensionFrame): void {
    const ext = this.name;
    switch (f.type) {
      case "hello":
        return this.warn("ignored a second hello frame");
      case "register_command": {
        this.registrationFrame();
        const bad = checkCommand(f);
        if (bad) return this.warnRegistration(bad);
        this.commands.push({ name: f.name, description: f.description });
        return this.cfg.onRegistration(this);
      }
      case "register_tool": {
        this.registrationFrame();
        const checked = checkTool(f, ext);
        if (checked.warning) this.warnRegistration(checked.warning);
        if (!checked.ok) return;
        this.tools.push(checked.tool);
        return this.cfg.onRegistration(this);
      }
      case "register_agent": {
        this.registrationFrame();
        const bad = checkAgent(f);
        if (bad) return this.warnRegistration(bad);
        const { type: _type, ...agent } = f;
        this.agents.push(agent);
        return this.cfg.onRegistration(this);
      }
      case "subscribe": {
        this.registrationFrame();
        if (f.unknown) this.warnRegistration(`subscribe: ignored unknown ${f.unknown.join(", ")}; the rest of the subscription counts`);
        for (const e of f.events) this.events.add(e);
        for (const spec of f.intercept) {
          const i = this.intercept.findIndex((s) => s.event === spec.event);
          if (i >= 0) this.intercept[i] = spec;
          else this.intercept.push(spec);
        }
        return this.cfg.onRegistration(this);
      }
      case "ready":
        this.readySeen = true;
        if (this.phase === "registering") this.complete("ready");
        return;
      case "tool_result":
      case "command_response":
      case "event_intercept_response": {
        const p = this.pending.get(f.id);
        if (!p) return this.note(`ignored a ${f.type} for unknown or expired request id ${JSON.stringify(f.id)}`);
        if (p.expect !== f.type) return this.warn(`ignored a ${f.type} for request ${JSON.stringify(f.id)}, which expects a ${p.expect}`);
        return p.resolve({ ok: true, frame: f });
      }
      case "tool_progress": {
        const p = this.pending.get(f.id);
        if (p?.expect !== "tool_result") return this.note(`ignored tool_progress for unknown or finished call ${JSON.stringify(f.id)}`);
        p.onProgress?.(f.text);
        return this.cfg.onIntent({ kind: "tool_progress", extension: ext, callId: f.id, text: f.text });
      }
      case "notify":
        return this.cfg.onIntent({ kind: "notify", extension: ext, level: f.level, message: f.message });
      case "clear_notes":
        return this.cfg.onIntent({ kind: "clear_notes", extension: ext });
      case "submit":
        if (f.text.trim() === "") return;
        return this.cfg.onIntent({ kind: "submit", extension: ext, text: f.text });
      case "panel_render":
        return this.cfg.onIntent({ kind: "panel_render", extension: ext, panelId: f.panel_id, title: f.title, lines: f.lines, footer: f.footer });
      case "panel_close":
        return this.cfg.onIntent({ kind: "panel_close", extension: ext, panelId: f.panel_id });
      case "shutdown_ack":
        return this.note("shutdown acknowledged");
    }
  }

  /**
   * A malformed answer to a waiting request (say, an action this host does not know) fails that
   * request now instead of leaving it to its timeout.
   */
  private failPending(raw: unknown, error: string): void {
    if (typeof raw !== "object" || raw === null || !("id" in raw) || typeof raw.id !== "string") return;
    const p = this.pending.get(raw.id);
    if (!p || !("type" in raw) || raw.type !== p.expect) return;
    p.resolve({ ok: false, kind: "invalid", error: this.mask(`extension "${this.name}" sent an invalid ${p.expect}: ${error} (log: ${this.logPath})`) });
  }

  // ---------------------------------------------------------------- registration window

  private registrationFrame(): void {
    if (this.phase !== "registering") return;
    if (!this.sawRegistration) {
      this.sawRegistration = true;
      this.restartGrace();
    }
  }

  private restartGrace(): void {
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.graceTimer = setTimeout(() => this.complete("silence"), this.cfg.timings.readyGraceMs);
  }

  private complete(by: "ready" | "silence" | "deadline"): void {
    if (this.phase !== "registering") return;
    this.clearTimers();
    this.phase = "loaded";
    this.completedBy = by;
    this.startupMs = performance.now() - this.spawnedAt;
    this.note(`registration complete (${by === "ready" ? "ready" : "auto_ready: no ready frame"}) after ${Math.round(this.startupMs)} ms`);
    this.settle();
  }

  // ---------------------------------------------------------------- failure and exit

  private failFirstLine(line: string, helloError?: string): void {
    if (helloError) return this.fail(`its hello frame is invalid (${helloError}): ${quote(line)}`, true);
    this.fail(`its first ${this.terms.unit} must be a hello frame ${this.terms.firstHint}, got: ${quote(line)}`, true);
  }

  private failStart(error: string): void {
    this.phase = "failed";
    this.note(`failed: ${error}`);
    this.error = this.mask(`extension "${this.name}" failed to start: ${error}${this.logPath ? ` (log: ${this.logPath})` : ""}`);
    this.markExited();
    this.settle();
    this.markFinished();
  }

  /** Load failure: the extension is stopped and will not be used. */
  private fail(reason: string, kill: boolean): void {
    if (this.gone) return;
    const where = this.logPath ? ` (log: ${this.logPath})` : "";
    this.note(`failed: ${reason}`);
    this.goneWith(`extension "${this.name}" failed to load: ${reason}${where}`, "failed");
    if (kill) this.signal("SIGKILL");
  }

  private onHung(bytes: number): void {
    const mib = Math.round(bytes / (1024 * 1024));
    this.note(`stopped: it is not reading its ${this.terms.input} (${mib} MiB queued)`);
    this.goneWith(
      `extension "${this.name}" stopped reading its input (more than ${mib} MiB queued) and was stopped (log: ${this.logPath})`,
      this.phase === "loaded" ? "exited" : "failed",
    );
    this.signal("SIGKILL");
  }

  private onProcessExit(exit: ExitInfo): void {
    this.exitInfo = exit;
    if (this.transport) this.note(`${this.terms.who} ${this.transport.ended(exit, null)}`);
    this.markExited();
    this.whenBothGone();
  }

  /** Output closed and process exited: gone. Only one of them: gone after a short grace. */
  private whenBothGone(): void {
    if (this.gone) return;
    if (this.inputClosed && this.exitInfo) return this.vanish();
    if (!this.lingerTimer) this.lingerTimer = setTimeout(() => this.vanish(), this.cfg.timings.lingerMs);
  }

  private vanish(): void {
    if (this.gone) return;
    const exit = this.exitInfo;
    const ended = (when: EndedWhen, otherwise: string) => (exit && this.transport ? this.transport.ended(exit, when) : otherwise);
    // Its last words on stderr usually say why ("Cannot find module …", a traceback's last line).
    const said = this.stopping ? "" : this.lastWords();
    const where = ` (log: ${this.logPath})`;
    if (this.phase === "hello") {
      const msg = ended("before hello", "closed its output before hello");
      this.note(`failed: ${msg}`);
      this.goneWith(`extension "${this.name}" failed to load: it ${msg}${said}${where}`, "failed");
    } else if (this.phase === "registering") {
      const msg = ended("during registration", "closed its output but is still running; it was stopped during registration");
      this.note(`failed: ${msg}`);
      this.goneWith(`extension "${this.name}" failed to load: it ${msg}${said}${where}`, "failed");
    } else {
      this.goneWith(`extension "${this.name}" ${ended(null, "closed its output but is still running; it was stopped")}${said}${where}`, "exited");
    }
    // Whatever it left behind (a lingering leader, orphaned children) goes with it.
    this.signal("SIGKILL");
  }

  /** `: "<last stderr line>"`, or nothing when it wrote none this run. */
  private lastWords(): string {
    const words = this.log?.lastWords();
    if (!words) return "";
    const target = this.cfg.target;
    const denial = explainDenial(words, target.kind === "stdio" ? target.permissions : null);
    return `: ${JSON.stringify(words)}${denial ? `; ${denial}` : ""}`;
  }

  private goneWith(reason: string, status: "failed" | "exited"): void {
    const message = this.mask(reason);
    const wasLoaded = this.phase === "loaded";
    this.phase = status;
    this.error = message;
    this.clearTimers();
    if (this.lingerTimer) clearTimeout(this.lingerTimer);
    this.transport?.drop();
    // Every waiting call fails now, not at its own deadline.
    for (const p of [...this.pending.values()]) p.resolve({ ok: false, kind: "gone", error: message });
    this.settle();
    this.markFinished();
    if (wasLoaded && !this.stopping) this.cfg.onExit(this, message);
  }

  private clearTimers(): void {
    for (const t of [this.helloTimer, this.graceTimer, this.maxTimer]) if (t) clearTimeout(t);
    this.helloTimer = this.graceTimer = this.maxTimer = null;
  }
}

/**
 * Stops connections the host's way: `shutdown` and end of input to all, one shared grace period,
 * SIGTERM to the groups still running, SIGKILL to every group after `killAfterMs` (grandchildren
 * too), logs closed. Returns the connections that had to be sent SIGTERM.
 */
export async function stopConnections(conns: readonly Connection[], timings: { shutdownGraceMs: number; killAfterMs: number }): Promise<Connection[]> {
  for (const c of conns) c.beginShutdown();
  await within(Promise.all(conns.map((c) => c.exited)), timings.shutdownGraceMs);
  const left = conns.filter((c) => !c.hasExited);
  for (const c of left) {
    c.note("did not exit within the shutdown grace period; sending SIGTERM");
    c.signal("SIGTERM");
  }
  if (left.length) await within(Promise.all(left.map((c) => c.exited)), timings.killAfterMs);
  for (const c of conns) c.signal("SIGKILL");
  await within(Promise.all(conns.map((c) => c.exited)), timings.killAfterMs);
  for (const c of conns) c.closeLog();
  return left;
}

function quote(line: string): string {
  return line.length > 120 ? `${JSON.stringify(line.slice(0, 120))}…` : JSON.stringify(line);
}
