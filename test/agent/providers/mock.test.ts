import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AssistantMessage, Message, ToolCallPart } from "../../../src/agent/messages.ts";
import { createProvider } from "../../../src/agent/providers/index.ts";
import { collect } from "../../helpers/collect-stream.ts";
import { elements } from "../../helpers/elements.ts";
import { tempDir } from "../../helpers/temp.ts";

const dir = tempDir("zot-mock-");

const mock = (mockScript?: string) => createProvider({ provider: "mock", mockScript });
const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }], ts: 0 });
const calls = (m: AssistantMessage) => m.content.filter((p): p is ToolCallPart => p.type === "toolCall");
const textOf = (m: AssistantMessage) => m.content.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");

describe("mock provider", () => {
  test("echoes plain text as 'mock: <text>' in several deltas with plausible usage and no cost", async () => {
    const { message, text, events } = await collect(mock(), { model: "mock", messages: [user("hello there, how are you today?")] });
    expect(text).toBe("mock: hello there, how are you today?");
    expect(message).toMatchObject({ stop: "end_turn", provider: "mock", model: "mock" });
    expect(events.filter((e) => e.type === "text_delta").length).toBeGreaterThan(2);
    expect(message.usage.input).toBe(Math.ceil("hello there, how are you today?".length / 4));
    expect(message.usage.output).toBe(Math.ceil(text.length / 4));
    expect(message.usage.cost).toBe(0);
  });

  test("turns each 'call <tool> <json>' line into a tool call, streamed as start/args/end", async () => {
    const prompt = 'please\ncall bash {"command": "echo hi"}\ncall read {"path":"a.txt"}\ncall list';
    const { message, events } = await collect(mock(), { model: "mock", messages: [user(prompt)] });
    expect(message.stop).toBe("tool_use");
    expect(calls(message)).toEqual([
      { type: "toolCall", id: "mock_call_1_1", name: "bash", args: { command: "echo hi" } },
      { type: "toolCall", id: "mock_call_1_2", name: "read", args: { path: "a.txt" } },
      { type: "toolCall", id: "mock_call_1_3", name: "list", args: {} },
    ]);
    expect(textOf(message)).toBe("");
    const args = events.flatMap((e) => (e.type === "tool_use_args" && e.id === "mock_call_1_1" ? [e.delta] : []));
    expect(args.length).toBe(2);
    expect(events.filter((e) => e.type === "tool_use_end").length).toBe(3);
  });

  test("invalid JSON in a call line gives a call marked invalid", async () => {
    const { message } = await collect(mock(), { model: "mock", messages: [user("call bash {not json")] });
    const [call] = elements(calls(message), 1);
    expect(call.name).toBe("bash");
    expect(call.invalidArgs).toContain("not valid JSON");
  });

  test("after tool results it answers with a summary quoting them", async () => {
    const long = "x".repeat(300);
    const messages: Message[] = [
      user("call bash {}\ncall read {}"),
      {
        role: "assistant",
        content: [],
        stop: "tool_use",
        provider: "mock",
        model: "mock",
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 },
        ts: 0,
      },
      { role: "toolResult", toolCallId: "mock_call_1_1", toolName: "bash", content: [{ type: "text", text: "hi\n" }], isError: false, ts: 0 },
      { role: "toolResult", toolCallId: "mock_call_1_2", toolName: "read", content: [{ type: "text", text: long }], isError: true, ts: 0 },
    ];
    const { message } = await collect(mock(), { model: "mock", messages });
    expect(message.stop).toBe("end_turn");
    expect(textOf(message)).toBe(`mock: tool bash returned: hi\n\nmock: tool read failed: ${"x".repeat(200)}…`);
  });

  test("a --mock-script file is used line by line, then running out is a clear error naming the file", async () => {
    const file = join(dir, "script.jsonl");
    writeFileSync(
      file,
      [JSON.stringify({ thinking: "planning", tool_calls: [{ name: "bash", args: { command: "ls" } }] }), "", JSON.stringify({ text: "all done" })].join("\n"),
    );
    const p = mock(file);
    const first = await collect(p, { model: "mock", messages: [user("anything")] });
    expect(first.thinking).toBe("planning");
    expect(first.message.stop).toBe("tool_use");
    expect(calls(first.message)).toEqual([{ type: "toolCall", id: "mock_call_1_1", name: "bash", args: { command: "ls" } }]);
    const second = await collect(p, { model: "mock", messages: [user("more")] });
    expect(textOf(second.message)).toBe("all done");
    const third = await collect(p, { model: "mock", messages: [user("again")] });
    expect(third.message.stop).toBe("error");
    expect(third.message.error).toContain(`the mock script ${file} has no response left (all 2 were used`);
  });

  test("a script line can rehearse a provider error", async () => {
    const file = join(dir, "error.jsonl");
    writeFileSync(file, `${JSON.stringify({ text: "partial", error: "simulated outage" })}\n`);
    const { message } = await collect(mock(file), { model: "mock" });
    expect(message).toMatchObject({ stop: "error", error: "simulated outage" });
    expect(textOf(message)).toBe("partial");
  });

  test("a bad script line is reported with the file and line number", async () => {
    const file = join(dir, "bad.jsonl");
    writeFileSync(file, `{"text":"ok"}\n{"tool_calls":[{"args":{}}]}\n`);
    const { message } = await collect(mock(file), { model: "mock" });
    expect(message.error).toBe(`the mock script ${file} line 2 has tool_calls[0] without a string "name"`);
    const missing = await collect(mock(join(dir, "nope.jsonl")), { model: "mock" });
    expect(missing.message.error).toContain(`the mock script ${join(dir, "nope.jsonl")} could not be read`);
    writeFileSync(file, `{"txt":"typo"}\n`);
    expect((await collect(mock(file), { model: "mock" })).message.error).toContain('line 1 has an unknown field "txt"');
  });

  test("abort mid-reply ends with stop aborted and the text so far", async () => {
    const ctrl = new AbortController();
    const { message } = await collect(
      mock(),
      { model: "mock", messages: [user("a fairly long message so that the reply needs many deltas")] },
      { signal: ctrl.signal, onEvent: (e) => e.type === "text_delta" && ctrl.abort() },
    );
    expect(message.stop).toBe("aborted");
    expect(textOf(message).length).toBeGreaterThan(0);
    expect(textOf(message).length).toBeLessThan(20);
    expect("mock: a fairly long message so that the reply needs many deltas").toStartWith(textOf(message));
  });
});
