// What modes (print, JSON, RPC, TUI) use of the agent runtime. Implemented by `Runtime` in runtime.ts.
import type { UiIntent } from "../ext/types.ts";
import type { TrustReview } from "../ext/project-code.ts";
import type { AgentEvent, ConfirmDecision, ConfirmRequest } from "./events.ts";
import type { ImagePart, Message, StopReason, TextPart, Usage } from "./messages.ts";
import type { ConfigValues } from "./config.ts";
import type { Effort } from "./choices.ts";
import type { ModelInfo } from "./provider.ts";
import type { ListedRule, PermissionMode } from "./permissions.ts";
import type { SessionInfo } from "./session.ts";
import type { Prompt, TreeNode } from "./session-ops.ts";
import type { JobInfo } from "./tools/background-jobs.ts";
import type { TodoItem } from "./todos.ts";
import type { LoadedCommands } from "./custom-commands.ts";
import type { PermissionRule } from "./events.ts";

/** `stepLimit`: the turn stopped because it reached --max-steps (that many model calls); `resume` goes on. */
export type PromptOutcome = { stop: StopReason; text: string; error?: string; blocked?: { extension: string; reason: string }; stepLimit?: number };

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
  /** Which tool calls run without asking (shift+tab in the TUI cycles it). */
  mode: PermissionMode;
  /** How hard the model is asked to think; null: the provider's default (no thinking). */
  readonly reasoning: Effort | null;
  /** The levels the current model takes, lowest first (all of them when the catalog does not say). */
  reasoningLevels(): readonly Effort[];
  /** Applies from the next model call; null turns thinking off. */
  setReasoning(level: string | null): { ok: true } | { ok: false; error: string };
  /** The AGENTS.md / CLAUDE.md files the system prompt includes, in order (global first). */
  instructionFiles(): string[];
  /** The standing "don't ask again" rules of this project: remembered ones first, then this session's. */
  permissions(): ListedRule[];
  revokePermission(entry: ListedRule): { ok: true } | { ok: false; error: string };
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
  /** Runs the loop again on the conversation as it is (after --max-steps stopped a turn), with a fresh step budget. */
  resume(): Promise<PromptOutcome>;
  /**
   * Where steering messages come from: asked after each step's tool results, before the next model
   * call; what it returns joins the conversation as user messages. Null: no steering.
   */
  setSteering(source: (() => SteeringMessage[]) | null): void;
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
  sideQuestion(question: string, signal: AbortSignal, onText: (text: string) => void): Promise<{ ok: true; text: string } | { ok: false; error: string }>;
  /** Summarises the conversation with the model into one message. */
  compact(): Promise<{ ok: boolean; error?: string; summary?: string }>;
  models(): ModelInfo[];
  /** `notice`: the thinking level had to change, because the new model does not take it. */
  setModel(provider: string, model: string): { ok: true; notice?: string } | { ok: false; error: string };
  /** Set by the TUI; null means nobody can be asked, so every call the mode does not refuse runs. */
  setConfirmHandler(handler: ((req: ConfirmRequest) => Promise<ConfirmDecision>) | null): void;
  /** The transcripts of this cwd, newest first. */
  sessions(): SessionInfo[];
  /**
   * Resume another transcript of this cwd. `warnings` (skipped lines, a model that could not be
   * restored) are also emitted as `error` events.
   */
  openSession(path: string): { ok: true; warnings: string[] } | { ok: false; error: string };
  /** `/session export [path]`: a portable `.zotsession` copy of this session (session-ops.ts). */
  exportSession(dest?: string): { ok: true; path: string } | { ok: false; error: string };
  /** `/session import <path>`: copies a session into this cwd's sessions and switches to it. */
  importSession(source: string): { ok: true; path: string; warnings: string[] } | { ok: false; error: string };
  /** This session's prompts, for the fork picker. */
  sessionPrompts(): { ok: true; prompts: Prompt[] } | { ok: false; error: string };
  /** Forks this session before prompt `index` and switches to the branch; `text` is that prompt. */
  forkSession(index: number): { ok: true; path: string; text: string; warnings: string[] } | { ok: false; error: string };
  /** The sessions of this cwd by parent and child (the current one marked). */
  sessionTree(): TreeNode[];
  /** The file that keeps the prompts typed in this cwd, for recall in the editor. */
  promptHistoryFile(): string;
  /** /trust: the project code of this cwd that workspace trust does not let run now (untrusted, new or changed). */
  trustReview(): Promise<TrustReview>;
  /** /trust: trusts this cwd and its subfolders with the project code it has now, recorded as `zot ext trust` records it. */
  trustProject(): Promise<{ ok: true; path: string } | { ok: false; error: string }>;
  /** The user's saved settings (config.json). */
  settings(): ConfigValues;
  /** Saves settings that outlive the session (e.g. the theme), keeping the others. */
  saveSettings(patch: ConfigValues): { ok: true } | { ok: false; error: string };
  /** Stores an API key for `provider` (auth.json, mode 0600); `path` names the file for the user. */
  saveApiKey(provider: string, key: string): { ok: true; path: string } | { ok: false; error: string };
  removeApiKey(provider: string): { ok: true; path: string; removed: boolean } | { ok: false; error: string };
  /** The providers auth.json holds a subscription login for (no key needed for them). */
  subscriptions(): string[];
  /** Every known secret (API keys, the RPC token): masked in whatever is shown or logged. */
  readonly secrets: readonly string[];
  /** The todo list the model keeps with the `todo` tool, as the conversation holds it now. */
  todos(): TodoItem[];
  /** The background commands of this zot (bash with background: true), oldest first. */
  backgroundJobs(): JobInfo[];
  /** /ps: stops a background command's process group; resolves once it has ended. */
  killBackgroundJob(id: string): Promise<{ ok: true; job: JobInfo } | { ok: false; error: string }>;
  /** Shuts extensions down, stops background commands and flushes the transcript. */
  close(): Promise<void>;
}
