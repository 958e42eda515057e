// Approvals in the runtime: what the handler is shown, standing rules, esc stopping the turn, plan
// mode refusing changes, and the wait not counted in the tool's duration.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentEvent, ConfirmRequest } from "../../src/agent/events.ts";
import type { Runtime } from "../../src/runtime/runtime.ts";
import { startMockRuntime } from "../helpers/mock-runtime.ts";
import { tempDir } from "../helpers/temp.ts";

let home: string;
let runtime: Runtime;
let events: AgentEvent[];

beforeEach(async () => {
  home = tempDir("zot-approvals-");
  runtime = await startMockRuntime(home, { permissionMode: "ask", interactive: true });
  events = [];
  runtime.subscribe((e) => events.push(e));
});
afterEach(async () => {
  await runtime.close();
});

const results = () => events.filter((e): e is Extract<AgentEvent, { type: "tool_result" }> => e.type === "tool_result");
const resultText = (i: number) =>
  results()
    [i]!.content.map((c) => (c.type === "text" ? c.text : ""))
    .join("");

test("the handler sees the edit's diff before anything is written", async () => {
  writeFileSync(join(home, "a.txt"), "old line\n");
  const seen: ConfirmRequest[] = [];
  runtime.setConfirmHandler(async (req) => {
    seen.push(req);
    expect(readFileSync(join(home, "a.txt"), "utf8")).toBe("old line\n");
    return { kind: "yes" };
  });
  await runtime.prompt('call edit {"path":"a.txt","edits":[{"oldText":"old line","newText":"new line"}]}');
  expect(seen[0]!.detail).toMatchObject({ kind: "diff" });
  expect(seen[0]!.detail.kind === "diff" && seen[0]!.detail.diff).toContain("-old line\n+new line");
  expect(readFileSync(join(home, "a.txt"), "utf8")).toBe("new line\n");
});

test("the rule offered for a command covers that command's shape and not a chain with something else", async () => {
  const asked: string[] = [];
  runtime.setConfirmHandler(async (req) => {
    asked.push(String(req.args.command));
    return asked.length === 1 && req.scope ? { kind: "yes_rule", rules: req.scope.rules, always: false } : { kind: "no" };
  });
  await runtime.prompt('call bash {"command":"touch one"}');
  await runtime.prompt('call bash {"command":"touch two"}');
  await runtime.prompt('call bash {"command":"touch three; touch four"}');
  await runtime.prompt('call bash {"command":"touch five && mkdir six"}');
  expect(asked).toEqual(["touch one", "touch five && mkdir six"]);
  expect(existsSync(join(home, "two"))).toBe(true);
  // Both parts of the chain are covered by the rule; the last one is not.
  expect(existsSync(join(home, "four"))).toBe(true);
  expect(existsSync(join(home, "six"))).toBe(false);
});

test("ask mode runs reads and read-only commands without asking and asks for the rest", async () => {
  writeFileSync(join(home, "notes.txt"), "read me\n");
  const asked: string[] = [];
  runtime.setConfirmHandler(async (req) => {
    asked.push(req.name === "bash" ? String(req.args.command) : req.name);
    return { kind: "no" };
  });
  await runtime.prompt(
    'call read {"path":"notes.txt"}\ncall bash {"command":"cat notes.txt | wc -l"}\ncall bash {"command":"git status"}\ncall bash {"command":"touch made"}\ncall write {"path":"w.txt","content":"x"}',
  );
  expect(asked).toEqual(["touch made", "write"]);
  expect(resultText(0)).toContain("read me");
  expect(resultText(1).trim()).toBe("1");
  expect(existsSync(join(home, "made"))).toBe(false);
});

test("a destructive command's rule is that exact command, and later rm calls still ask", async () => {
  mkdirSync(join(home, "build"));
  mkdirSync(join(home, "keep"));
  const offered: ConfirmRequest["scope"][] = [];
  runtime.setConfirmHandler(async (req) => {
    offered.push(req.scope);
    return offered.length === 1 && req.scope ? { kind: "yes_rule", rules: req.scope.rules, always: false } : { kind: "no" };
  });
  await runtime.prompt('call bash {"command":"rm -rf build"}');
  await runtime.prompt('call bash {"command":"rm -rf keep"}');
  expect(offered[0]).toEqual({ rules: [{ tool: "bash", command: "rm -rf build", more: false }], label: "`rm -rf build`" });
  expect(offered).toHaveLength(2);
  expect(existsSync(join(home, "build"))).toBe(false);
  expect(existsSync(join(home, "keep"))).toBe(true);
});

test("with nobody to ask, a call that needs approval is refused with a reason the model can act on", async () => {
  runtime.setConfirmHandler(null);
  await runtime.prompt('call bash {"command":"touch made"}\ncall bash {"command":"ls"}');
  expect(results()[0]!.is_error).toBe(true);
  expect(resultText(0)).toContain("nobody can give it in this run");
  expect(resultText(0)).toContain("--permission-mode yolo");
  expect(existsSync(join(home, "made"))).toBe(false);
  expect(results()[1]!.is_error).toBe(false);
});

test("stop refuses the call and ends the turn without another model call", async () => {
  runtime.setConfirmHandler(async () => ({ kind: "stop" }));
  const outcome = await runtime.prompt('call bash {"command":"touch never"}');
  expect(outcome.stop).toBe("aborted");
  expect(resultText(0)).toContain("The user declined this tool call: the user stopped the turn");
  expect(runtime.messages().filter((m) => m.role === "assistant")).toHaveLength(1);
});

test("plan mode runs reads and refuses changes without asking", async () => {
  writeFileSync(join(home, "notes.txt"), "plan me\n");
  let asked = 0;
  runtime.setConfirmHandler(async () => {
    asked++;
    return { kind: "yes" };
  });
  runtime.mode = "plan";
  await runtime.prompt('call read {"path":"notes.txt"}\ncall bash {"command":"touch made"}');
  expect(asked).toBe(0);
  expect(results()[0]!.is_error).toBe(false);
  expect(resultText(1)).toStartWith("Blocked by plan mode (the user did not decline it): only read-only tools run");
  expect(resultText(1)).toContain("Finish studying, then present your plan");
  expect(resultText(1)).not.toContain("The user declined");
  expect(() => readFileSync(join(home, "made"))).toThrow();
});

test("auto-approve edits runs edits without asking and still asks for bash", async () => {
  const asked: string[] = [];
  runtime.setConfirmHandler(async (req) => {
    asked.push(req.name);
    return { kind: "yes" };
  });
  runtime.mode = "auto-edit";
  await runtime.prompt('call write {"path":"w.txt","content":"x"}\ncall bash {"command":"touch hi"}');
  expect(asked).toEqual(["bash"]);
  expect(readFileSync(join(home, "w.txt"), "utf8")).toBe("x");
});

test("the time spent waiting for approval is not the tool's duration", async () => {
  runtime.setConfirmHandler(async () => {
    await Bun.sleep(300);
    return { kind: "yes" };
  });
  await runtime.prompt('call bash {"command":"true"}');
  expect(results()[0]!.duration_ms).toBeLessThan(300);
});
