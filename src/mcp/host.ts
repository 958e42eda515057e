// MCP servers as a second tool source beside extensions. `McpHost` wraps the extension host and is
// the one `ExtensionHost` the agent loop and the modes see: the tools, calls, commands and intents
// of MCP servers are added to the extension host's, while events, interceptors and confirmation stay
// where they are — so an MCP tool call passes the same tool_call/tool_result interceptors, the same
// --no-yolo confirmation, the same transcript and the same JSON/RPC events as any other tool.
import type { Result } from "../result.ts";
import type { JsonObject, PanelKeyName } from "../protocol.ts";
import { unmasked } from "../ext/mask.ts";
import type { Mask } from "../ext/mask.ts";
import type {
  ActiveAgent,
  ActiveCommand,
  ActiveTool,
  CallToolOptions,
  EmitPayload,
  ExtensionHost,
  ExtensionState,
  HostInfo,
  InterceptName,
  InterceptPayload,
  InterceptResult,
  InvokeResult,
  LoadOptions,
  LoadReport,
  Theme,
  ToolCallResult,
  UiIntent,
} from "../ext/types.ts";
import { BUILTIN_TOOLS } from "../ext/name-rules.ts";
import { skippedNotice, type TrustMode } from "../ext/install/trust.ts";
import { redactSecrets } from "../redact.ts";
import { Replaying } from "../replaying.ts";
import type { ElicitAnswer, Elicitor } from "./client.ts";
import { loadConfig, targetOf } from "./config.ts";
import type { LoadedConfig, SkippedServer } from "./config.ts";
import { SEARCH_DESCRIPTION, SEARCH_SCHEMA, SEARCH_TOOL, searchText, shouldDefer } from "./defer.ts";
import { ElicitForm } from "./elicit.ts";
import { EraMemory } from "./eras.ts";
import { describeAuth, oauthApplies } from "./oauth/bearer.ts";
import { McpServer } from "./server.ts";
import type { McpPrompt, ServerState } from "./server.ts";
import { annotationNote, attribution } from "./tools.ts";
import type { McpTool } from "./tools.ts";

export type McpOptions = {
  /** `--mcp FILE` paths (absolute), in argument order. */
  files: string[];
  /** `--no-mcp`. */
  none: boolean;
  /** Only the TUI can answer an elicitation; elsewhere zot declines with a note. */
  interactive: boolean;
  /** Workspace trust for the project's server lists. */
  trust: TrustMode;
  /** The model's context window (0 when unknown), for deferral. */
  contextWindow?: (info: HostInfo) => Promise<number>;
  env?: Record<string, string | undefined>;
  /** How long a run waits for servers to start before going on without the slow ones (default: until all are done). */
  waitMs?: number;
  /** Tests use short shutdown waits. */
  graceMs?: number;
  killAfterMs?: number;
};

type Owned = { server: McpServer; tool: McpTool };

const MAX_UNHEARD = 200;
/** The interactive mode's OAuth login (`zot mcp login` elsewhere). */
export const LOGIN_COMMAND = "mcp-login";
/** `@server:uri` in a prompt: the server name, then a URI with a scheme. */
const MENTION = /(^|\s)@([A-Za-z0-9][A-Za-z0-9._-]{0,63}):([A-Za-z][A-Za-z0-9+.-]*:[^\s]+)/g;

export class McpHost implements ExtensionHost {
  private servers: McpServer[] = [];
  private config: LoadedConfig | null = null;
  private loadOpts: LoadOptions | null = null;
  private info: HostInfo = { zotVersion: "", provider: "", model: "", cwd: process.cwd() };
  private mask: Mask = unmasked;
  /** What ${VAR} expanded to and the OAuth tokens the servers hold: masked like the run's own secrets. */
  private secrets: string[] = [];
  private window = 0;
  private readonly activated = new Set<string>();
  // A broken listener must not break the host or the other listeners.
  private readonly intents = new Replaying<UiIntent>(MAX_UNHEARD, () => undefined);
  private readonly forms = new Map<string, { form: ElicitForm; done: (a: ElicitAnswer) => void; extension: string }>();
  private formCount = 0;
  private unhookInner: (() => void) | null = null;
  private eras: EraMemory | null = null;
  /** Servers still starting when the run stopped waiting for them. */
  private late: string[] = [];
  /** Shadowing sentences already written to a server's warnings. */
  private readonly noted = new Set<string>();

  constructor(
    readonly inner: ExtensionHost,
    private readonly opts: McpOptions,
  ) {}

  async load(opts: LoadOptions): Promise<LoadReport> {
    this.loadOpts = opts;
    this.info = { ...opts.info };
    this.mask = opts.mask ?? unmasked;
    if (!this.unhookInner) this.unhookInner = this.inner.onIntent((i) => this.send(i));
    const [report] = await Promise.all([this.inner.load(opts), this.startAll()]);
    if (report.traceError) return report;
    return { ...report, errors: [...report.errors, ...this.mcpErrors()] };
  }

  async reload(name?: string): Promise<LoadReport> {
    const key = name?.replace(/^mcp:/, "").toLowerCase();
    const server = key === undefined ? undefined : this.servers.find((s) => s.name.toLowerCase() === key);
    if (name !== undefined && !server) return this.inner.reload(name);
    if (server) {
      await server.stop();
      const fresh = this.makeServer(server.config);
      this.servers[this.servers.indexOf(server)] = fresh;
      await fresh.start();
      this.afterStart();
      this.send({ kind: "registry_changed" });
      return { extensions: [], errors: this.mcpErrors([fresh]) };
    }
    const [report] = await Promise.all([this.inner.reload(), this.stopAll().then(() => this.startAll())]);
    this.send({ kind: "registry_changed" });
    return { ...report, errors: [...report.errors, ...this.mcpErrors()] };
  }

  async shutdown(): Promise<void> {
    for (const [id, f] of this.forms) {
      f.done({ action: "cancel" });
      this.send({ kind: "panel_close", extension: f.extension, panelId: id });
    }
    this.forms.clear();
    await Promise.all([this.inner.shutdown(), this.stopAll()]);
  }

  setInfo(info: Partial<HostInfo>): void {
    this.info = { ...this.info, ...info };
    this.inner.setInfo(info);
    if ((info.provider !== undefined || info.model !== undefined) && this.opts.contextWindow) {
      void this.opts.contextWindow(this.info).then((w) => {
        this.window = w;
        if (this.decideDeferral()) this.send({ kind: "registry_changed" });
      });
    }
  }

  states(): ExtensionState[] {
    return this.inner.states();
  }

  /** Every configured server, including the ones not started (disabled, shadowed, invalid). */
  serverStates(): ServerState[] {
    return this.servers.map((s) => s.state());
  }

  /** Project server lists skipped because the directory is not trusted. */
  untrusted(): string[] {
    return this.config?.untrusted ?? [];
  }

  /** Project servers of a trusted folder skipped because they are new or changed since it was trusted. */
  unapproved(): SkippedServer[] {
    return this.config?.unapproved ?? [];
  }

  agents(): ActiveAgent[] {
    return this.inner.agents();
  }

  commands(): ActiveCommand[] {
    const list = this.inner.commands();
    const taken = new Set(list.map((c) => c.name.toLowerCase()));
    for (const { server, prompt } of this.prompts()) {
      if (taken.has(prompt.name.toLowerCase())) continue;
      taken.add(prompt.name.toLowerCase());
      const args = prompt.arguments.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(" ");
      list.push({ name: prompt.name, description: `${prompt.description}${args ? ` — ${args}` : ""}`.trim(), extension: attribution(server.name) });
    }
    const oauth = this.oauthServers();
    if (this.opts.interactive && oauth.length && !taken.has(LOGIN_COMMAND))
      list.push({
        name: LOGIN_COMMAND,
        description: `log in to an MCP server with OAuth in the browser — <${oauth.map((s) => s.name).join("|")}>`,
        extension: "mcp",
      });
    return list;
  }

  tools(): ActiveTool[] {
    const list = this.inner.tools();
    const owned = this.owned();
    let anyDeferred = false;
    for (const [name, { server, tool }] of owned) {
      if (server.deferred) anyDeferred = true;
      list.push({
        name,
        description: tool.description,
        schema: tool.schema,
        deferred: server.deferred,
        active: !server.deferred || this.activated.has(name),
        extension: attribution(server.name),
        ...(annotationNote(tool.annotations) ? { note: annotationNote(tool.annotations) } : {}),
      });
    }
    if (anyDeferred && !list.some((t) => t.name === SEARCH_TOOL))
      list.push({ name: SEARCH_TOOL, description: SEARCH_DESCRIPTION, schema: SEARCH_SCHEMA, deferred: false, active: true, extension: "mcp" });
    return list;
  }

  themes(): Theme[] {
    return this.inner.themes();
  }

  async invokeCommand(name: string, args: string): Promise<InvokeResult> {
    const key = name.replace(/^\//, "").toLowerCase();
    if (key === LOGIN_COMMAND && this.opts.interactive && !this.inner.commands().some((c) => c.name.toLowerCase() === key)) return this.login(args.trim());
    const found = this.prompts().find((p) => p.prompt.name.toLowerCase() === key);
    if (!found || this.inner.commands().some((c) => c.name.toLowerCase() === key)) return this.inner.invokeCommand(name, args);
    const parsed = promptArgs(found.prompt, args);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    const r = await found.server.getPrompt(found.prompt, parsed.args);
    if (!r.ok) return { ok: false, error: r.error };
    return { ok: true, response: { type: "command_response", id: "", action: "prompt", prompt: r.text }, extension: attribution(found.server.name) };
  }

  async callTool(name: string, args: JsonObject, opts: CallToolOptions): Promise<ToolCallResult> {
    if (name === SEARCH_TOOL && !this.inner.tools().some((t) => t.name === SEARCH_TOOL)) return this.search(args);
    const owned = this.owned().get(name);
    if (!owned) return this.inner.callTool(name, args, opts);
    const r = await owned.server.callTool(owned.tool, args, {
      signal: opts.signal,
      ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
      ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
    });
    return {
      content: r.content,
      isError: r.isError,
      activateTools: [],
      extension: attribution(owned.server.name),
      ...(r.structured !== undefined ? { structured: r.structured } : {}),
    };
  }

  emit(payload: EmitPayload): void {
    this.inner.emit(payload);
  }

  intercept(payload: InterceptPayload): Promise<InterceptResult> {
    return this.inner.intercept(payload);
  }

  hasInterceptor(event: InterceptName): boolean {
    return this.inner.hasInterceptor(event);
  }

  panelKey(panelId: string, key: PanelKeyName, text?: string): void {
    const f = this.forms.get(panelId);
    if (!f) return this.inner.panelKey(panelId, key, text);
    const answer = f.form.key(key, text);
    if (answer === null) {
      const p = f.form.panel();
      this.send({ kind: "panel_render", extension: f.extension, panelId, title: p.title, lines: p.lines, footer: p.footer });
      return;
    }
    this.forms.delete(panelId);
    this.send({ kind: "panel_close", extension: f.extension, panelId });
    f.done(answer);
  }

  panelClose(panelId: string): void {
    const f = this.forms.get(panelId);
    if (!f) return this.inner.panelClose(panelId);
    this.forms.delete(panelId);
    f.done({ action: "cancel" });
  }

  panelResize(panelId: string, width: number, height: number): void {
    if (!this.forms.has(panelId)) this.inner.panelResize(panelId, width, height);
  }

  /** Settings belong to extensions; MCP servers are configured in their server lists. */
  settings(name: string): ReturnType<ExtensionHost["settings"]> {
    return this.inner.settings(name);
  }

  configure(name: string, set: [string, string][], unset: string[]): ReturnType<ExtensionHost["configure"]> {
    return this.inner.configure(name, set, unset);
  }

  onIntent(listener: (intent: UiIntent) => void): () => void {
    return this.intents.on(listener);
  }

  /** `@server:uri` mentions in a prompt: each resource is read and appended to the prompt's text. */
  async attach(text: string): Promise<{ text: string; errors: string[] }> {
    const known = [...text.matchAll(MENTION)].flatMap(([, , name = "", uri = ""]) => {
      const server = this.servers.find((s) => s.name.toLowerCase() === name.toLowerCase());
      return server ? [{ server, name, uri }] : [];
    });
    if (known.length === 0) return { text, errors: [] };
    const errors: string[] = [];
    const blocks: string[] = [];
    for (const { server, ...m } of known) {
      const r = await server.readResource(m.uri);
      if (!r.ok) {
        errors.push(`@${m.name}:${m.uri} was not attached: ${r.error}`);
        continue;
      }
      const body = r.content.map((c) => (c.type === "text" ? c.text : `[image ${c.mime_type}]`)).join("\n");
      blocks.push(`<resource server="${server.name}" uri="${m.uri}">\n${body}\n</resource>`);
    }
    return { text: blocks.length ? `${text}\n\n${blocks.join("\n\n")}` : text, errors };
  }

  // ---------------------------------------------------------------- internals

  private async startAll(): Promise<void> {
    const opts = this.loadOpts!;
    const env = this.opts.env ?? process.env;
    this.config = loadConfig({ files: this.opts.files, none: this.opts.none, cwd: opts.cwd, home: opts.home, env, trust: this.opts.trust });
    const base = opts.mask ?? unmasked;
    const secrets = [...this.config.expanded];
    this.secrets = secrets;
    // Masked like the run's own secrets in logs, doctor output and errors.
    this.mask = (text) => base(secrets.length ? redactSecrets(text, secrets) : text);
    this.servers = this.config.servers.map((c) => this.makeServer(c));
    const windowing = this.opts.contextWindow ? this.opts.contextWindow(this.info).then((w) => (this.window = w)) : Promise.resolve(0);
    // All in parallel: startup waits for the slowest server, not for the sum — but a run waits at
    // most `waitMs`; a server still starting then joins the session when it is ready.
    const servers = this.servers;
    this.late = [];
    const all = Promise.all(servers.map((s) => s.start()));
    let waited = true;
    const wait = this.opts.waitMs;
    if (wait === undefined) await all;
    else {
      let timer: ReturnType<typeof setTimeout> | undefined;
      waited = await Promise.race([all.then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), wait)))]);
      clearTimeout(timer);
    }
    await windowing;
    this.afterStart();
    if (!waited) {
      this.late = servers.filter((s) => s.starting).map((s) => s.name);
      void all.then(() => {
        if (this.servers !== servers) return;
        this.afterStart();
        // The start-up notices are long printed: a late server that failed is reported now.
        for (const s of servers) {
          const st = s.state();
          if (this.late.includes(s.name) && st.status === "failed")
            this.send({
              kind: "notify",
              extension: attribution(s.name),
              level: "error",
              message: `MCP server ${s.name} did not start: ${st.error ?? "unknown error"} (log: ${st.log})`,
            });
        }
        this.send({ kind: "registry_changed" });
      });
    }
  }

  private afterStart(): void {
    this.eras?.save();
    this.decideDeferral();
    this.noteConflicts();
  }

  private makeServer(config: LoadedConfig["servers"][number]): McpServer {
    const opts = this.loadOpts!;
    const eras = (this.eras ??= new EraMemory(opts.home));
    const target = targetOf(config.transport);
    const server: McpServer = new McpServer(config, {
      home: opts.home,
      cwd: opts.cwd,
      mask: this.mask,
      elicit: this.elicitor(config.name),
      remembered: eras.get(config.name, target),
      remember: (n) => eras.set(config.name, target, n),
      changed: () => {
        this.decideDeferral();
        this.noteConflicts();
        this.send({ kind: "registry_changed" });
      },
      exited: (message) => this.send({ kind: "extension_exited", extension: attribution(config.name), message }),
      notify: (message) => {
        const here = this.opts.interactive ? ` In this session: /${LOGIN_COMMAND} ${config.name}.` : "";
        this.send({ kind: "notify", extension: attribution(config.name), level: "warn", message: `${message}.${here}` });
      },
      onSecret: (value) => {
        if (!this.secrets.includes(value)) this.secrets.push(value);
        opts.onSecret?.(value);
      },
      graceMs: this.opts.graceMs ?? 2000,
      killAfterMs: this.opts.killAfterMs ?? 1000,
    });
    return server;
  }

  private async stopAll(): Promise<void> {
    await Promise.all(this.servers.map((s) => s.stop()));
  }

  /** True when a server's deferral changed. */
  private decideDeferral(): boolean {
    const share = this.config?.deferShare ?? 0.1;
    let changed = false;
    for (const s of this.servers) {
      const defer = s.config.defer ?? shouldDefer(s.tools, this.window, share);
      if (defer !== s.deferred) {
        s.deferred = defer;
        changed = true;
      }
    }
    return changed;
  }

  /** The winning MCP tools by exposed name: built-in and extension tools keep their names. */
  private owned(): Map<string, Owned> {
    const taken = new Set<string>([...BUILTIN_TOOLS, ...this.inner.tools().map((t) => t.name), SEARCH_TOOL]);
    const out = new Map<string, Owned>();
    for (const server of this.servers) {
      if (!server.ready) continue;
      for (const tool of server.tools) {
        if (taken.has(tool.name) || out.has(tool.name)) continue;
        out.set(tool.name, { server, tool });
      }
    }
    return out;
  }

  private noteConflicts(): void {
    const taken = new Set<string>([...BUILTIN_TOOLS, ...this.inner.tools().map((t) => t.name), SEARCH_TOOL]);
    const seen = new Map<string, string>();
    for (const server of this.servers) {
      if (!server.ready) continue;
      for (const tool of server.tools) {
        const owner = taken.has(tool.name) ? "a built-in or extension tool" : seen.get(tool.name);
        if (owner === undefined) {
          seen.set(tool.name, `MCP server "${server.name}"`);
          continue;
        }
        const sentence = `tool "${tool.remote}" is shadowed: the name ${tool.name} belongs to ${owner} (loaded earlier)`;
        const key = `${server.name}\u0000${sentence}`;
        if (this.noted.has(key)) continue;
        this.noted.add(key);
        server.warn(sentence);
      }
    }
  }

  /** HTTP servers that log in with OAuth (no Authorization header of their own). */
  private oauthServers(): McpServer[] {
    return this.servers.filter(
      (s) => s.config.transport?.kind === "http" && oauthApplies(s.config.transport) && (s.config.status === "enabled" || s.config.status === "disabled"),
    );
  }

  /** `/mcp-login NAME`: the login of `zot mcp login`, its lines as notes, then the server restarted with the new token. */
  private async login(name: string): Promise<InvokeResult> {
    const candidates = this.oauthServers();
    const server = candidates.find((s) => s.name.toLowerCase() === name.toLowerCase());
    const t = server?.config.transport;
    if (!server || t?.kind !== "http") {
      const names = candidates.map((s) => s.name).join(", ");
      return {
        ok: false,
        error: `/${LOGIN_COMMAND} needs the name of an HTTP MCP server that logs in with OAuth${names ? ` (${names})` : "; none is configured"}`,
      };
    }
    const { login, LOGIN_WAIT_MS } = await import("./oauth/login.ts");
    const r = await login({
      name: server.name,
      url: t.url,
      ...(t.oauth ? { oauth: t.oauth } : {}),
      file: server.config.file,
      home: this.loadOpts?.home ?? "",
      env: this.opts.env ?? process.env,
      timeoutMs: LOGIN_WAIT_MS,
      say: (line) => this.send({ kind: "notify", extension: "mcp", level: "info", message: line.trim() }),
    });
    if (!r.ok) return { ok: false, error: `login to MCP server "${server.name}" failed: ${r.error}` };
    if (server.config.status === "enabled") await this.reload(`mcp:${server.name}`);
    const fresh = this.servers.find((s) => s.name === server.name)?.state();
    const tools = fresh?.status === "ready" ? `; its ${fresh.tools.length} tool(s) are ready` : fresh?.error ? `; it did not start: ${fresh.error}` : "";
    return {
      ok: true,
      response: {
        type: "command_response",
        id: "",
        action: "display",
        display: `Logged in to MCP server ${server.name}: ${describeAuth(r.entry, server.name)}${tools}.`,
      },
      extension: "mcp",
    };
  }

  private prompts(): { server: McpServer; prompt: McpPrompt }[] {
    return this.servers.filter((s) => s.ready).flatMap((server) => server.prompts.map((prompt) => ({ server, prompt })));
  }

  private search(args: JsonObject): ToolCallResult {
    const query = typeof args.query === "string" ? args.query : "";
    const wanted = Array.isArray(args.activate) ? args.activate.filter((n): n is string => typeof n === "string") : [];
    const deferred = [...this.owned()].filter(([, o]) => o.server.deferred);
    const names = new Set(deferred.map(([n]) => n));
    const activated = wanted.filter((n) => names.has(n));
    const unknown = wanted.filter((n) => !names.has(n));
    for (const n of activated) this.activated.add(n);
    if (activated.length) this.send({ kind: "registry_changed" });
    const candidates = deferred.map(([name, o]) => ({ name, description: o.tool.description, server: o.server.name, active: this.activated.has(name) }));
    return { content: [{ type: "text", text: searchText(candidates, query, activated, unknown) }], isError: false, activateTools: activated, extension: "mcp" };
  }

  private elicitor(server: string): Elicitor {
    return (message, schema) => {
      if (!this.opts.interactive) {
        this.send({
          kind: "notify",
          extension: attribution(server),
          level: "warn",
          message: `MCP server "${server}" asked for input (${message.slice(0, 120)}); declined, since only the interactive mode can ask you`,
        });
        return Promise.resolve({ action: "decline" });
      }
      const id = `mcp-elicit-${++this.formCount}`;
      const form = new ElicitForm(id, server, message, schema);
      return new Promise<ElicitAnswer>((done) => {
        this.forms.set(id, { form, done, extension: attribution(server) });
        this.send({ kind: "panel_open", extension: attribution(server), panel: form.panel() });
      });
    };
  }

  /** What workspace trust kept from loading (untrusted lists, new or changed servers), as the sentences the load report carries. */
  skippedNotices(): string[] {
    const home = this.loadOpts?.home ?? "";
    const cwd = this.loadOpts?.cwd ?? "";
    const fix = this.opts.interactive ? "tui" : "cli";
    const lists = skippedNotice(
      home,
      cwd,
      "MCP server lists",
      this.untrusted().map((path) => ({ name: path, why: "untrusted" as const })),
      fix,
    );
    const servers = skippedNotice(home, cwd, "MCP servers", this.unapproved(), fix);
    return [lists, servers].filter((n): n is string => n !== null);
  }

  /** What is wrong with the run's MCP set-up beyond single servers (unreadable or bad lists, servers still starting), as sentences. */
  setupProblems(): string[] {
    const problems = [...(this.config?.errors ?? [])];
    for (const name of this.late) {
      const s = this.servers.find((x) => x.name === name && x.starting);
      if (s)
        problems.push(
          `MCP server "${name}" is still starting after ${(this.opts.waitMs ?? 0) / 1000} s; its tools join the session once it is ready (log: ${s.logPath})`,
        );
    }
    return problems.map((p) => (p.endsWith(".") ? p : `${p}.`));
  }

  private mcpErrors(servers: McpServer[] = this.servers): LoadReport["errors"] {
    const errors: LoadReport["errors"] = [];
    const whole = (message: string) => errors.push({ extension: "mcp", message: message.endsWith(".") ? message : `${message}.`, log: "", source: "mcp" });
    if (servers === this.servers) for (const message of [...this.setupProblems(), ...this.skippedNotices()]) whole(message);
    for (const s of servers) {
      const st = s.state();
      if (st.status === "invalid" && st.error) whole(st.error);
      if (st.status === "failed" && st.error) errors.push({ extension: st.name, message: st.error, log: st.log, source: "mcp" });
    }
    return errors;
  }

  private send(intent: UiIntent): void {
    this.intents.emit(intent);
  }
}

/** `key=value` pairs, or words given in the order the prompt declares its arguments (the last takes the rest). */
export function promptArgs(prompt: McpPrompt, text: string): Result<{ args: Record<string, string> }> {
  const args: Record<string, string> = {};
  const trimmed = text.trim();
  if (/^[A-Za-z_][\w-]*=/.test(trimmed)) {
    for (const [, key = "", raw = "", quoted] of trimmed.matchAll(/([A-Za-z_][\w-]*)=("([^"]*)"|\S+)/g)) args[key] = quoted ?? raw;
  } else if (trimmed !== "") {
    const words = trimmed.split(/\s+/);
    prompt.arguments.forEach((a, i) => {
      const word = words[i];
      if (word === undefined) return;
      args[a.name] = i === prompt.arguments.length - 1 ? words.slice(i).join(" ") : word;
    });
  }
  const missing = prompt.arguments.filter((a) => a.required && !(a.name in args)).map((a) => a.name);
  if (missing.length) {
    const usage = prompt.arguments.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(" ");
    return { ok: false, error: `/${prompt.name} needs ${missing.join(", ")}; usage: /${prompt.name} ${usage} (or name=value pairs)` };
  }
  return { ok: true, args };
}
