// The extension host: owns every extension process, decides which registrations win, and offers the
// agent loop and the modes one narrow, UI-agnostic interface (`ExtensionHost` in types.ts).
import { Connection, stopConnections } from "./connection/connection.ts";
import type { Reply } from "./connection/connection.ts";
import { discover } from "./discovery.ts";
import { runIntercepts } from "./intercept.ts";
import type { AskResult, Interceptor } from "./intercept.ts";
import { noteNotStarted } from "./connection/log.ts";
import { heldPowers, missingPower, type Power } from "./powers.ts";
import { unmasked } from "./mask.ts";
import type { Mask } from "./mask.ts";
import type {
  CommandResponseFrame,
  EventInterceptFrame,
  EventInterceptResponseFrame,
  InterceptName,
  JsonObject,
  PanelKeyName,
  ToolResultFrame,
} from "../protocol.ts";
import { changeSettings, effectiveSettings, readStored, secretValues, writeStored } from "./install/settings.ts";
import { resolve as resolveRegistry } from "./registry.ts";
import { extensionState } from "./state.ts";
import type { ExtensionRegs, Resolution } from "./registry.ts";
import { DEFAULT_TIMINGS } from "./connection/timings.ts";
import type { HostTimings } from "./connection/timings.ts";
import { Trace } from "./connection/trace.ts";
import { Replaying } from "../replaying.ts";
import { targetOf } from "./connection/transport.ts";
import type {
  ActiveAgent,
  ActiveCommand,
  ActiveTool,
  CallToolOptions,
  DiscoveredExtension,
  EmitPayload,
  ExtensionHost,
  ExtensionState,
  HostInfo,
  InterceptPayload,
  InterceptResult,
  InvokeResult,
  LoadOptions,
  LoadReport,
  Theme,
  ToolCallResult,
  UiIntent,
} from "./types.ts";

export { commandIntents } from "./command-outcome.ts";
export { shutdownOnSignals } from "./signals.ts";
export { DEFAULT_TIMINGS } from "./connection/timings.ts";
export type { HostTimings } from "./connection/timings.ts";

type Entry = { disc: DiscoveredExtension; conn: Connection | null };

const EMPTY: Resolution = { commands: new Map(), tools: new Map(), conflicts: new Map() };

/** Intents kept while nobody listens (the oldest go first). */
export const MAX_UNHEARD_INTENTS = 200;

export class Host implements ExtensionHost {
  private readonly timings: HostTimings;
  private entries: Entry[] = [];
  private opts: LoadOptions | null = null;
  private info: HostInfo = { zotVersion: "", provider: "", model: "", cwd: process.cwd() };
  private trace: Trace | null = null;
  private mask: Mask = unmasked;
  /** Intents sent before the first listener (notes right after `ready`) are kept for it. */
  private readonly intents = new Replaying<UiIntent>(MAX_UNHEARD_INTENTS, (error, intent) => this.listenerFailed(error, intent));
  private registry: Resolution = EMPTY;
  private registryDirty = false;
  /** Deferred tools named in some `activate_tools`; lasts for the session, reloads included. */
  private readonly activated = new Set<string>();
  /** Open panel id → owning extension. */
  private readonly panels = new Map<string, string>();
  /** Conflict sentences already written to each extension's log. */
  private readonly loggedConflicts = new WeakMap<Connection, Set<string>>();
  /** WebSocket extensions waiting to be reconnected after their connection dropped. */
  private readonly reconnects = new Map<Entry, ReturnType<typeof setTimeout>>();
  private sessionStarted = false;
  private stopping: Promise<void> | null = null;
  private readonly exitGuard = () => this.killAllNow();

  /** `timings` is for tests and benchmarks; zot itself uses the defaults. */
  constructor(timings: Partial<HostTimings> = {}) {
    this.timings = { ...DEFAULT_TIMINGS, ...timings };
  }

  async load(opts: LoadOptions): Promise<LoadReport> {
    const mask = opts.mask ?? unmasked;
    let trace = this.trace;
    if (opts.traceFile && trace?.path !== opts.traceFile) {
      // Checked before anything is stopped or started: a run asked to trace that cannot is a usage error.
      const opened = Trace.open(opts.traceFile, mask);
      if (!opened.ok) return { extensions: [], errors: [], traceError: opened.error };
      trace = opened.trace;
    }
    if (this.entries.some((e) => e.conn)) await this.stop(this.entries);
    this.opts = opts;
    this.info = { ...opts.info };
    this.mask = mask;
    this.trace = trace;
    if (trace) trace.mask = mask;
    this.arm();
    this.entries = (await discover(opts)).map((disc) => ({ disc, conn: null }));
    await this.spawn(this.entries);
    return this.report(this.entries);
  }

  async reload(name?: string): Promise<LoadReport> {
    const opts = this.opts;
    if (!opts) return { extensions: [], errors: [{ extension: name ?? "", message: "extensions cannot be reloaded before they were loaded", log: "" }] };
    this.arm();
    if (name === undefined) {
      await this.stop(this.entries);
      this.entries = (await discover(opts)).map((disc) => ({ disc, conn: null }));
      await this.spawn(this.entries);
      this.resendSessionStart(this.entries);
      this.changed();
      return this.report(this.entries);
    }
    const key = name.toLowerCase();
    const fresh = (await discover(opts)).find((d) => d.name.toLowerCase() === key);
    const index = this.entries.findIndex((e) => e.disc.name.toLowerCase() === key);
    if (!fresh && index < 0) {
      const message = `no extension named "${name}" was found; run "zot ext list" to see what is installed`;
      return { extensions: [], errors: [{ extension: name, message, log: "" }] };
    }
    const old = index >= 0 ? this.entries[index] : null;
    if (old) await this.stop([old]);
    const entry: Entry = {
      disc: fresh ?? { ...old!.disc, status: "invalid", error: `its directory ${old!.disc.dir} no longer holds an extension named "${name}"` },
      conn: null,
    };
    if (index >= 0) this.entries[index] = entry;
    else this.entries.push(entry);
    await this.spawn([entry]);
    this.resendSessionStart([entry]);
    this.changed();
    return this.report([entry]);
  }

  shutdown(): Promise<void> {
    if (!this.stopping) {
      this.stopping = this.stop(this.entries).then(() => {
        process.off("exit", this.exitGuard);
        this.trace?.flush();
      });
    }
    return this.stopping;
  }

  setInfo(info: Partial<HostInfo>): void {
    this.info = { ...this.info, ...info };
  }

  states(): ExtensionState[] {
    const reg = this.resolution();
    return this.entries.map((e) => this.state(e, reg));
  }

  commands(): ActiveCommand[] {
    return [...this.resolution().commands.values()];
  }

  tools(): ActiveTool[] {
    return [...this.resolution().tools.values()].map((t) => ({
      name: t.name,
      description: t.description,
      schema: t.schema,
      deferred: t.deferred,
      active: !t.deferred || this.activated.has(t.name),
      extension: t.extension,
    }));
  }

  agents(): ActiveAgent[] {
    const out: ActiveAgent[] = [];
    for (const e of this.entries) if (e.conn?.running) for (const a of e.conn.agents) out.push({ ...a, extension: e.conn.name });
    return out;
  }

  themes(): Theme[] {
    return this.entries.flatMap((e) => (e.disc.theme ? [e.disc.theme] : []));
  }

  async invokeCommand(name: string, args: string): Promise<InvokeResult> {
    const key = name.replace(/^\//, "").toLowerCase();
    const cmd = this.resolution().commands.get(key);
    const conn = cmd && this.connection(cmd.extension);
    if (!cmd || !conn) return { ok: false, error: `no extension provides the command "/${name.replace(/^\//, "")}"` };
    const reply: Reply<CommandResponseFrame> = await conn.request(
      (id) => ({ type: "command_invoked", id, name: cmd.name, args: args.trim() }),
      "command_response",
      this.timings.commandMs,
      { what: `command "/${cmd.name}"` },
    );
    if (!reply.ok) return reply.kind === "gone" ? { ok: false, error: reply.error, gone: true } : { ok: false, error: reply.error };
    if (reply.frame.action === "prompt" && !this.holds(cmd.extension, "submit_prompts")) {
      const error = missingPower(cmd.extension, "submit_prompts", `submit a prompt from its command "/${cmd.name}"`);
      conn.note(error);
      return { ok: false, error };
    }
    if (reply.frame.action === "open_panel" && reply.frame.open_panel) this.claimPanel(reply.frame.open_panel.id, cmd.extension);
    return { ok: true, response: reply.frame, extension: cmd.extension };
  }

  async callTool(name: string, args: JsonObject, opts: CallToolOptions): Promise<ToolCallResult> {
    const tool = this.resolution().tools.get(name);
    const conn = tool && this.connection(tool.extension);
    if (!tool || !conn) return errorResult(`no extension provides the tool "${name}"`, "");
    const reply: Reply<ToolResultFrame> = await conn.request(
      (id) => ({
        type: "tool_call",
        id,
        name,
        args,
        ...(this.info.jail ? { jail: { root: this.info.jail } } : {}),
        ...(opts.agent ? { agent: opts.agent } : {}),
      }),
      "tool_result",
      opts.timeoutMs ?? this.timings.toolMs,
      { signal: opts.signal, onProgress: opts.onProgress, what: `tool "${name}"` },
    );
    if (!reply.ok) {
      const text =
        reply.kind === "cancelled"
          ? `tool "${name}" from extension "${tool.extension}" was cancelled`
          : reply.kind === "gone" || reply.kind === "invalid"
            ? `tool "${name}" failed: ${reply.error}`
            : reply.error;
      return errorResult(text, tool.extension);
    }
    const f = reply.frame;
    let activateTools = f.activate_tools;
    if (activateTools.length > 0 && !this.holds(tool.extension, "activate_tools")) {
      conn.note(`${missingPower(tool.extension, "activate_tools", `switch on the deferred tools ${activateTools.join(", ")}`)}; they stay off`);
      activateTools = [];
    }
    this.activate(activateTools);
    return { content: f.content, isError: f.is_error, activateTools, extension: tool.extension };
  }

  emit(payload: EmitPayload): void {
    if (payload.event === "session_start") this.sessionStarted = true;
    for (const e of this.entries) {
      if (e.conn?.running && e.conn.events.has(payload.event)) e.conn.send({ type: "event", ...payload });
    }
  }

  intercept(payload: InterceptPayload): Promise<InterceptResult> {
    const list: Interceptor[] = [];
    for (const e of this.entries) {
      const conn = e.conn;
      const spec = conn?.intercept.find((s) => s.event === payload.event);
      if (!conn || !spec) continue;
      list.push({
        extension: conn.name,
        spec,
        powers: heldPowers(e.disc.manifest?.permissions ?? null),
        ask: conn.running ? (p, timeoutMs) => ask(conn, p, timeoutMs) : null,
        warn: (m) => conn.warn(m),
      });
    }
    return runIntercepts(payload, list);
  }

  hasInterceptor(event: InterceptName): boolean {
    return this.entries.some((e) => e.conn?.intercept.some((s) => s.event === event && (e.conn!.running || s.on_timeout === "block")));
  }

  panelKey(panelId: string, key: PanelKeyName, text?: string): void {
    this.panelOwner(panelId)?.send(text === undefined ? { type: "panel_key", panel_id: panelId, key } : { type: "panel_key", panel_id: panelId, key, text });
  }

  panelClose(panelId: string): void {
    this.panelOwner(panelId)?.send({ type: "panel_close", panel_id: panelId });
    this.panels.delete(panelId);
  }

  panelResize(panelId: string, width: number, height: number): void {
    this.panelOwner(panelId)?.send({ type: "panel_resize", panel_id: panelId, width, height });
  }

  settings(name: string): ReturnType<ExtensionHost["settings"]> {
    const e = this.entryNamed(name);
    const m = e?.disc.manifest;
    if (!e || !m) return { ok: false, error: `no extension named "${name}" is loaded` };
    if (m.settings.length === 0) return { ok: false, error: `extension "${m.name}" declares no settings` };
    const read = readStored(this.opts!.home, m.name);
    if (!read.ok) return { ok: false, error: read.error };
    return { ok: true, extension: m.name, specs: m.settings, values: read.stored.values };
  }

  async configure(name: string, set: [string, string][], unset: string[]): ReturnType<ExtensionHost["configure"]> {
    const current = this.settings(name);
    if (!current.ok) return current;
    const home = this.opts!.home;
    const changed = changeSettings(current.extension, current.specs, { values: current.values, secrets: [] }, set, unset);
    if (!changed.ok) return changed;
    const written = writeStored(home, current.extension, changed.stored);
    if (!written.ok) return written;
    const e = this.entryNamed(name)!;
    const settings = effectiveSettings(current.specs, changed.stored).values;
    // A secret set now joins the mask before the frame that carries it is traced or logged.
    for (const v of secretValues(current.specs, settings)) this.opts!.onSecret?.(v);
    if (e.conn?.running) e.conn.send({ type: "settings_changed", settings });
    else if (e.disc.status === "needs_config") await this.reload(current.extension);
    return written;
  }

  private entryNamed(name: string): Entry | undefined {
    const key = name.toLowerCase();
    return this.entries.find((e) => e.disc.name.toLowerCase() === key && e.disc.status !== "shadowed");
  }

  /** The first listener also gets, in order, the intents sent while nobody listened. */
  onIntent(listener: (intent: UiIntent) => void): () => void {
    return this.intents.on(listener);
  }

  // ---------------------------------------------------------------- internals

  private async spawn(entries: Entry[]): Promise<void> {
    const opts = this.opts!;
    const started: Connection[] = [];
    for (const e of entries) {
      const m = e.disc.manifest;
      const target = m && targetOf(m);
      if (e.disc.status !== "spawn" || !m || !target) {
        noteNotStarted(opts.home, e.disc, this.mask);
        continue;
      }
      // Secrets handed over in hello_ack (changed by `zot ext config` since zot started) join the mask first.
      for (const v of secretValues(m.settings, e.disc.settings)) opts.onSecret?.(v);
      const conn = new Connection({
        name: m.name,
        version: m.version,
        dir: e.disc.dir,
        target,
        settings: m.settings.length > 0 ? (e.disc.settings ?? {}) : null,
        home: opts.home,
        info: () => this.info,
        trace: this.trace,
        mask: this.mask,
        ...(opts.onSecret ? { onSecret: opts.onSecret } : {}),
        timings: this.timings,
        onRegistration: (c) => this.onRegistration(c),
        onIntent: (i) => this.onConnectionIntent(i),
        onExit: (c, message) => this.onExit(c, message),
      });
      e.conn = conn;
      started.push(conn);
      conn.start();
    }
    // All in parallel: the wait is as long as the slowest extension, not the sum.
    await Promise.all(started.map((c) => c.settled));
    this.registryDirty = true;
    this.resolution();
  }

  /** Graceful stop, then SIGTERM, then SIGKILL — always to the whole group, so grandchildren go too. */
  private async stop(entries: Entry[]): Promise<void> {
    for (const e of entries) {
      clearTimeout(this.reconnects.get(e));
      this.reconnects.delete(e);
    }
    const conns: Connection[] = [];
    for (const e of entries) if (e.conn) conns.push(e.conn);
    for (const c of conns) {
      for (const [id, owner] of this.panels) {
        if (owner !== c.name) continue;
        this.panels.delete(id);
        this.send({ kind: "panel_close", extension: owner, panelId: id });
      }
    }
    await stopConnections(conns, this.timings);
    this.trace?.flush();
    this.registryDirty = true;
  }

  /** Processes are about to run: a later shutdown() must stop them, and so must zot's exit. */
  private arm(): void {
    this.stopping = null;
    process.off("exit", this.exitGuard);
    process.on("exit", this.exitGuard);
  }

  /** Last resort when zot exits without calling shutdown: nothing may outlive it. */
  private killAllNow(): void {
    for (const e of this.entries) e.conn?.signal("SIGKILL");
    this.trace?.flush();
  }

  /** Whether `extension` holds `power` (powers.ts): declared, or everything for one without `permissions`. */
  private holds(extension: string, power: Power): boolean {
    const m = this.entries.find((x) => x.conn?.name === extension)?.disc.manifest;
    return m !== undefined && m !== null && heldPowers(m.permissions).has(power);
  }

  private connection(extension: string): Connection | null {
    const e = this.entries.find((x) => x.conn?.name === extension);
    return e?.conn?.running ? e.conn : null;
  }

  /** One panel at a time per id: a second extension opening the same id ends the first one's panel. */
  private claimPanel(panelId: string, extension: string): void {
    const previous = this.panels.get(panelId);
    if (previous !== undefined && previous !== extension) this.connection(previous)?.send({ type: "panel_close", panel_id: panelId });
    this.panels.set(panelId, extension);
  }

  private panelOwner(panelId: string): Connection | null {
    const owner = this.panels.get(panelId);
    return owner ? this.connection(owner) : null;
  }

  private onRegistration(conn: Connection): void {
    this.registryDirty = true;
    // A late registration (after load) is usable at once; tell the modes.
    if (conn.status === "ready" || conn.status === "auto_ready") this.changed();
  }

  private onConnectionIntent(intent: UiIntent): void {
    if (intent.kind === "submit" && !this.holds(intent.extension, "submit_prompts")) {
      const message = `${missingPower(intent.extension, "submit_prompts", "submit a prompt")}; the prompt was dropped`;
      this.entries.find((e) => e.conn?.name === intent.extension)?.conn?.note(message);
      this.send({ kind: "notify", extension: intent.extension, level: "warn", message });
      return;
    }
    // Only the owner's panel_close ends the routing; another extension naming the id changes nothing here.
    if (intent.kind === "panel_close" && this.panels.get(intent.panelId) === intent.extension) this.panels.delete(intent.panelId);
    this.send(intent);
  }

  private onExit(conn: Connection, message: string): void {
    for (const [id, owner] of this.panels) {
      if (owner !== conn.name) continue;
      this.panels.delete(id);
      this.send({ kind: "panel_close", extension: owner, panelId: id });
    }
    const entry = this.entries.find((e) => e.conn === conn);
    const remote = entry?.disc.manifest?.transport;
    this.send({ kind: "extension_exited", extension: conn.name, message: remote ? `${message}; zot reconnects when it is back` : message });
    this.changed();
    if (entry && remote) this.reconnect(entry, this.timings.reconnectMs);
  }

  /**
   * A WebSocket extension whose connection dropped is a crash like any other, but its process lives
   * on elsewhere and may come back (an editor restarting): zot connects again with backoff and, once
   * it is back, uses its registrations as after a reload. Stops with shutdown, reload or a success.
   */
  private reconnect(entry: Entry, delayMs: number): void {
    const timer = setTimeout(async () => {
      this.reconnects.delete(entry);
      if (this.stopping || !this.entries.includes(entry)) return;
      entry.conn?.closeLog();
      await this.spawn([entry]);
      const conn = entry.conn;
      if (this.stopping || !this.entries.includes(entry) || !conn) return;
      if (!conn.running) {
        const next = Math.min(delayMs * 2, this.timings.reconnectMaxMs);
        conn.note(`reconnect failed; trying again in ${Math.round(next / 100) / 10}s`);
        return this.reconnect(entry, next);
      }
      this.resendSessionStart([entry]);
      this.changed();
      this.send({ kind: "notify", extension: conn.name, level: "info", message: `reconnected to ${entry.disc.manifest!.transport!.url}` });
    }, delayMs);
    // A pending reconnect must not keep zot running.
    timer.unref?.();
    this.reconnects.set(entry, timer);
  }

  private changed(): void {
    this.registryDirty = true;
    this.resolution();
    this.send({ kind: "registry_changed" });
  }

  private send(intent: UiIntent): void {
    this.intents.emit(intent);
  }

  /** A mode's listener threw: the host and the other listeners go on, and the failure is written down. */
  private listenerFailed(error: unknown, intent: UiIntent): void {
    const text = `a UI listener failed on a ${intent.kind} intent: ${error instanceof Error ? error.message : String(error)}`;
    const conn = "extension" in intent ? this.entries.find((e) => e.conn?.name === intent.extension)?.conn : undefined;
    if (conn) conn.note(text);
    else process.stderr.write(`zot: ${this.mask(text)}\n`);
  }

  private activate(names: string[]): void {
    const tools = this.resolution().tools;
    let changed = false;
    for (const n of names) {
      const t = tools.get(n);
      if (!t?.deferred || this.activated.has(n)) continue;
      this.activated.add(n);
      changed = true;
    }
    if (changed) this.send({ kind: "registry_changed" });
  }

  private resendSessionStart(entries: Entry[]): void {
    if (!this.sessionStarted) return;
    for (const e of entries) if (e.conn?.running && e.conn.events.has("session_start")) e.conn.send({ type: "event", event: "session_start" });
  }

  /** Recomputes winners when registrations changed, and logs new conflicts to the losers' logs. */
  private resolution(): Resolution {
    if (!this.registryDirty) return this.registry;
    this.registryDirty = false;
    const regs: ExtensionRegs[] = [];
    for (const e of this.entries) {
      if (e.conn?.running) regs.push({ extension: e.conn.name, commands: e.conn.commands, tools: e.conn.tools });
    }
    this.registry = resolveRegistry(regs);
    for (const e of this.entries) {
      const conn = e.conn;
      if (!conn) continue;
      let logged = this.loggedConflicts.get(conn);
      if (!logged) this.loggedConflicts.set(conn, (logged = new Set()));
      for (const c of this.registry.conflicts.get(conn.name) ?? []) {
        if (logged.has(c)) continue;
        logged.add(c);
        conn.note(`conflict: ${c}`);
      }
    }
    return this.registry;
  }

  private state(e: Entry, reg: Resolution): ExtensionState {
    return extensionState(e.disc, e.conn, reg, this.opts?.home ?? null);
  }

  private report(entries: Entry[]): LoadReport {
    const reg = this.resolution();
    const extensions = entries.map((e) => this.state(e, reg));
    const errors = extensions
      .filter((s) => (s.status === "failed" || s.status === "invalid") && s.error)
      .map((s) => ({ extension: s.name, message: s.error!, log: s.log }));
    return { extensions, errors };
  }
}

function errorResult(text: string, extension: string): ToolCallResult {
  return { content: [{ type: "text", text }], isError: true, activateTools: [], extension };
}

async function ask(conn: Connection, payload: InterceptPayload, timeoutMs: number): Promise<AskResult> {
  const reply: Reply<EventInterceptResponseFrame> = await conn.request(
    (id): EventInterceptFrame => ({ type: "event_intercept", id, ...payload }),
    "event_intercept_response",
    timeoutMs,
    { what: `the ${payload.event} interception` },
  );
  if (reply.ok) return { kind: "answer", frame: reply.frame };
  if (reply.kind === "timeout") return { kind: "timeout" };
  // Gone, or answered with a malformed frame: no usable answer, which a fail-closed interceptor turns into a block.
  return { kind: "gone", error: reply.error };
}
