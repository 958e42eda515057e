// `zot_agent`: an MCP client hands zot a whole task. The prompt runs as a fresh conversation with
// zot's provider, built-in tools, extensions and MCP servers (the run's --tools, not the served
// selection), under the same permission mode; what needs approval asks the calling client. Tool
// calls and the answer's start stream as progress. One prompt at a time: the runtime holds one
// conversation, so concurrent calls wait their turn. With `agent`, the task runs as that zot agent
// (docs/subagents.md) — its system prompt, tools and model — the way the `task` tool runs one.
import type { ContentBlock, JsonObject } from "../../protocol.ts";
import type { ConfirmDecision, ConfirmRequest } from "../../agent/events.ts";
import type { Runtime, ServedResult } from "../runtime.ts";
import { onAbort } from "../../abort.ts";

export const AGENT_TOOL = "zot_agent";

export const AGENT_DECLARATION: JsonObject = {
  name: AGENT_TOOL,
  description:
    "Run a task with zot, a coding agent, in its working directory: it reads, edits and runs commands with its own model, tools and extensions, and returns its final answer. Give the whole task in one prompt.",
  inputSchema: {
    type: "object",
    properties: {
      prompt: { type: "string", description: "The task, as you would type it to zot" },
      agent: { type: "string", description: "A zot agent to run it as (zot's /agents lists them: general, explore, and the user's own); omitted: zot itself" },
    },
    required: ["prompt"],
  },
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
};

export type AgentCall = {
  args: JsonObject;
  signal: AbortSignal;
  onProgress: (text: string) => void;
  ask: ((req: ConfirmRequest) => Promise<ConfirmDecision>) | null;
};

export class AgentTool {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly runtime: Runtime) {}

  run(call: AgentCall): Promise<ServedResult> {
    const prompt = call.args.prompt;
    if (typeof prompt !== "string" || prompt.trim() === "")
      return Promise.resolve(error(`${AGENT_TOOL} needs "prompt", the task as a non-empty string (got ${JSON.stringify(prompt ?? null)})`));
    const agent = call.args.agent;
    if (agent !== undefined && (typeof agent !== "string" || agent.trim() === ""))
      return Promise.resolve(error(`${AGENT_TOOL}'s "agent" is the name of a zot agent, as a non-empty string (got ${JSON.stringify(agent)})`));
    const turn = this.queue.then(() => (agent === undefined ? this.prompt(prompt, call) : this.asAgent(agent.trim(), prompt, call)));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async prompt(prompt: string, call: AgentCall): Promise<ServedResult> {
    if (call.signal.aborted) return error("cancelled before it started");
    const runtime = this.runtime;
    runtime.clear();
    runtime.setConfirmHandler(call.ask);
    const unsubscribe = runtime.subscribe((e) => {
      if (e.type === "tool_call") call.onProgress(`${e.name} ${JSON.stringify(e.args).slice(0, 160)}`);
      else if (e.type === "tool_result" && e.is_error) call.onProgress(`${e.name} failed`);
      else if (e.type === "assistant_start") call.onProgress("thinking");
    });
    const unlisten = onAbort(call.signal, () => runtime.abort());
    try {
      const outcome = await runtime.prompt(prompt);
      if (outcome.stop === "aborted") return error("the task was cancelled");
      if (outcome.blocked) return error(`extension ${outcome.blocked.extension} stopped the task: ${outcome.blocked.reason}`);
      if (outcome.stepLimit !== undefined)
        return {
          content: [
            { type: "text", text: `${outcome.text}\n\n[zot stopped after ${outcome.stepLimit} model calls (--max-steps); the task may be unfinished]` },
          ],
          isError: false,
        };
      if (outcome.error !== undefined) return error(`zot stopped with an error: ${outcome.error}${outcome.text ? `\n\n${outcome.text}` : ""}`);
      return { content: [{ type: "text", text: outcome.text }], isError: false };
    } finally {
      unlisten();
      unsubscribe();
      runtime.setConfirmHandler(null);
    }
  }

  private async asAgent(agent: string, prompt: string, call: AgentCall): Promise<ServedResult> {
    if (call.signal.aborted) return error("cancelled before it started");
    this.runtime.setConfirmHandler(call.ask);
    try {
      const out = await this.runtime.runAgent({ description: prompt.slice(0, 60), prompt, agent }, call.signal, call.onProgress);
      if (call.signal.aborted) return error("the task was cancelled");
      const content: ContentBlock[] = out.content.flatMap((p) => (p.type === "text" ? [{ type: "text", text: p.text }] : []));
      return { content, isError: out.isError };
    } finally {
      this.runtime.setConfirmHandler(null);
    }
  }
}

function error(text: string): ServedResult {
  return { content: [{ type: "text", text }], isError: true };
}
