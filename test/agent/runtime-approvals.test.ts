// Approvals in the runtime: what the handler is shown, standing rules, esc stopping the turn, plan
// mode refusing changes, and the wait not counted in the tool's duration.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentEvent, ConfirmRequest } from "../../src/agent/events.ts";
import type { Runtime } from "../../src/runtime/runtime.ts";
import { startMockRuntime } from "../helpers/mock-runtime.ts";

let home: string;
let runtime: Runtime;
let events: AgentEvent[];

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), "zot-approvals-"));
  runtime = await startMockRuntime(home, { noYolo: true, interactive: true });
  events = [];
  runtime.subscribe((e) => events.push(e));
});
afterEach(async () => {
  await runtime.close();
  rmSync(home, { recursive: true, force: true });
});

const results = () => events.filter((e): e is Extract<AgentEvent, { type: "tool_result" }> => e.type === "tool_result");
const resultText = (i: number) => results()[i]!.content.map((c) => (c.type === "text" ? c.text : "")).join("");

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

test("a bash prefix rule covers later simple commands with that prefix but not a chained one", async () => {
  const asked: string[] = [];
  runtime.setConfirmHandler(async (req) => {
    asked.push(String(req.args.command));
    return asked.length === 1 ? { kind: "yes_rule", rule: { tool: "bash", prefix: "echo" }, always: false } : { kind: "no" };
  });
  await runtime.prompt('call bash {"command":"echo one"}');
  await runtime.prompt('call bash {"command":"echo two"}');
  await runtime.prompt('call bash {"command":"echo three; echo four"}');
  expect(asked).toEqual(["echo one", "echo three; echo four"]);
  expect(resultText(1)).toBe("two");
  expect(results()[2]!.is_error).toBe(true);
});

test("stop refuses the call and ends the turn without another model call", async () => {
  runtime.setConfirmHandler(async () => ({ kind: "stop" }));
  const outcome = await runtime.prompt('call bash {"command":"echo never"}');
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
  expect(resultText(1)).toContain("plan mode: only read-only tools");
  expect(() => readFileSync(join(home, "made"))).toThrow();
});

test("auto-approve edits runs edits without asking and still asks for bash", async () => {
  const asked: string[] = [];
  runtime.setConfirmHandler(async (req) => {
    asked.push(req.name);
    return { kind: "yes" };
  });
  runtime.mode = "edits";
  await runtime.prompt('call write {"path":"w.txt","content":"x"}\ncall bash {"command":"echo hi"}');
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
