// One configured MCP server from start to shutdown: its transport and client, the tools, prompts and
// resources it lists (refreshed when it says they changed), its calls, and the state `zot mcp
// doctor` reports.
import type { Result } from "../result.ts";
import { mcpLogPath } from "../platform/home.ts";
import { ExtensionLog } from "../ext/connection/log.ts";
import type { Mask } from "../ext/mask.ts";
import { isObject } from "../json.ts";
import type { ContentBlock, Json, JsonObject } from "../protocol.ts";
import { McpClient } from "./client.ts";
import type { Answer, Elicitor, Negotiated } from "./client.ts";
import { targetOf } from "./config.ts";
import type { HttpConfig, ServerConfig } from "./config.ts";
import { HttpTransport, paramHeaders } from "./http.ts";
import type { HttpAuth } from "./http.ts";
import { describeAuth, OAuthBearer, oauthApplies } from "./oauth/bearer.ts";
import { ServiceCredentials } from "./oauth/service.ts";
import { StdioTransport } from "./stdio.ts";
import { checkMcpTool, exposedName, mapToolResult, resourceText } from "./tools.ts";
import type { McpTool } from "./tools.ts";
import type { Transport } from "./transport.ts";

export type McpPrompt = { name: string; remote: string; description: string; arguments: { name: string; required: boolean; description: string }[] };
export type McpResource = { uri: string; name: string; description: string; mimeType: string };

export type ServerStatus = "starting" | "ready" | "failed" | "invalid" | "disabled" | "shadowed" | "exited";

/** What `zot mcp doctor`, `zot mcp list` and `zot ext doctor` show for one server. */
export type ServerState = {
  name: string;
  source: ServerConfig["source"];
  file: string;
  transport: "stdio" | "http" | null;
  target: string;
  status: ServerStatus;
  error: string | null;
  era: Negotiated["era"] | null;
  protocolVersion: string | null;
  serverInfo: { name: string; version: string } | null;
  tools: { name: string; remote: string; deferred: boolean }[];
  prompts: string[];
  resources: string[];
  warnings: string[];
  log: string;
  startupMs: number | null;
  shadowedBy?: string;
  /** OAuth, for an HTTP server whose config sets no Authorization header: "oauth: logged in (…)" or "needs login: …". */
  auth?: string;
};

export type ServerDeps = {
  home: string;
  cwd: string;
  mask: Mask;
  elicit: Elicitor | null;
  remembered: Negotiated | null;
  remember: (n: Negotiated) => void;
  /** Tools, prompts or resources changed (a list_changed, or the server went away). */
  changed: () => void;
  /** The server ended at runtime; `message` names it, why, and its log. */
  exited: (message: string) => void;
  graceMs: number;
  killAfterMs: number;
  /** A notice for the user while the server runs (it wants more OAuth scope). */
  notify: (message: string) => void;
  /** A credential read for the server (an OAuth token), to be masked wherever zot writes text. */
  onSecret: (value: string) => void;
};

export type ToolOutcome = { content: ContentBlock[]; isError: boolean; structured?: Json };

const MAX_WARNINGS = 100;
const LIST_MS = 30_000;
const MAX_SERVER_LOGS = 1000;

export class McpServer {
  tools: McpTool[] = [];
  prompts: McpPrompt[] = [];
  resources: McpResource[] = [];
  /** Decided by the host from the share of the context these tools would take. */
  deferred = false;
  private status: ServerStatus;
  private error: string | null;
  private client: McpClient | null = null;
  private transport: Transport | null = null;
  private bearer: OAuthBearer | null = null;
  private service: ServiceCredentials | null = null;
  private log: ExtensionLog | null = null;
  private readonly warnings: string[] = [];
  private startupMs: number | null = null;
  private stopping = false;
  private serverLogs = 0;
  private readonly listening = new AbortController();

  constructor(
    readonly config: ServerConfig,
    private readonly deps: ServerDeps,
  ) {
    this.status = config.status === "enabled" ? "starting" : config.status;
    this.error = config.error;
  }

  get name(): string {
    return this.config.name;
  }

  get ready(): boolean {
    return this.status === "ready";
  }

  get starting(): boolean {
    return this.status === "starting";
  }

  get logPath(): string {
    return this.log?.path ?? mcpLogPath(this.deps.home, this.name);
  }

  /** Starts, negotiates and lists; resolves once ready or failed (never rejects). */
  async start(): Promise<void> {
    const t = this.config.transport;
    if (this.config.status !== "enabled" || !t) return;
    const began = performance.now();
    const opened = ExtensionLog.open(this.deps.home, this.name, this.deps.mask, mcpLogPath(this.deps.home, this.name));
    if (!opened.ok) return this.failStart(opened.error);
    const log = opened.log;
    this.log = log;
    log.line(`starting MCP server ${this.name} (${targetOf(t)}) at ${new Date().toISOString()}`);
    const auth = t.kind === "http" ? this.oauth(t) : null;
    const transport: Transport =
      t.kind === "stdio"
        ? new StdioTransport({
            command: t.command,
            args: t.args,
            env: t.env,
            cwd: t.cwd,
            home: this.deps.home,
            log,
            graceMs: this.deps.graceMs,
            killAfterMs: this.deps.killAfterMs,
          })
        : new HttpTransport({ url: t.url, headers: t.headers, ...(auth ? { auth } : {}) });
    this.transport = transport;
    transport.onWarning = (w) => this.warn(w);
    const started = await transport.start();
    if (!started.ok) return this.failStart(started.error);
    const client = new McpClient(transport, {
      cwd: this.deps.cwd,
      remembered: this.deps.remembered,
      startupMs: this.config.startupMs,
      elicit: this.deps.elicit,
      log: (l) => log.line(l),
      onServerLog: (p) => this.serverLog(p),
    });
    this.client = client;
    void transport.ended.then((why) => this.onEnded(why));
    const connected = await client.connect();
    if (!connected.ok) {
      await transport.close();
      return this.failStart(connected.error);
    }
    const n = client.negotiated!;
    this.deps.remember(n);
    log.line(`speaking MCP ${n.version} (${n.era === "modern" ? "no initialize" : "initialize handshake"})`);
    const listed = await this.refresh(["tools", "prompts", "resources"]);
    if (!listed.ok) {
      await transport.close();
      return this.failStart(listed.error);
    }
    // Shut down while it was starting: it must not come alive afterwards.
    if (this.stopping) return this.failStart("zot shut it down while it was starting");
    this.startupMs = performance.now() - began;
    this.status = "ready";
    this.watch();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.listening.abort();
    await this.transport?.close();
    this.log?.close();
  }

  state(): ServerState {
    const t = this.config.transport;
    const warnings =
      this.warnings.length > MAX_WARNINGS
        ? [...this.warnings.slice(0, MAX_WARNINGS - 1), `…and ${this.warnings.length - MAX_WARNINGS + 1} more warnings`]
        : [...this.warnings];
    const state: ServerState = {
      name: this.name,
      source: this.config.source,
      file: this.config.file,
      transport: t?.kind ?? null,
      target: this.deps.mask(targetOf(t)),
      status: this.status,
      error: this.error === null ? null : this.deps.mask(this.error),
      era: this.client?.negotiated?.era ?? null,
      protocolVersion: this.client?.negotiated?.version ?? null,
      serverInfo: this.client?.serverInfo ?? null,
      tools: this.tools.map((x) => ({ name: x.name, remote: x.remote, deferred: this.deferred })),
      prompts: this.prompts.map((p) => p.name),
      resources: this.resources.map((r) => r.uri),
      warnings,
      log: this.logPath,
      startupMs: this.startupMs === null ? null : Math.round(this.startupMs * 10) / 10,
    };
    if (this.config.shadowedBy) state.shadowedBy = this.config.shadowedBy;
    const b = this.bearer;
    if (b && (b.current || b.needsLogin)) state.auth = describeAuth(b.needsLogin ? null : b.current, this.name);
    const service = this.service?.describe();
    if (service) state.auth = service;
    return state;
  }

  private oauth(t: HttpConfig): HttpAuth | null {
    if (!oauthApplies(t)) return null;
    const o = t.oauth;
    if (o?.grantType === "client_credentials" && o.clientId !== undefined)
      return (this.service ??= new ServiceCredentials({
        name: this.name,
        url: t.url,
        oauth: { ...o, clientId: o.clientId },
        onSecret: this.deps.onSecret,
        log: (l) => this.log?.line(l),
      }));
    return (this.bearer ??= new OAuthBearer({
      home: this.deps.home,
      name: this.name,
      url: t.url,
      ...(t.oauth ? { oauth: t.oauth } : {}),
      onSecret: this.deps.onSecret,
      log: (l) => this.log?.line(l),
      notify: this.deps.notify,
    }));
  }

  /** A conflict or other problem found by the host, kept with the server's warnings and log. */
  warn(text: string): void {
    this.warnings.push(text);
    this.log?.line(text);
  }

  async callTool(
    tool: McpTool,
    args: JsonObject,
    opts: { signal: AbortSignal; onProgress?: (text: string) => void; timeoutMs?: number },
  ): Promise<ToolOutcome> {
    const client = this.client;
    if (!client || !this.ready) return failure(`MCP server "${this.name}" is not running (${this.error ?? this.status}); see ${this.logPath}`);
    const headers = client.transport.kind === "http" ? paramHeaders(tool.schema, args) : undefined;
    const r = await client.call(
      "tools/call",
      { name: tool.remote, arguments: args },
      {
        timeoutMs: opts.timeoutMs ?? this.config.timeoutMs,
        signal: opts.signal,
        onProgress: opts.onProgress ?? (() => {}),
        ...(headers ? { headers } : {}),
      },
    );
    if (!r.ok) return failure(this.callError(`tool "${tool.remote}"`, r));
    return mapToolResult(r.result);
  }

  /** `prompts/get`: the prompt's messages as one text to send as the user's prompt. */
  async getPrompt(prompt: McpPrompt, args: Record<string, string>): Promise<Result<{ text: string }>> {
    const client = this.client;
    if (!client || !this.ready) return { ok: false, error: `MCP server "${this.name}" is not running; see ${this.logPath}` };
    const r = await client.call("prompts/get", { name: prompt.remote, arguments: args }, { timeoutMs: this.config.timeoutMs });
    if (!r.ok) return { ok: false, error: this.callError(`prompt "${prompt.remote}"`, r) };
    const messages = Array.isArray(r.result.messages) ? r.result.messages : [];
    const parts: string[] = [];
    for (const m of messages) {
      if (!isObject(m)) continue;
      const blocks = Array.isArray(m.content) ? m.content : [m.content];
      for (const b of blocks) if (isObject(b)) for (const c of mapToolResult({ content: [b] }).content) if (c.type === "text") parts.push(c.text);
    }
    return { ok: true, text: parts.join("\n\n") };
  }

  /** `resources/read`: its contents as text blocks (images stay images). */
  async readResource(uri: string): Promise<Result<{ content: ContentBlock[] }>> {
    const client = this.client;
    if (!client || !this.ready) return { ok: false, error: `MCP server "${this.name}" is not running; see ${this.logPath}` };
    const r = await client.call("resources/read", { uri }, { timeoutMs: this.config.timeoutMs });
    if (!r.ok) return { ok: false, error: this.callError(`resource ${uri}`, r) };
    const contents = Array.isArray(r.result.contents) ? r.result.contents : [];
    return { ok: true, content: contents.filter(isObject).map(resourceText) };
  }

  private callError(what: string, r: Extract<Answer, { ok: false }>): string {
    switch (r.kind) {
      case "cancelled":
        return `${what} on MCP server "${this.name}" was cancelled`;
      case "timeout":
        return `MCP server "${this.name}" did not answer ${what} (${r.error})`;
      case "gone":
        return `${what} failed: MCP server "${this.name}" is gone (${r.error}); see ${this.logPath}`;
      default:
        return `${what} failed on MCP server "${this.name}": ${r.error}`;
    }
  }

  /** Re-lists what the server offers; lists it does not support stay empty. */
  private async refresh(kinds: ("tools" | "prompts" | "resources")[]): Promise<Result> {
    const client = this.client!;
    for (const kind of kinds) {
      if (!client.has(kind)) continue;
      const listed = await client.list(`${kind}/list`, kind, LIST_MS);
      if (!listed.ok) {
        if (kind === "tools") return listed;
        this.warn(listed.error);
        continue;
      }
      if (kind === "tools") this.tools = this.checkTools(listed.items);
      else if (kind === "prompts") this.prompts = listed.items.flatMap((p) => (typeof p.name === "string" ? [promptOf(this.name, p)] : []));
      else this.resources = listed.items.flatMap((r) => (typeof r.uri === "string" ? [resourceOf(r)] : []));
    }
    return { ok: true };
  }

  private checkTools(items: JsonObject[]): McpTool[] {
    const out: McpTool[] = [];
    const names = new Set<string>();
    for (const raw of items) {
      const c = checkMcpTool(this.name, raw);
      if (!c.ok) {
        this.warn(c.warning);
        continue;
      }
      if (names.has(c.tool.name)) {
        this.warn(`tool "${c.tool.remote}" rejected: its name ${c.tool.name} is already taken by another tool of this server`);
        continue;
      }
      names.add(c.tool.name);
      out.push(c.tool);
    }
    return out;
  }

  /** List changes: `subscriptions/listen` in 2026-07-28, notifications (and the GET stream on HTTP) before. */
  private watch(): void {
    const client = this.client!;
    const caps = client.capabilities;
    const wants = (k: string) => isObject(caps[k]) && (caps[k] as JsonObject).listChanged === true;
    const kinds = { tools: wants("tools"), prompts: wants("prompts"), resources: wants("resources") };
    const onChange = (method: string) => {
      const kind =
        method === "notifications/tools/list_changed"
          ? "tools"
          : method === "notifications/prompts/list_changed"
            ? "prompts"
            : method === "notifications/resources/list_changed"
              ? "resources"
              : null;
      if (!kind || !this.ready) return;
      void this.refresh([kind]).then((r) => {
        if (!r.ok) this.warn(`could not refresh the ${kind} after a change: ${r.error}`);
        this.log?.line(`${kind} changed; now ${kind === "tools" ? this.tools.length : kind === "prompts" ? this.prompts.length : this.resources.length}`);
        this.deps.changed();
      });
    };
    client.transport.onNotification = (n) => (n.method === "notifications/message" ? this.serverLog(n.params) : onChange(n.method));
    if (client.negotiated?.era === "modern") {
      if (kinds.tools || kinds.prompts || kinds.resources) {
        void client.listen(kinds, onChange, this.listening.signal).then((r) => {
          if (!r.ok && r.kind !== "cancelled" && r.kind !== "gone") this.warn(`subscriptions/listen ended: ${r.error}`);
        });
      }
    } else if (client.transport instanceof HttpTransport) client.transport.listen();
  }

  /** The server's `notifications/message` lines go to its log, up to a limit per run (a flood must not fill the disk). */
  private serverLog(p: JsonObject): void {
    this.serverLogs++;
    if (this.serverLogs <= MAX_SERVER_LOGS)
      this.log?.line(`server ${typeof p.level === "string" ? p.level : "log"}: ${JSON.stringify(p.data ?? "").slice(0, 500)}`);
    else if (this.serverLogs === MAX_SERVER_LOGS + 1) this.log?.line(`the server sent more than ${MAX_SERVER_LOGS} log messages; no longer writing them down`);
  }

  private onEnded(why: string): void {
    if (this.stopping) return;
    const wasReady = this.status === "ready";
    this.status = wasReady ? "exited" : this.status;
    if (!wasReady) return;
    const words = this.log?.lastWords();
    const message = `MCP server "${this.name}" stopped: ${why}${words ? ` (its last words: ${words})` : ""}; see ${this.logPath}`;
    this.error = message;
    this.log?.line(message);
    this.deps.changed();
    this.deps.exited(message);
  }

  private failStart(error: string): void {
    const words = this.log?.lastWords();
    this.status = "failed";
    this.error = `${error}${words && !error.includes(words) ? ` (its stderr says: ${words})` : ""}`;
    this.log?.line(`failed to start: ${this.error}`);
  }
}

function failure(text: string): ToolOutcome {
  return { content: [{ type: "text", text }], isError: true };
}

function promptOf(server: string, p: JsonObject): McpPrompt {
  const args = Array.isArray(p.arguments) ? p.arguments.filter(isObject) : [];
  return {
    name: exposedName(server, String(p.name)),
    remote: String(p.name),
    description: typeof p.description === "string" ? p.description : typeof p.title === "string" ? p.title : "",
    arguments: args.map((a) => ({
      name: String(a.name ?? ""),
      required: a.required === true,
      description: typeof a.description === "string" ? a.description : "",
    })),
  };
}

function resourceOf(r: JsonObject): McpResource {
  return {
    uri: String(r.uri),
    name: typeof r.name === "string" ? r.name : String(r.uri),
    description: typeof r.description === "string" ? r.description : "",
    mimeType: typeof r.mimeType === "string" ? r.mimeType : "",
  };
}
