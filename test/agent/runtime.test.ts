import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { ConfirmDecision } from "../../src/agent/events.ts";
import type { Runtime } from "../../src/runtime/runtime.ts";
import { openSession } from "../../src/agent/session.ts";
import { startMockRuntime } from "../helpers/mock-runtime.ts";
import { waitFor } from "../helpers/wait.ts";
import { tempDir } from "../helpers/temp.ts";

const ROOT = resolve(import.meta.dir, "../..");
const TOOLBOX = join(ROOT, "test", "fixtures", "agent", "toolbox");
process.env.PATH = `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH ?? ""}`;

let home: string;
let log: string;
let runtime: Runtime;

beforeEach(async () => {
  home = tempDir("zot-runtime-");
  log = join(home, "frames.jsonl");
  process.env.ZOT_TEST_EVENTS = log;
  runtime = await startMockRuntime(home, { ext: [TOOLBOX], permissionMode: "ask", interactive: true, noSession: false });
});
afterEach(async () => {
  await runtime.close();
  delete process.env.ZOT_TEST_EVENTS;
});

const frames = () =>
  (existsSync(log) ? readFileSync(log, "utf8") : "")
    .trim()
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as { type: string; event?: string; model?: string; provider?: string });

/** The extension logs frames as it reads them, after zot sent them; wait until it caught up. */
const until = (check: () => boolean): Promise<boolean> => waitFor(check);

test("in ask mode with a confirm handler, confirmation is requested only when actually awaited", async () => {
  const asked: string[] = [];
  runtime.setConfirmHandler(async (req): Promise<ConfirmDecision> => {
    asked.push(req.name);
    return { kind: "yes_rule", rules: [{ tool: req.name }], always: false };
  });
  const seen: string[] = [];
  runtime.subscribe((e) => {
    if (e.type === "tool_confirmation_requested") seen.push(e.name);
  });
  await runtime.prompt('call weather {"city":"Rome"}');
  await runtime.prompt('call weather {"city":"Oslo"}');
  expect(asked).toEqual(["weather"]);
  expect(seen).toEqual(["weather"]);
  await until(() => frames().filter((f) => f.event === "turn_end").length === 4);
  expect(frames().filter((f) => f.event === "tool_confirmation_requested").length).toBe(1);
});

test("a model switch reaches extensions started afterwards through hello_ack", async () => {
  expect(runtime.setModel("mock", "mock-2")).toEqual({ ok: true });
  await runtime.host.reload("toolbox");
  await until(() => frames().filter((f) => f.type === "hello_ack").length === 2);
  const acks = frames().filter((f) => f.type === "hello_ack");
  expect(acks.map((a) => a.model)).toEqual(["mock", "mock-2"]);
  expect(frames().filter((f) => f.event === "session_start").length).toBe(2);
});

test("compaction replaces the history with one summary and is recorded in the transcript", async () => {
  await runtime.prompt("remember apples");
  const r = await runtime.compact();
  expect(r.ok).toBe(true);
  expect(runtime.messages().length).toBe(1);
  const loaded = openSession(runtime.sessionPath!);
  expect(loaded.ok && loaded.session.messages.length).toBe(1);
  expect(readFileSync(runtime.sessionPath!, "utf8")).toContain('"type":"compaction"');
});

test("clear starts a new transcript and a new extension session", async () => {
  await runtime.prompt("one");
  const first = runtime.sessionPath;
  runtime.clear();
  await runtime.prompt("two");
  expect(runtime.sessionPath).not.toBe(first);
  expect(existsSync(first!)).toBe(true);
  expect(runtime.messages().length).toBe(2);
  await until(() => frames().filter((f) => f.event === "turn_end").length === 2);
  expect(frames().filter((f) => f.event === "session_start").length).toBe(2);
});

test("usage totals add up across responses", async () => {
  await runtime.prompt("a");
  const one = runtime.usage();
  await runtime.prompt("b");
  expect(runtime.usage().input).toBeGreaterThan(one.input);
  expect(runtime.context().used).toBeGreaterThan(0);
});
