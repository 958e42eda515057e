import { describe, expect, test } from "bun:test";
import type { AgentEvent } from "../../src/agent/events.ts";
import { redactingEvents, redactingOutput } from "../../src/modes/redacting.ts";

const KEY = "sk-ant-api03-abcdefghijklmnop";

function collect(events: AgentEvent[]): AgentEvent[] {
  const out: AgentEvent[] = [];
  const write = redactingEvents([KEY], (e) => out.push(e));
  for (const e of events) write(e);
  return out;
}

const joined = (events: AgentEvent[], type: "text_delta" | "tool_progress") => events.map((e) => (e.type === type ? e.text : "")).join("");

describe("redactingEvents", () => {
  test("masks a key split across text deltas and keeps the rest of the text whole", () => {
    const out = collect([
      { type: "text_delta", text: "your key: sk-ant-a" },
      { type: "text_delta", text: "pi03-abcdefgh" },
      { type: "text_delta", text: "ijklmnop, keep it safe" },
      { type: "assistant_message", content: [], time: "", text: "ignored here" },
    ]);
    expect(joined(out, "text_delta")).toBe("your key: sk-a…[redacted], keep it safe");
    expect(JSON.stringify(out)).not.toContain("abcdefgh");
    expect(out.at(-1)).toEqual({ type: "assistant_message", content: [], time: "", text: "ignored here" });
  });

  test("releases a held tail that turned out not to be a key before the next event", () => {
    const out = collect([
      { type: "text_delta", text: "ask" },
      {
        type: "usage",
        usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, cost: 0 },
        total: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, cost: 0 },
      },
    ]);
    expect(out.map((e) => e.type)).toEqual(["text_delta", "text_delta", "usage"]);
    expect(joined(out, "text_delta")).toBe("ask");
  });

  test("masks tool output and tool arguments per call", () => {
    const out = collect([
      { type: "tool_use_args", id: "a", delta: '{"k":"sk-ant-api03' },
      { type: "tool_use_args", id: "a", delta: '-abcdefghijklmnop"}' },
      { type: "tool_progress", id: "b", name: "bash", text: "sk-ant-api03-abcd" },
      { type: "tool_progress", id: "b", name: "bash", text: "efghijklmnop\n" },
    ]);
    const args = out.map((e) => (e.type === "tool_use_args" ? e.delta : "")).join("");
    expect(args).toBe('{"k":"sk-a…[redacted]"}');
    expect(joined(out, "tool_progress")).toBe("sk-a…[redacted]\n");
  });

  test("without secrets every event passes through untouched", () => {
    const out: AgentEvent[] = [];
    const write = redactingEvents([], (e) => out.push(e));
    write({ type: "text_delta", text: "sk-" });
    expect(out).toEqual([{ type: "text_delta", text: "sk-" }]);
  });
});

test("redactingOutput masks both streams", () => {
  const seen: string[] = [];
  const io = redactingOutput([KEY], { out: (t) => seen.push(t), err: (t) => seen.push(t) });
  io.out(`a ${KEY}`);
  io.err(`b ${KEY}`);
  expect(seen).toEqual(["a sk-a…[redacted]", "b sk-a…[redacted]"]);
});

test("a released held delta is a whole message and stays one piece", () => {
  const out = collect([{ type: "text_delta", text: "the key sk-ant-api03-abcdefghijklmnop is safe with me, ask", held: true }]);
  expect(out).toEqual([{ type: "text_delta", text: "the key sk-a…[redacted] is safe with me, ask", held: true }]);
});
