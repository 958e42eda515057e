// Subagents (the `task` tool) on the in-process runtime with the offline mock model, whose replies
// follow the conversation (`call <tool> <json>` lines, then a summary of the results), so each
// subagent's conversation plays on its own. Commands are real processes.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { AgentEvent, ConfirmRequest } from "../../src/agent/events.ts";
import type { Runtime } from "../../src/runtime/runtime.ts";
import type { RuntimeOptions } from "../../src/runtime/setup.ts";
import { startMockRuntime } from "../helpers/mock-runtime.ts";
import { tempDir } from "../helpers/temp.ts";
import { alive } from "../helpers/processes.ts";

let root: string;
let home: string;
let ws: string;
let runtime: Runtime | undefined;
let events: AgentEvent[];

beforeEach(() => {
  root = tempDir("zot-subagents-");
  home = join(root, "home");
  ws = join(root, "ws");
  mkdirSync(home, { recursive: true });
  mkdirSync(ws, { recursive: true });
  events = [];
});
afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
});

async function start(o: Partial<RuntimeOptions> = {}): Promise<Runtime> {
  runtime = await startMockRuntime(home, { cwd: ws, ...o });
  runtime.subscribe((e) => events.push(e));
  return runtime;
}

const call = (tool: string, args: object): string => `call ${tool} ${JSON.stringify(args)}`;
const task = (prompt: string, agent?: string, description = "a task"): string => call("task", { description, prompt, ...(agent ? { agent } : {}) });
const text = (e: Extract<AgentEvent, { type: "tool_result" }>): string => e.content.map((c) => (c.type === "text" ? c.text : "")).join("");
/** The results of the main agent's task calls, in the order of the calls (the history's). */
const taskResults = (rt: Runtime): string[] =>
  rt.messages().flatMap((m) => (m.role === "toolResult" && m.toolName === "task" ? [m.content.map((p) => (p.type === "text" ? p.text : "")).join("")] : []));
const results = (name: string, agent?: string): Extract<AgentEvent, { type: "tool_result" }>[] =>
  events.filter(
    (e): e is Extract<AgentEvent, { type: "tool_result" }> =>
      e.type === "tool_result" && e.name === name && (agent === undefined ? !e.agent : e.agent?.name === agent),
  );

function agentFile(name: string, body: string): string {
  const dir = join(home, "agents");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.md`);
  writeFileSync(path, body);
  return path;
}

test("two task calls in one message run at the same time, each in its own conversation, and return in order", async () => {
  const rt = await start();
  // Each command waits for the other's file: run one after the other, the first would give up.
  const a = `touch a; for i in $(seq 200); do [ -f b ] && break; sleep 0.05; done; [ -f b ] && echo a-saw-b || echo a-alone`;
  const b = `touch b; for i in $(seq 200); do [ -f a ] && break; sleep 0.05; done; [ -f a ] && echo b-saw-a || echo b-alone`;
  const out = await rt.prompt(`${task(call("bash", { command: a }), undefined, "first")}\n${task(call("bash", { command: b }), undefined, "second")}`);
  expect(out.stop).toBe("end_turn");
  expect(results("task").map(text).sort()).toEqual(["mock: tool bash returned: a-saw-b", "mock: tool bash returned: b-saw-a"]);
  // The history keeps the results in the order of the calls, and none of the subagents' messages.
  const history = rt.messages();
  const taskResults = history.filter((m) => m.role === "toolResult");
  expect(taskResults.map((m) => (m.role === "toolResult" ? m.toolName : ""))).toEqual(["task", "task"]);
  expect(taskResults.map((m) => (m.role === "toolResult" ? m.content.map((p) => (p.type === "text" ? p.text : "")).join("") : ""))).toEqual([
    "mock: tool bash returned: a-saw-b",
    "mock: tool bash returned: b-saw-a",
  ]);
  expect(JSON.stringify(history)).not.toContain('"toolName":"bash"');
  // Each subagent's events name it; the two are told apart by id.
  const bashCalls = events.filter((e) => e.type === "tool_call" && e.name === "bash");
  expect(bashCalls.map((e) => e.agent?.name)).toEqual(["general", "general"]);
  expect(new Set(bashCalls.map((e) => e.agent?.id)).size).toBe(2);
  expect(bashCalls.every((e) => e.agent?.parent === null)).toBe(true);
  expect(events.some((e) => e.type === "done" && e.agent)).toBe(false);
});

test("a task call's progress lines carry its subagent's state: started, each call with the tokens so far, and how it ended", async () => {
  const rt = await start();
  await rt.prompt(
    `${task(call("bash", { command: "echo one" }), undefined, "first")}\n${task(`${call("bash", { command: "exit 3" })}\n${call("read", { path: "nothing-here" })}`, undefined, "second")}`,
  );
  const progress = events.filter((e): e is Extract<AgentEvent, { type: "tool_progress" }> => e.type === "tool_progress" && e.name === "task" && !e.agent);
  const calls = new Map(events.flatMap((e) => (e.type === "tool_call" && e.name === "task" ? [[e.id, (e.args as { description: string }).description]] : [])));
  const byTask = (description: string) => progress.filter((e) => calls.get(e.id) === description).map((e) => e.subagent);
  for (const [description, tools] of [
    ["first", ["bash"]],
    ["second", ["bash", "read"]],
  ] as const) {
    const states = byTask(description);
    expect(states.map((s) => [s?.description, s?.state, s?.tool?.name ?? null])).toEqual([
      [description, "running", null],
      ...tools.map((name) => [description, "running", name]),
      [description, "done", tools.at(-1)],
    ]);
    // One subagent per call; its tokens only grow, and the first call comes after a model reply.
    expect(new Set(states.map((s) => s?.agent.id)).size).toBe(1);
    const tokens = states.map((s) => s?.tokens ?? -1);
    expect(tokens[1]).toBeGreaterThan(0);
    expect(tokens).toEqual([...tokens].sort((x, y) => x - y));
  }
  expect(byTask("second")[1]?.tool?.args).toEqual({ command: "exit 3" });
});

test('"subagents": {"concurrency": 1} in config.json runs the task calls one after the other', async () => {
  writeFileSync(join(home, "config.json"), JSON.stringify({ subagents: { concurrency: 1 } }));
  const rt = await start();
  const a = `touch a; for i in $(seq 20); do [ -f b ] && break; sleep 0.05; done; [ -f b ] && echo a-saw-b || echo a-alone`;
  const b = `touch b; [ -f a ] && echo b-saw-a || echo b-alone`;
  await rt.prompt(`${task(call("bash", { command: a }))}\n${task(call("bash", { command: b }))}`);
  expect(taskResults(rt)).toEqual(["mock: tool bash returned: a-alone", "mock: tool bash returned: b-saw-a"]);
});

test("a subagent's file changes are noted in its result", async () => {
  const rt = await start();
  await rt.prompt(task(call("write", { path: "made.txt", content: "hi\n" })));
  expect(readFileSync(join(ws, "made.txt"), "utf8")).toBe("hi\n");
  expect(text(results("task")[0]!)).toMatch(/\[Files changed by general-\d+: made\.txt\]$/);
});

test("explore is read-only: commands that only look run, anything else is refused", async () => {
  const rt = await start();
  writeFileSync(join(ws, "seen.txt"), "visible\n");
  await rt.prompt(`${task(call("bash", { command: "cat seen.txt" }), "explore")}\n${task(call("bash", { command: "touch made-by-explore" }), "explore")}`);
  const [look, change] = taskResults(rt);
  expect(look).toBe("mock: tool bash returned: visible");
  expect(change).toContain("This agent is read-only");
  expect(existsSync(join(ws, "made-by-explore"))).toBe(false);
  // Its tools are read, bash and skill: write is not among them.
  await rt.prompt(task(call("write", { path: "x.txt", content: "x" }), "explore"));
  expect(text(results("task").at(-1)!)).toContain('Unknown tool "write" (available tools: read, bash, skill)');
});

test("in ask mode a subagent's call asks the user, naming the agent; a rule given then holds for every agent", async () => {
  const rt = await start({ interactive: true, permissionMode: "ask" });
  const asked: ConfirmRequest[] = [];
  rt.setConfirmHandler(async (req) => {
    asked.push(req);
    return req.scope ? { kind: "yes_rule", rules: req.scope.rules, always: false } : { kind: "yes" };
  });
  await rt.prompt(task(call("bash", { command: "touch asked-once" })));
  expect(asked).toHaveLength(1);
  expect(asked[0]).toMatchObject({ name: "bash", agent: { name: "general", parent: null } });
  expect(events.find((e) => e.type === "tool_confirmation_requested")).toMatchObject({ name: "bash", agent: { name: "general" } });
  expect(existsSync(join(ws, "asked-once"))).toBe(true);
  // The rule the user gave holds for the next subagent and for the main agent alike.
  await rt.prompt(`${task(call("bash", { command: "touch asked-once" }))}\n${call("bash", { command: "touch asked-once" })}`);
  expect(asked).toHaveLength(1);
});

test("subagents asking at once are asked one after the other, and an answer can settle the next question", async () => {
  const rt = await start({ interactive: true, permissionMode: "ask" });
  const asked: ConfirmRequest[] = [];
  let open = 0;
  let most = 0;
  rt.setConfirmHandler(async (req) => {
    asked.push(req);
    most = Math.max(most, ++open);
    await Bun.sleep(50);
    open--;
    return req.scope ? { kind: "yes_rule", rules: req.scope.rules, always: false } : { kind: "yes" };
  });
  const same = task(call("bash", { command: "touch together" }));
  await rt.prompt(`${same}\n${same}\n${task(call("bash", { command: "mkdir apart" }))}`);
  expect(most).toBe(1);
  // The rule the first answer gave covers the second subagent's identical call.
  expect(asked.map((r) => r.preview).sort()).toEqual(["$ mkdir apart", "$ touch together"]);
  expect(new Set(asked.map((r) => r.agent?.id)).size).toBe(2);
  expect(existsSync(join(ws, "together")) && existsSync(join(ws, "apart"))).toBe(true);
});

test("declined, the subagent's call does not run and the subagent is told", async () => {
  const rt = await start({ interactive: true, permissionMode: "ask" });
  rt.setConfirmHandler(async () => ({ kind: "no", reason: "not now" }));
  await rt.prompt(task(call("bash", { command: "touch declined" })));
  expect(existsSync(join(ws, "declined"))).toBe(false);
  expect(text(results("task")[0]!)).toBe("mock: tool bash failed: The user declined this tool call: not now");
});

test("plan mode's limits hold inside a subagent: reads run, changes are refused", async () => {
  const rt = await start({ permissionMode: "plan" });
  writeFileSync(join(ws, "plan.txt"), "read me\n");
  await rt.prompt(`${task(call("read", { path: "plan.txt" }))}\n${task(call("write", { path: "no.txt", content: "x" }))}`);
  const [read, write] = taskResults(rt);
  expect(read).toContain("read me");
  expect(write).toContain("Blocked by plan mode (the user did not decline it): only read-only tools run");
  expect(existsSync(join(ws, "no.txt"))).toBe(false);
});

test("without anyone to ask, a subagent's call that needs approval is refused, as the main agent's", async () => {
  const rt = await start({ permissionMode: "ask" });
  await rt.prompt(task(call("bash", { command: "touch unattended" })));
  expect(existsSync(join(ws, "unattended"))).toBe(false);
  expect(text(results("task")[0]!)).toContain("nobody can give it in this run");
});

test("cancel stops every running subagent and kills their processes", async () => {
  const rt = await start();
  const pids = join(ws, "pids");
  const sleeper = (tag: string) => call("bash", { command: `echo $$ >> ${pids}; exec sleep 300 # ${tag}` });
  const running = rt.prompt(`${task(sleeper("one"))}\n${task(sleeper("two"))}`);
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
  rt.abort();
  const out = await running;
  expect(out.stop).toBe("aborted");
  expect(results("task").map((r) => r.is_error)).toEqual([true, true]);
  expect(lastStates()).toEqual(["cancelled", "cancelled"]);
  for (let i = 0; i < 500 && both.some(alive); i++) await Bun.sleep(20);
  expect(both.filter(alive)).toEqual([]);
});

test("--max-steps applies to each subagent: one that runs out gives an error result saying so", async () => {
  const rt = await start({ maxSteps: 1 });
  // The subagent's one model call asks for bash; the answer after it would be a second call.
  await rt.prompt(task(call("bash", { command: "echo one" })));
  const r = results("task")[0]!;
  expect(r.is_error).toBe(true);
  expect(text(r)).toMatch(/^The subagent general-\d+ failed: stopped after 1 model calls \(--max-steps 1\)/);
  expect(lastStates()).toEqual(["failed"]);
});

/** How each subagent ended, as its task call's last progress line says. */
function lastStates(): string[] {
  const last = new Map<string, string>();
  for (const e of events) if (e.type === "tool_progress" && e.subagent) last.set(e.subagent.agent.id, e.subagent.state);
  return [...last.values()];
}

test("an agent file with `subagents: true` may start subagents, down to depth 2; the general agent may not", async () => {
  agentFile("planner", "---\nname: planner\ndescription: splits work\nsubagents: true\n---\nYou split work into tasks.\n");
  const rt = await start();
  const inner = task(call("bash", { command: "echo deepest" }));
  await rt.prompt(task(inner, "planner"));
  const nested = events.filter((e) => e.type === "tool_call" && e.name === "bash");
  expect(nested).toHaveLength(1);
  const planner = events.find((e) => e.type === "tool_call" && e.name === "task" && e.agent?.name === "planner");
  expect(nested[0]?.agent).toMatchObject({ name: "general", parent: planner?.agent?.id });
  expect(text(results("task")[0]!)).toBe("mock: tool task returned: mock: tool bash returned: deepest");
  // A planner at depth 2 gets no task tool; the general agent never has one.
  events = [];
  rt.subscribe((e) => events.push(e));
  await rt.prompt(task(task(task(call("bash", { command: "echo too-deep" }), "planner"), "planner"), "planner"));
  expect(events.some((e) => e.type === "tool_call" && e.name === "bash")).toBe(false);
  expect(JSON.stringify(results("task", "planner").map(text))).toContain('Unknown tool \\"task\\"');
  await rt.prompt(task(task(call("bash", { command: "echo nope" }))));
  expect(text(results("task").at(-1)!)).toContain('Unknown tool "task"');
});

test("an agent file is listed with its source; a bad one is a warning naming the file", async () => {
  const good = agentFile(
    "reviewer",
    "---\nname: reviewer\ndescription: reviews a change for bugs\ntools: Read, Bash\nmodel: inherit\n---\nYou review changes.\n",
  );
  const noFront = agentFile("loose", "Just a prompt, no front matter.\n");
  const badLine = agentFile("broken", "---\nname: broken\ndescription: x\nthis line is wrong\n---\nBody\n");
  const badLevel = agentFile("thinker", "---\nname: thinker\ndescription: thinks\nreasoning: enormous\n---\nBody\n");
  const rt = await start();
  const loaded = rt.agents();
  expect(loaded.agents.map((a) => a.name)).toEqual(["reviewer", "general", "explore"]);
  expect(loaded.agents[0]).toMatchObject({ source: good, tools: ["read", "bash"], model: null });
  expect(loaded.warnings).toHaveLength(3);
  expect(loaded.warnings.find((w) => w.includes(noFront))).toContain("does not start with front matter");
  expect(loaded.warnings.find((w) => w.includes(badLine))).toContain('line 4 ("this line is wrong") is not "key: value"');
  expect(loaded.warnings.find((w) => w.includes(badLevel))).toContain('"reasoning: enormous" is not a thinking level');
  for (const w of loaded.warnings) expect(w.split("\n")).toHaveLength(1);
  // Asked for by name, a skipped agent's error says why it is missing.
  await rt.prompt(task("hello", "thinker"));
  expect(text(results("task")[0]!)).toContain(
    `there is no agent "thinker" (the agents are reviewer, general, explore). Skipped the agent file ${badLevel}: "reasoning: enormous"`,
  );
  // The model reads who to pick in the task tool's description.
  await rt.prompt(task(call("bash", { command: "echo hi" }), "reviewer"));
  expect(text(results("task")[1]!)).toBe("mock: tool bash returned: hi");
});

test("project agents are read only from a trusted folder", async () => {
  const dir = join(ws, ".zot", "agents");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "local.md"), "---\nname: local\ndescription: the project's agent\n---\nYou help here.\n");
  const rt = await start();
  expect(rt.agents().agents.map((a) => a.name)).not.toContain("local");
  expect(rt.agents().untrusted).toEqual([dir]);
  await rt.close();
  const trusted = await start({ trust: "all" });
  expect(trusted.agents().agents.map((a) => a.name)).toContain("local");
});

test("an unknown agent, or one whose model cannot be used, is an error result and the turn goes on", async () => {
  agentFile("elsewhere", "---\nname: elsewhere\ndescription: on another provider\nmodel: openai/gpt-5\n---\nBody\n");
  const rt = await start({ env: {} });
  const out = await rt.prompt(`${task("hello", "nobody")}\n${task("hello", "elsewhere")}`);
  expect(out.stop).toBe("end_turn");
  expect(results("task").map((r) => r.is_error)).toEqual([true, true]);
  const [unknown, keyless] = taskResults(rt);
  expect(unknown).toContain('there is no agent "nobody" (the agents are elsewhere, general, explore)');
  expect(keyless).toContain("asks for model openai/gpt-5, which zot cannot use: no API key for openai");
});

test("the session keeps each subagent's conversation beside the main one, and a reload leaves it out", async () => {
  const rt = await start({ noSession: false });
  await rt.prompt(task(call("bash", { command: "echo recorded" })));
  const path = rt.sessionPath!;
  // /session export carries the subagent's conversation along.
  const exported = rt.exportSession(join(root, "shared.jsonl"));
  if (!exported.ok) throw new Error(exported.error);
  expect(readFileSync(exported.path, "utf8")).toContain('"type":"subagent"');
  await rt.close();
  runtime = undefined;
  const rows = readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as { type: string; agent?: { name: string }; message?: { role: string } });
  const sub = rows.filter((r) => r.type === "subagent");
  expect(sub.map((r) => r.message?.role)).toEqual(["user", "assistant", "tool", "assistant"]);
  expect(sub.every((r) => r.agent?.name === "general")).toBe(true);
  const again = await start({ noSession: false, continue: true });
  expect(JSON.stringify(again.messages())).not.toContain('echo recorded"}');
  expect(
    again
      .messages()
      .filter((m) => m.role === "toolResult")
      .map((m) => (m.role === "toolResult" ? m.toolName : "")),
  ).toEqual(["task"]);
  expect(readdirSync(join(home, "sessions")).length).toBe(1);
});

test("the sandbox confines a subagent's commands exactly as the main agent's", async () => {
  // Under the home directory, not a temp directory: temp directories are writable in the sandbox.
  const outside = tempDir(".zot-subagent-sandbox-", homedir());
  const rt = await start();
  expect(rt.sandbox).toMatchObject({ mode: "workspace-write", enforced: true });
  const target = join(outside, "escaped.txt");
  await rt.prompt(`${task(call("bash", { command: `echo out > ${target}` }))}\n${task(call("bash", { command: "echo in > inside.txt" }))}`);
  const [blocked, fine] = taskResults(rt);
  expect(blocked).toContain("blocked by the sandbox: write outside the workspace");
  expect(existsSync(target)).toBe(false);
  expect(fine).toContain("mock: tool bash returned");
  expect(readFileSync(join(ws, "inside.txt"), "utf8")).toBe("in\n");
});
