// How a turn ends and goes on: steering at tool boundaries, the interrupted record, and resuming a
// turn stopped by --max-steps.
import { afterEach, beforeEach, expect, test } from "bun:test";
import type { AgentEvent } from "../../src/agent/events.ts";
import type { Message } from "../../src/agent/messages.ts";
import type { Runtime } from "../../src/runtime/runtime.ts";
import { isInterruption, openSession } from "../../src/agent/session.ts";
import { startMockRuntime } from "../helpers/mock-runtime.ts";
import { tempDir } from "../helpers/temp.ts";

let home: string;
let runtime: Runtime | null = null;
beforeEach(() => {
  home = tempDir("zot-turns-");
});
afterEach(async () => {
  await runtime?.close();
  runtime = null;
});

const text = (m: Message) => m.content.map((p) => ("text" in p ? p.text : "")).join("");

test("a steering message joins the conversation after the tool results, before the next model call", async () => {
  const rt = (runtime = await startMockRuntime(home));
  const events: AgentEvent[] = [];
  rt.subscribe((e) => events.push(e));
  let asked = 0;
  rt.setSteering(() => (asked++ === 0 ? [{ text: "use tabs instead", attachments: [] }] : []));
  const outcome = await rt.prompt('call bash {"command":"echo hi"}');
  expect(outcome.text).toBe("mock: use tabs instead");
  expect(rt.messages().map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "user", "assistant"]);
  expect(text(rt.messages()[3]!)).toBe("use tabs instead");
  expect(events.find((e) => e.type === "user_message" && e.steering)).toMatchObject({ text: "use tabs instead" });
});

test("an aborted turn keeps its partial reply and records that the user interrupted it", async () => {
  const rt = (runtime = await startMockRuntime(home, { noSession: false }));
  rt.subscribe((e) => {
    if (e.type === "tool_call") rt.abort();
  });
  const outcome = await rt.prompt('call bash {"command":"sleep 5"}');
  expect(outcome.stop).toBe("aborted");
  const last = rt.messages()[rt.messages().length - 1]!;
  expect(isInterruption(last)).toBe(true);
  const loaded = openSession(rt.sessionPath!);
  expect(loaded.ok && isInterruption(loaded.session.messages[loaded.session.messages.length - 1]!)).toBe(true);
});

test("a turn stopped by --max-steps says so and resume goes on with a fresh budget", async () => {
  const rt = (runtime = await startMockRuntime(home, { maxSteps: 1 }));
  const first = await rt.prompt('call bash {"command":"echo step"}');
  expect(first).toMatchObject({ stop: "error", stepLimit: 1 });
  const next = await rt.resume();
  expect(next).toMatchObject({ stop: "end_turn", text: "mock: tool bash returned: step" });
  expect(next.stepLimit).toBeUndefined();
});

test("a /btw side question is counted in the session's token totals but leaves no message in the history", async () => {
  const rt = (runtime = await startMockRuntime(home));
  await rt.prompt("main question");
  const before = rt.usage();
  const messages = rt.messages().length;
  const answer = await rt.sideQuestion("what was that?", new AbortController().signal, () => {});
  expect(answer).toMatchObject({ ok: true });
  const after = rt.usage();
  expect(after.input).toBeGreaterThan(before.input);
  expect(after.output).toBeGreaterThan(before.output);
  expect(rt.messages().length).toBe(messages);
});
