// Subagents through the real binary: extension interceptors, events and tools see a subagent's
// calls as they see the main agent's, with the agent named; an extension registers an agent; the
// `--json` events carry the same `agent` field. The offline mock model follows each conversation.
import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { anthropic, FIXTURES, jsonLines, useZotHome } from "./zot.ts";
import { alive } from "../helpers/processes.ts";

const e2e = useZotHome();

const call = (tool: string, args: object): string => `call ${tool} ${JSON.stringify(args)}`;
const task = (prompt: string, agent?: string): string => call("task", { description: "delegated", prompt, ...(agent ? { agent } : {}) });
type Frame = {
  type: string;
  event?: string;
  name?: string;
  tool_name?: string;
  tool_args?: { command?: string };
  agent?: { id: string; name: string; parent: string | null };
};
const frames = (file: string): Frame[] =>
  existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as Frame)
    : [];
const resultText = (e: Record<string, unknown>): string => ((e.content ?? []) as { text?: string }[]).map((b) => b.text ?? "").join("");

test("an interceptor blocks a subagent's bash exactly as the main agent's, and is told which agent made the call", async () => {
  const log = join(e2e.root, "guard.log");
  const danger = call("bash", { command: "rm -rf ./precious" });
  // The same call, spelled with a JSON escape inside the task's prompt so that the task call itself
  // does not match the guard; the subagent's model reads it back as "rm -rf".
  const disguised = 'call bash {"command":"rm -\\u0072f ./precious"}';
  const r = await e2e.run(["--json", "--provider", "mock", "--permission-mode", "yolo", "-e", join(FIXTURES, "guard"), `${danger}\n${task(disguised)}`], {
    env: { ZOT_TEST_GUARD: JSON.stringify({ intercept: ["tool_call"], block_command: "rm -rf", log }) },
  });
  expect(r.code).toBe(0);
  const events = jsonLines(r.stdout);
  const bash = events.filter((e) => e.type === "tool_result" && e.name === "bash");
  expect(bash.map((e) => [e.is_error, e.blocked_by, resultText(e)])).toEqual([
    [true, "guard", 'Blocked by extension guard: refused: matches "rm -rf"'],
    [true, "guard", 'Blocked by extension guard: refused: matches "rm -rf"'],
  ]);
  expect(bash[0]?.agent).toBeUndefined();
  expect(bash[1]?.agent).toMatchObject({ name: "general", parent: null });
  const asked = frames(log).filter((f) => f.type === "event_intercept" && f.event === "tool_call" && f.tool_name === "bash");
  expect(asked.map((f) => f.agent?.name ?? "main")).toEqual(["main", "general"]);
  // The task call itself is a tool call like any other, made by the main agent.
  expect(frames(log).some((f) => f.type === "event_intercept" && f.tool_name === "task" && f.agent === undefined)).toBe(true);
  const task1 = events.find((e) => e.type === "tool_result" && e.name === "task");
  expect(resultText(task1 ?? {})).toBe('mock: tool bash failed: Blocked by extension guard: refused: matches "rm -rf"');
});

test("an extension's tools, events and interceptions carry the subagent in their frames", async () => {
  const log = join(e2e.root, "toolbox.log");
  const r = await e2e.run(
    ["--json", "--provider", "mock", "--permission-mode", "yolo", "-e", join(FIXTURES, "toolbox"), task(call("weather", { city: "Oslo" }), "general")],
    {
      env: { ZOT_TEST_EVENTS: log },
    },
  );
  expect(r.code).toBe(0);
  const seen = frames(log);
  const toolCall = seen.find((f) => f.type === "tool_call" && f.name === "weather");
  expect(toolCall?.agent).toMatchObject({ name: "general", parent: null });
  const id = toolCall?.agent?.id;
  expect(id).toMatch(/^general-\d+$/);
  const subEvents = seen.filter((f) => f.type === "event" && f.agent?.id === id).map((f) => f.event);
  expect(subEvents).toEqual(expect.arrayContaining(["turn_start", "tool_call", "turn_end", "assistant_message"]));
  // The main agent's own events stay as they always were: no agent field.
  expect(seen.filter((f) => f.type === "event" && f.event === "tool_call" && f.tool_name === "task").map((f) => f.agent)).toEqual([undefined]);
  const task1 = jsonLines(r.stdout).find((e) => e.type === "tool_result" && e.name === "task");
  expect(resultText(task1 ?? {})).toBe("mock: tool weather returned: Oslo: 16C, fog");
});

test("an extension registers an agent with register_agent; the task tool runs it with its tools only", async () => {
  const agent = { name: "critic", description: "reviews code and says what is wrong", prompt: "You criticise code.", tools: ["read"] };
  const r = await e2e.run(
    [
      "--json",
      "--provider",
      "mock",
      "--permission-mode",
      "yolo",
      "-e",
      join(FIXTURES, "guard"),
      `${task(call("bash", { command: "echo no" }), "critic")}\n${task(call("read", { path: "nothing-here.txt" }), "critic")}`,
    ],
    {
      env: { ZOT_TEST_GUARD: JSON.stringify({ agent }) },
    },
  );
  expect(r.code).toBe(0);
  const events = jsonLines(r.stdout);
  const texts = events
    .filter((e) => e.type === "tool_result" && e.name === "task" && e.agent === undefined)
    .map(resultText)
    .sort();
  expect(texts[0]).toContain('Unknown tool "bash" (available tools: read)');
  expect(texts[1]).toContain("mock: tool read failed");
  expect(events.filter((e) => e.type === "tool_call" && e.name === "read").map((e) => (e.agent as { name: string }).name)).toEqual(["critic"]);
});

test("RPC abort stops both running subagents and leaves none of their processes", async () => {
  const pids = join(e2e.root, "pids");
  const sleeper = (tag: string) => task(call("bash", { command: `echo $$ >> ${pids}; exec sleep 300 # ${tag}` }));
  const rpc = e2e.rpc(["--provider", "mock", "--permission-mode", "yolo"]);
  await rpc.request({ type: "prompt", message: `${sleeper("one")}\n${sleeper("two")}` });
  const started = async (): Promise<number[]> => {
    for (;;) {
      const lines = existsSync(pids)
        ? readFileSync(pids, "utf8")
            .split("\n")
            .filter((l) => l !== "")
        : [];
      if (lines.length === 2) return lines.map(Number);
      await Bun.sleep(20);
    }
  };
  const both = await started();
  expect(both.every(alive)).toBe(true);
  // Both subagents' calls are on the wire, each naming its agent.
  expect(new Set(rpc.frames.filter((f) => f.type === "tool_call" && f.name === "bash").map((f) => (f.agent as { id: string }).id)).size).toBe(2);
  expect(await rpc.request({ type: "abort" })).toMatchObject({ success: true });
  expect(await rpc.waitFor((f) => f.type === "done")).toMatchObject({ stop: "aborted" });
  expect(rpc.frames.filter((f) => f.type === "tool_result" && f.name === "task").map((f) => f.is_error)).toEqual([true, true]);
  for (let i = 0; i < 500 && both.some(alive); i++) await Bun.sleep(20);
  expect(both.filter(alive)).toEqual([]);
  await rpc.close();
});

test('a subagent that spends more than "subagents": {"maxCost"} is stopped with an error result; the parent goes on', async () => {
  writeFileSync(join(e2e.home, "config.json"), JSON.stringify({ subagents: { maxCost: 0.01 } }));
  const server = e2e.serve({
    replies: [
      { kind: "turn", toolCalls: [{ id: "toolu_t", name: "task", args: { description: "costly", prompt: "work hard" } }] },
      // The subagent's first answer: a million input tokens (dollars, at any Claude price), and a call it never gets to make.
      { kind: "turn", toolCalls: [{ id: "toolu_b", name: "bash", args: { command: "touch never-run" } }], usage: { input: 1_000_000 } },
      { kind: "turn", text: "the parent carries on" },
    ],
  });
  const r = await e2e.run(["--json", ...anthropic(server), "--permission-mode", "yolo", "go"]);
  expect(r.code).toBe(0);
  const events = jsonLines(r.stdout);
  const result = events.find((e) => e.type === "tool_result" && e.name === "task");
  expect(result?.is_error).toBe(true);
  expect(resultText(result ?? {})).toMatch(/^The subagent general-\d+ was stopped: it spent \$\d+\.\d{4}, over its limit of \$0\.01/);
  expect(existsSync(join(e2e.home, "never-run"))).toBe(false);
  expect(events.find((e) => e.type === "done")).toMatchObject({ stop: "end_turn", text: "the parent carries on" });
  expect(server.requests.length).toBe(3);
});
