import { expect, test } from "bun:test";
import { eventLine, exitCodeOf, runJson } from "../../src/modes/json.ts";
import { capture, mockRuntime } from "./helpers.ts";

test("each event is one line; text deltas also carry the Go zot's `delta` field", () => {
  expect(eventLine({ type: "turn_start", step: 1 })).toBe('{"type":"turn_start","step":1}\n');
  expect(JSON.parse(eventLine({ type: "text_delta", text: "hi\nthere" }))).toEqual({ type: "text_delta", text: "hi\nthere", delta: "hi\nthere" });
  expect(eventLine({ type: "text_delta", text: "a\nb" }).split("\n").length).toBe(2);
});

test("usage lines also carry the Go zot's flat fields", () => {
  const usage = { input: 10, output: 5, cacheRead: 2, cacheWrite: 1, cost: 0.5 };
  const total = { input: 20, output: 10, cacheRead: 4, cacheWrite: 2, cost: 1 };
  expect(JSON.parse(eventLine({ type: "usage", usage, total }))).toEqual({
    type: "usage",
    usage,
    total,
    input: 10,
    output: 5,
    cache_read: 2,
    cache_write: 1,
    cost_usd: 0.5,
    cumulative: { input: 20, output: 10, cache_read: 4, cache_write: 2, cost_usd: 1 },
  });
});

test("only a finished model turn exits 0", () => {
  expect(exitCodeOf({ stop: "end_turn", text: "" })).toBe(0);
  expect(exitCodeOf({ stop: "max_tokens", text: "" })).toBe(0);
  expect(exitCodeOf({ stop: "error", text: "", error: "x" })).toBe(1);
  expect(exitCodeOf({ stop: "aborted", text: "" })).toBe(1);
  expect(exitCodeOf({ stop: "error", text: "", blocked: { extension: "g", reason: "r" } })).toBe(1);
});

test("JSON mode ends with done carrying the final text", async () => {
  const { runtime, dispose } = await mockRuntime();
  try {
    const c = capture();
    expect(await runJson(runtime, runtime.host, "ping", c.io)).toBe(0);
    const events = c.out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(events[0]).toMatchObject({
      type: "start",
      provider: "mock",
      model: "mock",
      cwd: runtime.cwd,
      session: runtime.sessionPath,
      permission_mode: runtime.mode,
    });
    expect(events[0].sandbox).toEqual({
      mode: runtime.sandbox.mode,
      enforced: runtime.sandbox.enforced,
      network: runtime.sandbox.network,
      reason: runtime.sandbox.reason,
    });
    expect(events[1]).toEqual({
      type: "user_message",
      text: "ping",
      images: 0,
      content: [{ type: "text", text: "ping" }],
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(events.at(-1)).toEqual({ type: "done", stop: "end_turn", text: "mock: ping", steps: 1 });
  } finally {
    await dispose();
  }
});
