// The agent runtime: one conversation with one provider, its transcript, its tools and the extension
// host. Modes (print, JSON, RPC, TUI) drive it through `AgentRuntime`; `createRuntime` in setup.ts
// wires it from the command line.
import { existsSync } from "node:fs";
import type { ExtensionHost, UiIntent } from "../ext/types.ts";
import type { TrustReview } from "../ext/project-code.ts";
import { basename } from "node:path";
import { costOf, findModel, fitReasoning, isProviderName } from "./catalog.ts";
import { EFFORTS, orList, PROVIDERS, type Effort } from "./choices.ts";
import { historyPath, PROVIDER_ENV_KEYS, readAuth, readConfig, removeApiKey, resolveCredentials, rememberModel, saveApiKey, updateConfig, type ConfigValues, type Env } from "./config.ts";
import type { AgentEvent, ApprovalDetail, CompactReason, ConfirmDecision, ConfirmRequest, PermissionRule } from "./events.ts";
import { keptFrom, summarise } from "./compaction.ts";
import { modeVerdict, PermissionRules, ruleMatches, PLAN_INSTRUCTION, PLAN_REFUSAL, type ListedRule, type PermissionMode } from "./permissions.ts";
import { projectRoot } from "./project-root.ts";
import { loadInstructions } from "./instructions.ts";
import { retryEvent, runLoop, streamResponse, type Approval } from "./loop.ts";
import { emptyUsage, type ImagePart, type Json, type Message, type TextPart, type Usage, type UserMessage } from "./messages.ts";
import { messageJson } from "./wire.ts";
import type { ModelInfo, Provider } from "./provider.ts";
import { createProvider } from "./providers/index.ts";
import { discoveryBase, mergeCached, refreshModels, type Discovery } from "./discovery.ts";
import { randomHex } from "../random.ts";
import type { StreamLimits } from "./providers/limits.ts";
import type { AgentRuntime, PromptOptions, PromptOutcome, SteeringMessage } from "./runtime-api.ts";
import type { RunChoices } from "./run-choices.ts";
import { appendSession, createSession, interruptedMessage, listSessions, noSession, openSession, summaryMessage, type SessionInfo, type SessionWriter } from "./session.ts";
import { IN_USE, lockedWriter, lockSession } from "./session-lock.ts";
import { exportSession, forkSession, importSession, sessionPrompts, sessionTree, type Prompt, type TreeNode } from "./session-ops.ts";
import { discoverSkills } from "./skills.ts";
import { jailRoot } from "./jail.ts";
import { buildSystemPrompt } from "./system-prompt.ts";
import type { Tool } from "./tool.ts";
import { Replaying } from "../replaying.ts";
import { loadCustomCommands, type LoadedCommands } from "./custom-commands.ts";
import { isTrusted } from "../ext/trust.ts";
import { latestTodos, sameTodos, TODO_TOOL, type TodoItem } from "./todos.ts";
import { killJob, listJobs, onJobChange, stopJobs, type JobInfo } from "./tools/background-jobs.ts";

/**
 * What a Runtime is built from: the run choices it applies as given (`wire` is kept for the
 * providers /model switches to; `reasoning` is the choice or config.json's level, checked against
 * the model), and what setup resolved.
 */
export type RuntimeConfig = Pick<RunChoices, "mockScript" | "systemPrompt" | "appendSystemPrompt" | "reasoning" | "wire" | "maxSteps" | "noSession" | "trust"> & {
  home: string;
  /** Absolute, existing directory. */
  cwd: string;
  env: Env;
  host: ExtensionHost;
  provider: Provider;
  providerName: string;
  model: string;
  catalog: ModelInfo[];
  builtins: Tool[];
  extensionTools: boolean;
  yolo: boolean;
  /** Context use (percent of the window) at which a finished turn condenses the history; null: never. */
  autoCompactPercent: number | null;
  session: SessionWriter;
  history: Message[];
  usage: Usage;
  secrets: string[];
  /** A model list to refresh in the background (see discovery.ts). */
  discovery?: Discovery;
  /** Stream timeouts and caps from config.json, for every provider client this runtime makes. */
  limits?: Partial<StreamLimits>;
};

const MAX_EARLY_NOTES = 100;
/** As many as the host itself keeps for its first listener. */
const MAX_EARLY_INTENTS = 200;

const BTW_INSTRUCTION =
  "A side question about the conversation so far (answer it directly and briefly from what you already know; do not use any tools; this exchange is not kept):";

export class Runtime implements AgentRuntime {
  readonly host: ExtensionHost;
  readonly cwd: string;
  mode: PermissionMode;
  private cfg: RuntimeConfig;
  /**
   * Extension notes that arrive before the mode subscribes (a reply to session_start) are kept for
   * the first subscriber instead of being lost; agent events only happen later.
   */
  private events = new Replaying<AgentEvent>(MAX_EARLY_NOTES);
  /** Host intents that arrived before a mode listened for them, for the first listener. */
  private intents = new Replaying<UiIntent>(MAX_EARLY_INTENTS);
  private history: Message[];
  /** The todo list the history holds now (todos.ts), kept to tell when it changes. */
  private todoList: TodoItem[];
  /** A custom command's allowed-tools, while its prompt runs. */
  private promptRules: PermissionRule[] = [];
  private totals: Usage;
  private lastContext = 0;
  private session: SessionWriter;
  private controller: AbortController | null = null;
  private confirm: ((req: ConfirmRequest) => Promise<ConfirmDecision>) | null = null;
  private rules: PermissionRules | null = null;
  private steering: (() => SteeringMessage[]) | null = null;
  private unhookIntents: () => void;
  private unhookJobs: () => void;
  private closed: Promise<void> | null = null;
  /** Stops background work (the model-list refresh) at close. */
  private readonly background = new AbortController();
  /** The conversation's id when no transcript names it (--no-session). */
  private readonly ephemeralId = randomHex(16);
  /** /jail: the root the built-in file tools are confined to, or null. */
  private jailedAt: string | null = null;

  constructor(cfg: RuntimeConfig) {
    this.cfg = cfg;
    this.host = cfg.host;
    this.cwd = cfg.cwd;
    this.mode = cfg.yolo ? "yolo" : "ask";
    this.history = cfg.history;
    this.todoList = latestTodos(cfg.history);
    this.totals = cfg.usage;
    this.session = cfg.session;
    // The runtime is the host's first listener, so it receives what extensions sent during load.
    this.unhookIntents = cfg.host.onIntent((intent) => this.fromHost(intent));
    this.unhookJobs = onJobChange((job) => this.emit(jobEvent(job)));
    const discovery = cfg.discovery;
    // After the current start-up work: the first prompt never waits for the model list.
    if (discovery) setTimeout(() => void refreshModels(discovery, cfg.catalog, this.background.signal), 0);
  }

  get provider(): string {
    return this.cfg.providerName;
  }
  get model(): string {
    return this.cfg.model;
  }
  get sessionPath(): string | null {
    return this.session.path;
  }
  get secrets(): readonly string[] {
    return this.cfg.secrets;
  }
  get busy(): boolean {
    return this.controller !== null;
  }
  get jail(): string | null {
    return this.jailedAt;
  }

  setJail(on: boolean): string | null {
    this.jailedAt = on ? jailRoot(this.cwd) : null;
    // Extensions see it in hello_ack (on load and reload) and in every tool_call frame.
    this.host.setInfo({ jail: this.jailedAt ?? undefined });
    return this.jailedAt;
  }

  get yolo(): boolean {
    return this.mode === "yolo";
  }
  set yolo(on: boolean) {
    this.mode = on ? "yolo" : "ask";
  }

  subscribe(listener: (event: AgentEvent) => void): () => void {
    return this.events.on(listener);
  }

  private emit(event: AgentEvent): void {
    this.events.emit(event);
  }

  /**
   * The host's UI intents, for the interactive UI (panels, submit, insert, prompt and notes). The
   * first listener also gets, in order, those sent before it listened: an extension's `submit` or
   * `panel_open` at startup arrives while zot is still loading. Print, JSON and RPC never listen,
   * so there `submit` and the rest stay ignored; they get notes as `ext_*` events instead.
   */
  onIntent(listener: (intent: UiIntent) => void): () => void {
    return this.intents.on(listener);
  }

  private fromHost(intent: UiIntent): void {
    this.asEvent(intent);
    this.intents.emit(intent);
  }

  /** Notes and exits become agent events, for modes without a UI of their own. */
  private asEvent(intent: UiIntent): void {
    switch (intent.kind) {
      case "notify":
        this.emit({ type: "ext_notify", extension: intent.extension, level: intent.level, message: intent.message });
        return;
      case "display":
        this.emit({ type: "ext_display", extension: intent.extension, text: intent.text });
        return;
      case "clear_notes":
        this.emit({ type: "ext_clear_notes", extension: intent.extension });
        return;
      case "extension_exited":
        this.emit({ type: "ext_notify", extension: intent.extension, level: "error", message: intent.message });
        return;
      default:
        // Panels, submit, insert and prompt belong to the interactive UI, which listens through `onIntent`.
        return;
    }
  }

  async prompt(text: string, attachments: (TextPart | ImagePart)[] = [], options: PromptOptions = {}): Promise<PromptOutcome> {
    if (this.controller) throw new Error("Runtime.prompt called while another prompt is running; wait for it or abort it first");
    const restore = options.model ? this.switchForPrompt(options.model) : null;
    this.promptRules = options.allowedTools ?? [];
    try {
      return await this.promptNow(text, attachments);
    } finally {
      this.promptRules = [];
      if (restore) this.setModel(restore.provider, restore.model);
    }
  }

  /** A custom command's `model`: `provider/model` or a model of the current provider, for one prompt; returns what to go back to. */
  private switchForPrompt(wanted: string): { provider: string; model: string } | null {
    const before = { provider: this.cfg.providerName, model: this.cfg.model };
    const slash = wanted.indexOf("/");
    const r = slash > 0 ? this.setModel(wanted.slice(0, slash), wanted.slice(slash + 1)) : this.setModel(before.provider, wanted);
    if (!r.ok) {
      this.emit({ type: "error", message: `The command asks for model ${wanted}, but zot stays on ${before.provider}/${before.model}: ${r.error}.` });
      return null;
    }
    return before;
  }

  customCommands(): LoadedCommands {
    const trusted = this.cfg.trust === "all" || isTrusted(this.cfg.home, this.cfg.cwd);
    return loadCustomCommands(this.cfg.cwd, this.cfg.home, trusted);
  }

  private promptNow(text: string, attachments: (TextPart | ImagePart)[]): Promise<PromptOutcome> {
    return this.run(async () => {
      // `@server:uri` mentions of MCP resources: their contents go into the message the model sees.
      const attached = this.host.attach ? await this.host.attach(text) : { text, errors: [] };
      for (const message of attached.errors) this.emit({ type: "error", message });
      const message: UserMessage = { role: "user", content: [{ type: "text", text: attached.text }, ...attachments], ts: Date.now() };
      this.record(message);
      const wire = messageJson(message);
      this.emit({ type: "user_message", text, images: attachments.filter((p) => p.type === "image").length, content: wire.content as Json[], time: wire.time as string });
    });
  }

  async resume(): Promise<PromptOutcome> {
    if (this.controller) throw new Error("Runtime.resume called while a prompt is running; wait for it or abort it first");
    return this.run();
  }

  /** `before` runs once the runtime is busy: the new prompt joins the history there. */
  private async run(before?: () => Promise<void>): Promise<PromptOutcome> {
    const controller = new AbortController();
    this.controller = controller;
    try {
      if (before) await before();
      const cfg = this.cfg;
      const outcome = await runLoop(
        {
          provider: cfg.provider,
          model: cfg.model,
          system: this.systemPrompt(),
          ...(cfg.reasoning ? { reasoning: cfg.reasoning } : {}),
          sessionId: this.sessionId(),
          maxSteps: cfg.maxSteps,
          cwd: cfg.cwd,
          home: cfg.home,
          builtins: cfg.builtins,
          extensionTools: cfg.extensionTools,
          host: this.host,
          history: () => this.history,
          record: (m) => this.record(m),
          emit: (e) => this.emit(e),
          addUsage: (u) => this.addUsage(u),
          approve: (req, detail) => this.approve(req, detail),
          jail: () => this.jailedAt,
          compact: async () => (await this.condense("overflow", controller.signal)).ok,
          steer: () => this.steering?.().map((s) => this.steerMessage(s)) ?? [],
        },
        controller.signal,
      );
      // The interruption stays in the conversation (and the transcript), so the model and a resumed session know.
      if (outcome.stop === "aborted") this.record(interruptedMessage(Date.now()));
      else if (!controller.signal.aborted && this.autoCompactDue()) await this.condense("threshold", controller.signal);
      return outcome;
    } finally {
      this.controller = null;
    }
  }

  /** The transcript's name (`<timestamp>-<id>`), stable across resumes; Kimi's prompt cache key. */
  private sessionId(): string {
    const path = this.session.path;
    return path ? basename(path, ".jsonl") : this.ephemeralId;
  }

  private steerMessage(s: SteeringMessage): UserMessage {
    return { role: "user", content: [{ type: "text", text: s.text }, ...s.attachments], ts: Date.now() };
  }

  setSteering(source: (() => SteeringMessage[]) | null): void {
    this.steering = source;
  }

  private systemPrompt(): string {
    const cfg = this.cfg;
    const tools = [...cfg.builtins.map((t) => ({ name: t.name, description: t.description }))];
    // Deferred tools stay out of the list even once active: the prompt must not change when one is
    // activated, or the provider's cached prefix (from the system prompt on) would be lost.
    if (cfg.extensionTools) for (const t of this.host.tools()) if (t.active && !t.deferred) tools.push({ name: t.name, description: t.description });
    const skills = cfg.builtins.some((t) => t.name === "skill") ? discoverSkills(cfg.cwd, cfg.home).skills : [];
    return buildSystemPrompt({
      home: cfg.home,
      cwd: cfg.cwd,
      tools,
      skills,
      ...(cfg.systemPrompt !== undefined ? { systemPrompt: cfg.systemPrompt } : {}),
      instructions: loadInstructions(cfg.cwd, cfg.home),
      append: this.mode === "plan" ? [...cfg.appendSystemPrompt, PLAN_INSTRUCTION] : cfg.appendSystemPrompt,
    });
  }

  private record(message: Message): void {
    this.history.push(message);
    this.session.message(message);
    if (message.role === "toolResult" && message.toolName === TODO_TOOL) this.syncTodos();
  }

  todos(): TodoItem[] {
    return this.todoList;
  }

  /** Tells the modes and extensions when the history's todo list differs from the last one they saw. */
  private syncTodos(): void {
    const items = latestTodos(this.history);
    if (sameTodos(items, this.todoList)) return;
    this.todoList = items;
    this.emit({ type: "todo", items });
    this.host.emit({ event: "todo", items });
  }

  private addUsage(u: Usage): Usage {
    const cost = u.cost || costOf(u, findModel(this.cfg.catalog, this.cfg.providerName, this.cfg.model));
    const usage = { ...u, cost };
    this.lastContext = u.input + u.cacheRead + u.cacheWrite + u.output;
    const t = this.totals;
    this.totals = {
      input: t.input + usage.input,
      output: t.output + usage.output,
      cacheRead: t.cacheRead + usage.cacheRead,
      cacheWrite: t.cacheWrite + usage.cacheWrite,
      cost: t.cost + usage.cost,
    };
    this.session.usage(usage, this.totals, this.cfg.providerName, this.cfg.model);
    return { ...this.totals };
  }

  private async approve(req: Omit<ConfirmRequest, "detail">, detail: () => ApprovalDetail): Promise<Approval> {
    const verdict = modeVerdict(this.mode, req.name, req.args, this.cfg.cwd, this.permissionRules().project);
    if (verdict === "run") return { ok: true };
    if (verdict === "refuse") return { ok: false, reason: PLAN_REFUSAL };
    if (this.promptRules.some((r) => ruleMatches(r, req.name, req.args))) return { ok: true };
    const ask = this.confirm;
    if (!ask || this.permissionRules().allows(req.name, req.args)) return { ok: true };
    this.host.emit({ event: "tool_confirmation_requested", tool_id: req.id, tool_name: req.name, tool_preview: req.preview });
    this.emit({ type: "tool_confirmation_requested", id: req.id, name: req.name, preview: req.preview });
    const decision = await ask({ ...req, detail: detail() });
    switch (decision.kind) {
      case "yes":
        return { ok: true };
      case "yes_rule": {
        const added = this.permissionRules().add(decision.rule, decision.always);
        if (!added.ok) this.emit({ type: "error", message: `${added.error} The rule holds for this session only.` });
        return { ok: true };
      }
      case "yes_all":
        this.mode = "yolo";
        return { ok: true };
      case "no":
        return { ok: false, reason: decision.reason || "no reason given" };
      case "stop":
        this.abort();
        return { ok: false, reason: "the user stopped the turn" };
    }
  }

  private permissionRules(): PermissionRules {
    return (this.rules ??= new PermissionRules(this.cfg.home, projectRoot(this.cfg.cwd), (message) => this.emit({ type: "error", message })));
  }

  get reasoning(): Effort | null {
    return this.cfg.reasoning ?? null;
  }

  reasoningLevels(): readonly Effort[] {
    return findModel(this.cfg.catalog, this.cfg.providerName, this.cfg.model)?.efforts ?? EFFORTS;
  }

  setReasoning(level: string | null): { ok: true } | { ok: false; error: string } {
    if (level === null) {
      delete this.cfg.reasoning;
      return { ok: true };
    }
    const levels = this.reasoningLevels();
    const known = levels.find((l) => l === level);
    if (!known) {
      const which = (EFFORTS as readonly string[]).includes(level) ? `${this.cfg.providerName}/${this.cfg.model} does not take thinking level "${level}"` : `unknown thinking level "${level}"`;
      return { ok: false, error: `${which} (${orList([...levels, "off"])})` };
    }
    this.cfg.reasoning = known;
    return { ok: true };
  }

  instructionFiles(): string[] {
    return loadInstructions(this.cfg.cwd, this.cfg.home).map((f) => f.path);
  }

  permissions(): ListedRule[] {
    return this.permissionRules().list();
  }

  revokePermission(entry: ListedRule): { ok: true } | { ok: false; error: string } {
    return this.permissionRules().revoke(entry);
  }

  abort(): void {
    this.controller?.abort();
  }

  messages(): readonly Message[] {
    return this.history;
  }

  usage(): Usage {
    return { ...this.totals };
  }

  context(): { used: number; window: number } {
    const info = findModel(this.cfg.catalog, this.cfg.providerName, this.cfg.model);
    return { used: this.lastContext, window: info?.contextWindow ?? 0 };
  }

  clear(): void {
    this.abort();
    this.history = [];
    this.syncTodos();
    this.totals = emptyUsage();
    this.lastContext = 0;
    this.rules?.clearSession();
    this.startSession(this.newWriter());
  }

  private newWriter(): SessionWriter {
    const cfg = this.cfg;
    if (cfg.noSession) return noSession;
    return lockedWriter(createSession({ home: cfg.home, cwd: cfg.cwd, provider: cfg.providerName, model: cfg.model, secrets: cfg.secrets }));
  }

  private startSession(writer: SessionWriter): void {
    this.session.close();
    this.session = writer;
    this.host.emit({ event: "session_start" });
  }

  sessions(): SessionInfo[] {
    return listSessions(this.cfg.home, this.cfg.cwd);
  }

  promptHistoryFile(): string {
    return historyPath(this.cfg.home, this.cfg.cwd);
  }

  // Lazily imported: only /trust needs a second look at the project's code.
  async trustReview(): Promise<TrustReview> {
    const { trustReview } = await import("../ext/project-code.ts");
    return trustReview(this.cfg.home, this.cfg.cwd);
  }

  async trustProject(): Promise<{ ok: true; path: string } | { ok: false; error: string }> {
    const { trustProject } = await import("../ext/project-code.ts");
    const r = await trustProject(this.cfg.home, this.cfg.cwd);
    return r.ok ? { ok: true, path: r.path } : r;
  }

  settings(): ConfigValues {
    return readConfig(this.cfg.home).values;
  }

  saveSettings(patch: ConfigValues): { ok: true } | { ok: false; error: string } {
    return updateConfig(this.cfg.home, patch);
  }

  saveApiKey(provider: string, key: string): { ok: true; path: string } | { ok: false; error: string } {
    return saveApiKey(this.cfg.home, provider, key);
  }

  removeApiKey(provider: string): { ok: true; path: string; removed: boolean } | { ok: false; error: string } {
    return removeApiKey(this.cfg.home, provider);
  }

  subscriptions(): string[] {
    return readAuth(this.cfg.home).subscriptions;
  }

  openSession(path: string): { ok: true; warnings: string[] } | { ok: false; error: string } {
    if (this.busy) return { ok: false, error: "a prompt is running; abort it or wait before switching sessions" };
    const loaded = openSession(path);
    if (!loaded.ok) return loaded;
    const s = loaded.session;
    const locked = s.path === this.session.path ? null : lockSession(s.path);
    if (locked && !locked.ok) return { ok: false, error: locked.held ? `${s.path} ${IN_USE}` : locked.error };
    this.history = s.messages;
    this.syncTodos();
    this.totals = s.usage;
    this.lastContext = 0;
    // Reopening the current session keeps its writer, and with it the lock this process holds.
    if (locked) this.startSession(lockedWriter(appendSession(s, this.cfg.secrets), locked.lock));
    else this.host.emit({ event: "session_start" });
    const warnings = [...s.warnings];
    // The session goes on with the model it last used (its last meta row), as with --continue.
    if (s.provider && s.model && (s.provider !== this.cfg.providerName || s.model !== this.cfg.model)) {
      const r = this.setModel(s.provider, s.model);
      if (!r.ok) warnings.push(`The session last used ${s.provider}/${s.model}, but zot stays on ${this.cfg.providerName}/${this.cfg.model}: ${r.error}.`);
    }
    for (const w of warnings) this.emit({ type: "error", message: w });
    return { ok: true, warnings };
  }

  exportSession(dest?: string): { ok: true; path: string } | { ok: false; error: string } {
    const path = this.currentTranscript();
    if (typeof path !== "string") return path;
    return exportSession(path, dest);
  }

  importSession(source: string): { ok: true; path: string; warnings: string[] } | { ok: false; error: string } {
    if (this.busy) return { ok: false, error: "a prompt is running; abort it or wait before switching sessions" };
    const r = importSession(source, this.cfg.home, this.cwd);
    if (!r.ok) return r;
    const opened = this.openSession(r.path);
    return opened.ok ? { ...r, warnings: opened.warnings } : opened;
  }

  sessionPrompts(): { ok: true; prompts: Prompt[] } | { ok: false; error: string } {
    const path = this.currentTranscript();
    if (typeof path !== "string") return path;
    return sessionPrompts(path);
  }

  forkSession(index: number): { ok: true; path: string; text: string; warnings: string[] } | { ok: false; error: string } {
    if (this.busy) return { ok: false, error: "a prompt is running; abort it or wait before forking" };
    const path = this.currentTranscript();
    if (typeof path !== "string") return path;
    const r = forkSession(path, index, this.cfg.home, this.cwd);
    if (!r.ok) return r;
    const opened = this.openSession(r.path);
    return opened.ok ? { ...r, warnings: opened.warnings } : opened;
  }

  sessionTree(): TreeNode[] {
    return sessionTree(this.cfg.home, this.cwd, this.session.path);
  }

  /** The transcript file, once it exists (it appears with the first message). */
  private currentTranscript(): string | { ok: false; error: string } {
    const path = this.session.path;
    if (path === null) return { ok: false, error: "this run keeps no session (--no-session)" };
    if (this.history.length === 0 || !existsSync(path)) return { ok: false, error: "this session has no messages yet" };
    return path;
  }

  async sideQuestion(question: string, signal: AbortSignal, onText: (text: string) => void): Promise<{ ok: true; text: string } | { ok: false; error: string }> {
    const cfg = this.cfg;
    const tools = cfg.builtins.map((t) => ({ name: t.name, description: t.description, schema: t.schema }));
    if (cfg.extensionTools) for (const t of this.host.tools()) if (t.active) tools.push({ name: t.name, description: t.description, schema: t.schema });
    const request = {
      model: cfg.model,
      system: this.systemPrompt(),
      // The tools stay declared (a history with tool calls needs them); the question asks for none.
      messages: [...this.history, { role: "user" as const, content: [{ type: "text" as const, text: `${BTW_INSTRUCTION}\n\n${question}` }], ts: Date.now() }],
      tools,
    };
    const final = await streamResponse(cfg.provider, request, signal, (ev) => {
      if (ev.type === "text_delta") onText(ev.text);
    });
    // A side question is paid for like any call: it counts in the session's totals and cost.
    if (final) this.emit({ type: "usage", usage: final.usage, total: this.addUsage(final.usage) });
    if (!final || final.stop === "aborted") return { ok: false, error: "cancelled" };
    if (final.stop === "error") return { ok: false, error: final.error ?? "the model call failed" };
    return { ok: true, text: final.content.map((p) => (p.type === "text" ? p.text : "")).join("") };
  }

  async compact(): Promise<{ ok: boolean; error?: string; summary?: string }> {
    if (this.controller) return { ok: false, error: "a prompt is running; abort it or wait before compacting" };
    if (this.history.length === 0) return { ok: false, error: "there is nothing to compact yet" };
    const controller = new AbortController();
    this.controller = controller;
    try {
      return await this.condense("manual", controller.signal);
    } finally {
      this.controller = null;
    }
  }

  /** Summarises all but the latest turns; on failure or cancel the history is left as it was. */
  private async condense(reason: CompactReason, signal: AbortSignal): Promise<{ ok: boolean; error?: string; summary?: string }> {
    const cut = keptFrom(this.history);
    if (cut === 0) return { ok: false, error: "there is nothing to compact yet" };
    this.emit({ type: "compaction_start", reason });
    const r = await summarise(this.cfg.provider, this.cfg.model, this.systemPrompt(), this.history.slice(0, cut), signal, (ev) => this.emit(retryEvent(ev)));
    if (r.usage) this.emit({ type: "usage", usage: r.usage, total: this.addUsage(r.usage) });
    if (!r.ok) {
      this.emit({ type: "compaction_end", reason, ok: false, error: r.error });
      return { ok: false, error: r.error };
    }
    const kept = this.history.slice(cut);
    this.history = [summaryMessage(r.summary, Date.now()), ...kept];
    this.syncTodos();
    this.session.compaction(r.summary, cut, kept.length);
    // The summary request measured the old context; the next request measures the new one.
    this.lastContext = 0;
    this.emit({ type: "compaction_end", reason, ok: true, replaced: cut, kept: kept.length });
    return { ok: true, summary: r.summary };
  }

  private autoCompactDue(): boolean {
    const percent = this.cfg.autoCompactPercent;
    const { used, window } = this.context();
    return percent !== null && window > 0 && used >= (window * percent) / 100;
  }

  models(): ModelInfo[] {
    return [...this.cfg.catalog];
  }

  setModel(provider: string, model: string): { ok: true; notice?: string } | { ok: false; error: string } {
    if (this.busy) return { ok: false, error: "a prompt is running; abort it or wait before switching models" };
    if (!isProviderName(provider)) return { ok: false, error: `unknown provider "${provider}" (${orList(PROVIDERS)})` };
    if (model.trim() === "") return { ok: false, error: "the model id is empty" };
    const cfg = this.cfg;
    if (provider !== cfg.providerName) {
      // --api-key and --base-url were given for the starting provider; a different one uses its own credentials.
      const { credential } = resolveCredentials({ provider, home: cfg.home, env: cfg.env });
      if (!credential && provider in PROVIDER_ENV_KEYS)
        return { ok: false, error: `no API key for ${provider}; set its environment variable or add the key to ${cfg.home}/auth.json` };
      cfg.provider = createProvider({
        provider,
        ...(credential ? { apiKey: credential.key } : {}),
        catalog: cfg.catalog,
        ...(cfg.wire ? { wire: cfg.wire } : {}),
        ...(cfg.mockScript ? { mockScript: cfg.mockScript } : {}),
        ...(cfg.limits ? { limits: cfg.limits } : {}),
      });
      cfg.providerName = provider;
      if (credential && provider !== "mock") {
        // The new provider's live models: the cached list now, a stale one refreshed in the background.
        const d: Discovery = { home: cfg.home, provider, key: credential.key, base: discoveryBase(provider) };
        if (!mergeCached(cfg.catalog, d)) void refreshModels(d, cfg.catalog, this.background.signal);
      }
    }
    cfg.model = model;
    this.host.setInfo({ provider, model });
    this.session.model(provider, model);
    if (provider !== "mock") rememberModel(cfg.home, provider, model);
    const fit = cfg.reasoning && provider !== "mock" ? fitReasoning(findModel(cfg.catalog, provider, model), cfg.reasoning, provider, model) : undefined;
    if (!fit) return { ok: true };
    if (fit.level) cfg.reasoning = fit.level;
    else delete cfg.reasoning;
    return fit.notice ? { ok: true, notice: fit.notice } : { ok: true };
  }

  setConfirmHandler(handler: ((req: ConfirmRequest) => Promise<ConfirmDecision>) | null): void {
    this.confirm = handler;
  }

  backgroundJobs(): JobInfo[] {
    return listJobs();
  }

  async killBackgroundJob(id: string): Promise<{ ok: true; job: JobInfo } | { ok: false; error: string }> {
    const r = await killJob(id);
    return r.ok ? { ok: true, job: r.info } : r;
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.abort();
      this.background.abort();
      this.unhookIntents();
      this.unhookJobs();
      this.closed = Promise.all([this.host.shutdown(), stopJobs()]).finally(() => this.session.close()).then(() => undefined);
    }
    return this.closed;
  }
}

/** A background command's start or end, as the headless modes write it. */
function jobEvent(job: JobInfo): AgentEvent {
  return {
    type: "background_job",
    id: job.id,
    command: job.command,
    pid: job.pid,
    state: job.state,
    ...(job.state !== "running" ? { exit_code: job.exitCode, signal: job.signal } : {}),
  };
}
