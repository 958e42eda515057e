// A built-in tool: one file per tool under src/agent/tools/, each exporting a `Tool`.
import type { ImagePart, TextPart } from "./messages.ts";
import type { JsonObject } from "../json.ts";
import type { ApprovalDetail, SubagentStatus } from "./events.ts";
import type { SandboxPolicy } from "./sandbox/policy.ts";
import type { Result } from "../result.ts";

/** What a command run in the editor's terminal left: its output (as the editor kept it) and how it ended. */
export type TerminalRun = { output: string; truncated: boolean; exitCode: number | null; signal: string | null };

/**
 * The editor's files and terminals (ACP's fs and terminal methods), where the client offers them:
 * reads see unsaved buffers, writes land in them, commands run in a terminal the editor shows.
 */
export type EditorAccess = {
  readText?(path: string): Promise<Result<{ text: string }>>;
  writeText?(path: string, text: string): Promise<Result>;
  /** Runs `argv` (already confined by the sandbox) in `cwd`; resolves when it exits or `signal` stopped it. */
  runCommand?(o: { callId: string; argv: string[]; cwd: string; signal: AbortSignal }): Promise<Result<TerminalRun>>;
};

export type ToolContext = {
  /** The session's working directory; relative paths resolve against it. */
  cwd: string;
  signal: AbortSignal;
  /** Live output (bash streams its output here). */
  progress: Progress;
  /** $ZOT_HOME, for tools that look things up there (skill). */
  home: string;
  /** The sandbox commands run in and the file tools obey; absent: none (tests, `--sandbox off`). */
  sandbox?: SandboxPolicy | undefined;
  /** Runs a subagent for the `task` tool (the runtime's); absent where no session runs the loop. */
  delegate?: (req: TaskRequest, signal: AbortSignal, progress: Progress) => Promise<ToolOutput>;
  /** The editor's files and terminals, in an ACP session whose client offers them; absent: the file system and zot's own shell. */
  editor?: EditorAccess;
  /** The id of the tool call being run (the editor's terminal is shown with it). */
  callId?: string;
};

/** A line of live output; a `task` call's lines also carry the state of its subagent. */
export type Progress = (text: string, subagent?: SubagentStatus) => void;

/** What a `task` call asks for, checked: `agent` is a name, "general" when the model gave none. */
export type TaskRequest = { description: string; prompt: string; agent: string };

export type ToolOutput = {
  content: (TextPart | ImagePart)[];
  isError: boolean;
  /** The sandbox stopped (part of) this call: the sentence saying how, for an offer to run it outside. */
  sandboxDenial?: string;
};

export interface Tool {
  name: string;
  /** Model-facing description. */
  description: string;
  schema: JsonObject;
  /** A short one-line preview of the args for UIs and confirmation dialogs. */
  preview(args: JsonObject): string;
  /** What the call will do, in full, for the approval dialog; without it the dialog shows the arguments as JSON. */
  approval?(args: JsonObject, cwd: string): ApprovalDetail;
  /** Never throws; errors are results with isError. */
  execute(args: JsonObject, ctx: ToolContext): Promise<ToolOutput>;
}
