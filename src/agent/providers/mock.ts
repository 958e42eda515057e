// The offline `mock` provider: deterministic replies for first runs without a key, demos, and tests
// of extensions in CI. It streams in several deltas so the streaming paths get exercised.
import { readFileSync } from "node:fs";
import type { Json, JsonObject, Message, TextPart, ThinkingPart, ToolCallPart, ToolResultMessage, Usage } from "../messages.ts";
import type { Provider, ProviderEvent, ProviderRequest } from "../provider.ts";
import { finishMessage, parseToolArgs, pieces, type Outcome } from "./assemble.ts";
import { rec } from "./json.ts";

/** One scripted response (one line of a --mock-script file). */
export type MockTurn = {
  text?: string;
  thinking?: string;
  toolCalls: { name: string; args: JsonObject }[];
  /** Ends the response with stop "error" and this text, to rehearse failures. */
  error?: string;
};

const CALL_LINE = /^call\s+(\S+)(?:\s+(.*))?$/;

export class MockProvider implements Provider {
  readonly name = "mock";
  private script: MockTurn[] | undefined;
  private scriptError: string | undefined;
  private used = 0;

  constructor(private readonly scriptPath?: string) {}

  async *stream(req: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    const round = req.messages.filter((m) => m.role === "assistant").length + 1;
    const planned = this.next(req.messages, round);
    const content: (TextPart | ThinkingPart | ToolCallPart)[] = [];
    const usage: Usage = { input: Math.ceil(inputChars(req) / 4), output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 };
    const finish = (outcome: Outcome): ProviderEvent[] => {
      const message = finishMessage(content, outcome, { provider: "mock", model: req.model, usage, info: undefined });
      return [
        { type: "usage", usage: message.usage },
        { type: "done", message },
      ];
    };
    if (planned.kind === "fail") {
      yield* finish({ kind: "error", error: planned.error });
      return;
    }
    const turn = planned.turn;
    let outChars = 0;
    const streamText = async function* (kind: "text" | "thinking", text: string): AsyncGenerator<ProviderEvent> {
      const part: TextPart | ThinkingPart = kind === "text" ? { type: "text", text: "" } : { type: "thinking", thinking: "" };
      content.push(part);
      for (const piece of pieces(text)) {
        await tick();
        if (signal.aborted) return;
        if (part.type === "text") part.text += piece;
        else part.thinking += piece;
        outChars += piece.length;
        yield kind === "text" ? { type: "text_delta", text: piece } : { type: "thinking_delta", text: piece };
      }
    };
    if (turn.thinking) yield* streamText("thinking", turn.thinking);
    if (turn.text && !signal.aborted) yield* streamText("text", turn.text);
    for (const [i, call] of turn.calls.entries()) {
      if (signal.aborted) break;
      const id = `mock_call_${round}_${i + 1}`;
      const json = call.raw;
      yield { type: "tool_use_start", id, name: call.name };
      for (const piece of pieces(json, Math.max(1, Math.ceil(json.length / 2)))) {
        await tick();
        if (signal.aborted) break;
        yield { type: "tool_use_args", id, delta: piece };
      }
      yield { type: "tool_use_end", id };
      if (signal.aborted) break;
      const parsed = parseToolArgs(call.name, json);
      const part: ToolCallPart = { type: "toolCall", id, name: call.name, args: parsed.args };
      if (parsed.invalidArgs) part.invalidArgs = parsed.invalidArgs;
      content.push(part);
      outChars += json.length + call.name.length;
    }
    usage.output = Math.ceil(outChars / 4);
    if (signal.aborted) yield* finish({ kind: "aborted" });
    else if (turn.error !== undefined) yield* finish({ kind: "error", error: turn.error });
    else yield* finish({ kind: "complete", stop: "end_turn" });
  }

  private next(messages: readonly Message[], round: number): { kind: "ok"; turn: Planned } | { kind: "fail"; error: string } {
    if (this.scriptPath === undefined) return { kind: "ok", turn: reply(messages) };
    if (!this.script && !this.scriptError) {
      const loaded = loadMockScript(this.scriptPath);
      if (typeof loaded === "string") this.scriptError = loaded;
      else this.script = loaded;
    }
    if (this.scriptError) return { kind: "fail", error: this.scriptError };
    const script = this.script ?? [];
    const turn = script[this.used];
    if (!turn)
      return {
        kind: "fail",
        error: `the mock script ${this.scriptPath} has no response left (all ${script.length} were used; this was response ${round} of the conversation); add lines to the file`,
      };
    this.used++;
    return {
      kind: "ok",
      turn: { text: turn.text, thinking: turn.thinking, error: turn.error, calls: turn.toolCalls.map((c) => ({ name: c.name, raw: JSON.stringify(c.args) })) },
    };
  }
}

type Planned = { text?: string | undefined; thinking?: string | undefined; error?: string | undefined; calls: { name: string; raw: string }[] };

/** The built-in behaviour: echo, `call <tool> <json>` lines, and a summary once tool results are back. */
function reply(messages: readonly Message[]): Planned {
  const results: ToolResultMessage[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== "toolResult") break;
    results.unshift(m);
  }
  if (results.length > 0) {
    const lines = results.map((r) => {
      const text = r.content.map((p) => (p.type === "text" ? p.text : `[image ${p.mimeType}]`)).join("\n");
      const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text;
      return `mock: tool ${r.toolName} ${r.isError ? "failed" : "returned"}: ${shown}`;
    });
    return { text: lines.join("\n"), calls: [] };
  }
  const last = [...messages].reverse().find((m) => m.role === "user");
  const text = last ? last.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("\n") : "";
  const calls = text.split(/\r?\n/).flatMap((line) => {
    const m = CALL_LINE.exec(line.trim());
    return m?.[1] ? [{ name: m[1], raw: (m[2] ?? "").trim() }] : [];
  });
  if (calls.length > 0) return { calls };
  return { text: `mock: ${text}`, calls: [] };
}

/** Reads a --mock-script JSONL file: one response per non-blank line. Returns an error sentence on failure. */
function loadMockScript(path: string): MockTurn[] | string {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    return `the mock script ${path} could not be read (${(err as Error).message})`;
  }
  const turns: MockTurn[] = [];
  const lines = text.split(/\r?\n/);
  for (const [i, line] of lines.entries()) {
    if (line.trim() === "") continue;
    const where = `${path} line ${i + 1}`;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (err) {
      return `the mock script ${where} is not valid JSON (${(err as Error).message})`;
    }
    const turn = decodeTurn(raw);
    if (typeof turn === "string") return `the mock script ${where} ${turn}`;
    turns.push(turn);
  }
  return turns;
}

function decodeTurn(raw: unknown): MockTurn | string {
  const o = rec(raw);
  if (!o) return "must be a JSON object";
  const turn: MockTurn = { toolCalls: [] };
  for (const [key, value] of Object.entries(o)) {
    if (key === "text" || key === "thinking" || key === "error") {
      if (typeof value !== "string") return `has a non-string "${key}"`;
      turn[key] = value;
    } else if (key === "tool_calls") {
      if (!Array.isArray(value)) return `has "tool_calls" that is not an array`;
      for (const [i, c] of value.entries()) {
        const call = rec(c);
        if (!call || typeof call.name !== "string" || call.name === "") return `has tool_calls[${i}] without a string "name"`;
        const args = call.args === undefined ? {} : rec(call.args);
        if (!args) return `has tool_calls[${i}].args that is not an object`;
        turn.toolCalls.push({ name: call.name, args: args as { [k: string]: Json } });
      }
    } else {
      return `has an unknown field "${key}" (allowed: text, thinking, tool_calls, error)`;
    }
  }
  if (turn.text === undefined && turn.thinking === undefined && turn.toolCalls.length === 0 && turn.error === undefined) {
    return `is empty; give "text", "tool_calls", "thinking" or "error"`;
  }
  return turn;
}

function inputChars(req: ProviderRequest): number {
  let n = req.system.length;
  for (const m of req.messages) {
    for (const p of m.content) {
      if (p.type === "text") n += p.text.length;
      else if (p.type === "thinking") n += p.thinking.length;
      else if (p.type === "toolCall") n += p.name.length + JSON.stringify(p.args).length;
      else n += 1000;
    }
  }
  return n;
}

/** Yields to the event loop between deltas so an abort from elsewhere can land mid-reply. */
function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
