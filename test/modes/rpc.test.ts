import { expect, test } from "bun:test";
import type { AssistantMessage } from "../../src/agent/messages.ts";
import { runRpc } from "../../src/modes/rpc.ts";
import { messageJson, messagesJson, wireMessageCount } from "../../src/agent/message-json.ts";
import { capture, mockRuntime } from "./helpers.ts";

async function* lines(...items: string[]): AsyncIterable<Uint8Array> {
  const enc = new TextEncoder();
  // Split across chunks on purpose: commands may arrive in any pieces.
  const all = enc.encode(items.map((l) => l + "\n").join(""));
  for (let i = 0; i < all.length; i += 7) yield all.subarray(i, i + 7);
}

test("responses echo the id as sent (string or number) and come in command order", async () => {
  const { runtime, home, dispose } = await mockRuntime();
  try {
    const c = capture();
    const code = await runRpc(runtime, runtime.host, {
      ...c.io,
      home,
      input: lines('{"id":7,"type":"ping"}', '{"type":"ping"}', '{"id":"x","type":"get_models"}'),
    });
    expect(code).toBe(0);
    const frames = c.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(frames[0]).toEqual({ type: "response", id: 7, command: "ping", success: true, data: { pong: true } });
    expect(frames[1]).toEqual({ type: "response", command: "ping", success: true, data: { pong: true } });
    expect(frames[2]).toMatchObject({ id: "x", command: "get_models", success: true });
  } finally {
    await dispose();
  }
});

test("a prompt queued behind another runs after it, and end of input waits for both", async () => {
  const { runtime, home, dispose } = await mockRuntime();
  try {
    const c = capture();
    await runRpc(runtime, runtime.host, {
      ...c.io,
      home,
      input: lines('{"id":"1","type":"prompt","message":"one"}', '{"id":"2","type":"prompt","message":"two"}'),
    });
    const done = c.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((f) => f.type === "done");
    expect(done.map((d) => d.text)).toEqual(["mock: one", "mock: two"]);
  } finally {
    await dispose();
  }
});

test("messages are reported in the Go zot's shape, images as a byte count", () => {
  expect(
    messageJson({
      role: "user",
      content: [
        { type: "text", text: "hi" },
        { type: "image", mimeType: "image/png", data: "AAAA" },
      ],
      ts: 0,
    }),
  ).toEqual({
    role: "user",
    content: [
      { type: "text", text: "hi" },
      { type: "image", mime_type: "image/png", bytes: 3 },
    ],
    time: "1970-01-01T00:00:00.000Z",
  });
  expect(
    messageJson({
      role: "toolResult",
      toolCallId: "c1",
      toolName: "weather",
      content: [{ type: "text", text: "fog" }],
      isError: false,
      extension: "toolbox",
      ts: 0,
    }),
  ).toEqual({
    role: "tool",
    content: [{ type: "tool_result", call_id: "c1", name: "weather", is_error: false, extension: "toolbox", content: [{ type: "text", text: "fog" }] }],
    time: "1970-01-01T00:00:00.000Z",
  });
});

test("errors for bad lines are answered in line order with the good commands around them", async () => {
  const { runtime, home, dispose } = await mockRuntime();
  try {
    const c = capture();
    await runRpc(runtime, runtime.host, {
      ...c.io,
      home,
      input: lines('{"id":1,"type":"ping"}', "garbage", '{"id":2}', '{"id":3,"type":"nope"}', '{"id":4,"type":"ping"}'),
    });
    const frames = c.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(frames.map((f) => [f.id ?? null, f.command, f.success])).toEqual([
      [1, "ping", true],
      [null, "", false],
      [2, "", false],
      [3, "nope", false],
      [4, "ping", true],
    ]);
  } finally {
    await dispose();
  }
});

test("clear and set_model sent right after a prompt are refused as busy, never run under it", async () => {
  const { runtime, home, dispose } = await mockRuntime();
  try {
    const c = capture();
    await runRpc(runtime, runtime.host, {
      ...c.io,
      home,
      input: lines(
        '{"id":"p","type":"prompt","message":"one"}',
        '{"id":"c","type":"clear"}',
        '{"id":"m","type":"set_model","model":"other"}',
        '{"id":"k","type":"compact"}',
        '{"id":"c2","type":"clear"}',
      ),
    });
    const frames = c.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const response = (id: string) => frames.find((f) => f.type === "response" && f.id === id);
    expect(response("c")).toMatchObject({ success: false, error: "agent is busy; send abort and wait for done, then retry" });
    expect(response("m")).toMatchObject({ success: false });
    expect(response("c2")).toMatchObject({ success: false });
    // The compaction queued behind the prompt summarised its conversation.
    expect(frames.some((f) => f.type === "compact_done")).toBe(true);
    expect(runtime.messages().length).toBe(1);
  } finally {
    await dispose();
  }
});

test("a named reload of an extension that does not exist is an error response", async () => {
  const { runtime, home, dispose } = await mockRuntime();
  try {
    const c = capture();
    await runRpc(runtime, runtime.host, {
      ...c.io,
      home,
      input: lines('{"id":1,"type":"reload_extensions","name":"nope"}', '{"id":2,"type":"reload_extensions","name":5}'),
    });
    const frames = c.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(frames.find((f) => f.id === 1)).toMatchObject({ command: "reload_extensions", success: false });
    expect(String(frames.find((f) => f.id === 1).error)).toContain('no extension named "nope"');
    expect(frames.find((f) => f.id === 2)).toMatchObject({ success: false, error: 'reload_extensions: "name" must be a string' });
  } finally {
    await dispose();
  }
});

test("compaction failures end with done carrying the error", async () => {
  const { runtime, home, dispose } = await mockRuntime();
  try {
    const c = capture();
    await runRpc(runtime, runtime.host, { ...c.io, home, input: lines('{"id":1,"type":"compact"}') });
    const done = c.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .find((f) => f.type === "done");
    expect(done).toEqual({ type: "done", stop: "error", text: "", steps: 0, error: "compaction failed: there is nothing to compact yet" });
  } finally {
    await dispose();
  }
});

test("an image whose data is not base64 is refused before anything is sent", async () => {
  const { runtime, home, dispose } = await mockRuntime();
  try {
    const c = capture();
    const bad = (data: string) => JSON.stringify({ id: data.slice(0, 5), type: "prompt", message: "look", images: [{ mime_type: "image/png", data }] });
    await runRpc(runtime, runtime.host, { ...c.io, home, input: lines(bad("data:image/png;base64,AAAA"), bad("not base64!"), bad("AAA")) });
    const frames = c.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(frames.length).toBe(3);
    for (const f of frames)
      expect(f).toMatchObject({
        success: false,
        error: 'prompt: images[0].data is not valid base64 (send the raw base64 of the image, without a "data:" prefix or line breaks)',
      });
    expect(runtime.messages().length).toBe(0);
  } finally {
    await dispose();
  }
});

test("an intercepted assistant message is reported as the user saw it", () => {
  const assistant = (text: string): AssistantMessage => ({
    role: "assistant",
    content: [
      { type: "thinking", thinking: "hmm" },
      { type: "text", text },
      { type: "toolCall", id: "t", name: "bash", args: {} },
    ],
    stop: "tool_use",
    provider: "mock",
    model: "mock",
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 },
    ts: 0,
  });
  const rewritten = messageJson({ ...assistant("the key is K"), intercept: { shown_text: "the key is [x]", rewritten_by: ["guard"] } }) as Record<
    string,
    unknown
  >;
  expect(rewritten.content).toEqual([
    { type: "thinking", thinking: "hmm" },
    { type: "text", text: "the key is [x]" },
    { type: "tool_call", id: "t", name: "bash", args: {} },
  ]);
  expect(rewritten.rewritten_by).toEqual(["guard"]);
  const hidden = messageJson({ ...assistant("forbidden"), intercept: { hidden: true, shown_text: "", blocked_by: "guard", reason: "no" } }) as Record<
    string,
    unknown
  >;
  expect(hidden.content).toEqual([
    { type: "thinking", thinking: "hmm" },
    { type: "tool_call", id: "t", name: "bash", args: {} },
  ]);
  expect(hidden).toMatchObject({ hidden: true, blocked_by: "guard" });
});

test("the results of one step are one tool message in get_messages and in message_count, as in the Go zot", () => {
  const call = (id: string) => ({ type: "toolCall" as const, id, name: "bash", args: { command: id } });
  const result = (id: string, ts: number) => ({
    role: "toolResult" as const,
    toolCallId: id,
    toolName: "bash",
    content: [{ type: "text" as const, text: `out ${id}` }],
    isError: false,
    ts,
  });
  const messages = [
    { role: "user" as const, content: [{ type: "text" as const, text: "go" }], ts: 1 },
    {
      role: "assistant" as const,
      content: [call("a"), call("b")],
      stop: "tool_use" as const,
      provider: "mock",
      model: "m",
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 },
      ts: 2,
    },
    result("a", 3),
    result("b", 4),
  ];
  const wire = messagesJson(messages);
  expect(wire.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
  expect(wire[2]).toEqual({
    role: "tool",
    time: new Date(4).toISOString(),
    content: [
      { type: "tool_result", call_id: "a", name: "bash", is_error: false, content: [{ type: "text", text: "out a" }] },
      { type: "tool_result", call_id: "b", name: "bash", is_error: false, content: [{ type: "text", text: "out b" }] },
    ],
  });
  expect(wireMessageCount(messages)).toBe(3);
});
