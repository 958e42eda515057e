import { beforeEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES, jsonLines, useZotHome } from "./zot.ts";

const e2e = useZotHome();
beforeEach(() => {
  e2e.serve({
    replies: [
      { kind: "turn", text: "Checking.", toolCalls: [{ id: "toolu_w", name: "weather", args: { city: "Oslo" } }] },
      { kind: "turn", text: "Foggy in Oslo." },
    ],
  });
});

test("extensions receive lifecycle events in order, with 1-based steps and the real provider in hello_ack", async () => {
  const log = join(e2e.home, "frames.jsonl");
  const r = await e2e.run(
    [
      "--permission-mode",
      "yolo",
      "-p",
      "--provider",
      "anthropic",
      "--model",
      "claude-sonnet-4-5",
      "--base-url",
      e2e.server.url,
      "--api-key",
      "sk-test-e2e",
      "-e",
      join(FIXTURES, "toolbox"),
      "weather",
    ],
    {
      env: { ZOT_TEST_EVENTS: log },
    },
  );
  expect(r.code).toBe(0);
  const frames = jsonLines(readFileSync(log, "utf8"));
  expect(frames[0]).toMatchObject({ type: "hello_ack", provider: "anthropic", model: "claude-sonnet-4-5", cwd: e2e.home });
  const seen = frames
    .slice(1)
    .map((f) => (f.type === "event" ? `event:${String(f.event)}${f.step ? `:${String(f.step)}` : ""}${f.stop ? `:${String(f.stop)}` : ""}` : String(f.type)));
  expect(seen).toEqual([
    "event:session_start",
    "event:turn_start:1",
    "event:assistant_message",
    "event:tool_call",
    "tool_call",
    "event:turn_end:tool_use",
    "event:turn_start:2",
    "event:assistant_message",
    "event:turn_end:end_turn",
    "shutdown",
  ]);
  expect(frames.find((f) => f.type === "event" && f.event === "tool_call")).toMatchObject({
    tool_id: "toolu_w",
    tool_name: "weather",
    tool_args: { city: "Oslo" },
  });
});

test("JSON mode prints every agent event as one line, in order", async () => {
  const r = await e2e.run([
    "--json",
    "--provider",
    "anthropic",
    "--base-url",
    e2e.server.url,
    "--api-key",
    "sk-test-e2e",
    "-e",
    join(FIXTURES, "toolbox"),
    "weather",
  ]);
  expect(r.code).toBe(0);
  const types = jsonLines(r.stdout).map((e) => String(e.type));
  const compact = types.filter((t, i) => t !== types[i - 1]);
  expect(compact).toEqual([
    "start",
    "user_message",
    "turn_start",
    "assistant_start",
    "text_delta",
    "tool_use_start",
    "tool_use_args",
    "tool_use_end",
    "usage",
    "assistant_message",
    "tool_call",
    "tool_result",
    "turn_end",
    "turn_start",
    "assistant_start",
    "text_delta",
    "usage",
    "assistant_message",
    "turn_end",
    "done",
  ]);
  const events = jsonLines(r.stdout);
  expect(events.find((e) => e.type === "tool_call")).toMatchObject({ id: "toolu_w", name: "weather", args: { city: "Oslo" }, extension: "toolbox" });
  expect(events.at(-1)).toEqual({ type: "done", stop: "end_turn", text: "Foggy in Oslo.", steps: 2 });
});

test("progress an extension reports during its tool call reaches JSON mode as an event", async () => {
  const fresh = e2e.serve({
    replies: [
      { kind: "turn", toolCalls: [{ id: "toolu_p", name: "progress", args: {} }] },
      { kind: "turn", text: "ok" },
    ],
  });
  const r = await e2e.run([
    "--permission-mode",
    "yolo",
    "--json",
    "--provider",
    "anthropic",
    "--base-url",
    fresh.url,
    "--api-key",
    "sk-test-e2e",
    "-e",
    join(FIXTURES, "toolbox"),
    "go",
  ]);
  expect(jsonLines(r.stdout).find((e) => e.type === "tool_progress")).toEqual({
    type: "tool_progress",
    id: "toolu_p",
    name: "progress",
    text: "halfway there",
  });
});
