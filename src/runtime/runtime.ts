// The agent runtime: one conversation with one provider, its transcript, its tools and the extension
// host. Modes (print, JSON, RPC, TUI) drive it through `AgentRuntime`; `createRuntime` in setup.ts
// wires it from the command line.
import type { Failure, Result } from "../result.ts";
import { historyPath } from "../platform/home.ts";
import { existsSync } from "node:fs";
import type { ExtensionHost, UiIntent } from "../ext/types.ts";
import type { TrustReview } from "./project-code.ts";
import { basename } from "node:path";
import { costOf, defaultModel, findModel, fitReasoning, isProviderName } from "../agent/catalog.ts";
import { EFFORTS, orList, PROVIDERS, type Effort } from "../agent/choices.ts";
import {
  PROVIDER_ENV_KEYS,
  readAuth,
  readConfig,
  removeApiKey,
  resolveCredentials,
  rememberModel,
  saveApiKey,
  updateConfig,
  type ConfigValues,
} from "../agent/config.ts";
import type { Env } from "../platform/env.ts";
import type { AgentEvent, ApprovalDetail, CompactReason, ConfirmDecision, ConfirmRequest, PermissionRule } from "../agent/events.ts";
import { keptFrom, summarise } from "../agent/compaction.ts";
import type { PermissionMode } from "../agent/choices.ts";
import { modeVerdict, PLAN_INSTRUCTION, PLAN_REFUSAL, unattendedRefusal } from "../agent/permission-modes.ts";
import { PermissionRules, rulesAllow, scopeLabel, suggestRules, type ListedRule } from "../agent/permission-rules.ts";
import { projectRoot } from "../platform/project-root.ts";
import { loadInstructions } from "../agent/instructions.ts";
import { retryEvent, runCall, runLoop, streamResponse, type Approval, type LoopContext } from "../agent/loop.ts";
import type { ActiveTool } from "../agent/hooks.ts";
import type { ContentBlock } from "../protocol.ts";
import { emptyUsage, type ImagePart, type Json, type Message, type TextPart, type Usage, type UserMessage } from "../agent/messages.ts";
import { messageJson } from "../agent/message-json.ts";
import type { ModelInfo, Provider } from "../agent/provider.ts";
import { createProvider } from "../agent/providers/index.ts";
import { discoveryBase, mergeCached, refreshModels, type Discovery } from "../agent/model-discovery.ts";
import { randomHex } from "../random.ts";
import type { StreamLimits } from "../agent/providers/limits.ts";
import type { AgentRuntime, KeyCheck, PromptOptions, PromptOutcome, RestoreChoice, RewindPoint, ShellOutput, SteeringMessage } from "./api.ts";
import type { RunFlags } from "./run-flags.ts";
import {
  appendSession,
  createSession,
  firstText,
  interruptedMessage,
  noSession,
  openSession,
  summaryMessage,
  type SessionInfo,
  type SessionWriter,
} from "../agent/session.ts";
import { listSessions } from "../agent/session-list.ts";
import { IN_USE, lockedWriter, lockSession } from "../agent/session-lock.ts";
import { exportSession, forkSession, importSession, sessionPrompts, sessionTree, type Prompt, type TreeNode } from "../agent/session-ops.ts";
import { discoverSkills, skillBody, type Skill, type SkillDiscovery } from "../agent/skills.ts";
import { attachMentions, type Mentions } from "../agent/attachments.ts";
import { initPrompt } from "../agent/instructions.ts";
import { PROBE_TIMEOUT_MS, probeKey, probeRequest } from "../agent/providers/key-check.ts";
import { bashTool } from "../agent/tools/bash.ts";
import { textOf } from "../agent/content.ts";
import { jailRoot } from "../agent/jail.ts";
import { buildSystemPrompt } from "../agent/system-prompt.ts";
import type { EditorAccess, TaskRequest, Tool, ToolOutput } from "../agent/tool.ts";
import { Replaying } from "../replaying.ts";
import type { SandboxPolicy } from "../agent/sandbox/policy.ts";
import type { SandboxStatus } from "../agent/sandbox/status.ts";
import type { JsonObject } from "../json.ts";
import { checkpointId, type Checkpoints, type RewindPlan } from "../agent/checkpoints.ts";
import { resolvePath } from "../agent/tools/common.ts";
import { loadCustomCommands, type LoadedCommands } from "../agent/custom-commands.ts";
import { isTrusted } from "../ext/install/trust.ts";
import { latestTodos, sameTodos, TODO_TOOL, type TodoItem } from "../agent/todos.ts";
import { loadAgents, taskDescription, type AgentDefinition, type LoadedAgents } from "../agent/agents.ts";
import { TASK_TOOL } from "../agent/tools/task.ts";
import { DEFAULT_CONCURRENCY } from "../agent/loop.ts";
import { Subagents } from "./subagents.ts";
import { killJob, listJobs, onJobChange, stopJobs, type JobInfo } from "../agent/tools/background-jobs.ts";
import { addModelUsage, type ModelUsage } from "../agent/model-usage.ts";
import { writeExport, type ExportFormat } from "../agent/export/export-file.ts";
import { contextReport, type ContextReport } from "./context-parts.ts";
import type { SessionDoctor } from "./doctor.ts";
import { addWritableDir } from "../agent/sandbox/add-dir.ts";

/**
 * What a Runtime is built from: the run choices it applies as given (`wire` is kept for the
 * providers /model switches to; `reasoning` is the choice or config.json's level, checked against
 * the model), and what setup resolved.
 */
export type RuntimeConfig = Pick<RunFlags, "mockScript" | "systemPrompt" | "appendSystemPrompt" | "reasoning" | "wire" | "maxSteps" | "noSession" | "trust"> & {
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
  /** The permission mode the run starts in (setup chose it: flag, resumed session, config.json or the default). */
  permissionMode: PermissionMode;
  /** Context use (percent of the window) at which a finished turn condenses the history; null: never. */
  autoCompactPercent: number | null;
  session: SessionWriter;
  history: Message[];
  usage: Usage;
  /** The transcript's usage model by model, as the session loader tallied it. */
  byModel: ModelUsage[];
  secrets: string[];
  /** A model list to refresh in the background (see discovery.ts). */
  discovery?: Discovery | undefined;
  /** Stream timeouts and caps from config.json, for every provider client this runtime makes. */
  limits?: Partial<StreamLimits> | undefined;
  /** The sandbox the agent's commands and file tools obey, and whether this machine enforces it; absent: none. */
  sandbox?: { policy: SandboxPolicy; status: SandboxStatus };
  /** The workspace's code checkpoints; null when they are off (config.json, --no-session). */
  checkpoints?: Checkpoints | null;
  /** The resumed session's title (/rename), or null. */
  title?: string | null;
  /** The starting provider's key and --base-url, for /doctor's check that the provider answers. */
  credential?: { provider: string; key: string };
  baseUrl?: string;
};

/** Who answers approval questions: the mode's confirm handler, or an MCP client through elicitation. */
type Asker = (req: ConfirmRequest) => Promise<ConfirmDecision>;

/** One call from an MCP client (`zot mcp serve`); see `Runtime.serveCall`. */
export type ServedCall = {
  id: string;
  name: string;
  args: JsonObject;
  /** The MCP client's name (`clientInfo.name`), told to extensions in `tool_call` events and interceptions. */
  client: string;
  /** The built-in tools served; a call of any other built-in is an unknown tool. */
  builtins: readonly Tool[];
  /** The hooks' tools served. */
  tools: readonly ActiveTool[];
  signal: AbortSignal;
  onProgress: (text: string) => void;
  ask: Asker | null;
  /** Why a call that needs approval is refused when `ask` is null. */
  refusal: string;
};

export type ServedResult = { content: ContentBlock[]; isError: boolean; structured?: Json };

const NO_SANDBOX: SandboxStatus = { mode: "off", enforced: false, network: true, reason: "no sandbox was set up" };

const MAX_EARLY_NOTES = 100;
/** As many as the host itself keeps for its first listener. */
const MAX_EARLY_INTENTS = 200;

const CHECKPOINTS_OFF = 'code checkpoints are off in this run (config.json "checkpoints": false, or --no-session)';

/** write and edit, telling the checkpoints which file they are about to change. */
function watchedTool(tool: Tool, checkpoints: Checkpoints): Tool {
  if (tool.name !== "write" && tool.name !== "edit") return tool;
  return {
    ...tool,
    execute(args, ctx) {
      const path = args.path;
      if (typeof path === "string" && path !== "") checkpoints.touch(resolvePath(ctx.cwd, path));
      return tool.execute(args, ctx);
    },
  };
}

const BTW_INSTRUCTION =
  "A side question about the conversation so far (answer it directly and briefly from what you already know; do not use any tools; this exchange is not kept):";

export class Runtime implements AgentRuntime {
  readonly host: ExtensionHost;
  readonly cwd: string;
  private permissionMode: PermissionMode;
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
  /** The `task` tool's subagents. */
  private readonly subagents: Subagents;
  /** The question being put to the user (see `oneQuestion`). */
  private questions: Promise<unknown> = Promise.resolve();
  /** What each model cost in this session (the transcript's usage rows, then this run's calls). */
  private byModel: ModelUsage[];
  private sessionTitle: string | null;
  /** The editor's files and terminals (an ACP session), or null: the file system and zot's shell. */
  private editorAccess: EditorAccess | null = null;

  constructor(cfg: RuntimeConfig) {
    this.cfg = cfg;
    this.host = cfg.host;
    this.cwd = cfg.cwd;
    this.permissionMode = cfg.permissionMode;
    this.history = cfg.history;
    this.todoList = latestTodos(cfg.history);
    this.totals = cfg.usage;
    this.session = cfg.session;
    this.byModel = cfg.byModel;
    this.sessionTitle = cfg.title ?? null;
    const checkpoints = cfg.checkpoints ?? null;
    // write and edit keep a file's earlier state when the prompt's checkpoint does not hold it.
    if (checkpoints) cfg.builtins = cfg.builtins.map((t) => watchedTool(t, checkpoints));
    // The runtime is the host's first listener, so it receives what extensions sent during load.
    this.unhookIntents = cfg.host.onIntent((intent) => this.fromHost(intent));
    this.unhookJobs = onJobChange((job) => this.emit(jobEvent(job)));
    this.subagents = this.makeSubagents();
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
  get sandbox(): SandboxStatus {
    return this.cfg.sandbox?.status ?? NO_SANDBOX;
  }
  get sandboxPolicy(): SandboxPolicy | null {
    return this.cfg.sandbox?.policy ?? null;
  }

  setJail(on: boolean): string | null {
    this.jailedAt = on ? jailRoot(this.cwd) : null;
    // Extensions see it in hello_ack (on load and reload) and in every tool_call frame.
    this.host.setInfo({ jail: this.jailedAt ?? undefined });
    return this.jailedAt;
  }

  get mode(): PermissionMode {
    return this.permissionMode;
  }
  /** Kept in the transcript, so a resumed session starts in the mode it was left in. */
  set mode(mode: PermissionMode) {
    if (mode === this.permissionMode) return;
    this.permissionMode = mode;
    this.session.permissionMode(mode);
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
    return loadCustomCommands(this.cfg.cwd, this.cfg.home, this.projectTrusted());
  }

  private projectTrusted(): boolean {
    return this.cfg.trust === "all" || isTrusted(this.cfg.home, this.cfg.cwd);
  }

  agents(): LoadedAgents {
    const extra = this.host.agents().map(({ extension, ...fields }) => ({ fields, source: `extension ${extension}` }));
    return loadAgents(this.cfg.cwd, this.cfg.home, this.projectTrusted(), extra);
  }

  /** The built-in tools as the model is offered them: the `task` tool lists the agents of the session. */
  private offeredBuiltins(): Tool[] {
    const builtins = this.cfg.builtins;
    if (!builtins.some((t) => t.name === TASK_TOOL)) return builtins;
    const description = taskDescription(this.agents().agents);
    return builtins.map((t) => (t.name === TASK_TOOL ? { ...t, description } : t));
  }

  private subagentSettings(): { concurrency: number; maxCost: number | null } {
    const s = readConfig(this.cfg.home).values.subagents;
    return { concurrency: s?.concurrency ?? DEFAULT_CONCURRENCY, maxCost: s?.maxCost ?? null };
  }

  private makeSubagents(): Subagents {
    const cfg = this.cfg;
    return new Subagents({
      cwd: cfg.cwd,
      home: cfg.home,
      current: () => ({ provider: cfg.provider, providerName: cfg.providerName, model: cfg.model, reasoning: cfg.reasoning ?? null }),
      providerFor: (wanted) => this.providerFor(wanted),
      builtins: () => this.offeredBuiltins(),
      extensionTools: cfg.extensionTools,
      hooks: this.host,
      maxSteps: cfg.maxSteps,
      settings: () => this.subagentSettings(),
      agents: () => this.agents(),
      systemPrompt: (agent, tools) => this.agentSystemPrompt(agent, tools),
      approve: (req, detail) => this.approve(req, detail),
      escalate: (req, denial) => this.escalate(req, denial),
      jail: () => this.jailedAt,
      sandbox: cfg.sandbox?.policy ?? null,
      editor: () => this.editorAccess,
      emit: (e) => this.emit(e),
      addUsage: (u, by) => this.addUsage(u, by),
      totals: () => ({ ...this.totals }),
      record: (agent, m) => this.session.subagent(agent, m),
    });
  }

  /** An agent's `model` for one subagent: `provider/model`, or a model id of the current provider. */
  private providerFor(wanted: string): Result<{ provider: Provider; providerName: string; model: string }> {
    const slash = wanted.indexOf("/");
    const providerName = slash > 0 ? wanted.slice(0, slash) : this.cfg.providerName;
    const model = slash > 0 ? wanted.slice(slash + 1) : wanted;
    if (providerName === this.cfg.providerName) return { ok: true, provider: this.cfg.provider, providerName, model };
    const made = this.makeProvider(providerName);
    return made.ok ? { ok: true, provider: made.provider, providerName, model } : made;
  }

  /** A client for another provider, with that provider's own credentials. */
  private makeProvider(provider: string): Result<{ provider: Provider; key: string | null }> {
    const cfg = this.cfg;
    if (!isProviderName(provider)) return { ok: false, error: `unknown provider "${provider}" (${orList(PROVIDERS)})` };
    // --api-key and --base-url were given for the starting provider; a different one uses its own credentials.
    const { credential } = resolveCredentials({ provider, home: cfg.home, env: cfg.env });
    if (!credential && provider in PROVIDER_ENV_KEYS)
      return { ok: false, error: `no API key for ${provider}; set its environment variable or add the key to ${cfg.home}/auth.json` };
    const made = createProvider({
      provider,
      ...(credential ? { apiKey: credential.key } : {}),
      catalog: cfg.catalog,
      ...(cfg.wire ? { wire: cfg.wire } : {}),
      ...(cfg.mockScript ? { mockScript: cfg.mockScript } : {}),
      ...(cfg.limits ? { limits: cfg.limits } : {}),
      home: cfg.home,
    });
    return { ok: true, provider: made, key: credential?.key ?? null };
  }

  private agentSystemPrompt(agent: AgentDefinition, tools: readonly { name: string; description: string }[]): string {
    const cfg = this.cfg;
    const skills = tools.some((t) => t.name === "skill") ? discoverSkills(cfg.cwd, cfg.home).skills : [];
    return buildSystemPrompt({
      home: cfg.home,
      cwd: cfg.cwd,
      tools: [...tools],
      skills,
      systemPrompt: `${agent.prompt}\n\nWorking directory: ${cfg.cwd}\nTools: ${tools.map((t) => t.name).join(", ") || "none"}`,
      instructions: loadInstructions(cfg.cwd, cfg.home),
      append: this.mode === "plan" ? [PLAN_INSTRUCTION] : [],
    });
  }

  private promptNow(text: string, attachments: (TextPart | ImagePart)[]): Promise<PromptOutcome> {
    return this.run(async () => {
      // `@server:uri` mentions of MCP resources: their contents go into the message the model sees.
      const attached = this.host.attach ? await this.host.attach(text) : { text, errors: [] };
      for (const message of attached.errors) this.emit({ type: "error", message });
      const message: UserMessage = { role: "user", content: [{ type: "text", text: attached.text }, ...attachments], ts: Date.now() };
      const wire = messageJson(message);
      this.checkpoint(wire);
      this.record(message);
      this.emit({
        type: "user_message",
        text,
        images: attachments.filter((p) => p.type === "image").length,
        content: wire.content as Json[],
        time: wire.time as string,
      });
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
          reasoning: cfg.reasoning,
          sessionId: this.sessionId(),
          maxSteps: cfg.maxSteps,
          cwd: cfg.cwd,
          home: cfg.home,
          builtins: this.offeredBuiltins(),
          extensionTools: cfg.extensionTools,
          hooks: this.host,
          history: () => this.history,
          record: (m) => this.record(m),
          emit: (e) => this.emit(e),
          addUsage: (u) => this.addUsage(u),
          approve: (req, detail) => this.approve(req, detail),
          jail: () => this.jailedAt,
          sandbox: cfg.sandbox?.policy,
          escalate: (req, denial) => this.escalate(req, denial),
          compact: async () => (await this.condense("overflow", controller.signal)).ok,
          steer: () => this.steering?.().map((s) => this.steerMessage(s)) ?? [],
          delegate: this.subagents.delegate(null, 0),
          concurrency: this.subagentSettings().concurrency,
          editor: () => this.editorAccess,
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

  /** The built-in tools of this run (after --tools), as the model is offered them. */
  get builtins(): readonly Tool[] {
    return this.cfg.builtins;
  }

  /**
   * `zot mcp serve`: one tool call from an MCP client, run as the loop runs the model's (`runCall`):
   * the same interceptors, permission mode and rules, jail and sandbox. Nothing joins the
   * conversation. `ask` puts approval questions to the client (elicitation); null refuses what
   * needs asking, with `refusal`.
   */
  async serveCall(call: ServedCall): Promise<ServedResult> {
    let result: ServedResult = { content: [{ type: "text", text: `the tool "${call.name}" produced no result` }], isError: true };
    const cfg = this.cfg;
    // No model is called: the fields the loop's model call needs (system prompt, history) stay empty.
    const ctx: LoopContext = {
      provider: cfg.provider,
      model: cfg.model,
      system: "",
      maxSteps: 1,
      cwd: cfg.cwd,
      home: cfg.home,
      extensionTools: cfg.extensionTools,
      hooks: this.host,
      history: () => [],
      addUsage: (u) => u,
      jail: () => this.jailedAt,
      ...(cfg.sandbox ? { sandbox: cfg.sandbox.policy } : {}),
      builtins: call.builtins,
      mcpClient: call.client,
      record: () => {},
      emit: (e) => {
        if (e.type === "tool_progress" && e.id === call.id) call.onProgress(e.text);
        else if (e.type === "tool_result" && e.id === call.id)
          result = { content: e.content, isError: e.is_error, ...(e.structured_content !== undefined ? { structured: e.structured_content } : {}) };
      },
      approve: (req, detail) => this.approve(req, detail, call.ask, call.refusal),
      escalate: (req, denial) => this.escalate(req, denial, call.ask),
    };
    await runCall(ctx, { type: "toolCall", id: call.id, name: call.name, args: call.args }, call.tools, call.signal);
    return result;
  }

  /** Records the workspace's files before the prompt whose wire form is `wire` (see checkpoints.ts). */
  private checkpoint(wire: JsonObject): void {
    const checkpoints = this.cfg.checkpoints;
    if (!checkpoints) return;
    const id = checkpointId(typeof wire.time === "string" ? wire.time : "", firstText(wire.content));
    const r = checkpoints.record(id);
    if (!r.ok) {
      this.emit({ type: "error", message: r.error });
      return;
    }
    this.host.emit({ event: "checkpoint", checkpoint: id, files: r.files });
  }

  /** The transcript's name (`<timestamp>-<id>`), stable across resumes; Kimi's prompt cache key. */
  private sessionId(): string {
    const path = this.session.path;
    return path ? basename(path, ".jsonl") : this.ephemeralId;
  }

  private steerMessage(s: SteeringMessage): UserMessage {
    return { role: "user", content: [{ type: "text", text: s.text }, ...s.attachments], ts: Date.now() };
  }

  /**
   * Runs a task as a subagent that no agent of this session asked for (`zot mcp serve`'s
   * `zot_agent` with an `agent`): the same gate, sandbox and hooks as the `task` tool's.
   */
  runAgent(req: TaskRequest, signal: AbortSignal, progress: (text: string) => void): Promise<ToolOutput> {
    return this.subagents.delegate(null, 0)(req, signal, progress);
  }

  setEditorAccess(access: EditorAccess | null): void {
    this.editorAccess = access;
  }

  setSteering(source: (() => SteeringMessage[]) | null): void {
    this.steering = source;
  }

  private systemPrompt(withInstructions = true): string {
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
      instructions: withInstructions ? loadInstructions(cfg.cwd, cfg.home) : [],
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

  /** `by`: a subagent's model, which prices the call and is credited with it; the main context's size stays as it was. */
  private addUsage(u: Usage, by?: { provider: string; model: string }): Usage {
    const provider = by?.provider ?? this.cfg.providerName;
    const model = by?.model ?? this.cfg.model;
    const cost = u.cost || costOf(u, findModel(this.cfg.catalog, provider, model));
    const usage = { ...u, cost };
    if (!by) this.lastContext = u.input + u.cacheRead + u.cacheWrite + u.output;
    const t = this.totals;
    this.totals = {
      input: t.input + usage.input,
      output: t.output + usage.output,
      cacheRead: t.cacheRead + usage.cacheRead,
      cacheWrite: t.cacheWrite + usage.cacheWrite,
      cost: t.cost + usage.cost,
    };
    this.session.usage(usage, this.totals, provider, model);
    addModelUsage(this.byModel, provider, model, usage);
    return { ...this.totals };
  }

  private async approve(
    req: Omit<ConfirmRequest, "detail" | "scope">,
    detail: () => ApprovalDetail,
    ask: Asker | null = this.confirm,
    refusal: string = unattendedRefusal(this.mode),
  ): Promise<Approval> {
    const rules = this.permissionRules();
    const scope = { cwd: this.cfg.cwd, root: rules.project };
    const verdict = modeVerdict(this.mode, req.name, req.args, scope.cwd, scope.root);
    if (verdict === "run") return { ok: true };
    if (verdict === "refuse") return { ok: false, reason: PLAN_REFUSAL, byUser: false };
    if (rulesAllow([...rules.all(), ...this.promptRules], req.name, req.args, scope)) return { ok: true };
    if (!ask) return { ok: false, reason: refusal, byUser: false };
    return this.oneQuestion(() => this.askUser(req, detail, rules, scope, ask));
  }

  /**
   * Questions to the user, one at a time: subagents running side by side may ask together, and an
   * answer ("don't ask again", yolo, stop) may settle the next question before it is put.
   */
  private oneQuestion<T>(ask: () => Promise<T>): Promise<T> {
    const next = this.questions.then(ask);
    this.questions = next.then(
      () => undefined,
      () => undefined,
    );
    return next;
  }

  private async askUser(
    req: Omit<ConfirmRequest, "detail" | "scope">,
    detail: () => ApprovalDetail,
    rules: PermissionRules,
    scope: { cwd: string; root: string },
    ask: Asker,
  ): Promise<Approval> {
    const verdict = modeVerdict(this.mode, req.name, req.args, scope.cwd, scope.root);
    if (verdict === "run") return { ok: true };
    if (verdict === "refuse") return { ok: false, reason: PLAN_REFUSAL, byUser: false };
    if (rulesAllow([...rules.all(), ...this.promptRules], req.name, req.args, scope)) return { ok: true };
    if (this.controller?.signal.aborted) return { ok: false, reason: "the user stopped the turn", byUser: true };
    const agent = req.agent ? { agent: req.agent } : {};
    this.host.emit({ event: "tool_confirmation_requested", tool_id: req.id, tool_name: req.name, tool_preview: req.preview, ...agent });
    this.emit({ type: "tool_confirmation_requested", id: req.id, name: req.name, preview: req.preview, ...agent });
    const suggested = suggestRules(req.name, req.args, scope, rules.all());
    const decision = await ask({
      ...req,
      detail: detail(),
      scope: suggested.length > 0 ? { rules: suggested, label: scopeLabel(suggested, scope.root) } : null,
    });
    switch (decision.kind) {
      case "yes":
        return { ok: true };
      case "yes_rule": {
        const added = rules.add(decision.rules, decision.always);
        if (!added.ok) this.emit({ type: "error", message: `${added.error} The rule holds for this session only.` });
        return { ok: true };
      }
      case "yes_all":
        this.mode = "yolo";
        return { ok: true };
      case "no":
        return { ok: false, reason: decision.reason || "no reason given", byUser: true };
      case "stop":
        this.abort();
        return { ok: false, reason: "the user stopped the turn", byUser: true };
    }
  }

  /** The sandbox stopped a command: in a mode that asks, the user may let it run once outside. */
  private escalate(req: Omit<ConfirmRequest, "detail">, denial: string, ask: Asker | null = this.confirm): Promise<boolean> {
    return this.oneQuestion(() => this.askEscalation(req, denial, ask));
  }

  private async askEscalation(req: Omit<ConfirmRequest, "detail">, denial: string, ask: Asker | null): Promise<boolean> {
    if (!ask || req.name !== "bash" || this.mode === "yolo" || this.mode === "plan" || this.controller?.signal.aborted) return false;
    this.emit({ type: "tool_confirmation_requested", id: req.id, name: req.name, preview: req.preview, ...(req.agent ? { agent: req.agent } : {}) });
    const command = typeof req.args.command === "string" ? req.args.command : "";
    const decision = await ask({ ...req, detail: { kind: "command", command, escalation: denial } });
    if (decision.kind === "stop") this.abort();
    // Only this call: a rule or yolo answer to this question does not lift the sandbox for later ones.
    return decision.kind === "yes" || decision.kind === "yes_rule" || decision.kind === "yes_all";
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

  setReasoning(level: string | null): Result {
    if (level === null) {
      delete this.cfg.reasoning;
      return { ok: true };
    }
    const levels = this.reasoningLevels();
    const known = levels.find((l) => l === level);
    if (!known) {
      const which = (EFFORTS as readonly string[]).includes(level)
        ? `${this.cfg.providerName}/${this.cfg.model} does not take thinking level "${level}"`
        : `unknown thinking level "${level}"`;
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

  revokePermission(entry: ListedRule): Result {
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
    this.byModel = [];
    this.sessionTitle = null;
    this.lastContext = 0;
    this.rules?.clearSession();
    this.startSession(this.newWriter());
  }

  private newWriter(): SessionWriter {
    const cfg = this.cfg;
    if (cfg.noSession) return noSession;
    return lockedWriter(
      createSession({ home: cfg.home, cwd: cfg.cwd, provider: cfg.providerName, model: cfg.model, secrets: cfg.secrets, permissionMode: this.mode }),
    );
  }

  private startSession(writer: SessionWriter): void {
    this.session.close();
    this.session = writer;
    this.host.emit({ event: "session_start" });
  }

  sessions(): SessionInfo[] {
    return listSessions(this.cfg.home, this.cfg.cwd, this.session.path);
  }

  promptHistoryFile(): string {
    return historyPath(this.cfg.home, this.cfg.cwd);
  }

  // Lazily imported: only /trust needs a second look at the project's code.
  async trustReview(): Promise<TrustReview> {
    const { trustReview } = await import("./project-code.ts");
    return trustReview(this.cfg.home, this.cfg.cwd);
  }

  async trustProject(): Promise<Result<{ path: string }>> {
    const { trustProject } = await import("./project-code.ts");
    const r = await trustProject(this.cfg.home, this.cfg.cwd);
    return r.ok ? { ok: true, path: r.path } : r;
  }

  settings(): ConfigValues {
    return readConfig(this.cfg.home).values;
  }

  saveSettings(patch: ConfigValues): Result {
    return updateConfig(this.cfg.home, patch);
  }

  saveApiKey(provider: string, key: string): Result<{ path: string }> {
    return saveApiKey(this.cfg.home, provider, key);
  }

  removeApiKey(provider: string): Result<{ path: string; removed: boolean }> {
    return removeApiKey(this.cfg.home, provider);
  }

  subscriptions(): string[] {
    return readAuth(this.cfg.home).subscriptions;
  }

  async shell(command: string, signal: AbortSignal, progress: (text: string) => void): Promise<ShellOutput> {
    // The user's `!cmd` is confined as the model's commands are.
    const r = await bashTool.execute({ command }, { cwd: this.cfg.cwd, home: this.cfg.home, signal, progress, sandbox: this.cfg.sandbox?.policy });
    return { text: textOf(r.content), isError: r.isError };
  }

  keyCheck(provider: string, key: string): KeyCheck | null {
    // The current model may live behind its own endpoint (models.json `baseUrl`).
    const current = provider === this.provider ? this.cfg.catalog.find((m) => m.provider === provider && m.id === this.model) : undefined;
    const req = probeRequest(provider, key, current?.baseUrl);
    return req && { url: req.url, run: (cancel) => probeKey(req, PROBE_TIMEOUT_MS, cancel) };
  }

  defaultModel(provider: string): string | null {
    return isProviderName(provider) ? defaultModel(provider) : null;
  }

  initPrompt(): string {
    return initPrompt(this.cfg.cwd);
  }

  skills(): SkillDiscovery {
    return discoverSkills(this.cfg.cwd, this.cfg.home);
  }

  skillBody(skill: Skill): { body: string } | { error: string } {
    return skillBody(skill);
  }

  mentions(text: string): Mentions {
    return attachMentions(text, this.cfg.cwd);
  }

  openSession(path: string): Result<{ warnings: string[] }> {
    if (this.busy) return { ok: false, error: "a prompt is running; abort it or wait before switching sessions" };
    const loaded = openSession(path);
    if (!loaded.ok) return loaded;
    const s = loaded.session;
    const locked = s.path === this.session.path ? null : lockSession(s.path);
    if (locked && !locked.ok) return { ok: false, error: locked.held ? `${s.path} ${IN_USE}` : locked.error };
    this.history = s.messages;
    this.syncTodos();
    this.totals = s.usage;
    this.byModel = s.byModel;
    this.sessionTitle = s.title;
    this.lastContext = 0;
    // Reopening the current session keeps its writer, and with it the lock this process holds.
    if (locked) this.startSession(lockedWriter(appendSession(s, this.cfg.secrets), locked.lock));
    else this.host.emit({ event: "session_start" });
    // A session goes on in the permission mode it was left in (one from before zot kept it: the current mode).
    if (s.meta?.permission_mode) this.permissionMode = s.meta.permission_mode;
    else this.session.permissionMode(this.mode);
    const warnings = [...s.warnings];
    // The session goes on with the model it last used (its last meta row), as with --continue.
    if (s.provider && s.model && (s.provider !== this.cfg.providerName || s.model !== this.cfg.model)) {
      const r = this.setModel(s.provider, s.model);
      if (!r.ok) warnings.push(`The session last used ${s.provider}/${s.model}, but zot stays on ${this.cfg.providerName}/${this.cfg.model}: ${r.error}.`);
    }
    for (const w of warnings) this.emit({ type: "error", message: w });
    return { ok: true, warnings };
  }

  exportSession(dest?: string): Result<{ path: string }> {
    const path = this.currentTranscript();
    if (typeof path !== "string") return path;
    return exportSession(path, dest);
  }

  importSession(source: string): Result<{ path: string; warnings: string[] }> {
    if (this.busy) return { ok: false, error: "a prompt is running; abort it or wait before switching sessions" };
    const r = importSession(source, this.cfg.home, this.cwd);
    if (!r.ok) return r;
    const opened = this.openSession(r.path);
    return opened.ok ? { ...r, warnings: opened.warnings } : opened;
  }

  sessionPrompts(): Result<{ prompts: Prompt[] }> {
    const path = this.currentTranscript();
    if (typeof path !== "string") return path;
    return sessionPrompts(path);
  }

  forkSession(index: number): Result<{ path: string; text: string; warnings: string[] }> {
    if (this.busy) return { ok: false, error: "a prompt is running; abort it or wait before forking" };
    const path = this.currentTranscript();
    if (typeof path !== "string") return path;
    const r = forkSession(path, index, this.cfg.home, this.cwd);
    if (!r.ok) return r;
    const opened = this.openSession(r.path);
    return opened.ok ? { ...r, warnings: opened.warnings } : opened;
  }

  rewindPoints(): { ok: true; points: RewindPoint[] } | { ok: false; error: string } {
    const listed = this.sessionPrompts();
    if (!listed.ok) return listed;
    const kept = this.cfg.checkpoints?.ids() ?? new Set<string>();
    return { ok: true, points: listed.prompts.map((p) => ({ ...p, code: kept.has(checkpointId(p.time, p.text)) })) };
  }

  rewindPlan(index: number): { ok: true; plan: RewindPlan } | { ok: false; error: string } {
    const found = this.rewindPoint(index);
    if (!found.ok) return found;
    return found.checkpoints.plan(found.id);
  }

  rewind(
    index: number,
    restore: RestoreChoice,
  ): { ok: true; plan: RewindPlan; failed: string[]; path: string | null; text: string; warnings: string[] } | { ok: false; error: string } {
    if (this.busy) return { ok: false, error: "a prompt is running; abort it or wait before rewinding" };
    const before = this.session.path;
    let plan: RewindPlan = { changes: [], kept: [] };
    let failed: string[] = [];
    let text = "";
    if (restore !== "conversation") {
      const found = this.rewindPoint(index);
      if (!found.ok) return found;
      const r = found.checkpoints.restore(found.id, restore, before);
      if (!r.ok) return r;
      ({ plan, failed } = r);
      text = found.text;
    }
    let path: string | null = null;
    let warnings: string[] = [];
    if (restore !== "code") {
      const forked = this.forkSession(index);
      if (!forked.ok) return forked;
      ({ path, text, warnings } = forked);
      // A conversation-only rewind is undone by going back to the session it left.
      if (restore === "conversation") this.cfg.checkpoints?.noteConversation(restore, before);
    }
    this.host.emit({ event: "rewind", restore, prompt: index, files: plan.changes.map((c) => c.path) });
    return { ok: true, plan, failed, path, text, warnings };
  }

  undoRewindPlan(): { ok: true; plan: RewindPlan; session: string | null } | { ok: false; error: string } {
    const checkpoints = this.cfg.checkpoints;
    if (!checkpoints) return { ok: false, error: CHECKPOINTS_OFF };
    return checkpoints.undoPlan();
  }

  undoRewind(): { ok: true; plan: RewindPlan; failed: string[]; session: string | null; warnings: string[] } | { ok: false; error: string } {
    if (this.busy) return { ok: false, error: "a prompt is running; abort it or wait before undoing a rewind" };
    const checkpoints = this.cfg.checkpoints;
    if (!checkpoints) return { ok: false, error: CHECKPOINTS_OFF };
    const r = checkpoints.undo(this.session.path);
    if (!r.ok) return r;
    let warnings: string[] = [];
    if (r.session !== null && r.session !== this.session.path && existsSync(r.session)) {
      const opened = this.openSession(r.session);
      if (!opened.ok) return { ok: false, error: `The files were put back, but the session before the rewind could not be reopened: ${opened.error}` };
      warnings = opened.warnings;
    }
    this.host.emit({ event: "rewind", restore: "undo", files: r.plan.changes.map((c) => c.path) });
    return { ...r, warnings };
  }

  /** The checkpoint of this session's prompt `index` (a user message's place, as forkSession takes it). */
  private rewindPoint(index: number): { ok: true; checkpoints: Checkpoints; id: string; text: string } | { ok: false; error: string } {
    const checkpoints = this.cfg.checkpoints;
    if (!checkpoints) return { ok: false, error: CHECKPOINTS_OFF };
    const listed = this.sessionPrompts();
    if (!listed.ok) return listed;
    const p = listed.prompts.find((q) => q.index === index);
    if (!p) return { ok: false, error: `there is no prompt ${index} in this session (it has ${listed.prompts.length}; an interruption note is not a prompt)` };
    return { ok: true, checkpoints, id: checkpointId(p.time, p.text), text: p.text };
  }

  sessionTree(): TreeNode[] {
    return sessionTree(this.cfg.home, this.cwd, this.session.path);
  }

  /** The transcript file, once it exists (it appears with the first message). */
  private currentTranscript(): string | Failure {
    const path = this.session.path;
    if (path === null) return { ok: false, error: "this run keeps no session (--no-session)" };
    if (this.history.length === 0 || !existsSync(path)) return { ok: false, error: "this session has no messages yet" };
    return path;
  }

  async sideQuestion(question: string, signal: AbortSignal, onText: (text: string) => void): Promise<Result<{ text: string }>> {
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

  setModel(provider: string, model: string): Result<{ notice?: string }> {
    if (this.busy) return { ok: false, error: "a prompt is running; abort it or wait before switching models" };
    if (!isProviderName(provider)) return { ok: false, error: `unknown provider "${provider}" (${orList(PROVIDERS)})` };
    if (model.trim() === "") return { ok: false, error: "the model id is empty" };
    const cfg = this.cfg;
    if (provider !== cfg.providerName) {
      const made = this.makeProvider(provider);
      if (!made.ok) return made;
      cfg.provider = made.provider;
      cfg.providerName = provider;
      if (made.key !== null && provider !== "mock") {
        // The new provider's live models: the cached list now, a stale one refreshed in the background.
        const d: Discovery = { home: cfg.home, provider, key: made.key, base: discoveryBase(provider) };
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

  get title(): string | null {
    return this.sessionTitle;
  }

  rename(title: string): Result {
    const t = title.replace(/\s+/g, " ").trim();
    if (t === "") return { ok: false, error: "give the session a title: /rename <title>" };
    if (this.session.path === null) return { ok: false, error: "this run keeps no session (--no-session), so there is nothing to rename" };
    this.session.rename(t);
    this.sessionTitle = t;
    return { ok: true };
  }

  modelUsage(): ModelUsage[] {
    return this.byModel.map((m) => ({ ...m, usage: { ...m.usage } }));
  }

  contextReport(): ContextReport {
    const cfg = this.cfg;
    return contextReport({
      system: this.systemPrompt(false),
      instructions: loadInstructions(cfg.cwd, cfg.home),
      builtins: cfg.builtins.map((t) => ({ name: t.name, description: t.description, schema: t.schema })),
      tools: cfg.extensionTools ? this.host.tools().filter((t) => t.active) : [],
      messages: this.history,
      ...this.contextMeasure(),
    });
  }

  private contextMeasure(): { measured: number; window: number } {
    const { used, window } = this.context();
    return { measured: used, window };
  }

  exportTranscript(format: ExportFormat, dest?: string): Result<{ path: string }> {
    if (this.history.length === 0) return { ok: false, error: "this session has no messages yet" };
    const started = this.history[0]?.ts;
    return writeExport(
      format,
      {
        messages: this.history,
        models: this.byModel,
        total: this.totals,
        title: this.sessionTitle,
        session: this.session.path,
        cwd: this.cwd,
        started: started ? new Date(started).toISOString() : "",
      },
      dest,
      this.cwd,
    );
  }

  addDir(path: string): Result<{ path: string }> {
    const policy = this.cfg.sandbox?.policy;
    if (!policy) return { ok: false, error: "this run has no sandbox, so every directory is writable already" };
    return addWritableDir(policy, path, this.cwd);
  }

  async doctor(signal: AbortSignal): Promise<{ report: SessionDoctor; text: string }> {
    const { sessionDoctor, doctorText } = await import("./doctor.ts");
    const cfg = this.cfg;
    const started = cfg.credential?.provider === cfg.providerName;
    const key = started ? cfg.credential!.key : (resolveCredentials({ provider: cfg.providerName, home: cfg.home, env: cfg.env }).credential?.key ?? null);
    const current = cfg.catalog.find((m) => m.provider === cfg.providerName && m.id === cfg.model);
    const baseUrl = (started ? cfg.baseUrl : undefined) ?? current?.baseUrl;
    const report = await sessionDoctor(
      this.host,
      { home: cfg.home, cwd: cfg.cwd, provider: cfg.providerName, model: cfg.model, key, baseUrl, sandbox: this.sandbox },
      signal,
    );
    return { report, text: doctorText(report, this.host.states()) };
  }

  close(): Promise<void> {
    if (!this.closed) {
      this.abort();
      this.background.abort();
      this.unhookIntents();
      this.unhookJobs();
      this.closed = Promise.all([this.host.shutdown(), stopJobs()])
        .finally(() => this.session.close())
        .then(() => undefined);
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
