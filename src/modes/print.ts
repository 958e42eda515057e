// Print mode (`zot -p`): the final user-visible answer on stdout, everything else (tool progress,
// extension notes, warnings) on stderr, so `zot -p "…" > answer.txt` captures just the answer.
import type { AgentEvent } from "../agent/events.ts";
import type { AgentRuntime, PromptOptions } from "../runtime/api.ts";
import { commandOutcome } from "../ext/command-outcome.ts";
import type { ExtensionHost } from "../ext/types.ts";
import { exitCodeOf } from "./json.ts";
import type { ModeOutput } from "./output.ts";
import { redactingEvents, redactingOutput } from "./redacting.ts";
import { markdownPrompt, parseSlash, unknownCommand } from "./slash.ts";
import { isOneShotCommand, oneShotReport } from "./reports.ts";
import { seconds } from "../duration.ts";

type Hidden = { by: string; reason: string } | null;

/**
 * The events print mode shows or reads (progress, and the blocked answer's note). The rest are not
 * masked or looked at: the streamed text and tool arguments above all, a delta each, of which
 * only the final answer is printed.
 */
const SHOWN: ReadonlySet<AgentEvent["type"]> = new Set([
  "assistant_message",
  "tool_call",
  "tool_progress",
  "tool_result",
  "retry",
  "ext_notify",
  "ext_display",
]);

/** stderr carries whole lines (`err`) and raw tool output (`stream`), which may stop mid-line. */
type PrintOutput = ModeOutput & { stream(text: string): void };

function lineKeeping(io: ModeOutput): PrintOutput {
  let midLine = false;
  // stdout and stderr usually share a terminal: the answer starts on a fresh line too.
  return {
    out(text) {
      if (midLine) io.err("\n");
      midLine = false;
      io.out(text);
    },
    err(text) {
      io.err(midLine ? "\n" + text : text);
      midLine = false;
    },
    stream(text) {
      if (text === "") return;
      io.err(text);
      midLine = !text.endsWith("\n");
    },
  };
}

export async function runPrint(runtime: AgentRuntime, host: ExtensionHost, prompt: string, raw: ModeOutput): Promise<number> {
  const io = lineKeeping(redactingOutput(runtime.secrets, raw));
  // The last assistant message an interceptor blocked, so an empty answer can say why it is empty.
  const hidden: { last: Hidden } = { last: null };
  const shown = redactingEvents(runtime.secrets, (event) => {
    if (event.type === "assistant_message") hidden.last = event.blocked ? { by: event.blocked_by ?? "an extension", reason: event.reason ?? "" } : null;
    progress(event, io);
  });
  const unsubscribe = runtime.subscribe((event) => {
    if (SHOWN.has(event.type)) shown(event);
  });
  try {
    const slash = parseSlash(prompt);
    if (slash) return await runSlash(runtime, host, slash.name, slash.args, io, hidden);
    return await turn(runtime, prompt, io, hidden);
  } finally {
    unsubscribe();
  }
}

async function turn(runtime: AgentRuntime, prompt: string, io: ModeOutput, hidden: { last: Hidden }, options: PromptOptions = {}): Promise<number> {
  const outcome = await runtime.prompt(prompt, [], options);
  const code = exitCodeOf(outcome);
  if (code !== 0) {
    const reason = outcome.blocked
      ? `the turn was blocked by extension ${outcome.blocked.extension}: ${outcome.blocked.reason}`
      : outcome.stop === "aborted"
        ? "aborted"
        : (outcome.error ?? "the model call failed");
    io.err(`zot: ${reason}\n`);
    return code;
  }
  if (outcome.stop === "max_tokens") io.err("zot: the answer was cut off at the model's output limit\n");
  if (outcome.text === "" && hidden.last)
    io.err(`zot: the answer was hidden by extension ${hidden.last.by}${hidden.last.reason ? `: ${hidden.last.reason}` : ""}\n`);
  else if (outcome.text === "") io.err("zot: the model finished without a text answer\n");
  if (outcome.text !== "") io.out(outcome.text.endsWith("\n") ? outcome.text : outcome.text + "\n");
  return 0;
}

async function runSlash(runtime: AgentRuntime, host: ExtensionHost, name: string, args: string, io: ModeOutput, hidden: { last: Hidden }): Promise<number> {
  if (isOneShotCommand(name)) {
    const r = await oneShotReport(runtime, name, args);
    if (r.ok || r.report) io.out(`${r.text}\n`);
    else io.err(`zot: ${r.text}\n`);
    return r.ok ? 0 : 1;
  }
  const known = host.commands().find((c) => c.name.toLowerCase() === name.toLowerCase());
  if (!known) {
    const md = markdownPrompt(runtime, host, name, args);
    if (md) return turn(runtime, md.text, io, hidden, md.options);
    io.err(`zot: ${unknownCommand(host, name, runtime)}\n`);
    return 1;
  }
  const result = await host.invokeCommand(name, args);
  if (!result.ok) {
    io.err(`zot: ${result.error}\n`);
    return 1;
  }
  const { action, error } = commandOutcome(result.response);
  // A one-shot run cannot show an error beside the action: the command fails.
  if (error !== null) {
    io.err(`zot: /${known.name} (${result.extension}): ${error}\n`);
    return 1;
  }
  if (!action) return 0;
  if (action.kind === "prompt") return turn(runtime, action.text, io, hidden);
  io.out(action.text.endsWith("\n") ? action.text : action.text + "\n");
  // There is no panel to keep open here: the extension is told it closed, as if the user pressed Esc.
  if (action.kind === "panel") host.panelClose(action.panel.id);
  return 0;
}

/** Progress and notes for the terminal watching stderr; the answer itself is printed at the end. */
function progress(event: AgentEvent, io: PrintOutput): void {
  // A subagent's work streams as its task call's progress lines, which name the agent.
  if (event.agent) return;
  switch (event.type) {
    case "tool_call": {
      const owner = event.extension ? ` (${event.extension})` : "";
      io.err(`[tool] ${event.name}${owner} ${clip(JSON.stringify(event.args))}\n`);
      return;
    }
    case "tool_progress":
      io.stream(event.text);
      return;
    case "tool_result":
      if (event.is_error) {
        const first = event.content.find((b) => b.type === "text");
        io.err(`[tool] ${event.name} failed: ${clip(first && first.type === "text" ? first.text : "error")}\n`);
      }
      return;
    case "retry":
      io.err(
        event.wire
          ? `zot: ${event.reason}\n`
          : `zot: ${event.reason}; retrying in ${seconds(event.delay_ms)} (attempt ${event.attempt} of ${event.attempts})\n`,
      );
      return;
    case "ext_notify":
      io.err(`[${event.extension}]${event.level === "info" ? "" : ` ${event.level}:`} ${event.message}\n`);
      return;
    case "ext_display":
      io.err(`[${event.extension}] ${event.text}\n`);
      return;
    default:
      return;
  }
}

function clip(text: string): string {
  const one = text.replace(/\s+/g, " ");
  return one.length > 200 ? one.slice(0, 199) + "…" : one;
}
