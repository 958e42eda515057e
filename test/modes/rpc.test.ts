import { expect, test } from "bun:test";
import { messageJson, runRpc } from "../../src/modes/rpc.ts";
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
    const code = await runRpc(runtime, { ...c.io, home, input: lines('{"id":7,"type":"ping"}', '{"type":"ping"}', '{"id":"x","type":"get_models"}') });
    expect(code).toBe(0);
    const frames = c.out.trim().split("\n").map((l) => JSON.parse(l));
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
    await runRpc(runtime, { ...c.io, home, input: lines('{"id":"1","type":"prompt","message":"one"}', '{"id":"2","type":"prompt","message":"two"}') });
    const done = c.out.trim().split("\n").map((l) => JSON.parse(l)).filter((f) => f.type === "done");
    expect(done.map((d) => d.text)).toEqual(["mock: one", "mock: two"]);
  } finally {
    await dispose();
  }
});

test("messages are reported in the Go zot's shape, images as a byte count", () => {
  expect(messageJson({ role: "user", content: [{ type: "text", text: "hi" }, { type: "image", mimeType: "image/png", data: "AAAA" }], ts: 0 })).toEqual({
    role: "user",
    content: [
      { type: "text", text: "hi" },
      { type: "image", mime_type: "image/png", bytes: 3 },
    ],
    time: "1970-01-01T00:00:00.000Z",
  });
  expect(messageJson({ role: "toolResult", toolCallId: "c1", toolName: "weather", content: [{ type: "text", text: "fog" }], isError: false, extension: "toolbox", ts: 0 })).toEqual({
    role: "tool",
    content: [{ type: "tool_result", call_id: "c1", name: "weather", is_error: false, extension: "toolbox", content: [{ type: "text", text: "fog" }] }],
    time: "1970-01-01T00:00:00.000Z",
  });
});
