// The runtime's side of the sandbox: the built-in file tools obey the same policy as commands, the
// permission mode starts in yolo only inside an enforced sandbox, and a blocked command may run once
// outside it only when the user approves (in a mode that asks), never silently.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { AgentEvent, ConfirmRequest } from "../../../src/agent/events.ts";
import type { Runtime } from "../../../src/runtime/runtime.ts";
import { startMockRuntime } from "../../helpers/mock-runtime.ts";
import { tempDir } from "../../helpers/temp.ts";

let root: string;
let ws: string;
let outside: string;
let userHome: string;
let runtime: Runtime | undefined;
let events: AgentEvent[];

beforeEach(() => {
  // Under the home directory, not a temp directory: temp directories are writable in the sandbox.
  root = tempDir(".zot-sandbox-rt-", homedir());
  ws = join(root, "project");
  outside = join(root, "outside");
  userHome = join(root, "home");
  for (const d of [ws, outside, join(userHome, ".ssh"), join(root, "zot-home")]) mkdirSync(d, { recursive: true });
  writeFileSync(join(userHome, ".ssh", "id_rsa"), "PRIVATE KEY\n");
  writeFileSync(join(outside, "notes.txt"), "old\n");
  events = [];
});
afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
});

async function start(o: { ask?: boolean } = {}): Promise<Runtime> {
  runtime = await startMockRuntime(join(root, "zot-home"), { cwd: ws, env: { HOME: userHome }, interactive: true, permissionMode: o.ask ? "ask" : "yolo" });
  runtime.subscribe((e) => events.push(e));
  return runtime;
}

const lastResult = (): string => {
  const r = events.filter((e): e is Extract<AgentEvent, { type: "tool_result" }> => e.type === "tool_result").at(-1)!;
  return r.content.map((c) => (c.type === "text" ? c.text : "")).join("");
};
const call = (tool: string, args: object): string => `call ${tool} ${JSON.stringify(args)}`;

test("inside an enforced sandbox the session starts in yolo and reports workspace-write", async () => {
  const rt = await start();
  expect(rt.sandbox).toMatchObject({ mode: "workspace-write", enforced: true, network: false });
  expect(rt.mode).toBe("yolo");
});

test("write and edit may not change a file outside the workspace, and read may not read a secret", async () => {
  const rt = await start();
  await rt.prompt(call("write", { path: join(outside, "new.txt"), content: "x" }));
  expect(lastResult()).toStartWith("blocked by the sandbox: write outside the workspace to ");
  expect(existsSync(join(outside, "new.txt"))).toBe(false);
  await rt.prompt(call("edit", { path: join(outside, "notes.txt"), edits: [{ oldText: "old", newText: "new" }] }));
  expect(lastResult()).toStartWith("blocked by the sandbox: write outside the workspace to ");
  expect(readFileSync(join(outside, "notes.txt"), "utf8")).toBe("old\n");
  await rt.prompt(call("read", { path: join(userHome, ".ssh", "id_rsa") }));
  expect(lastResult()).toStartWith("blocked by the sandbox: ~/.ssh/id_rsa is hidden (a secret location)");
  expect(lastResult()).not.toContain("PRIVATE KEY");
  await rt.prompt(call("write", { path: "inside.txt", content: "fine" }));
  expect(readFileSync(join(ws, "inside.txt"), "utf8")).toBe("fine");
});

test("in ask mode a blocked command is offered to run once outside the sandbox; approved, it runs there", async () => {
  const rt = await start({ ask: true });
  const seen: ConfirmRequest[] = [];
  rt.setConfirmHandler(async (req) => {
    seen.push(req);
    return { kind: "yes" };
  });
  const target = join(outside, "escalated.txt");
  await rt.prompt(call("bash", { command: `echo done > ${target}` }));
  expect(seen.map((r) => r.detail.kind === "command" && r.detail.escalation !== undefined)).toEqual([false, true]);
  expect(seen[1]!.detail.kind === "command" && seen[1]!.detail.escalation).toContain(`write outside the workspace to ${target}`);
  expect(readFileSync(target, "utf8")).toBe("done\n");
  expect(lastResult()).toStartWith("[Run outside the sandbox, approved by the user.]");
});

test("refused, the escalation leaves the command blocked and the model told why", async () => {
  const rt = await start({ ask: true });
  let asked = 0;
  rt.setConfirmHandler(async () => (++asked === 1 ? { kind: "yes" } : { kind: "no", reason: "not there" }));
  const target = join(outside, "refused.txt");
  await rt.prompt(call("bash", { command: `echo done > ${target}` }));
  expect(asked).toBe(2);
  expect(existsSync(target)).toBe(false);
  expect(lastResult()).toContain("blocked by the sandbox: write outside the workspace");
});

test("in yolo nothing is asked: the blocked command stays blocked, never silently run outside", async () => {
  const rt = await start();
  let asked = 0;
  rt.setConfirmHandler(async () => {
    asked++;
    return { kind: "yes" };
  });
  const target = join(outside, "yolo.txt");
  await rt.prompt(call("bash", { command: `echo done > ${target}` }));
  expect(asked).toBe(0);
  expect(existsSync(target)).toBe(false);
  expect(lastResult()).toContain("blocked by the sandbox: write outside the workspace");
});

test("--sandbox off: commands and tools run as before, and the status says off", async () => {
  runtime = await startMockRuntime(join(root, "zot-home"), { cwd: ws, env: { HOME: userHome }, interactive: true, permissionMode: "yolo", sandbox: "off" });
  runtime.subscribe((e) => events.push(e));
  expect(runtime.sandbox).toMatchObject({ mode: "off", enforced: false });
  expect(runtime.mode).toBe("yolo");
  await runtime.prompt(call("bash", { command: `echo free > ${join(outside, "off.txt")}` }));
  expect(readFileSync(join(outside, "off.txt"), "utf8")).toBe("free\n");
  // The file tools too: a secret location is read and a file outside the workspace written.
  await runtime.prompt(call("read", { path: join(userHome, ".ssh", "id_rsa") }));
  expect(lastResult()).toContain("PRIVATE KEY");
  await runtime.prompt(call("write", { path: join(outside, "notes.txt"), content: "new\n" }));
  expect(readFileSync(join(outside, "notes.txt"), "utf8")).toBe("new\n");
});
