// Subagents: the runtime's side of the `task` tool. A subagent is one more agent loop under the
// same runtime, with its own conversation, system prompt and tools; it borrows everything that
// guards a call from the runtime unchanged — the approval gate (permission mode, rules, asking the
// user, plan mode), the sandbox and /jail, and the hooks (extension and MCP interceptors, events,
// tools) — only tagged with the agent, so extensions, approvals and --json/RPC can tell who calls.
import type { AgentRef } from "../protocol.ts";
import { isObject } from "../json.ts";
import type { Result } from "../result.ts";
import { MAX_AGENT_DEPTH, type AgentDefinition, type LoadedAgents } from "../agent/agents.ts";
import type { Effort } from "../agent/choices.ts";
import type { AgentEvent, ApprovalDetail, ConfirmRequest, SubagentStatus } from "../agent/events.ts";
import type { EmitPayload, LoopHooks } from "../agent/hooks.ts";
import { runLoop, type Approval, type LoopContext } from "../agent/loop.ts";
import type { Message, Usage } from "../agent/messages.ts";
import type { Provider } from "../agent/provider.ts";
import { isReadOnlyCommand } from "../agent/read-only-command.ts";
import type { SandboxPolicy } from "../agent/sandbox/policy.ts";
import type { EditorAccess, Progress, TaskRequest, Tool, ToolOutput } from "../agent/tool.ts";
import { textResult } from "../agent/tools/common.ts";
import { TASK_TOOL } from "../agent/tools/task.ts";
import { onAbort } from "../abort.ts";

/** What the runtime lends its subagents. */
export type SubagentDeps = {
  cwd: string;
  home: string;
  /** The session's provider and model now, and the thinking level. */
  current(): { provider: Provider; providerName: string; model: string; reasoning: Effort | null };
  /** An agent's `model`: `provider/model` or a model id of the current provider. */
  providerFor(wanted: string): Result<{ provider: Provider; providerName: string; model: string }>;
  /** The session's built-in tools (the `task` tool among them when it is on). */
  builtins(): readonly Tool[];
  extensionTools: boolean;
  hooks: LoopHooks;
  maxSteps: number;
  /** config.json's `"subagents"` now: how many task calls run at once, and the dollars one subagent may spend (null: no limit). */
  settings(): { concurrency: number; maxCost: number | null };
  agents(): LoadedAgents;
  /** The system prompt for an agent with these tools. */
  systemPrompt(agent: AgentDefinition, tools: readonly { name: string; description: string }[]): string;
  approve(req: Omit<ConfirmRequest, "detail" | "scope">, detail: () => ApprovalDetail): Promise<Approval>;
  escalate(req: Omit<ConfirmRequest, "detail">, denial: string): Promise<boolean>;
  jail(): string | null;
  sandbox: SandboxPolicy | null;
  /** The editor's files and terminals (an ACP session), or null. */
  editor(): EditorAccess | null;
  emit(event: AgentEvent): void;
  /** Adds to the session's totals (and transcript), priced at and credited to the subagent's model; returns the totals. */
  addUsage(usage: Usage, by: { provider: string; model: string }): Usage;
  /** The session's totals now. */
  totals(): Usage;
  /** Keeps a message of the subagent's conversation in the session's transcript. */
  record(agent: AgentRef, message: Message): void;
};

/** The events of a subagent that reach the modes (tagged with `agent`); its streaming deltas and `done` stay inside. */
const FORWARDED: ReadonlySet<AgentEvent["type"]> = new Set([
  "turn_start",
  "turn_end",
  "tool_call",
  "tool_progress",
  "tool_result",
  "assistant_message",
  "usage",
  "error",
]);

const CHANGING_TOOLS: ReadonlySet<string> = new Set(["write", "edit"]);

export class Subagents {
  private started = 0;

  constructor(private readonly deps: SubagentDeps) {}

  /** The `task` tool's runner for calls made by `parent` (null: the main agent) at `depth`. */
  delegate(parent: AgentRef | null, depth: number): NonNullable<LoopContext["delegate"]> {
    return (req, signal, progress) => this.run(req, parent, depth + 1, signal, progress);
  }

  private async run(req: TaskRequest, parent: AgentRef | null, depth: number, signal: AbortSignal, progress: Progress): Promise<ToolOutput> {
    const { agents, warnings } = this.deps.agents();
    const def = agents.find((a) => a.name.toLowerCase() === req.agent.toLowerCase());
    // A file the user meant to define it with may have been skipped: say why.
    const skipped = warnings.filter((w) => w.includes(req.agent));
    if (!def)
      return textResult(
        `task: there is no agent "${req.agent}" (the agents are ${agents.map((a) => a.name).join(", ")}).${skipped.length ? ` ${skipped.join(" ")}` : ""}`,
        true,
      );
    const agent: AgentRef = { id: `${def.name}-${++this.started}`, name: def.name, parent: parent?.id ?? null };
    try {
      return await this.runAgent(def, agent, req, depth, signal, progress);
    } catch (err) {
      // A crash inside one subagent is that task's error result; the parent's turn goes on.
      return textResult(`The subagent ${agent.id} crashed: ${err instanceof Error ? err.message : String(err)}.`, true);
    }
  }

  private async runAgent(
    def: AgentDefinition,
    agent: AgentRef,
    req: TaskRequest,
    depth: number,
    parentSignal: AbortSignal,
    progress: Progress,
  ): Promise<ToolOutput> {
    const d = this.deps;
    const now = d.current();
    let target = { provider: now.provider, providerName: now.providerName, model: now.model };
    if (def.model !== null) {
      const r = d.providerFor(def.model);
      if (!r.ok) return textResult(`The agent "${def.name}" (${def.source}) asks for model ${def.model}, which zot cannot use: ${r.error}.`, true);
      target = r;
    }
    const reasoning = def.reasoning === "off" ? null : (def.reasoning ?? now.reasoning);
    const allowed = (name: string): boolean =>
      (def.tools === null || def.tools.includes(name)) && (name !== TASK_TOOL || (def.subagents && depth < MAX_AGENT_DEPTH));
    const builtins = d
      .builtins()
      .filter((t) => allowed(t.name))
      .map((t) => (def.readOnly && t.name === "bash" ? lookingOnly(t) : t));
    const hooks = taggedHooks(d.hooks, agent, allowed);
    const tools = [
      ...builtins.map((t) => ({ name: t.name, description: t.description })),
      ...(d.extensionTools ? hooks.tools().filter((t) => t.active && !t.deferred) : []),
    ];

    // Its own stop: the parent's cancel, or its cost limit.
    const controller = new AbortController();
    const stop = () => controller.abort();
    onAbort(parentSignal, stop);
    const { concurrency, maxCost } = d.settings();
    let spent = 0;
    let tokens = 0;
    let overBudget = false;
    const began = Date.now();
    // Each progress line carries where the subagent is, so a screen can draw it without reading the text.
    let lastTool: SubagentStatus["tool"] = null;
    const status = (state: SubagentStatus["state"]): SubagentStatus => ({
      agent,
      description: req.description || def.name,
      state,
      tool: lastTool,
      tokens,
      duration_ms: Date.now() - began,
    });

    const history: Message[] = [];
    const changing = new Map<string, string>();
    const changed = new Set<string>();
    const emit = (ev: AgentEvent): void => {
      if (ev.type === "tool_call") {
        lastTool = { name: ev.name, args: ev.args };
        progress(`[${agent.id}] ${ev.name} ${clip(JSON.stringify(ev.args))}\n`, status("running"));
        const path = isObject(ev.args) ? ev.args.path : undefined;
        if (CHANGING_TOOLS.has(ev.name) && typeof path === "string") changing.set(ev.id, path);
      } else if (ev.type === "tool_result") {
        const path = changing.get(ev.id);
        if (path !== undefined && !ev.is_error) changed.add(path);
      }
      if (FORWARDED.has(ev.type)) d.emit({ ...ev, agent });
    };
    const user: Message = { role: "user", content: [{ type: "text", text: req.prompt }], ts: Date.now() };
    history.push(user);
    d.record(agent, user);
    progress(`[${agent.id}] started: ${req.description || def.name}\n`, status("running"));

    const ctx: LoopContext = {
      provider: target.provider,
      model: target.model,
      system: d.systemPrompt(def, tools),
      ...(reasoning ? { reasoning } : {}),
      maxSteps: d.maxSteps,
      cwd: d.cwd,
      home: d.home,
      builtins,
      extensionTools: d.extensionTools,
      hooks,
      history: () => history,
      record: (m) => {
        history.push(m);
        d.record(agent, m);
      },
      emit,
      addUsage: (u) => {
        const before = d.totals().cost;
        const total = d.addUsage(u, { provider: target.providerName, model: target.model });
        spent += total.cost - before;
        tokens += u.input + u.output + u.cacheRead + u.cacheWrite;
        if (maxCost !== null && spent > maxCost && !overBudget) {
          overBudget = true;
          stop();
        }
        return total;
      },
      approve: (call, detail) => d.approve({ ...call, agent }, detail),
      jail: () => d.jail(),
      ...(d.sandbox ? { sandbox: d.sandbox } : {}),
      escalate: (call, denial) => d.escalate({ ...call, agent }, denial),
      editor: () => d.editor(),
      delegate: this.delegate(agent, depth),
      concurrency,
    };
    let outcome: Awaited<ReturnType<typeof runLoop>>;
    try {
      outcome = await runLoop(ctx, controller.signal);
    } finally {
      parentSignal.removeEventListener("abort", stop);
    }
    const files = changed.size > 0 ? `\n\n[Files changed by ${agent.id}: ${[...changed].join(", ")}]` : "";
    const answer = outcome.text.trim();
    const took = `${((Date.now() - began) / 1000).toFixed(1)} s, ${tokens >= 1000 ? `${(tokens / 1000).toFixed(1)}k` : tokens} tokens`;
    const state = overBudget || outcome.stop === "error" ? "failed" : outcome.stop === "aborted" ? "cancelled" : "done";
    progress(`[${agent.id}] ${state === "done" ? "done" : "stopped"} (${took})\n`, status(state));
    if (overBudget)
      return textResult(
        `The subagent ${agent.id} was stopped: it spent $${spent.toFixed(4)}, over its limit of $${maxCost} (config.json "subagents": {"maxCost"}).${answer ? `\n\nIts last answer:\n${answer}` : ""}${files}`,
        true,
      );
    if (outcome.stop === "aborted") return textResult(`The subagent ${agent.id} was cancelled.${files}`, true);
    if (outcome.stop === "error")
      return textResult(
        `The subagent ${agent.id} failed: ${outcome.error ?? "the model call failed"}.${answer ? `\n\nIts last answer:\n${answer}` : ""}${files}`,
        true,
      );
    return textResult(`${answer || `(${agent.id} finished without a final answer)`}${files}`);
  }
}

/** The hooks, with every event, interception and extension tool call naming `agent`, and only the tools it may use. */
function taggedHooks(inner: LoopHooks, agent: AgentRef, allowed: (name: string) => boolean): LoopHooks {
  return {
    emit: (p) => inner.emit(tagged(p, agent)),
    intercept: (p) => inner.intercept({ ...p, agent }),
    hasInterceptor: (event) => inner.hasInterceptor(event),
    tools: () => inner.tools().filter((t) => allowed(t.name)),
    callTool: (name, args, opts) => inner.callTool(name, args, { ...opts, agent }),
  };
}

function tagged(p: EmitPayload, agent: AgentRef): EmitPayload {
  switch (p.event) {
    case "turn_start":
    case "turn_end":
    case "tool_call":
    case "tool_confirmation_requested":
    case "assistant_message":
      return { ...p, agent };
    default:
      return p;
  }
}

/** bash that runs only the commands that only look (read-only-command.ts), for the `explore` agent. */
function lookingOnly(bash: Tool): Tool {
  return {
    ...bash,
    execute(args, ctx) {
      const command = typeof args.command === "string" ? args.command : "";
      if (!isReadOnlyCommand(command) || args.background === true)
        return Promise.resolve(
          textResult(
            "This agent is read-only: bash runs only commands that only look (ls, cat, head, grep, rg, find, git status/log/diff/show …), without redirection or substitution.",
            true,
          ),
        );
      return bash.execute(args, ctx);
    },
  };
}

function clip(text: string): string {
  const one = text.replace(/\s+/g, " ");
  return one.length > 120 ? `${one.slice(0, 119)}…` : one;
}
