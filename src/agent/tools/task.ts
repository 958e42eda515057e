// The `task` tool: runs a subagent (a fresh conversation with an agent's system prompt and tools)
// and returns its final answer. The runtime does the running (ToolContext.delegate): the subagent's
// calls go through the same approvals, sandbox, interceptors and events as the main agent's.
import type { JsonObject } from "../../json.ts";
import type { Tool, ToolOutput } from "../tool.ts";
import { stringArg, textResult } from "./common.ts";
import { BUILTIN_AGENTS, taskDescription } from "../agents.ts";

export const TASK_TOOL = "task";

export const taskTool: Tool = {
  name: TASK_TOOL,
  // The runtime lists the agents of the session here; this is the list without files or extensions.
  description: taskDescription(BUILTIN_AGENTS),
  schema: {
    type: "object",
    properties: {
      description: { type: "string", description: "What the task is, in 3-6 words (shown to the user)." },
      prompt: { type: "string", description: "The whole task for the subagent: everything it needs to know, and what to report back." },
      agent: { type: "string", description: "Which agent does it (default general)." },
    },
    required: ["description", "prompt"],
  },
  preview(args: JsonObject): string {
    const agent = stringArg(args, "agent") ?? "general";
    return `task [${agent}] ${stringArg(args, "description") ?? ""}`.trim();
  },
  async execute(args: JsonObject, ctx): Promise<ToolOutput> {
    const prompt = stringArg(args, "prompt");
    if (prompt === undefined || prompt.trim() === "") return textResult('task: "prompt" must be a non-empty string: the whole task for the subagent.', true);
    const description = stringArg(args, "description") ?? "";
    const agent = stringArg(args, "agent")?.trim() || "general";
    if (!ctx.delegate) return textResult("task: subagents cannot run here (this tool runs only inside a zot session).", true);
    return ctx.delegate({ description, prompt, agent }, ctx.signal, ctx.progress);
  },
};
