// What modes (print, JSON, RPC, TUI) use of the agent runtime. Implemented by `Runtime` in runtime.ts.
import type { ExtensionHost, InvokeResult, LoadReport, UiIntent } from "../ext/types.ts";
import type { AgentEvent, ConfirmDecision, ConfirmRequest } from "./events.ts";
import type { ImagePart, Message, StopReason, Usage } from "./messages.ts";
import type { ModelInfo } from "./provider.ts";
import type { InterceptRecord } from "./session.ts";
import type { Prompt, TreeNode } from "./session-ops.ts";

export type PromptOutcome = { stop: StopReason; text: string; error?: string; blocked?: { extension: string; reason: string } };

export interface AgentRuntime {
  readonly host: ExtensionHost;
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
  /** What extensions changed about a message (shown_text / hidden for assistant text), to show it as the user saw it. */
  intercept(message: Message): InterceptRecord | undefined;
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
  runCommand(name: string, args: string): Promise<InvokeResult>;
  reloadExtensions(name?: string): Promise<LoadReport>;
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
  /** Every known secret (API keys, the RPC token): masked in whatever is shown or logged. */
  readonly secrets: readonly string[];
  /** Shuts extensions down and flushes the transcript. */
  close(): Promise<void>;
}
