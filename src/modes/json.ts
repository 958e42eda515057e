// JSON mode (`zot --json`): one JSON object per line for every agent event, then exit. RPC mode
// writes its events with the same serializer, so the two schemas cannot drift apart.
import type { AgentEvent } from "../agent/events.ts";
import type { StopReason, Usage } from "../agent/messages.ts";
import { eventBlocksJson } from "../agent/message-json.ts";
import type { AgentRuntime, PromptOutcome } from "../runtime/api.ts";
import { commandOutcome } from "../ext/command-outcome.ts";
import type { ExtensionHost } from "../ext/types.ts";
import type { ModeOutput } from "./output.ts";
import { redactingEvents, redactingOutput } from "./redacting.ts";
import { markdownPrompt, parseSlash, unknownCommand } from "./slash.ts";
import { isOneShotCommand, oneShotReport } from "./reports.ts";

/** The Go zot's `turn_end.stop` for each of zot's stop reasons; zot's own reason stays in `reason`. */
const GO_STOP: Readonly<Record<StopReason, string>> = { end_turn: "end", tool_use: "tool_use", max_tokens: "length", error: "error", aborted: "aborted" };

/**
 * One event as one line: the event as the loop emitted it, plus the Go zot's names and values where
 * they differ (`text_delta.delta`; `usage`'s flat `input`, `output`, `cache_read`, `cache_write`,
 * `cost_usd` and `cumulative`; `turn_end.stop` as `end`/`tool_use`/`length`/`error`/`aborted` with
 * zot's reason in `reason`; a byte count on tool result images), so clients written for it keep
 * working. docs/rpc.md has the whole table.
 */
export function eventLine(event: AgentEvent): string {
  let wire: object = event;
  switch (event.type) {
    case "text_delta":
      wire = { ...event, delta: event.text };
      break;
    case "usage":
      wire = { ...event, ...goUsage(event.usage), cumulative: goUsage(event.total) };
      break;
    case "turn_end":
      wire = { ...event, stop: GO_STOP[event.stop], reason: event.stop };
      break;
    case "tool_result":
      wire = { ...event, content: eventBlocksJson(event.content) };
      break;
    case "tool_call": {
      // The change preview is for screens; clients have the arguments and get the result.
      const { change: _change, ...rest } = event;
      wire = rest;
      break;
    }
  }
  return JSON.stringify(wire) + "\n";
}

function goUsage(u: Usage): { input: number; output: number; cache_read: number; cache_write: number; cost_usd: number } {
  return { input: u.input, output: u.output, cache_read: u.cacheRead, cache_write: u.cacheWrite, cost_usd: u.cost };
}

/**
 * The Go zot ends a failed prompt with `{"type":"error","message"}`, which its clients wait for;
 * zot sends one before `done` whenever a prompt fails and no error event said why yet.
 */
export function goEventStream(write: (event: AgentEvent) => void): (event: AgentEvent) => void {
  let told = false;
  return (event) => {
    if (event.type === "user_message") told = false;
    else if (event.type === "error" && !event.agent) told = true;
    else if (event.type === "done") {
      if (event.stop === "error" && !told) write({ type: "error", message: event.error ?? "the prompt failed" });
      told = false;
    }
    write(event);
  };
}

/** Exit status of a finished prompt for the one-shot modes: 0 when the model finished, else 1. */
export function exitCodeOf(outcome: PromptOutcome): number {
  return outcome.stop === "error" || outcome.stop === "aborted" || outcome.blocked ? 1 : 0;
}

export async function runJson(runtime: AgentRuntime, host: ExtensionHost, prompt: string, raw: ModeOutput): Promise<number> {
  const io = redactingOutput(runtime.secrets, raw);
  const emit = redactingEvents(
    runtime.secrets,
    goEventStream((event) => io.out(eventLine(event))),
  );
  const unsubscribe = runtime.subscribe(emit);
  emit(startEvent(runtime));
  try {
    const slash = parseSlash(prompt);
    if (slash) return await runSlash(runtime, host, slash.name, slash.args, emit);
    return exitCodeOf(await runtime.prompt(prompt));
  } finally {
    unsubscribe();
  }
}

/** What JSON mode says first, and RPC's `hello` and `get_state` carry: the run's sandbox and permission mode among it. */
export function startEvent(rt: AgentRuntime): Extract<AgentEvent, { type: "start" }> {
  return { type: "start", provider: rt.provider, model: rt.model, cwd: rt.cwd, session: rt.sessionPath, permission_mode: rt.mode, sandbox: sandboxJson(rt) };
}

export function sandboxJson(rt: AgentRuntime): Extract<AgentEvent, { type: "start" }>["sandbox"] {
  const s = rt.sandbox;
  return { mode: s.mode, enforced: s.enforced, network: s.network, reason: s.reason };
}

/**
 * A slash-command prompt runs the extension command, as in print mode: `command_result` carries
 * the response, a `prompt` action runs that turn, and every other outcome ends with `done`
 * (its `text` is what print mode would print).
 */
async function runSlash(runtime: AgentRuntime, host: ExtensionHost, name: string, args: string, emit: (event: AgentEvent) => void): Promise<number> {
  const fail = (error: string): number => {
    emit({ type: "error", message: error });
    emit({ type: "done", stop: "error", text: "", steps: 0, error });
    return 1;
  };
  if (isOneShotCommand(name)) {
    // zot's own report, shaped as an extension command's display result.
    const r = await oneShotReport(runtime, name, args);
    if (!r.ok && !r.report) return fail(r.text);
    emit({ type: "command_result", name: name.toLowerCase(), extension: "zot", action: "display", display: r.text });
    emit({ type: "done", stop: "end_turn", text: r.text, steps: 0 });
    return r.ok ? 0 : 1;
  }
  const known = host.commands().find((c) => c.name.toLowerCase() === name.toLowerCase());
  if (!known) {
    const md = markdownPrompt(runtime, host, name, args);
    if (md) return exitCodeOf(await runtime.prompt(md.text, [], md.options));
    return fail(unknownCommand(host, name, runtime));
  }
  const result = await host.invokeCommand(name, args);
  if (!result.ok) return fail(result.error);
  const { response, extension } = result;
  const { action, error } = commandOutcome(response);
  if (error !== null) return fail(`/${known.name} (${extension}): ${error}`);
  const event: Extract<AgentEvent, { type: "command_result" }> = { type: "command_result", name: known.name, extension, action: response.action };
  if (response.display !== undefined) event.display = response.display;
  if (response.insert !== undefined) event.insert = response.insert;
  if (response.prompt !== undefined) event.prompt = response.prompt;
  if (response.open_panel !== undefined) event.open_panel = { ...response.open_panel };
  emit(event);
  if (action?.kind === "prompt") return exitCodeOf(await runtime.prompt(action.text));
  if (action?.kind === "display") emit({ type: "ext_display", extension, text: action.text });
  // Nobody can look at a panel here: the extension is told it closed, as in print mode.
  if (action?.kind === "panel") host.panelClose(action.panel.id);
  emit({ type: "done", stop: "end_turn", text: action?.text ?? "", steps: 0 });
  return 0;
}
