// Which tool calls run without asking: the permission mode (`--permission-mode`, config.json's
// "permissionMode", kept in the session; cycled with shift+tab in the TUI) and what each mode
// says about a call. The standing rules are in permission-rules.ts.
import type { JsonObject } from "../protocol.ts";
import { PERMISSION_MODES, type PermissionMode } from "./choices.ts";
import { inside } from "./permission-rules.ts";
import { isReadOnlyCommand } from "./read-only-command.ts";
import { resolvePath } from "./tools/common.ts";
import { TASK_TOOL } from "./tools/task.ts";

/** Built-in tools that change nothing. */
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set(["read", "skill", "bash_output", "todo"]);
const EDIT_TOOLS: ReadonlySet<string> = new Set(["edit", "write"]);

/** Said by the mode, not the user: nobody declined the call, so the model is told what to do instead. */
export const PLAN_REFUSAL =
  "Blocked by plan mode (the user did not decline it): only read-only tools run (read, skill, and bash commands that only look: ls, cat, grep, rg, git status/log/diff/show …). Finish studying, then present your plan; the user will approve it, or leave plan mode, before anything is changed.";

export const PLAN_INSTRUCTION =
  "You are in plan mode. Only read-only tools run: read, skill, and simple bash commands that only look (ls, cat, head, tail, wc, grep, rg, find, tree, git status/log/diff/show/blame/grep); anything else is refused. Study what the task needs, then reply with a concrete, numbered plan (files to change, commands to run) and stop. The user approves the plan before you carry it out.";

/** Why a call that needs approval is refused where nobody can give it (print, JSON and RPC modes). */
export function unattendedRefusal(mode: PermissionMode): string {
  return `permission mode ${mode}: this call needs the user's approval, and nobody can give it in this run (no terminal to ask in), so it was refused. Reads and read-only commands still run; the user can rerun with --permission-mode yolo (or auto-edit, for edits inside the project) to let such calls run.`;
}

export function nextMode(mode: PermissionMode): PermissionMode {
  return PERMISSION_MODES[(PERMISSION_MODES.indexOf(mode) + 1) % PERMISSION_MODES.length]!;
}

/**
 * The mode when nothing chose one: with the agent's commands confined by the kernel sandbox, yolo
 * (they run without asking, inside it); without that confinement, ask — never silent full access.
 */
export function defaultPermissionMode(sandboxEnforced: boolean): PermissionMode {
  return sandboxEnforced ? "yolo" : "ask";
}

/** The mode a run starts in: the command line's, else the resumed session's, else config.json's, else the default. */
export function startingPermissionMode(q: {
  flag?: PermissionMode | undefined;
  session?: PermissionMode | undefined;
  config?: PermissionMode | undefined;
  sandboxEnforced: boolean;
}): PermissionMode {
  return q.flag ?? q.session ?? q.config ?? defaultPermissionMode(q.sandboxEnforced);
}

/**
 * What the mode alone says about a call of `tool`. Reads (read, skill, read-only bash) run in
 * every mode; auto-approved edits stay inside the project (`root`): an edit or write of a path
 * outside it (`~/.bashrc`) still asks.
 */
export function modeVerdict(mode: PermissionMode, tool: string, args: JsonObject, cwd: string, root: string): "run" | "ask" | "refuse" {
  // Starting a subagent changes nothing by itself: each of its calls is approved on its own.
  if (mode === "yolo" || tool === TASK_TOOL) return "run";
  if (READ_ONLY_TOOLS.has(tool) || (tool === "bash" && typeof args.command === "string" && isReadOnlyCommand(args.command))) return "run";
  switch (mode) {
    case "plan":
      return "refuse";
    case "auto-edit":
      return EDIT_TOOLS.has(tool) && typeof args.path === "string" && inside(resolvePath(cwd, args.path), root) ? "run" : "ask";
    case "ask":
      return "ask";
  }
}
