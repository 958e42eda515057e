// The Extension class: collects registrations, performs the handshake, dispatches host frames to
// handlers (each request concurrently, each answered exactly once), and exits on shutdown or EOF —
// or, in WebSocket mode, serves one zot connection after another and ends each on shutdown.
import {
  COMMAND_ACTIONS,
  DEFAULT_INTERCEPT_TIMEOUT_MS,
  decodeHostFrame,
  type AgentRef,
  type RegisterAgentFrame,
  type CommandAction,
  type CommandResponseFrame,
  type EventInterceptFrame,
  type EventInterceptResponseFrame,
  type EventFrame,
  type EventName,
  type HelloAckFrame,
  type InterceptName,
  type WireSubscribeFrame,
  type NotifyLevel,
} from "../../../src/protocol.ts";
import { isObject, type JsonObject } from "../../../src/json.ts";
import { readLines, takeStdout, type Stdio } from "./stdio.ts";
import { listen, type Listening, type Peer } from "./websocket.ts";
import type {
  AgentOptions,
  AssistantMessageDecision,
  AssistantMessageIntercept,
  CommandHandler,
  CommandResponse,
  EventHandler,
  EventPayloads,
  HostInfo,
  InterceptOptions,
  Interceptor,
  PanelKey,
  PanelSize,
  PanelUpdate,
  ToolCallDecision,
  ToolCallIntercept,
  ToolHandler,
  ToolOptions,
  ToolResult,
  ToolResultDecision,
  ToolResultIntercept,
  TurnStartDecision,
  TurnStartIntercept,
  ListenOptions,
} from "./types.ts";

type Command = { name: string; description: string; handler: CommandHandler };
type Tool = { name: string; description: string; schema: JsonObject; handler: ToolHandler; deferred: boolean };
type Agent = { name: string; description: string; prompt: string; options: AgentOptions };
/** The union of all decision shapes; each interceptor only sets the fields its event allows. */
type AnyDecision = {
  block?: boolean;
  reason?: string;
  modifiedArgs?: JsonObject;
  replaceText?: string;
  replaceContent?: ToolResult["content"];
  isError?: boolean;
};
type InterceptEntry = { handler: (frame: EventInterceptFrame) => AnyDecision | void | Promise<AnyDecision | void>; options: InterceptOptions };

const SHUTDOWN_GRACE_MS = 1500;
/** The host's own line limit: a larger frame would be dropped there anyway. */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** Where frames go: stdout, or the WebSocket zot connected over; `end` closes it after shutdown. */
type Sink = Stdio & { end(): void };

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export class Extension {
  readonly name: string;
  readonly version: string;
  /** Set once `hello_ack` has arrived. */
  host: HostInfo | null = null;

  private readonly commands = new Map<string, Command>();
  private readonly tools = new Map<string, Tool>();
  private readonly agents = new Map<string, Agent>();
  private readonly events = new Map<EventName, ((payload: never) => void | Promise<void>)[]>();
  private readonly intercepts = new Map<InterceptName, InterceptEntry>();
  private readonly helloHandlers: ((host: HostInfo) => void | Promise<void>)[] = [];
  private readonly panelKeyHandlers: ((key: PanelKey) => void | Promise<void>)[] = [];
  private readonly panelCloseHandlers: ((panelId: string) => void | Promise<void>)[] = [];
  private readonly panelResizeHandlers: ((size: PanelSize) => void | Promise<void>)[] = [];
  private readonly settingsHandlers: ((settings: JsonObject) => void | Promise<void>)[] = [];
  private readonly running = new Map<string, AbortController>();
  /** Requests still being handled; shutdown waits a little for them so each still gets its reply. */
  private readonly inFlight = new Set<Promise<void>>();
  private io: Sink;
  /** A host is connected and has been sent hello (stdio: from run() on). */
  private started = false;
  /** WebSocket mode: `listen()` was called. */
  private listening = false;
  private announced = false;
  private ended = false;

  /** Takes over stdout at once, so console output between here and `run()` cannot corrupt the stream. */
  constructor(name: string, version = "0.0.0") {
    this.name = name;
    this.version = version;
    this.io = { ...takeStdout(), end: () => process.exit(0) };
  }

  // ------------------------------------------------------------ registration

  /** A slash command. Registered after `run()` starts, it is announced at once (a late registration). */
  command(name: string, description: string, handler: CommandHandler): this {
    this.commands.set(name, { name, description, handler });
    if (this.announced) this.send({ type: "register_command", name, description });
    return this;
  }

  /** An LLM-callable tool; `schema` is a JSON Schema object. `deferred` tools wait for `activateTools`. */
  tool(name: string, description: string, schema: JsonObject, handler: ToolHandler, options: ToolOptions = {}): this {
    const tool: Tool = { name, description, schema, handler, deferred: options.deferred ?? false };
    this.tools.set(name, tool);
    if (this.announced) this.send({ type: "register_tool", name, description, schema, deferred: tool.deferred });
    return this;
  }

  /**
   * An agent zot's `task` tool can run (zot addition, capability `agents`): `prompt` is its system
   * prompt; the model picks agents by `description`.
   */
  agent(name: string, description: string, prompt: string, options: AgentOptions = {}): this {
    const agent: Agent = { name, description, prompt, options };
    this.agents.set(name, agent);
    if (this.announced) this.send(agentFrame(agent));
    return this;
  }

  /** Runs after `hello_ack`, before registrations are announced; register host-dependent things here. */
  onHello(handler: (host: HostInfo) => void | Promise<void>): this {
    this.helloHandlers.push(handler);
    return this;
  }

  /** Runs when the user changes this extension's settings; `host.settings` already holds the new values. */
  onSettingsChanged(handler: (settings: JsonObject) => void | Promise<void>): this {
    this.settingsHandlers.push(handler);
    return this;
  }

  /** Observes a lifecycle event (one-way; errors are logged to stderr). */
  on<E extends EventName>(event: E, handler: EventHandler<E>): this {
    const list = this.events.get(event) ?? [];
    list.push(handler as (payload: never) => void | Promise<void>);
    this.events.set(event, list);
    if (this.announced) this.send(this.subscribeFrame());
    return this;
  }

  /** Block a tool call (the model sees `reason`) or rewrite its args. One interceptor per event; a later call replaces it. */
  interceptToolCall(handler: Interceptor<ToolCallIntercept, ToolCallDecision>, options: InterceptOptions = {}): this {
    return this.intercept("tool_call", options, (f) =>
      f.event === "tool_call" ? handler({ toolId: f.tool_id, toolName: f.tool_name, toolArgs: f.tool_args, ...byAgent(f) }) : undefined,
    );
  }

  /** Block a turn before the model is called (`reason` is shown to the user). */
  interceptTurnStart(handler: Interceptor<TurnStartIntercept, TurnStartDecision>, options: InterceptOptions = {}): this {
    return this.intercept("turn_start", options, (f) => (f.event === "turn_start" ? handler({ step: f.step, ...byAgent(f) }) : undefined));
  }

  /** Suppress or rewrite the user-visible assistant text (the transcript keeps the original). */
  interceptAssistantMessage(handler: Interceptor<AssistantMessageIntercept, AssistantMessageDecision>, options: InterceptOptions = {}): this {
    return this.intercept("assistant_message", options, (f) => (f.event === "assistant_message" ? handler({ text: f.text, ...byAgent(f) }) : undefined));
  }

  /** Rewrite or block a tool's result before the model sees it (zot addition). */
  interceptToolResult(handler: Interceptor<ToolResultIntercept, ToolResultDecision>, options: InterceptOptions = {}): this {
    return this.intercept("tool_result", options, (f) =>
      f.event === "tool_result"
        ? handler({ toolId: f.tool_id, toolName: f.tool_name, toolArgs: f.tool_args, content: f.content, isError: f.is_error, ...byAgent(f) })
        : undefined,
    );
  }

  onPanelKey(handler: (key: PanelKey) => void | Promise<void>): this {
    this.panelKeyHandlers.push(handler);
    return this;
  }

  /** The user closed a panel from zot; stop rendering it. */
  onPanelClose(handler: (panelId: string) => void | Promise<void>): this {
    this.panelCloseHandlers.push(handler);
    return this;
  }

  /** The panel's drawable size, sent on open and on terminal resize (zot addition). */
  onPanelResize(handler: (size: PanelSize) => void | Promise<void>): this {
    this.panelResizeHandlers.push(handler);
    return this;
  }

  // ------------------------------------------------------------ one-way frames

  notify(level: NotifyLevel, message: string): void {
    this.send({ type: "notify", level, message });
  }

  /** Removes every note this extension pushed. */
  clearNotes(): void {
    this.send({ type: "clear_notes" });
  }

  /** Submits `text` as a user prompt (queued if a turn is running; ignored outside the TUI). */
  submit(text: string): void {
    this.send({ type: "submit", text });
  }

  /** Redraws an open panel; omitted fields keep their current value. */
  render(panelId: string, update: PanelUpdate): void {
    this.send({ type: "panel_render", panel_id: panelId, ...update });
  }

  /** Closes a panel this extension opened. */
  close(panelId: string): void {
    this.send({ type: "panel_close", panel_id: panelId });
  }

  // ------------------------------------------------------------ lifecycle

  /**
   * Sends `hello`, serves host frames, and exits the process on `shutdown` (after `shutdown_ack`) or at
   * end of input. The returned promise only settles if the process is kept alive by the caller's own code.
   */
  run(): Promise<void> {
    if (this.started) return Promise.resolve();
    this.begin(this.io);
    return new Promise((resolve) => {
      readLines(
        (line) => this.receive(line),
        () => void this.exit(false).then(resolve),
      );
    });
  }

  /**
   * WebSocket mode: instead of stdio, listens on `hostname:port` (default 127.0.0.1) for zot, which
   * connects when its manifest has `"transport": {"type": "websocket", …}`. Each connection is one
   * session (hello, registrations, requests) that ends on `shutdown` or when zot goes away; the
   * process keeps serving the next one. A connection whose bearer token differs from the value of
   * `$tokenEnv` is refused with HTTP 401; a second zot while one is connected, with 409.
   */
  async listen(opts: ListenOptions): Promise<Listening> {
    const token = process.env[opts.tokenEnv];
    if (!token)
      throw new Error(`${this.name}: ${opts.tokenEnv} is not set; set it to the token zot sends (the variable zot's manifest names in transport.token_env)`);
    this.listening = true;
    let current: Peer | null = null;
    return listen(
      { hostname: opts.hostname ?? "127.0.0.1", port: opts.port, token, maxMessageBytes: MAX_MESSAGE_BYTES },
      {
        accepting: () => current === null,
        open: (peer) => {
          current = peer;
          this.begin({ send: (frame) => peer.send(JSON.stringify(frame)), flush: async () => {}, end: () => peer.close(1000, "shutdown") });
        },
        message: (peer, text) => {
          if (peer === current && text.trim()) this.receive(text.trim());
        },
        closed: (peer) => {
          if (peer !== current) return;
          current = null;
          this.endSession();
        },
      },
    );
  }

  /** A host is there: say hello over `io`. */
  private begin(io: Sink): void {
    this.io = io;
    this.started = true;
    this.announced = false;
    this.ended = false;
    this.host = null;
    const capabilities: string[] = [];
    if (this.commands.size) capabilities.push("commands");
    if (this.tools.size) capabilities.push("tools");
    if (this.events.size || this.intercepts.size) capabilities.push("events");
    if (this.panelKeyHandlers.length || this.panelCloseHandlers.length) capabilities.push("panels");
    this.send({ type: "hello", name: this.name, version: this.version, capabilities });
  }

  /** The host went away (WebSocket mode): running tools are cancelled; frames wait for the next hello. */
  private endSession(): void {
    this.started = false;
    this.announced = false;
    for (const controller of this.running.values()) controller.abort(new Error("zot disconnected"));
  }

  private receive(line: string): void {
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      console.error(`[${this.name}] ignored a line from the host that is not JSON: ${line.slice(0, 200)}`);
      return;
    }
    const decoded = decodeHostFrame(raw);
    // Unknown frames are ignored so newer hosts can add frames without breaking older extensions.
    if (!decoded.ok) return "unknownType" in decoded ? undefined : this.refuse(raw, decoded.error);
    const frame = decoded.value;
    switch (frame.type) {
      case "hello_ack":
        void this.handshake(frame);
        return;
      case "command_invoked":
        this.track(this.runCommand(frame.id, frame.name, frame.args));
        return;
      case "tool_call":
        this.track(this.runTool(frame.id, frame.name, frame.args, frame.agent));
        return;
      case "tool_cancel":
        this.running.get(frame.id)?.abort(new Error("cancelled by the host"));
        return;
      case "event":
        this.dispatchEvent(frame);
        return;
      case "event_intercept":
        this.track(this.runIntercept(frame));
        return;
      case "panel_key":
        this.fanOut(this.panelKeyHandlers, { panelId: frame.panel_id, key: frame.key, text: frame.text });
        return;
      case "panel_close":
        this.fanOut(this.panelCloseHandlers, frame.panel_id);
        return;
      case "panel_resize":
        this.fanOut(this.panelResizeHandlers, { panelId: frame.panel_id, width: frame.width, height: frame.height });
        return;
      case "shutdown":
        void this.exit(true);
        return;
      case "settings_changed":
        if (this.host) this.host.settings = frame.settings;
        this.fanOut(this.settingsHandlers, frame.settings);
        return;
    }
  }

  /**
   * A malformed frame is logged; when it was a request (it carries an id), it still gets exactly one
   * answer, so the host is not left waiting for its deadline.
   */
  private refuse(raw: unknown, error: string): void {
    console.error(`[${this.name}] ignored an invalid frame from the host: ${error}`);
    if (!isObject(raw) || typeof raw.id !== "string") return;
    const id = raw.id;
    const why = `${this.name} could not read the request: ${error}`;
    if (raw.type === "command_invoked") this.send({ type: "command_response", id, action: "noop", error: why });
    else if (raw.type === "tool_call") this.send({ type: "tool_result", id, content: [{ type: "text", text: why }], is_error: true, activate_tools: [] });
    else if (raw.type === "event_intercept") this.send({ type: "event_intercept_response", id, block: false, reason: "" });
  }

  private async handshake(ack: HelloAckFrame): Promise<void> {
    const host: HostInfo = {
      protocolVersion: ack.protocol_version,
      zotVersion: ack.zot_version,
      provider: ack.provider,
      model: ack.model,
      cwd: ack.cwd,
      extensionDir: ack.extension_dir,
      dataDir: ack.data_dir,
      capabilities: ack.capabilities,
      settings: ack.settings ?? {},
    };
    this.host = host;
    for (const handler of this.helloHandlers) {
      try {
        await handler(host);
      } catch (e) {
        console.error(`[${this.name}] onHello handler failed: ${errorText(e)}`);
      }
    }
    for (const c of this.commands.values()) this.send({ type: "register_command", name: c.name, description: c.description });
    for (const t of this.tools.values()) this.send({ type: "register_tool", name: t.name, description: t.description, schema: t.schema, deferred: t.deferred });
    for (const a of this.agents.values()) this.send(agentFrame(a));
    if (this.events.size || this.intercepts.size) this.send(this.subscribeFrame());
    this.send({ type: "ready" });
    this.announced = true;
  }

  private subscribeFrame(): WireSubscribeFrame {
    const intercept: WireSubscribeFrame["intercept"] = [];
    for (const [event, { options }] of this.intercepts) {
      // A plain name keeps the frame readable by hosts that only know the spec's string form.
      if (options.timeoutMs === undefined && options.onTimeout === undefined) intercept.push(event);
      else intercept.push({ event, timeout_ms: options.timeoutMs ?? DEFAULT_INTERCEPT_TIMEOUT_MS, on_timeout: options.onTimeout ?? "allow" });
    }
    return { type: "subscribe", events: [...this.events.keys()], intercept };
  }

  private intercept(event: InterceptName, options: InterceptOptions, handler: InterceptEntry["handler"]): this {
    this.intercepts.set(event, { handler, options });
    if (this.announced) this.send(this.subscribeFrame());
    return this;
  }

  private async runCommand(id: string, name: string, args: string): Promise<void> {
    const command = this.commands.get(name) ?? [...this.commands.values()].find((c) => c.name.toLowerCase() === name.toLowerCase());
    let response: CommandResponse;
    if (!command) {
      response = { action: "noop", error: `${this.name}: unknown command "/${name}"` };
    } else {
      try {
        const out: unknown = (await command.handler(args, { id, name: command.name })) ?? { action: "noop" };
        // Plain-JS handlers are unchecked; anything that is not a response helper's value is an error.
        response = isResponse(out)
          ? out
          : {
              action: "noop",
              error: `/${command.name} returned ${JSON.stringify(out)?.slice(0, 80)}, not prompt()/insert()/display()/openPanel()/noop()/error()`,
            };
      } catch (e) {
        response = { action: "noop", error: `/${command.name} failed: ${errorText(e)}` };
      }
    }
    const frame: CommandResponseFrame = { type: "command_response", id, action: response.action };
    if (response.prompt !== undefined) frame.prompt = response.prompt;
    if (response.insert !== undefined) frame.insert = response.insert;
    if (response.display !== undefined) frame.display = response.display;
    if (response.openPanel !== undefined) frame.open_panel = response.openPanel;
    if (response.error !== undefined) frame.error = response.error;
    this.send(frame);
  }

  private async runTool(id: string, name: string, args: JsonObject, agent: AgentRef | undefined): Promise<void> {
    const tool = this.tools.get(name);
    let result: ToolResult;
    if (!tool) {
      result = { content: [{ type: "text", text: `${this.name} has no tool named "${name}"` }], isError: true };
    } else {
      const controller = new AbortController();
      this.running.set(id, controller);
      try {
        const out = await tool.handler(args, {
          id,
          ...(agent ? { agent } : {}),
          signal: controller.signal,
          progress: (text) => {
            if (!controller.signal.aborted) this.send({ type: "tool_progress", id, text });
          },
        });
        result = typeof out === "string" ? { content: [{ type: "text", text: out }] } : out;
      } catch (e) {
        result = { content: [{ type: "text", text: `${name} failed: ${errorText(e)}` }], isError: true };
      } finally {
        this.running.delete(id);
      }
    }
    this.send({
      type: "tool_result",
      id,
      content: Array.isArray(result?.content) ? result.content : [],
      is_error: result?.isError ?? false,
      activate_tools: result?.activateTools ?? [],
    });
  }

  private async runIntercept(frame: EventInterceptFrame): Promise<void> {
    const entry = this.intercepts.get(frame.event);
    let decision: AnyDecision = {};
    if (entry) {
      try {
        decision = (await entry.handler(frame)) ?? {};
      } catch (e) {
        const failClosed = entry.options.onTimeout === "block";
        console.error(`[${this.name}] ${frame.event} interceptor failed: ${errorText(e)}`);
        decision = failClosed ? { block: true, reason: `${this.name}: ${frame.event} interceptor failed (${errorText(e)}); blocked (fail-closed)` } : {};
      }
    }
    const reply: EventInterceptResponseFrame = {
      type: "event_intercept_response",
      id: frame.id,
      block: decision.block ?? false,
      reason: decision.reason ?? "",
    };
    if (decision.modifiedArgs !== undefined) reply.modified_args = decision.modifiedArgs;
    if (decision.replaceText !== undefined) reply.replace_text = decision.replaceText;
    if (decision.replaceContent !== undefined) reply.replace_content = decision.replaceContent;
    if (decision.isError !== undefined) reply.is_error = decision.isError;
    this.send(reply);
  }

  private dispatchEvent(frame: EventFrame): void {
    const handlers = this.events.get(frame.event);
    if (!handlers) return;
    this.fanOut(handlers as ((p: EventPayloads[EventName]) => void | Promise<void>)[], eventPayload(frame));
  }

  private fanOut<T>(handlers: ((value: T) => void | Promise<void>)[], value: T): void {
    for (const handler of handlers) {
      void (async () => {
        try {
          await handler(value);
        } catch (e) {
          console.error(`[${this.name}] handler failed: ${errorText(e)}`);
        }
      })();
    }
  }

  private send(frame: Parameters<Stdio["send"]>[0]): void {
    // Nothing may precede hello; in WebSocket mode, registrations made while no zot is connected
    // are announced after the next hello.
    if (this.started) this.io.send(frame);
    else if (!this.listening) console.error(`[${this.name}] dropped a ${frame.type} frame sent before run()`);
  }

  private track(request: Promise<void>): void {
    this.inFlight.add(request);
    void request.finally(() => this.inFlight.delete(request));
  }

  /** The host gives 2 s between `shutdown` and SIGTERM; in-flight replies get most of that. */
  private async exit(ack: boolean): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    for (const controller of this.running.values()) controller.abort(new Error("the host is shutting down"));
    if (this.inFlight.size) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_GRACE_MS)));
      await Promise.race([Promise.allSettled([...this.inFlight]), grace]);
      clearTimeout(timer);
    }
    if (ack) this.send({ type: "shutdown_ack" });
    await this.io.flush();
    this.io.end();
  }
}

function isResponse(v: unknown): v is CommandResponse {
  return typeof v === "object" && v !== null && COMMAND_ACTIONS.includes((v as { action?: unknown }).action as CommandAction);
}

/** The frame's `agent`, when a subagent sent it, as a field to spread. */
function byAgent(frame: { agent?: AgentRef }): { agent?: AgentRef } {
  return frame.agent ? { agent: frame.agent } : {};
}

function agentFrame(a: Agent): RegisterAgentFrame {
  const { tools, model, reasoning } = a.options;
  return {
    type: "register_agent",
    name: a.name,
    description: a.description,
    prompt: a.prompt,
    ...(tools ? { tools } : {}),
    ...(model ? { model } : {}),
    ...(reasoning ? { reasoning } : {}),
  };
}

function eventPayload(frame: EventFrame): EventPayloads[EventName] {
  switch (frame.event) {
    case "session_start":
      return {};
    case "turn_start":
      return { step: frame.step, ...byAgent(frame) };
    case "turn_end":
      return { stop: frame.stop, ...(frame.error === undefined ? {} : { error: frame.error }), ...byAgent(frame) };
    case "tool_call":
      return { toolId: frame.tool_id, toolName: frame.tool_name, toolArgs: frame.tool_args, ...byAgent(frame) };
    case "tool_confirmation_requested":
      return { toolId: frame.tool_id, toolName: frame.tool_name, toolPreview: frame.tool_preview, ...byAgent(frame) };
    case "assistant_message":
      return { text: frame.text, ...byAgent(frame) };
    case "checkpoint":
      return { checkpoint: frame.checkpoint, files: frame.files };
    case "rewind":
      return frame.prompt === undefined ? { restore: frame.restore, files: frame.files } : { restore: frame.restore, prompt: frame.prompt, files: frame.files };
    case "todo":
      return { items: frame.items };
  }
}
