// The interactive mode for terminals without cursor addressing (TERM=dumb: Emacs' shell, some CI
// consoles): a prompt per line, the reply streamed as plain text, tool calls as one line each,
// approvals as a question. Nothing but printable text and newlines is written.
import { createInterface } from "node:readline";
import type { AgentEvent, ConfirmDecision, ConfirmRequest } from "../agent/events.ts";
import type { AgentRuntime } from "../runtime/api.ts";
import { redactingEvents } from "../modes/redacting.ts";
import { redactSecrets } from "../redact.ts";
import { sanitize } from "./terminal/ansi.ts";
import { argsPreview } from "./components/chat-log.ts";

export type LineModeOptions = { initialPrompt?: string | undefined; notices: string[] };

const HELP =
  "Line mode (TERM=dumb): type a prompt and press enter. /clear starts a new session, /compact condenses it, /exit (or ctrl+d) quits; ctrl+c quits too.";

type Out = { write(s: string): unknown };

export async function runLineMode(runtime: AgentRuntime, opts: LineModeOptions, out: Out = process.stdout): Promise<number> {
  const say = (s: string) => out.write(sanitize(s));
  say(`zot · ${runtime.provider}/${runtime.model} · ${HELP}\n`);
  for (const n of opts.notices) say(`! ${n}\n`);

  let midLine = false;
  // Masked like every mode's output: streamed pieces across their boundaries, the rest whole.
  const off = runtime.subscribe(
    redactingEvents(runtime.secrets, (ev) => {
      const text = eventText(ev);
      if (text === null) return;
      if (ev.type !== "text_delta" && midLine) say("\n");
      say(ev.type === "text_delta" || ev.type === "thinking_delta" ? text : redactSecrets(text, runtime.secrets));
      midLine = ev.type === "text_delta" && !text.endsWith("\n");
    }),
  );

  const lines = createInterface({ input: process.stdin, terminal: false });
  const pending: string[] = [];
  let wake: ((line: string | null) => void) | null = null;
  lines.on("line", (l) => {
    if (wake) {
      const w = wake;
      wake = null;
      w(l);
    } else pending.push(l);
  });
  lines.on("close", () => {
    const w = wake;
    wake = null;
    w?.(null);
  });
  const next = (): Promise<string | null> => (pending.length > 0 ? Promise.resolve(pending.shift()!) : new Promise((r) => (wake = r)));

  runtime.setConfirmHandler(async (req) => {
    if (midLine) say("\n");
    midLine = false;
    say(`${approvalText(req)}Allow ${req.name}${req.agent ? ` (subagent ${req.agent.id})` : ""}? [y]es / [n]o / [a]ll (yolo) / [s]top: `);
    return decision(await next());
  });

  try {
    let first = opts.initialPrompt?.trim() ? opts.initialPrompt : null;
    for (;;) {
      let line = first;
      first = null;
      if (line === null) {
        say("> ");
        line = await next();
      }
      if (line === null) break;
      const text = line.trim();
      if (text === "") continue;
      if (text === "/exit" || text === "/quit") break;
      if (text === "/help") {
        say(`${HELP}\n`);
        continue;
      }
      if (text === "/clear") {
        runtime.clear();
        say("Started a fresh session.\n");
        continue;
      }
      if (text === "/compact") {
        const r = await runtime.compact();
        say(r.ok ? "History condensed.\n" : `Compaction failed: ${r.error ?? "unknown error"}\n`);
        continue;
      }
      if (/^\/\S/.test(text) && !text.slice(1).split(/\s/)[0]!.includes("/")) {
        say(`${text.split(/\s/)[0]} is not available in line mode; ${HELP}\n`);
        continue;
      }
      const mentions = runtime.mentions(text);
      for (const a of mentions.attached) say(`(${a.summary})\n`);
      await runtime.prompt(text, mentions.parts);
      if (midLine) say("\n");
      midLine = false;
    }
  } finally {
    off();
    runtime.setConfirmHandler(null);
    lines.close();
  }
  return 0;
}

function decision(answer: string | null): ConfirmDecision {
  switch ((answer ?? "").trim().toLowerCase()) {
    case "y":
    case "yes":
      return { kind: "yes" };
    case "a":
    case "all":
      return { kind: "yes_all" };
    case "s":
    case "stop":
      return { kind: "stop" };
    default:
      return answer === null ? { kind: "stop" } : { kind: "no" };
  }
}

/** Everything the call will do, as plain lines. */
function approvalText(req: ConfirmRequest): string {
  const d = req.detail;
  const body = d.kind === "command" ? `$ ${d.command}` : d.kind === "diff" ? d.diff : d.kind === "content" ? `${d.path}:\n${d.content}` : d.json;
  const note = "note" in d && d.note ? `(${d.note})\n` : "";
  return `${note}${body.replace(/\n?$/, "\n")}`;
}

function eventText(ev: AgentEvent): string | null {
  // A subagent's calls are listed; the rest of its work is in the answer its task call returns.
  if (ev.agent && ev.type !== "tool_call") return null;
  switch (ev.type) {
    case "text_delta":
      return ev.text;
    case "tool_call":
      return `${ev.agent ? `[${ev.agent.id}] ` : ""}[tool] ${ev.name}${ev.extension ? ` (${ev.extension})` : ""} ${argsPreview(ev.args)}\n`;
    case "tool_result": {
      if (!ev.is_error) return null;
      const first = ev.content.find((b) => b.type === "text");
      return `[tool] ${ev.name} failed: ${(first && first.type === "text" ? first.text : "error").split("\n")[0]}\n`;
    }
    case "error":
      return `error: ${ev.message}\n`;
    case "compaction_end":
      return ev.ok ? "(history condensed)\n" : null;
    case "ext_notify":
      return `[${ev.extension}] ${ev.message}\n`;
    case "ext_display":
      return `[${ev.extension}] ${ev.text}\n`;
    default:
      return null;
  }
}
