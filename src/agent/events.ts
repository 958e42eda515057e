// Agent events: what the loop reports as it runs. JSON mode prints them one per line, RPC mode
// forwards them, print mode and the TUI render them. The field names are the wire names.
import type { AgentRef, NotifyLevel, ContentBlock, TodoItem } from "../protocol.ts";
import type { Json, JsonObject } from "../json.ts";
import type { InterceptStep } from "./hooks.ts";
import type { StopReason, Usage } from "./messages.ts";

/**
 * `agent`: the subagent (the `task` tool) an event comes from; absent for the main agent. A
 * subagent's events are `turn_start`, `turn_end`, `tool_call`, `tool_progress`, `tool_result`,
 * `assistant_message`, `usage`, `error` and `tool_confirmation_requested`; its text streams only
 * as the `task` call's `tool_progress`.
 */
export type AgentEvent = AnyAgentEvent & { agent?: AgentRef };

type AnyAgentEvent =
  /**
   * JSON mode's first line: what the run is, before anything happens: the provider and model, the
   * session file, the permission mode and the sandbox of the agent's commands (whether the kernel
   * enforces it here and, in a few words, how or why not).
   */
  | {
      type: "start";
      provider: string;
      model: string;
      cwd: string;
      session: string | null;
      permission_mode: string;
      sandbox: { mode: string; enforced: boolean; network: boolean; reason: string };
    }
  /**
   * `content` (wire blocks, images as a byte count) and `time` (RFC 3339) as the Go zot sends them;
   * `steering`: typed while the turn ran and delivered at a tool boundary.
   */
  | { type: "user_message"; text: string; images: number; content: Json[]; time: string; steering?: true }
  | { type: "turn_start"; step: number }
  /** The model's response begins streaming (the Go zot's event; none when the request failed outright). */
  | { type: "assistant_start" }
  /** `held: true` when an assistant_message interceptor is active: deltas are provisional, the final text comes in assistant_message. */
  | { type: "text_delta"; text: string; held?: boolean }
  | { type: "thinking_delta"; text: string }
  | { type: "tool_use_start"; id: string; name: string }
  | { type: "tool_use_args"; id: string; delta: string }
  | { type: "tool_use_end"; id: string }
  /** `change`: what a built-in call will do (its approval detail: a write's diff), for screens that show it; JSON and RPC leave it out. */
  | { type: "tool_call"; id: string; name: string; args: Json; extension?: string; original_args?: Json; rewritten_by?: string[]; change?: ApprovalDetail }
  /** `subagent`: on a `task` call's progress, the state of the subagent it runs (see SubagentStatus). */
  | { type: "tool_progress"; id: string; name: string; text: string; subagent?: SubagentStatus }
  | {
      type: "tool_result";
      id: string;
      name: string;
      content: ContentBlock[];
      is_error: boolean;
      extension?: string;
      blocked_by?: string;
      rewritten_by?: string[];
      duration_ms: number;
      /** An MCP tool's `structuredContent`, as the server sent it. */
      structured_content?: Json;
    }
  /**
   * The user-visible assistant text after interception. The model's original text is deliberately
   * absent: a rewrite usually exists to keep it from the user (the transcript keeps it).
   */
  | {
      type: "assistant_message";
      text: string;
      /** The message as the Go zot sends it (text as the user saw it, tool calls); `time` RFC 3339. */
      content: Json[];
      time: string;
      blocked?: boolean;
      blocked_by?: string;
      reason?: string;
      rewritten_by?: string[];
    }
  | { type: "usage"; usage: Usage; total: Usage }
  /**
   * The model request failed before anything arrived; attempt `attempt` of `attempts` starts in
   * `delay_ms`, over `wire` when it names another one (the server has no Responses API).
   */
  | { type: "retry"; attempt: number; attempts: number; delay_ms: number; reason: string; wire?: "chat" }
  | { type: "turn_end"; step: number; stop: StopReason; error?: string }
  | { type: "turn_blocked"; step: number; extension: string; reason: string }
  /** `error`: why the prompt failed (stop `error` or `aborted`, or a blocked turn), as print mode shows it. */
  | { type: "done"; stop: StopReason; text: string; steps: number; error?: string }
  | { type: "error"; message: string }
  | { type: "tool_confirmation_requested"; id: string; name: string; preview: string }
  | { type: "ext_notify"; extension: string; level: NotifyLevel; message: string }
  | { type: "ext_display"; extension: string; text: string }
  | { type: "ext_clear_notes"; extension: string }
  /** JSON mode: the response of an extension command run by a slash-command prompt (the RPC `command` data). */
  | {
      type: "command_result";
      name: string;
      extension: string;
      action: string;
      display?: string;
      insert?: string;
      prompt?: string;
      open_panel?: { id: string; title: string; lines: string[]; footer?: string };
    }
  | { type: "intercept_trace"; event: string; steps: InterceptStep[] }
  /** Older messages are being summarised (`/compact`, the context threshold, or a context-too-long answer). */
  | { type: "compaction_start"; reason: CompactReason }
  /** `replaced` messages became one summary and `kept` stayed verbatim; on failure (or cancel) the history is unchanged. */
  /** The todo list changed (a `todo` call, or a session switch, /clear or compaction): the whole list. */
  | { type: "todo"; items: TodoItem[] }
  /** A background command (bash with background: true) started (`running`) or ended (`exited` by itself, `killed` by bash_kill, /ps or shutdown). */
  | {
      type: "background_job";
      id: string;
      command: string;
      pid: number;
      state: "running" | "exited" | "killed";
      exit_code?: number | null;
      signal?: string | null;
    }
  | { type: "compaction_end"; reason: CompactReason; ok: boolean; error?: string; replaced?: number; kept?: number };

/**
 * A subagent as its `task` call's progress reports it: when it starts, at each of its tool calls
 * and when it ends. `tool`: the call it made last (null before the first); `tokens`: what its model
 * calls used so far; `duration_ms`: how long it has run.
 */
export type SubagentStatus = {
  agent: AgentRef;
  description: string;
  state: "running" | "done" | "failed" | "cancelled";
  tool: { name: string; args: Json } | null;
  tokens: number;
  duration_ms: number;
};

export type CompactReason = "manual" | "threshold" | "overflow";

/**
 * An answer to a confirmation. `yes_rule` stops asking for calls the rules match (this session, or
 * `always`: remembered for the project); `stop` refuses the call and ends the turn.
 */
export type ConfirmDecision =
  | { kind: "yes" }
  | { kind: "yes_rule"; rules: PermissionRule[]; always: boolean }
  | { kind: "yes_all" }
  | { kind: "no"; reason?: string }
  | { kind: "stop" };

/**
 * A standing "don't ask again" (see permission-rules.ts): every call of `tool`; (bash) one simple
 * command, `command` as written back by shell-words.ts, exactly or (`more`) with further arguments;
 * (write, edit) one file's real `path`, or every file under the real directory `dir`.
 */
export type PermissionRule =
  | { tool: string }
  | { tool: string; command: string; more: boolean }
  | { tool: string; path: string }
  | { tool: string; dir: string };

/**
 * Everything a call will do, for the approval dialog: the whole command, the diff an edit or a write
 * over an existing file makes, a new file's content, or the arguments as formatted JSON. `note`
 * says what could not be shown (an edit that will fail, a file too large to diff).
 */
export type ApprovalDetail =
  /** `escalation`: the sandbox blocked this command, and the question is whether to run it once outside. */
  | { kind: "command"; command: string; escalation?: string }
  | { kind: "diff"; path: string; diff: string; note?: string }
  | { kind: "content"; path: string; content: string; note?: string }
  | { kind: "json"; json: string; note?: string };

/**
 * `rewritten_by`: the extensions whose tool_call interceptors changed `args` from what the model asked for.
 * `scope`: what a "don't ask again" for this call would add (one rule per part of a chained
 * command) and how the dialog says it; null when the call can't be scoped (a command substitution,
 * a redirection to a file).
 */
export type ConfirmRequest = {
  id: string;
  name: string;
  preview: string;
  args: JsonObject;
  extension?: string;
  rewritten_by?: string[];
  /** The subagent asking (the dialog names it); absent for the main agent. */
  agent?: AgentRef;
  detail: ApprovalDetail;
  scope: { rules: PermissionRule[]; label: string } | null;
};
