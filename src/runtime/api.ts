// What modes (print, JSON, RPC, TUI) use of the agent runtime. Implemented by `Runtime` in runtime.ts.
// Modes submit operations here and receive events (agent/events.ts) about messages and content
// (agent/messages.ts, agent/content.ts); they import nothing else of the agent, so this module also
// hands them the vocabulary its operations speak: the types, and the pure helpers that label them.
import type { Result } from "../result.ts";
import type { UiIntent } from "../ext/types.ts";
import type { TrustReview } from "./project-code.ts";
import type { AgentEvent, ConfirmDecision, ConfirmRequest } from "../agent/events.ts";
import type { ImagePart, Message, TextPart, Usage } from "../agent/messages.ts";
import type { PromptOutcome } from "../agent/loop.ts";
import type { ConfigValues } from "../agent/config.ts";
import type { Effort } from "../agent/choices.ts";
import type { ModelInfo } from "../agent/provider.ts";
import type { PermissionMode } from "../agent/choices.ts";
import type { ListedRule } from "../agent/permission-rules.ts";
import type { SessionInfo } from "../agent/session.ts";
import type { SandboxPolicy } from "../agent/sandbox/policy.ts";
import type { SandboxStatus } from "../agent/sandbox/status.ts";
import type { Prompt, TreeNode } from "../agent/session-ops.ts";
import type { Skill, SkillDiscovery, SkillSource } from "../agent/skills.ts";
import type { Mentions } from "../agent/attachments.ts";
import type { ProbeResult } from "../agent/providers/key-check.ts";
import type { RewindPlan } from "../agent/checkpoints.ts";
import type { JobInfo } from "../agent/tools/background-jobs.ts";
import type { TodoItem } from "../agent/todos.ts";
import type { LoadedCommands } from "../agent/custom-commands.ts";
import type { AgentDefinition, LoadedAgents } from "../agent/agents.ts";
import type { PermissionRule } from "../agent/events.ts";
import type { ModelUsage } from "../agent/model-usage.ts";
import type { ExportFormat } from "../agent/export/export-file.ts";
import type { ContextReport } from "./context-parts.ts";
import type { SessionDoctor } from "./doctor.ts";
import type { EditorAccess, TerminalRun } from "../agent/tool.ts";

export type {
  ConfigValues,
  Effort,
  ProbeResult,
  ListedRule,
  Mentions,
  ModelInfo,
  PermissionMode,
  Prompt,
  SessionInfo,
  Skill,
  SkillDiscovery,
  SkillSource,
  TreeNode,
};
export type { NotifyMode } from "../agent/config.ts";
export type { Attached } from "../agent/attachments.ts";
export { KEYED_PROVIDERS, SUBSCRIPTION_NOTE } from "../agent/config.ts";
export { nextMode } from "../agent/permission-modes.ts";
export { PERMISSION_MODES } from "../agent/choices.ts";
export { isInterruption, sessionSummary } from "../agent/session.ts";
export { attachmentPath } from "../agent/attachments.ts";
export { sandboxLabel } from "../agent/sandbox/status.ts";
export type { SandboxPolicy, SandboxStatus };
export { flattenTree } from "../agent/session-ops.ts";
export type { RewindPlan };
export { IgnoreRules } from "../agent/ignore-rules.ts";
export { jobStatus } from "../agent/tools/background-jobs.ts";
export { expandCommand, usableCommands } from "../agent/custom-commands.ts";
export type { CustomCommand } from "../agent/custom-commands.ts";
export type { AgentDefinition, JobInfo, LoadedAgents, LoadedCommands, TodoItem };
export type { ModelUsage, ExportFormat, ContextReport, SessionDoctor };
export type { ContextPart, ContextPartKind } from "./context-parts.ts";
export { EXPORT_FORMATS, isExportFormat } from "../agent/export/export-file.ts";
export { money, tokens } from "../agent/export/document.ts";
export type { EditorAccess, TerminalRun };

/** What a rewind restores: the files, the conversation, or both. */
export type RestoreChoice = "code" | "conversation" | "both";
export const RESTORE_CHOICES: readonly RestoreChoice[] = ["both", "conversation", "code"];

/** A prompt /rewind offers; `code`: a checkpoint of the files before it exists. */
export type RewindPoint = Prompt & { code: boolean };

/** What `!cmd` printed, and whether it failed. */
export type ShellOutput = { text: string; isError: boolean };

/** /login's check of a key: the request it will make (shown first), then the verdict. */
export type KeyCheck = { url: string; run(cancel: AbortSignal): Promise<ProbeResult> };

/** `stepLimit`: the turn stopped because it reached --max-steps (that many model calls); `resume` goes on. */
export type { PromptOutcome };

/** How one prompt runs differently: a custom command's `model` (`provider/model` or an id of the current provider; back to the previous model afterwards) and its allowed-tools (calls that run without asking). */
export type PromptOptions = { model?: string | null; allowedTools?: PermissionRule[] };

/** A message the user typed while a turn ran, delivered at the next tool boundary. */
export type SteeringMessage = { text: string; attachments: (TextPart | ImagePart)[] };

/**
 * Modes get this and the extension host (`ExtensionHost`) as their two dependencies: the runtime
 * for the conversation, the host for commands, panels and extension state.
 */
export interface AgentRuntime {
  readonly cwd: string;
  readonly provider: string;
  readonly model: string;
  /** Absolute path of the session transcript, or null with --no-session. */
  readonly sessionPath: string | null;
  readonly busy: boolean;
  /** True exactly when `mode` is yolo; setting it false goes back to asking. */
  yolo: boolean;
  /** The directory /jail confines the built-in file tools to, or null when not jailed. */
  readonly jail: string | null;
  /** /jail and /unjail; returns the root (symlinks resolved) or null. */
  setJail(on: boolean): string | null;
  /** The sandbox mode of the agent's commands and whether the kernel enforces it here. */
  readonly sandbox: SandboxStatus;
  /** The policy behind it, for commands the user runs (`!cmd`); null when there is none. */
  readonly sandboxPolicy: SandboxPolicy | null;
  /** Which tool calls run without asking (shift+tab in the TUI cycles it); a change is kept in the session transcript. */
  mode: PermissionMode;
  /** How hard the model is asked to think; null: the provider's default (no thinking). */
  readonly reasoning: Effort | null;
  /** The levels the current model takes, lowest first (all of them when the catalog does not say). */
  reasoningLevels(): readonly Effort[];
  /** Applies from the next model call; null turns thinking off. */
  setReasoning(level: string | null): Result;
  /** The AGENTS.md / CLAUDE.md files the system prompt includes, in order (global first). */
  instructionFiles(): string[];
  /** The standing "don't ask again" rules of this project: remembered ones first, then this session's. */
  permissions(): ListedRule[];
  revokePermission(entry: ListedRule): Result;
  subscribe(listener: (event: AgentEvent) => void): () => void;
  /**
   * Extension UI intents for the interactive mode. Intents sent before anyone listened (e.g. a
   * `submit` right after `ready`) go, in order, to the first listener only.
   */
  onIntent(listener: (intent: UiIntent) => void): () => void;
  /** Runs one user prompt to completion (all steps); `attachments` follow the text (images, `@path` files). Rejects only on programming errors. */
  prompt(text: string, attachments?: (TextPart | ImagePart)[], options?: PromptOptions): Promise<PromptOutcome>;
  /** The Markdown slash commands for this directory (custom-commands.ts), read afresh on every call. */
  customCommands(): LoadedCommands;
  /** The agents the `task` tool can run (files read again on every call), with what was wrong with the rest. */
  agents(): LoadedAgents;
  /** Runs the loop again on the conversation as it is (after --max-steps stopped a turn), with a fresh step budget. */
  resume(): Promise<PromptOutcome>;
  /**
   * Where steering messages come from: asked after each step's tool results, before the next model
   * call; what it returns joins the conversation as user messages. Null: no steering.
   */
  setSteering(source: (() => SteeringMessage[]) | null): void;
  /** ACP: read, write and edit go through the editor's files, bash through its terminals (each where given); null: the file system and zot's shell. */
  setEditorAccess(access: EditorAccess | null): void;
  /** Cancels the running prompt (HTTP stream, tools, extension calls). */
  abort(): void;
  messages(): readonly Message[];
  usage(): Usage;
  /** Context tokens used by the last request and the model's window (for the status line). */
  context(): { used: number; window: number };
  /** Starts a fresh session (new transcript file). */
  clear(): void;
  /**
   * /btw: asks the model `question` over a snapshot of the conversation, streaming the answer to
   * `onText`. Nothing is recorded: not in the history, the transcript or the usage totals.
   */
  sideQuestion(question: string, signal: AbortSignal, onText: (text: string) => void): Promise<Result<{ text: string }>>;
  /** Summarises the conversation with the model into one message. */
  compact(): Promise<{ ok: boolean; error?: string; summary?: string }>;
  models(): ModelInfo[];
  /** `notice`: the thinking level had to change, because the new model does not take it. */
  setModel(provider: string, model: string): Result<{ notice?: string }>;
  /** Set by the TUI; null means nobody can be asked, so every call the mode does not refuse runs. */
  setConfirmHandler(handler: ((req: ConfirmRequest) => Promise<ConfirmDecision>) | null): void;
  /** The transcripts of this cwd, newest first. */
  sessions(): SessionInfo[];
  /**
   * Resume another transcript of this cwd. `warnings` (skipped lines, a model that could not be
   * restored) are also emitted as `error` events.
   */
  openSession(path: string): Result<{ warnings: string[] }>;
  /** `/session export [path]`: a portable `.zotsession` copy of this session (session-ops.ts). */
  exportSession(dest?: string): Result<{ path: string }>;
  /** `/session import <path>`: copies a session into this cwd's sessions and switches to it. */
  importSession(source: string): Result<{ path: string; warnings: string[] }>;
  /** This session's prompts, for the fork picker. */
  sessionPrompts(): Result<{ prompts: Prompt[] }>;
  /** Forks this session before prompt `index` and switches to the branch; `text` is that prompt. */
  forkSession(index: number): Result<{ path: string; text: string; warnings: string[] }>;
  /** This session's prompts for /rewind, each saying whether a code checkpoint was recorded before it. */
  rewindPoints(): Result<{ points: RewindPoint[] }>;
  /** What restoring the files to before prompt `index` would change, listed before it happens. */
  rewindPlan(index: number): Result<{ plan: RewindPlan }>;
  /**
   * Rewinds to before prompt `index`: the files (`code`), the conversation (a fork, switched to;
   * `path` names it), or both. `text` is the prompt, for the editor; `failed`: files that could not be restored.
   */
  rewind(index: number, restore: RestoreChoice): Result<{ plan: RewindPlan; failed: string[]; path: string | null; text: string; warnings: string[] }>;
  /** What undoing the workspace's last rewind would change; `session`: the transcript it returns to. */
  undoRewindPlan(): Result<{ plan: RewindPlan; session: string | null }>;
  /** Undoes the workspace's last rewind: the files as they were before it, and the session it left. */
  undoRewind(): Result<{ plan: RewindPlan; failed: string[]; session: string | null; warnings: string[] }>;
  /** The sessions of this cwd by parent and child (the current one marked). */
  sessionTree(): TreeNode[];
  /** The file that keeps the prompts typed in this cwd, for recall in the editor. */
  promptHistoryFile(): string;
  /** /trust: the project code of this cwd that workspace trust does not let run now (untrusted, new or changed). */
  trustReview(): Promise<TrustReview>;
  /** /trust: trusts this cwd and its subfolders with the project code it has now, recorded as `zot ext trust` records it. */
  trustProject(): Promise<Result<{ path: string }>>;
  /** The user's saved settings (config.json). */
  settings(): ConfigValues;
  /** Saves settings that outlive the session (e.g. the theme), keeping the others. */
  saveSettings(patch: ConfigValues): Result;
  /** Stores an API key for `provider` (auth.json, mode 0600); `path` names the file for the user. */
  saveApiKey(provider: string, key: string): Result<{ path: string }>;
  removeApiKey(provider: string): Result<{ path: string; removed: boolean }>;
  /** The providers auth.json holds a subscription login for (no key needed for them). */
  subscriptions(): string[];
  /** `!cmd`: runs `command` in the shell as the bash tool would (its process group, its limits), outside the conversation. */
  shell(command: string, signal: AbortSignal, progress: (text: string) => void): Promise<ShellOutput>;
  /** The check /login offers for `key` (one cheap authenticated request), or null for a provider zot cannot check. */
  keyCheck(provider: string, key: string): KeyCheck | null;
  /** The model a provider's session starts on, or null for a provider zot does not know. */
  defaultModel(provider: string): string | null;
  /** /init: the prompt that asks the model to write or update the project's AGENTS.md. */
  initPrompt(): string;
  /** The skills of this cwd and the user (/skills), and the text of one. */
  skills(): SkillDiscovery;
  skillBody(skill: Skill): { body: string } | { error: string };
  /** The `@path` files a prompt mentions, read as attachments (with a summary of each for the user). */
  mentions(text: string): Mentions;
  /** Every known secret (API keys, the RPC token): masked in whatever is shown or logged. */
  readonly secrets: readonly string[];
  /** The todo list the model keeps with the `todo` tool, as the conversation holds it now. */
  todos(): TodoItem[];
  /** The background commands of this zot (bash with background: true), oldest first. */
  backgroundJobs(): JobInfo[];
  /** /ps: stops a background command's process group; resolves once it has ended. */
  killBackgroundJob(id: string): Promise<Result<{ job: JobInfo }>>;
  /** The session's title (/rename), or null when it has none. */
  readonly title: string | null;
  /** /rename: the title pickers and exports show; kept in the transcript as a `rename` row. */
  rename(title: string): Result;
  /** What each model cost in this session (tokens and USD), in first-use order. */
  modelUsage(): ModelUsage[];
  /** /context: what the next request would fill the window with, part by part (estimated), and the last request's measure. */
  contextReport(): ContextReport;
  /** `/export md|html [path]`: the conversation as one readable file (default ~/Downloads/<started>-<prompt>.<format>). */
  exportTranscript(format: ExportFormat, dest?: string): Result<{ path: string }>;
  /** /add-dir: one more directory the agent's commands and file tools may write in this session (like --add-dir); `path` is its real path. */
  addDir(path: string): Result<{ path: string }>;
  /** /doctor: zot, whether the provider answers, the extensions and MCP servers of this run, the sandbox; `text` as zot ext doctor prints it. */
  doctor(signal: AbortSignal): Promise<{ report: SessionDoctor; text: string }>;
  /** Shuts extensions down, stops background commands and flushes the transcript. */
  close(): Promise<void>;
}
