// The agent loop: model call → tool calls → results → next model call, until the model stops
// without tool calls, the user aborts, something fails, or --max-steps is reached. Its hooks
// (hooks.ts: the extension and MCP hosts) sit beside it and are consulted at fixed points:
// lifecycle events, interceptors (turn_start, tool_call, tool_result, assistant_message) and
// their tools' calls.
import type { ContentBlock } from "../protocol.ts";
import type { Json, JsonObject } from "../json.ts";
import type { ActiveTool, InterceptResult, LoopHooks } from "./hooks.ts";
import { fromWireContent, textOf, toWireContent } from "./content.ts";
import { isContextOverflow } from "./compaction.ts";
import type { AgentEvent, ApprovalDetail, ConfirmRequest } from "./events.ts";
import type { Effort } from "./choices.ts";
import type {
  AssistantMessage,
  ImagePart,
  Message,
  StopReason,
  TextPart,
  ToolCallPart,
  ToolDeclaration,
  ToolResultMessage,
  Usage,
  UserMessage,
} from "./messages.ts";
import type { Provider, ProviderEvent, ProviderRequest, ToolSpec } from "./provider.ts";
import type { InterceptRecord } from "./intercept-record.ts";
import type { EditorAccess, Progress, Tool, ToolContext, ToolOutput } from "./tool.ts";
import type { SandboxPolicy } from "./sandbox/policy.ts";
import { messageJson } from "./message-json.ts";
import { jailRefusal } from "./jail.ts";
import { TASK_TOOL } from "./tools/task.ts";

/** A refusal `byUser` reaches the model as the user's decline; one by the permission mode as its own sentence. */
export type Approval = { ok: true } | { ok: false; reason: string; byUser: boolean };

export interface LoopContext {
  provider: Provider;
  model: string;
  system: string;
  reasoning?: Effort | undefined;
  maxTokens?: number;
  /** Stable for the conversation (providers key prompt caches on it). */
  sessionId?: string;
  maxSteps: number;
  cwd: string;
  home: string;
  /** Built-in tools after --tools/--no-tools. */
  builtins: readonly Tool[];
  /** False with --no-tools: extension tools are neither offered nor callable. */
  extensionTools: boolean;
  /** Events, interceptors and the tools beyond the built-ins (the extension and MCP hosts). */
  hooks: LoopHooks;
  /** The conversation so far, read before every model call; the loop appends through `record`. */
  history(): readonly Message[];
  /** Appends to the history and the transcript. */
  record(message: Message): void;
  emit(event: AgentEvent): void;
  /** Adds one response's usage to the session totals and returns the new totals. */
  addUsage(usage: Usage): Usage;
  /**
   * Resolves at once when the permission mode or a rule lets the call run; otherwise asks the user
   * (and emits the confirmation events). `detail` is computed only when someone is asked.
   */
  approve(req: Omit<ConfirmRequest, "detail" | "scope">, detail: () => ApprovalDetail): Promise<Approval>;
  /** The /jail root when the built-in tools are confined to it; absent or null when not jailed. */
  jail?(): string | null;
  /** The sandbox the built-in tools run in (commands confined, file tools checked). */
  sandbox?: SandboxPolicy | undefined;
  /**
   * The sandbox stopped a built-in tool call: true when the user approved running it once outside
   * (asked only in a permission mode that asks, never silently).
   */
  escalate?(req: Omit<ConfirmRequest, "detail">, denial: string): Promise<boolean>;
  /** Messages the user typed while the turn ran, taken at each tool boundary. */
  steer?(): UserMessage[];
  /** Condenses the history after a context-too-long answer; true when the call is worth retrying. */
  compact?(): Promise<boolean>;
  /** Runs the `task` tool's subagents; absent: the tool says it cannot run here. */
  delegate?: ToolContext["delegate"];
  /** How many `task` calls of one message run at once (default 4). */
  concurrency?: number;
  /** The editor's files and terminals for the built-in tools (an ACP session), or null. */
  editor?(): EditorAccess | null;
  /** The MCP client a call came from over `zot mcp serve` (its name), told to extensions with the call; absent for the model's calls. */
  mcpClient?: string;
}

/** How one prompt ended: the stop reason, the visible text, and what went wrong if anything did. */
export type PromptOutcome = { stop: StopReason; text: string; error?: string; blocked?: { extension: string; reason: string }; stepLimit?: number };

type Outcome = PromptOutcome & { steps: number };

/** Runs one user prompt (already recorded in the history) to completion. Never rejects for model, tool or extension failures. */
export async function runLoop(ctx: LoopContext, signal: AbortSignal): Promise<PromptOutcome> {
  const outcome = await steps(ctx, signal);
  ctx.emit({ type: "done", stop: outcome.stop, text: outcome.text, steps: outcome.steps, ...(outcome.error !== undefined ? { error: outcome.error } : {}) });
  const { steps: _steps, ...rest } = outcome;
  return rest;
}

async function steps(ctx: LoopContext, signal: AbortSignal): Promise<Outcome> {
  const { hooks } = ctx;
  let visible = "";
  let condensed = false;
  for (let step = 1; ; step++) {
    if (signal.aborted) return { stop: "aborted", text: visible, error: "aborted", steps: step - 1 };
    if (step > ctx.maxSteps) {
      const error = `stopped after ${ctx.maxSteps} model calls (--max-steps ${ctx.maxSteps}); raise --max-steps to let the agent go on`;
      ctx.emit({ type: "error", message: error });
      return { stop: "error", text: visible, error, steps: step - 1, stepLimit: ctx.maxSteps };
    }
    if (hooks.hasInterceptor("turn_start")) {
      const gate = await hooks.intercept({ event: "turn_start", step });
      trace(ctx, "turn_start", gate);
      if (gate.blocked) {
        const extension = gate.blockedBy ?? "an extension";
        const reason = gate.reason || "no reason given";
        ctx.emit({ type: "turn_blocked", step, extension, reason });
        return { stop: "error", text: visible, error: `turn blocked by ${extension}: ${reason}`, blocked: { extension, reason }, steps: step };
      }
    }
    hooks.emit({ event: "turn_start", step });
    ctx.emit({ type: "turn_start", step });

    const allExtTools = ctx.extensionTools ? hooks.tools() : [];
    const extTools = allExtTools.filter((t) => t.active);
    const pending = allExtTools.filter((t) => !t.active);
    const { message, held } = await callModel(ctx, extTools, pending, signal);
    if (message.stop === "error" && !condensed && ctx.compact && isContextOverflow(message.error)) {
      // Once per prompt: a request that still does not fit after condensing fails as it is.
      condensed = true;
      if (await ctx.compact()) {
        step--;
        continue;
      }
    }
    const calls = message.content.filter((p): p is ToolCallPart => p.type === "toolCall");
    const shown = await present(ctx, message, held);
    if (shown !== null) visible = shown;

    if (message.stop === "error" || message.stop === "aborted") {
      // Partial tool calls of a failed stream never run, but each needs a result for the history to stay valid.
      for (const call of calls)
        recordResult(ctx, call, errorOutput("not run: the model response was " + (message.stop === "aborted" ? "aborted" : "cut off by an error")));
      return endTurn(ctx, step, message.stop, visible, message.error ?? message.stop);
    }
    if (calls.length === 0) return endTurn(ctx, step, message.stop, visible);

    for (let i = 0; i < calls.length; ) {
      // Neighbouring `task` calls run at once; every other call runs alone, in order.
      let end = i + 1;
      if (ctx.delegate && calls[i]?.name === TASK_TOOL) while (calls[end]?.name === TASK_TOOL) end++;
      const group = calls.slice(i, end);
      i = end;
      if (group.length === 1 && group[0]) {
        if (signal.aborted) recordResult(ctx, group[0], errorOutput("not run: aborted by the user"));
        else await runCall(ctx, group[0], extTools, signal);
      } else await runTogether(ctx, group, extTools, signal);
    }
    if (signal.aborted) return endTurn(ctx, step, "aborted", visible, "aborted");
    hooks.emit({ event: "turn_end", stop: "tool_use" });
    ctx.emit({ type: "turn_end", step, stop: "tool_use" });
    // Between the tool results and the next model call: where a steering message reaches the model.
    for (const m of ctx.steer?.() ?? []) {
      ctx.record(m);
      const wire = messageJson(m);
      ctx.emit({
        type: "user_message",
        text: textOf(m.content),
        images: m.content.filter((p) => p.type === "image").length,
        content: wire.content as Json[],
        time: wire.time as string,
        steering: true,
      });
    }
  }
}

/**
 * Runs `calls` at most `ctx.concurrency` at a time; their results join the history in the order of
 * the calls (events go out as they happen).
 */
async function runTogether(ctx: LoopContext, calls: readonly ToolCallPart[], extTools: readonly ActiveTool[], signal: AbortSignal): Promise<void> {
  const held: Message[][] = calls.map(() => []);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < calls.length; i = next++) {
      const call = calls[i];
      const into = held[i];
      if (!call || !into) continue;
      const own: LoopContext = { ...ctx, record: (m) => into.push(m) };
      if (signal.aborted) recordResult(own, call, errorOutput("not run: aborted by the user"));
      else await runCall(own, call, extTools, signal);
    }
  };
  const width = Math.max(1, Math.min(ctx.concurrency ?? DEFAULT_CONCURRENCY, calls.length));
  await Promise.all(Array.from({ length: width }, worker));
  for (const messages of held) for (const m of messages) ctx.record(m);
}

/** `task` calls of one message that run at once, unless config.json says otherwise. */
export const DEFAULT_CONCURRENCY = 4;

function endTurn(ctx: LoopContext, step: number, stop: StopReason, text: string, error?: string): Outcome {
  ctx.hooks.emit(error === undefined ? { event: "turn_end", stop } : { event: "turn_end", stop, error });
  ctx.emit(error === undefined ? { type: "turn_end", step, stop } : { type: "turn_end", step, stop, error });
  return error === undefined ? { stop, text, steps: step } : { stop, text, error, steps: step };
}

function trace(ctx: LoopContext, event: string, result: InterceptResult): void {
  if (result.steps.length === 0) return;
  // Microseconds are plenty; the raw float differences are noise in a JSON line.
  ctx.emit({ type: "intercept_trace", event, steps: result.steps.map((s) => ({ ...s, ms: Math.round(s.ms * 1000) / 1000 })) });
}

function rewriters(result: InterceptResult): string[] {
  return result.steps.filter((s) => s.outcome === "rewrite").map((s) => s.extension);
}

/** A provider's retry notice as the agent event the modes show. */
export function retryEvent(ev: Extract<ProviderEvent, { type: "retry" }>): AgentEvent {
  return { type: "retry", attempt: ev.attempt, attempts: ev.attempts, delay_ms: ev.delayMs, reason: ev.reason, ...(ev.wire ? { wire: ev.wire } : {}) };
}

/**
 * Streams one model response, forwarding deltas; text deltas are held back while an
 * assistant_message interceptor exists (`held`: the text still has to be released).
 */
/** Streams one model response, each event to `onEvent`; the final message, or null when the stream ended without one. */
export async function streamResponse(
  provider: Provider,
  request: ProviderRequest,
  signal: AbortSignal,
  onEvent: (ev: ProviderEvent) => void,
): Promise<AssistantMessage | null> {
  let final: AssistantMessage | null = null;
  for await (const ev of provider.stream(request, signal)) {
    if (ev.type === "done") final = ev.message;
    else onEvent(ev);
  }
  return final;
}

async function callModel(
  ctx: LoopContext,
  extTools: readonly ActiveTool[],
  pending: readonly ActiveTool[],
  signal: AbortSignal,
): Promise<{ message: AssistantMessage; held: boolean }> {
  const hold = ctx.hooks.hasInterceptor("assistant_message");
  const tools: ToolSpec[] = ctx.builtins.map((t) => ({ name: t.name, description: t.description, schema: t.schema }));
  for (const t of extTools)
    tools.push(
      t.deferred
        ? { name: t.name, description: t.description, schema: t.schema, deferred: true }
        : { name: t.name, description: t.description, schema: t.schema },
    );
  // Not yet activated: a wire with native deferral may declare them hidden, the others drop them.
  for (const t of pending) tools.push({ name: t.name, description: t.description, schema: t.schema, deferred: true, pending: true });
  const request = {
    model: ctx.model,
    system: ctx.system,
    messages: ctx.history().slice(),
    tools,
    ...(ctx.reasoning ? { reasoning: ctx.reasoning } : {}),
    ...(ctx.maxTokens ? { maxTokens: ctx.maxTokens } : {}),
    ...(ctx.sessionId ? { sessionId: ctx.sessionId } : {}),
  };
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    ctx.emit({ type: "assistant_start" });
  };
  const final = await streamResponse(ctx.provider, request, signal, (ev) => {
    // A retry notice is not the response beginning: the attempt after it is.
    if (ev.type !== "retry") start();
    switch (ev.type) {
      case "text_delta":
        if (!hold) ctx.emit({ type: "text_delta", text: ev.text });
        break;
      case "thinking_delta":
      case "tool_use_start":
      case "tool_use_args":
      case "tool_use_end":
        ctx.emit(ev);
        break;
      case "retry":
        ctx.emit(retryEvent(ev));
        break;
      case "usage":
        // Running totals inside one response; the final message carries the authoritative numbers.
        break;
    }
  });
  // A response that streamed nothing but still carries content starts when it arrives.
  if (final && final.content.length > 0) start();
  const message: AssistantMessage = final ?? {
    role: "assistant",
    content: [],
    stop: signal.aborted ? "aborted" : "error",
    error: signal.aborted ? "aborted" : `the ${ctx.provider.name} stream ended without a final message`,
    provider: ctx.provider.name,
    model: ctx.model,
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 },
    ts: Date.now(),
  };
  const total = ctx.addUsage(message.usage);
  ctx.emit({ type: "usage", usage: message.usage, total });
  return { message, held: hold };
}

/**
 * Runs the assistant_message interceptors, records the message and reports what the user sees.
 * `held`: the text was not streamed and must be released here (even if the interceptor went away
 * while the response streamed). Returns the user-visible text, or null when the response had no text.
 */
async function present(ctx: LoopContext, message: AssistantMessage, held: boolean): Promise<string | null> {
  const text = textOf(message.content);
  let shownText = text;
  const event: Extract<AgentEvent, { type: "assistant_message" }> = { type: "assistant_message", text, content: [], time: "" };
  let intercept: InterceptRecord | undefined;
  if (text !== "" && (held || ctx.hooks.hasInterceptor("assistant_message"))) {
    const r: InterceptResult = ctx.hooks.hasInterceptor("assistant_message")
      ? await ctx.hooks.intercept({ event: "assistant_message", text })
      : { blocked: false, steps: [] };
    trace(ctx, "assistant_message", r);
    if (r.blocked) {
      shownText = "";
      const by = r.blockedBy ?? "an extension";
      intercept = { hidden: true, shown_text: "", blocked_by: by, reason: r.reason ?? "" };
      Object.assign(event, { text: "", blocked: true, blocked_by: by, reason: r.reason ?? "" });
    } else {
      if (r.text !== undefined && r.text !== text) {
        shownText = r.text;
        const by = rewriters(r);
        intercept = { shown_text: r.text, rewritten_by: by };
        // The original stays out of the event: a rewrite usually exists to keep it from the user.
        Object.assign(event, { text: r.text, rewritten_by: by });
      }
      // Held deltas are released as one delta carrying exactly what the user may see.
      if (shownText !== "") ctx.emit({ type: "text_delta", text: shownText, held: true });
    }
  }
  if (message.content.length === 0) return null;
  if (intercept) message.intercept = intercept;
  ctx.record(message);
  // Every recorded message is announced, tool calls alone too (the Go zot does); extensions hear of text only.
  const wire = messageJson(message);
  event.content = wire.content as Json[];
  event.time = wire.time as string;
  ctx.emit(event);
  if (text === "") return null;
  if (!event.blocked) ctx.hooks.emit({ event: "assistant_message", text: shownText });
  return shownText;
}

type CallOutput = {
  content: (TextPart | ImagePart)[];
  isError: boolean;
  extension?: string | undefined;
  args?: JsonObject;
  rewrittenBy?: string[];
  blockedBy?: string;
  /** Why the call was blocked. */
  reason?: string;
  resultRewrittenBy?: string[];
  activatedTools?: ToolDeclaration[];
  /** An MCP tool's `structuredContent`; dropped when an interceptor rewrote or withheld the result. */
  structured?: Json;
};

function errorOutput(text: string): CallOutput {
  return { content: [{ type: "text", text }], isError: true };
}

function recordResult(ctx: LoopContext, call: ToolCallPart, out: CallOutput, started = Date.now()): void {
  const msg: ToolResultMessage = {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: out.content,
    isError: out.isError,
    ts: Date.now(),
  };
  if (out.extension) msg.extension = out.extension;
  if (out.activatedTools?.length) msg.activatedTools = out.activatedTools;
  const intercept: InterceptRecord = {};
  if (out.args) intercept.args = out.args;
  if (out.rewrittenBy?.length) intercept.rewritten_by = out.rewrittenBy;
  if (out.blockedBy) intercept.blocked_by = out.blockedBy;
  if (out.reason) intercept.reason = out.reason;
  if (out.resultRewrittenBy?.length) intercept.result_rewritten_by = out.resultRewrittenBy;
  if (Object.keys(intercept).length > 0) msg.intercept = intercept;
  ctx.record(msg);
  const ev: Extract<AgentEvent, { type: "tool_result" }> = {
    type: "tool_result",
    id: call.id,
    name: call.name,
    content: toWireContent(out.content),
    is_error: out.isError,
    duration_ms: Date.now() - started,
  };
  if (out.extension) ev.extension = out.extension;
  if (out.blockedBy) ev.blocked_by = out.blockedBy;
  if (out.resultRewrittenBy?.length) ev.rewritten_by = out.resultRewrittenBy;
  if (out.structured !== undefined && !out.resultRewrittenBy?.length) ev.structured_content = out.structured;
  ctx.emit(ev);
}

/**
 * One tool call, exactly as the loop runs the model's: interceptors, the approval gate, the jail, the
 * sandbox, the tool and the result interceptors; the result goes to `ctx.record`. `zot mcp serve`
 * runs the calls of MCP clients through it, so they pass every check the model's calls pass.
 */
export async function runCall(ctx: LoopContext, call: ToolCallPart, extTools: readonly ActiveTool[], signal: AbortSignal): Promise<void> {
  const started = Date.now();
  const builtin = ctx.builtins.find((t) => t.name === call.name);
  // Offered extension tools only: a deferred tool the model guessed is as unknown as a made-up one.
  const ext = builtin ? undefined : extTools.find((t) => t.name === call.name);
  const owner = ext?.extension;
  const announce = (args: Json, extra: { original_args?: Json; rewritten_by?: string[]; change?: ApprovalDetail } = {}) => {
    ctx.emit({ type: "tool_call", id: call.id, name: call.name, args, ...(owner ? { extension: owner } : {}), ...extra });
  };

  if (call.invalidArgs !== undefined) {
    announce(call.args);
    recordResult(
      ctx,
      call,
      {
        ...errorOutput(`Invalid arguments for tool "${call.name}": ${call.invalidArgs}. Send the call again with a valid JSON object as its arguments.`),
        ...(owner ? { extension: owner } : {}),
      },
      started,
    );
    return;
  }
  if (!builtin && !ext) {
    announce(call.args);
    const available = [...ctx.builtins.map((t) => t.name), ...extTools.map((t) => t.name)];
    const list = available.length ? `available tools: ${available.join(", ")}` : "no tools are available in this session";
    recordResult(ctx, call, errorOutput(`Unknown tool "${call.name}" (${list}).`), started);
    return;
  }

  let args = call.args;
  let rewrittenBy: string[] = [];
  if (ctx.hooks.hasInterceptor("tool_call")) {
    const r = await ctx.hooks.intercept({ event: "tool_call", tool_id: call.id, tool_name: call.name, tool_args: args, ...callFields(ctx) });
    trace(ctx, "tool_call", r);
    if (r.blocked) {
      announce(args);
      const by = r.blockedBy ?? "an extension";
      const reason = r.reason || "no reason given";
      recordResult(
        ctx,
        call,
        { ...errorOutput(`Blocked by extension ${by}: ${reason}`), blockedBy: by, reason, ...(owner ? { extension: owner } : {}) },
        started,
      );
      return;
    }
    if (r.args !== undefined) {
      args = r.args;
      rewrittenBy = rewriters(r);
    }
  }
  // Computed once, after any rewrite: the event shows it and the approval dialog asks with it.
  const change = builtin?.approval ? approvalDetail(builtin, args, ctx.cwd) : undefined;
  announce(args, { ...(rewrittenBy.length ? { original_args: call.args, rewritten_by: rewrittenBy } : {}), ...(change ? { change } : {}) });

  const preview = builtin ? safePreview(builtin, args) : `${call.name} ${JSON.stringify(args)}`.slice(0, 200) + (ext?.note ?? "");
  const approval = await ctx.approve(
    { id: call.id, name: call.name, preview, args, ...(owner ? { extension: owner } : {}), ...(rewrittenBy.length ? { rewritten_by: rewrittenBy } : {}) },
    () => change ?? approvalDetail(builtin, args, ctx.cwd, ext?.note),
  );
  // Time spent waiting for the user is not the tool's.
  const ran = Date.now();
  const rewriteInfo = rewrittenBy.length ? { args, rewrittenBy } : {};
  if (!approval.ok) {
    recordResult(
      ctx,
      call,
      {
        ...errorOutput(approval.byUser ? `The user declined this tool call: ${approval.reason}` : approval.reason),
        ...rewriteInfo,
        ...(owner ? { extension: owner } : {}),
      },
      ran,
    );
    return;
  }
  ctx.hooks.emit({ event: "tool_call", tool_id: call.id, tool_name: call.name, tool_args: args, ...callFields(ctx) });

  let out: CallOutput;
  const progress: Progress = (text, subagent) => ctx.emit({ type: "tool_progress", id: call.id, name: call.name, text, ...(subagent ? { subagent } : {}) });
  const root = builtin ? (ctx.jail?.() ?? null) : null;
  const refusal = builtin && root !== null ? jailRefusal(builtin.name, args, ctx.cwd, root) : null;
  if (refusal !== null) out = errorOutput(refusal);
  else if (builtin) {
    try {
      const r = await runBuiltin(ctx, builtin, { id: call.id, name: call.name, preview, args, scope: null }, toolContext(ctx, call.id, signal, progress));
      out = { content: r.content, isError: r.isError };
    } catch (err) {
      out = errorOutput(`Tool "${call.name}" failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  } else {
    const r = await ctx.hooks.callTool(call.name, args, { signal, onProgress: progress });
    out = {
      content: fromWireContent(r.content),
      isError: r.isError,
      extension: r.extension,
      ...(r.structured !== undefined ? { structured: r.structured } : {}),
    };
    const activated = newlyActivated(ctx, r.activateTools, extTools);
    if (activated.length) out.activatedTools = activated;
  }

  if (ctx.hooks.hasInterceptor("tool_result")) {
    const r = await ctx.hooks.intercept({
      event: "tool_result",
      tool_id: call.id,
      tool_name: call.name,
      tool_args: args,
      content: toWireContent(out.content),
      is_error: out.isError,
    });
    trace(ctx, "tool_result", r);
    if (r.blocked) {
      out = {
        ...errorOutput(`Result withheld by extension ${r.blockedBy ?? "an extension"}: ${r.reason || "no reason given"}`),
        extension: out.extension,
        resultRewrittenBy: [r.blockedBy ?? "an extension"],
      };
    } else if (r.content !== undefined || r.isError !== undefined) {
      const content: ContentBlock[] = r.content ?? toWireContent(out.content);
      out = { ...out, content: fromWireContent(content), isError: r.isError ?? out.isError, resultRewrittenBy: rewriters(r) };
    }
  }
  recordResult(ctx, call, { ...out, ...rewriteInfo, ...(owner && !out.extension ? { extension: owner } : {}) }, ran);
}

function toolContext(ctx: LoopContext, callId: string, signal: AbortSignal, progress: Progress): ToolContext {
  const editor = ctx.editor?.() ?? null;
  return { cwd: ctx.cwd, signal, progress, home: ctx.home, callId, ...(editor ? { editor } : {}), ...(ctx.delegate ? { delegate: ctx.delegate } : {}) };
}

/** A built-in call inside the sandbox, and once more outside it when the sandbox stopped it and the user approves. */
async function runBuiltin(ctx: LoopContext, tool: Tool, req: Omit<ConfirmRequest, "detail">, base: ToolContext): Promise<ToolOutput> {
  const r = await tool.execute(req.args, ctx.sandbox ? { ...base, sandbox: ctx.sandbox } : base);
  if (r.sandboxDenial === undefined || !ctx.escalate || base.signal.aborted || !(await ctx.escalate(req, r.sandboxDenial))) return r;
  const again = await tool.execute(req.args, base);
  return { ...again, content: [{ type: "text", text: "[Run outside the sandbox, approved by the user.]" }, ...again.content] };
}

/** `extNote`: what the extension tool's owner claims about it (an MCP tool's annotations), shown with its arguments. */
function approvalDetail(tool: Tool | undefined, args: JsonObject, cwd: string, extNote?: string): ApprovalDetail {
  try {
    if (tool?.approval) return tool.approval(args, cwd);
  } catch (err) {
    return { kind: "json", json: JSON.stringify(args, null, 2), note: `could not prepare a preview (${err instanceof Error ? err.message : String(err)})` };
  }
  const note = extNote?.trim();
  return note ? { kind: "json", json: JSON.stringify(args, null, 2), note } : { kind: "json", json: JSON.stringify(args, null, 2) };
}

/** The deferred tools an `activate_tools` list switched on just now, as the model will see them. */
function newlyActivated(ctx: LoopContext, names: readonly string[], offered: readonly ActiveTool[]): ToolDeclaration[] {
  if (names.length === 0) return [];
  const out: ToolDeclaration[] = [];
  for (const t of ctx.hooks.tools()) {
    if (t.deferred && t.active && names.includes(t.name) && !offered.some((o) => o.name === t.name))
      out.push({ name: t.name, description: t.description, schema: t.schema });
  }
  return out;
}

/** Extensions hear of /jail (as in `hello_ack`) and of the MCP client a call came from in `tool_call` events and interceptions. */
function callFields(ctx: LoopContext): { jail?: { root: string }; mcp_client?: string } {
  const root = ctx.jail?.() ?? null;
  return { ...(root !== null ? { jail: { root } } : {}), ...(ctx.mcpClient !== undefined ? { mcp_client: ctx.mcpClient } : {}) };
}

function safePreview(tool: Tool, args: JsonObject): string {
  try {
    return tool.preview(args);
  } catch {
    return `${tool.name} ${JSON.stringify(args)}`.slice(0, 200);
  }
}
