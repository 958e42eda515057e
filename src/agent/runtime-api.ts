// What modes (print, JSON, RPC, TUI) use of the agent runtime. Implemented by `Runtime` in runtime.ts.
import type { UiIntent } from "../ext/types.ts";
import type { AgentEvent, ConfirmDecision, ConfirmRequest } from "./events.ts";
import type { ImagePart, Message, StopReason, Usage } from "./messages.ts";
import type { ConfigValues } from "./config.ts";
import type { ModelInfo } from "./provider.ts";
import type { SessionInfo } from "./session.ts";
import type { Prompt, TreeNode } from "./session-ops.ts";

export type PromptOutcome = { stop: StopReason; text: string; error?: string; blocked?: { extension: string; reason: string } };

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
  yolo: boolean;
  /** The directory /jail confines the built-in file tools to, or null when not jailed. */
  readonly jail: string | null;
  /** /jail and /unjail; returns the root (symlinks resolved) or null. */
  setJail(on: boolean): string | null;
  subscribe(listener: (event: AgentEvent) => void): () => void;
  /**
   * Extension UI intents for the interactive mode. Intents sent before anyone listened (e.g. a
   * `submit` right after `ready`) go, in order, to the first listener only.
   */
  onIntent(listener: (intent: UiIntent) => void): () => void;
  /** Runs one user prompt to completion (all steps). Rejects only on programming errors. */
  prompt(text: string, images?: ImagePart[]): Promise<PromptOutcome>;
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
  setModel(provider: string, model: string): { ok: true } | { ok: false; error: string };
  /** Set by the TUI for --no-yolo; null means every call runs. */
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
  /** Shuts extensions down and flushes the transcript. */
  close(): Promise<void>;
}
