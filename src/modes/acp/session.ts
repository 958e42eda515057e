// One ACP session: a zot runtime (its own transcript, extensions and MCP servers, in the editor's
// cwd) and what the editor sees of it. Runtime events become session/update notifications; tool
// calls that need asking become session/request_permission; a prompt's outcome becomes its stop
// reason.
import type { ExtensionHost } from "../../ext/types.ts";
import type { AgentEvent, ApprovalDetail, ConfirmDecision, ConfirmRequest } from "../../agent/events.ts";
import type { ImagePart, Message, TextPart } from "../../agent/messages.ts";
import { BUILTIN_TOOLS } from "../../names.ts";
import { redactingEvents } from "../redacting.ts";
import { commandOutcome } from "../../ext/command-outcome.ts";
import { PERMISSION_MODES, type AgentRuntime, type EditorAccess, type PermissionMode, type PromptOutcome, type TerminalRun } from "../../runtime/api.ts";
import type { Result } from "../../result.ts";
import { markdownCommands, markdownPrompt, parseSlash, unknownCommand } from "../slash.ts";
import type { JsonObject } from "../../json.ts";
import { ErrorCode, RpcError, type Peer } from "./jsonrpc.ts";
import { contentBlock, planEntries, terminalText, toolDiffs, toolKind, toolLocations, toolTitle } from "./tool-calls.ts";
import {
  decodeExit,
  decodePermissionOutcome,
  decodeReadText,
  decodeTerminalId,
  decodeTerminalOutput,
  toJson,
  type ClientCapabilities,
  type AvailableCommand,
  type PermissionOption,
  type PromptBlock,
  type SessionUpdate,
  type StopReason,
  type ToolCallContent,
} from "./wire.ts";
import { onAbort } from "../../abort.ts";

const MODE_NAMES: Record<PermissionMode, { name: string; description: string }> = {
  ask: { name: "Ask", description: "Reads and read-only commands run; every other tool call asks first." },
  "auto-edit": { name: "Auto-edit", description: "File edits in the project run without asking; commands still ask." },
  plan: { name: "Plan", description: "Read-only: the model explores and proposes a plan; edits and commands are refused." },
  yolo: { name: "Yolo", description: "Every tool call runs without asking (still inside zot's sandbox)." },
};

export function modeState(current: PermissionMode): JsonObject {
  return { currentModeId: current, availableModes: PERMISSION_MODES.map((id) => ({ id, ...MODE_NAMES[id] })) };
}

/** zot's own commands that mean something in an editor; the rest belong to the TUI. */
const BUILTINS: AvailableCommand[] = [
  { name: "compact", description: "summarise the conversation into one message" },
  { name: "init", description: "have the model study the project and write AGENTS.md" },
];

/** Past this much, a running command's output is shown from its end. */
const MAX_SHOWN_OUTPUT = 64 * 1024;
/** How much of a command's output the editor is asked to keep (its end). */
const TERMINAL_OUTPUT_LIMIT = 1024 * 1024;

function failure(err: unknown): { ok: false; error: string } {
  return { ok: false, error: err instanceof Error ? err.message : String(err) };
}

type Pending = { resolve: (d: ConfirmDecision) => void };

export class AcpSession {
  private running: Promise<StopReason> | null = null;
  private cancelled = false;
  /** Permission questions waiting for the editor, answered "no" at once by a cancel. */
  private asking = new Set<Pending>();
  /** Calls the user rejected "always" this session, by the rules a "don't ask again" would add. */
  private rejected = new Set<string>();
  /** What each running call showed of itself, kept so its final update keeps the diff. */
  private calls = new Map<string, { diffs: ToolCallContent[]; output: string }>();
  /** An assistant_message interceptor holds deltas back; the final text comes whole. */
  private heldText = false;
  /** Tool calls whose command runs in an editor terminal, by call id. */
  private terminals = new Map<string, string>();
  private unsubscribe: () => void;

  constructor(
    readonly id: string,
    readonly runtime: AgentRuntime,
    private readonly host: ExtensionHost,
    private readonly peer: Peer,
    caps: ClientCapabilities,
  ) {
    this.unsubscribe = runtime.subscribe(redactingEvents(runtime.secrets, (e) => this.onEvent(e)));
    runtime.setConfirmHandler((req) => this.confirm(req));
    runtime.setEditorAccess(this.editorAccess(caps));
  }

  /** What the editor offered at initialize: its files for read, write and edit, its terminals for bash. */
  private editorAccess(caps: ClientCapabilities): EditorAccess | null {
    const sessionId = this.id;
    const access: EditorAccess = {};
    if (caps.readTextFile)
      access.readText = (path) =>
        this.peer.request("fs/read_text_file", { sessionId, path }).then((r): Result<{ text: string }> => ({ ok: true, text: decodeReadText(r) }), failure);
    if (caps.writeTextFile)
      access.writeText = (path, content) => this.peer.request("fs/write_text_file", { sessionId, path, content }).then((): Result => ({ ok: true }), failure);
    if (caps.terminal) access.runCommand = (o) => this.inTerminal(o);
    return Object.keys(access).length > 0 ? access : null;
  }

  /** A command in an editor terminal, shown in its tool call; a cancel kills it there. */
  private async inTerminal(o: { callId: string; argv: string[]; cwd: string; signal: AbortSignal }): Promise<Result<TerminalRun>> {
    const sessionId = this.id;
    const [command, ...args] = o.argv;
    if (command === undefined) return { ok: false, error: "there is no command to run" };
    let terminalId: string;
    try {
      terminalId = decodeTerminalId(
        await this.peer.request("terminal/create", { sessionId, command, args, cwd: o.cwd, outputByteLimit: TERMINAL_OUTPUT_LIMIT }),
      );
    } catch (err) {
      return failure(err);
    }
    if (o.callId !== "") {
      this.terminals.set(o.callId, terminalId);
      this.update({ sessionUpdate: "tool_call_update", toolCallId: o.callId, content: [{ type: "terminal", terminalId }] });
    }
    try {
      const exited = this.peer.request("terminal/wait_for_exit", { sessionId, terminalId }).then(decodeExit);
      const stopped = new Promise<"stopped">((resolve) => onAbort(o.signal, () => resolve("stopped")));
      let status = await Promise.race([exited, stopped]);
      if (status === "stopped") {
        await this.peer.request("terminal/kill", { sessionId, terminalId });
        status = await exited;
      }
      const out = decodeTerminalOutput(await this.peer.request("terminal/output", { sessionId, terminalId }));
      return { ok: true, output: out.output, truncated: out.truncated, exitCode: status.exitCode, signal: status.signal };
    } catch (err) {
      return failure(err);
    } finally {
      await this.peer.request("terminal/release", { sessionId, terminalId }).catch(() => undefined);
    }
  }

  private update(update: SessionUpdate): void {
    this.peer.notify("session/update", { sessionId: this.id, update: toJson(update) });
  }

  private say(text: string): void {
    this.update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
  }

  /** Built-in, Markdown and extension commands, as the editor offers them after "/". */
  announceCommands(): void {
    const taken = new Set(BUILTINS.map((c) => c.name));
    const ext = this.host.commands().filter((c) => !taken.has(c.name));
    const md = markdownCommands(this.runtime, this.host).filter((c) => !taken.has(c.name));
    const availableCommands: AvailableCommand[] = [
      ...BUILTINS,
      ...ext.map((c) => ({ name: c.name, description: `${c.description} (${c.extension})`, input: { hint: "arguments" } })),
      ...md.map((c) => ({ name: c.name, description: c.description || "Markdown command", input: { hint: c.argumentHint || "arguments" } })),
    ];
    this.update({ sessionUpdate: "available_commands_update", availableCommands });
  }

  announceMode(): void {
    this.update({ sessionUpdate: "current_mode_update", currentModeId: this.runtime.mode });
  }

  announcePlan(): void {
    const items = this.runtime.todos();
    if (items.length > 0) this.update({ sessionUpdate: "plan", entries: planEntries(items) });
  }

  setMode(modeId: string): void {
    const mode = PERMISSION_MODES.find((m) => m === modeId);
    if (!mode) throw new RpcError(ErrorCode.invalidParams, `session/set_mode: unknown mode "${modeId}" (zot's modes: ${PERMISSION_MODES.join(", ")}).`);
    this.runtime.mode = mode;
    this.announceMode();
  }

  /** session/load: the stored conversation, as the updates it would have streamed. */
  replay(): void {
    const results = new Map<string, Extract<Message, { role: "toolResult" }>>();
    const history = this.runtime.messages();
    for (const m of history) if (m.role === "toolResult") results.set(m.toolCallId, m);
    for (const m of history) {
      if (m.role === "user") {
        for (const p of m.content) this.update({ sessionUpdate: "user_message_chunk", content: contentBlock(p) });
      } else if (m.role === "assistant") {
        for (const p of m.content) {
          if (p.type === "text" && p.text !== "") this.update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: p.text } });
          else if (p.type === "thinking" && p.thinking !== "")
            this.update({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: p.thinking } });
          else if (p.type === "toolCall") {
            const r = results.get(p.id);
            const builtin = (BUILTIN_TOOLS as readonly string[]).includes(p.name) && r?.extension === undefined;
            const output = r
              ? r.content.map(
                  (c): ToolCallContent => (p.name === "bash" && c.type === "text" ? terminalText(c.text) : { type: "content", content: contentBlock(c) }),
                )
              : [];
            this.update({
              sessionUpdate: "tool_call",
              toolCallId: p.id,
              title: toolTitle(p.name, p.args),
              kind: toolKind(p.name, !builtin),
              status: !r ? "failed" : r.isError ? "failed" : "completed",
              rawInput: p.args,
              locations: toolLocations(p.name, p.args, this.runtime.cwd),
              content: output,
            });
          }
        }
      }
    }
    this.announcePlan();
  }

  private onEvent(e: AgentEvent): void {
    // A subagent's work reaches the editor as its task call's progress; its own events (with ids
    // of its own conversation) would tangle with the main agent's calls and text.
    if (e.agent) return;
    switch (e.type) {
      case "text_delta":
        if (e.held) this.heldText = true;
        else if (e.text !== "") this.say(e.text);
        return;
      case "assistant_message":
        if (this.heldText && e.text !== "") this.say(e.text);
        this.heldText = false;
        return;
      case "thinking_delta":
        if (e.text !== "") this.update({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: e.text } });
        return;
      case "tool_call": {
        const args = e.args !== null && typeof e.args === "object" && !Array.isArray(e.args) ? e.args : {};
        const builtin = e.extension === undefined && (BUILTIN_TOOLS as readonly string[]).includes(e.name);
        const diffs = builtin ? toolDiffs(e.name, args, this.runtime.cwd) : [];
        this.calls.set(e.id, { diffs, output: "" });
        this.update({
          sessionUpdate: "tool_call",
          toolCallId: e.id,
          title: toolTitle(e.name, args),
          kind: toolKind(e.name, !builtin),
          status: "in_progress",
          rawInput: args,
          locations: builtin ? toolLocations(e.name, args, this.runtime.cwd) : [],
          content: diffs,
        });
        return;
      }
      case "tool_progress": {
        const call = this.calls.get(e.id);
        if (!call) return;
        call.output = (call.output + e.text).slice(-MAX_SHOWN_OUTPUT);
        this.update({ sessionUpdate: "tool_call_update", toolCallId: e.id, status: "in_progress", content: [...call.diffs, terminalText(call.output)] });
        return;
      }
      case "tool_result": {
        const call = this.calls.get(e.id);
        this.calls.delete(e.id);
        const shown = e.content.map((c): ToolCallContent => {
          const part: TextPart | ImagePart = c.type === "text" ? { type: "text", text: c.text } : { type: "image", mimeType: c.mime_type, data: c.data };
          return e.name === "bash" && part.type === "text" ? terminalText(part.text) : { type: "content", content: contentBlock(part) };
        });
        const terminalId = this.terminals.get(e.id);
        this.terminals.delete(e.id);
        // The editor's terminal already shows the command's output; the result would repeat it.
        const content: ToolCallContent[] =
          terminalId !== undefined ? [{ type: "terminal", terminalId }] : [...(e.is_error ? [] : (call?.diffs ?? [])), ...shown];
        this.update({ sessionUpdate: "tool_call_update", toolCallId: e.id, status: e.is_error ? "failed" : "completed", content });
        return;
      }
      case "todo":
        this.update({ sessionUpdate: "plan", entries: planEntries(e.items) });
        return;
      case "usage": {
        // The context in use against the model's window, and the session's cost so far, for the editor's meter.
        const { used, window } = this.runtime.context();
        if (window > 0) this.update({ sessionUpdate: "usage_update", used, size: window, cost: { amount: e.total.cost, currency: "USD" } });
        return;
      }
      case "ext_notify":
        this.say(`\n[${e.extension}] ${e.message}\n`);
        return;
      case "ext_display":
        this.say(`\n${e.text}\n`);
        return;
      case "error":
        this.say(`\nzot: ${e.message}\n`);
        return;
      case "compaction_start":
        this.say(`\n_Compacting the conversation (${e.reason})…_\n`);
        return;
      case "compaction_end":
        if (!e.ok && e.error) this.say(`\nzot: compaction failed: ${e.error}\n`);
        return;
      default:
        return;
    }
  }

  /** A tool call zot's mode would ask about: the editor's permission dialog, with zot's answers as its options. */
  private async confirm(req: ConfirmRequest): Promise<ConfirmDecision> {
    const escalation = req.detail.kind === "command" && req.detail.escalation !== undefined;
    const scope = !escalation ? req.scope : null;
    const key = scope ? JSON.stringify(scope.rules) : null;
    if (key !== null && this.rejected.has(key)) return { kind: "no", reason: "the user rejected such calls for this session" };
    const options: PermissionOption[] = [
      { optionId: "allow_once", name: escalation ? "Run it once outside the sandbox" : "Allow", kind: "allow_once" },
      ...(scope ? [{ optionId: "allow_always", name: `Always allow ${scope.label}`, kind: "allow_always" as const }] : []),
      { optionId: "reject_once", name: "Reject", kind: "reject_once" },
      ...(scope ? [{ optionId: "reject_always", name: `Reject ${scope.label} for this session`, kind: "reject_always" as const }] : []),
    ];
    const builtin = req.extension === undefined && (BUILTIN_TOOLS as readonly string[]).includes(req.name);
    // A subagent's call is not one of the editor's tool calls: its id is the subagent's own, and the title names the agent.
    const by = req.agent ? ` (subagent ${req.agent.id})` : "";
    const toolCall = {
      toolCallId: req.agent ? `${req.agent.id}/${req.id}` : req.id,
      title: (escalation ? `${toolTitle(req.name, req.args)} (blocked by the sandbox)` : toolTitle(req.name, req.args)) + by,
      kind: toolKind(req.name, !builtin),
      status: "pending",
      rawInput: req.args,
      content: this.detailContent(req.name, req.args, req.detail),
    };
    let settle!: (d: ConfirmDecision) => void;
    const local = new Promise<ConfirmDecision>((resolve) => (settle = resolve));
    const pending: Pending = { resolve: settle };
    this.asking.add(pending);
    const asked = this.peer.request("session/request_permission", { sessionId: this.id, toolCall: toJson(toolCall), options: toJson(options) }).then(
      (r): ConfirmDecision => {
        const outcome = decodePermissionOutcome(r);
        if (outcome.outcome === "cancelled") return { kind: "no", reason: "the permission request was cancelled" };
        switch (outcome.optionId) {
          case "allow_once":
            return { kind: "yes" };
          case "allow_always":
            return scope ? { kind: "yes_rule", rules: scope.rules, always: true } : { kind: "yes" };
          case "reject_always":
            if (key !== null) this.rejected.add(key);
            return { kind: "no", reason: "the user rejected such calls for this session" };
          case "reject_once":
            return { kind: "no", reason: "rejected in the editor" };
          default:
            return { kind: "no", reason: `the editor answered with an option zot did not offer ("${outcome.optionId}")` };
        }
      },
      (err: unknown): ConfirmDecision => ({ kind: "no", reason: `the editor could not be asked (${err instanceof Error ? err.message : String(err)})` }),
    );
    try {
      return await Promise.race([asked, local]);
    } finally {
      this.asking.delete(pending);
    }
  }

  private detailContent(name: string, args: JsonObject, detail: ApprovalDetail): ToolCallContent[] {
    switch (detail.kind) {
      case "command":
        return [{ type: "content", content: { type: "text", text: detail.escalation ? `${detail.escalation}\n\n${detail.command}` : detail.command } }];
      case "diff":
      case "content": {
        const diffs = toolDiffs(name, args, this.runtime.cwd);
        return diffs.length > 0 ? diffs : [{ type: "content", content: { type: "text", text: detail.kind === "diff" ? detail.diff : detail.content } }];
      }
      case "json":
        return [{ type: "content", content: { type: "text", text: detail.note ? `${detail.note}\n\n${detail.json}` : detail.json } }];
    }
  }

  /** session/prompt: one turn, answered with its stop reason once it ends. */
  prompt(blocks: PromptBlock[]): Promise<StopReason> {
    if (this.running)
      throw new RpcError(
        ErrorCode.invalidRequest,
        `session/prompt: a prompt is already running in session ${this.id}; wait for its answer or send session/cancel.`,
      );
    this.cancelled = false;
    const run = this.turn(blocks).finally(() => {
      this.running = null;
    });
    this.running = run;
    return run;
  }

  private async turn(blocks: PromptBlock[]): Promise<StopReason> {
    const { text, attachments } = this.promptParts(blocks);
    const slash = attachments.length === 0 ? parseSlash(text) : null;
    if (slash) return this.command(slash.name, slash.args);
    // `@path` typed in the prompt attaches the file, as in the terminal.
    const mentioned = this.runtime.mentions(text);
    for (const a of mentioned.attached) if (a.level === "warn") this.say(`zot: ${a.summary}\n`);
    return this.stopReason(await this.runtime.prompt(text, [...mentioned.parts, ...attachments]));
  }

  private promptParts(blocks: PromptBlock[]): { text: string; attachments: (TextPart | ImagePart)[] } {
    const texts: string[] = [];
    const attachments: (TextPart | ImagePart)[] = [];
    for (const b of blocks) {
      switch (b.type) {
        case "text":
          texts.push(b.text);
          break;
        case "image":
          attachments.push({ type: "image", mimeType: b.mimeType, data: b.data });
          break;
        case "resource_link": {
          // A file the editor points at is attached as `@path` would attach it.
          const path = b.uri.startsWith("file://") ? decodeURIComponent(b.uri.slice("file://".length)) : null;
          const attached = path ? this.runtime.mentions(`@${path}`) : null;
          if (attached && attached.parts.length > 0) attachments.push(...attached.parts);
          else texts.push(`[${b.name}](${b.uri})`);
          break;
        }
        case "resource":
          attachments.push({ type: "text", text: `<resource uri="${b.uri}">\n${b.text}\n</resource>` });
          break;
        case "resource_blob":
          if (b.mimeType && /^image\/(png|jpeg|gif|webp)$/.test(b.mimeType)) attachments.push({ type: "image", mimeType: b.mimeType, data: b.blob });
          else
            throw new RpcError(
              ErrorCode.invalidParams,
              `session/prompt: the embedded resource ${b.uri} is binary (${b.mimeType ?? "no mime type"}); zot takes text resources and png, jpeg, gif or webp images.`,
            );
          break;
      }
    }
    return { text: texts.join("\n"), attachments };
  }

  private stopReason(outcome: PromptOutcome): StopReason {
    if (this.cancelled || outcome.stop === "aborted") return "cancelled";
    if (outcome.blocked) return "refusal";
    if (outcome.stepLimit !== undefined) return "max_turn_requests";
    if (outcome.stop === "max_tokens") return "max_tokens";
    if (outcome.stop === "error") throw new RpcError(ErrorCode.internal, outcome.error ?? "the model call failed");
    return "end_turn";
  }

  private async command(name: string, args: string): Promise<StopReason> {
    const rt = this.runtime;
    if (name === "compact") {
      const r = await rt.compact();
      if (!r.ok) throw new RpcError(ErrorCode.internal, `/compact failed: ${r.error ?? "unknown error"}`);
      this.say(`The conversation was summarised:\n\n${r.summary ?? ""}`);
      return this.cancelled ? "cancelled" : "end_turn";
    }
    if (name === "init") return this.stopReason(await rt.prompt(rt.initPrompt()));
    const isExtension = this.host.commands().some((c) => c.name.toLowerCase() === name.toLowerCase());
    const md = isExtension ? null : markdownPrompt(rt, this.host, name, args);
    if (md) return this.stopReason(await rt.prompt(md.text, [], md.options));
    if (!isExtension) throw new RpcError(ErrorCode.invalidParams, unknownCommand(this.host, name, rt));
    const r = await this.host.invokeCommand(name, args);
    if (!r.ok) throw new RpcError(ErrorCode.internal, r.error);
    const { action, error } = commandOutcome(r.response);
    if (error !== null) throw new RpcError(ErrorCode.internal, `/${name} (${r.extension}): ${error}`);
    switch (action?.kind) {
      case "prompt":
        return this.stopReason(await rt.prompt(action.text));
      case "display":
        this.say(action.text);
        return "end_turn";
      case "insert":
        // ACP cannot put text into the editor's prompt box; it is shown so the user can copy it.
        this.say(`/${name} suggests this prompt (ACP cannot put it in the prompt box for you):\n\n${action.text}`);
        return "end_turn";
      case "panel":
        this.host.panelClose(action.panel.id);
        throw new RpcError(
          ErrorCode.internal,
          `/${name} (${r.extension}) opens a panel, which ACP editors cannot show; run it in zot's terminal UI. Its content was:\n${action.text}`,
        );
      default:
        return "end_turn";
    }
  }

  /** session/cancel: the turn, its model call, its tools and its processes stop; questions still open are answered "no". */
  cancel(): void {
    if (!this.running) return;
    this.cancelled = true;
    for (const p of this.asking) p.resolve({ kind: "stop" });
    this.runtime.abort();
  }

  async close(): Promise<void> {
    this.cancel();
    await this.running?.catch(() => undefined);
    this.unsubscribe();
    this.runtime.setConfirmHandler(null);
    await this.runtime.close();
  }
}
