// Compaction in the runtime: the older part summarised and the latest turns kept, the automatic
// pass at the context threshold, the retry after a context-too-long answer, and cancel.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { isContextOverflow, keptFrom } from "../../src/agent/compaction.ts";
import type { AgentEvent } from "../../src/agent/events.ts";
import type { Message } from "../../src/agent/messages.ts";
import type { Runtime } from "../../src/runtime/runtime.ts";
import { openSession } from "../../src/agent/session.ts";
import { startMockRuntime } from "../helpers/mock-runtime.ts";
import { tempDir } from "../helpers/temp.ts";

let home: string;
let runtime: Runtime | null = null;
beforeEach(() => {
  home = tempDir("zot-compact-");
});
afterEach(async () => {
  await runtime?.close();
  runtime = null;
});

const text = (m: Message) => m.content.map((p) => ("text" in p ? p.text : "")).join("");

async function start(config: object | null, script?: string[]): Promise<{ rt: Runtime; events: AgentEvent[] }> {
  if (config) writeFileSync(join(home, "config.json"), JSON.stringify(config));
  let mockScript: string | undefined;
  if (script) {
    mockScript = join(home, "script.jsonl");
    writeFileSync(mockScript, script.join("\n") + "\n");
  }
  const rt = await startMockRuntime(home, { noSession: false, interactive: true, ...(mockScript ? { mockScript } : {}) });
  runtime = rt;
  const events: AgentEvent[] = [];
  rt.subscribe((e) => events.push(e));
  return { rt, events };
}

test("the latest two turns are kept verbatim; a single turn is summarised whole", () => {
  const u = (t: string): Message => ({ role: "user", content: [{ type: "text", text: t }], ts: 0 });
  const a = (t: string): Message => ({
    role: "assistant",
    content: [{ type: "text", text: t }],
    stop: "end_turn",
    provider: "mock",
    model: "m",
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 },
    ts: 0,
  });
  expect(keptFrom([u("1"), a("1"), u("2"), a("2"), u("3"), a("3")])).toBe(2);
  expect(keptFrom([u("1"), a("1"), u("2"), a("2")])).toBe(2);
  expect(keptFrom([u("1"), a("1")])).toBe(2);
});

test("context-too-long answers are recognised across providers", () => {
  for (const e of [
    "prompt is too long: 210000 tokens > 200000 maximum",
    "This model's maximum context length is 128000 tokens",
    "openai rejected the request as too large (HTTP 413)",
    "context_length_exceeded",
  ])
    expect(isContextOverflow(e)).toBe(true);
  expect(isContextOverflow("rate limited (HTTP 429)")).toBe(false);
});

test("a turn that leaves the context above the threshold condenses the history and keeps the latest turns", async () => {
  const { rt, events } = await start({ auto_compact: 0.001 });
  await rt.prompt("first");
  await rt.prompt("second");
  await rt.prompt("third");
  const ends = events.filter((e): e is Extract<AgentEvent, { type: "compaction_end" }> => e.type === "compaction_end");
  // One turn is summarised whole; later the summary and the turn before the last are, the last two turns stay.
  expect(ends[0]).toMatchObject({ reason: "threshold", ok: true, replaced: 2, kept: 0 });
  expect(ends[2]).toMatchObject({ reason: "threshold", ok: true, replaced: 1, kept: 4 });
  const msgs = rt.messages();
  expect(text(msgs[0]!)).toContain("[Summary of the earlier conversation]");
  expect(msgs.map(text).slice(1)).toEqual(["second", "mock: second", "third", "mock: third"]);
  const loaded = openSession(rt.sessionPath!);
  expect(loaded.ok && loaded.session.messages.map(text)).toEqual(msgs.map(text));
});

test("print, JSON and RPC runs do not condense at the threshold", async () => {
  writeFileSync(join(home, "config.json"), JSON.stringify({ auto_compact: 0.001 }));
  const rt = (runtime = await startMockRuntime(home, { interactive: false }));
  const events: AgentEvent[] = [];
  rt.subscribe((e) => events.push(e));
  for (const p of ["a", "b", "c"]) await rt.prompt(p);
  expect(events.some((e) => e.type === "compaction_start")).toBe(false);
});

test("automatic compaction is off with auto_compact false", async () => {
  const { rt, events } = await start({ auto_compact: false });
  for (const p of ["a", "b", "c"]) await rt.prompt(p);
  expect(events.some((e) => e.type === "compaction_start")).toBe(false);
});

test("a context-too-long answer condenses the history and the call is made again", async () => {
  const { rt, events } = await start(null, [
    JSON.stringify({ text: "one" }),
    JSON.stringify({ text: "two" }),
    JSON.stringify({ error: "prompt is too long: 250000 tokens > 200000 maximum" }),
    JSON.stringify({ text: "the summary" }),
    JSON.stringify({ text: "answer after condensing" }),
  ]);
  await rt.prompt("q1");
  await rt.prompt("q2");
  const outcome = await rt.prompt("q3");
  expect(outcome).toMatchObject({ stop: "end_turn", text: "answer after condensing" });
  expect(events.find((e) => e.type === "compaction_end")).toMatchObject({ reason: "overflow", ok: true, replaced: 2 });
  expect(text(rt.messages()[0]!)).toContain("the summary");
});

test("cancelling a compaction leaves the history untouched", async () => {
  const { rt, events } = await start(null);
  await rt.prompt("a");
  await rt.prompt("b");
  await rt.prompt("c");
  const before = rt.messages().map(text);
  rt.subscribe((e) => {
    if (e.type === "compaction_start") rt.abort();
  });
  const r = await rt.compact();
  expect(r.ok).toBe(false);
  expect(events.find((e) => e.type === "compaction_end")).toMatchObject({ ok: false, error: "cancelled" });
  expect(rt.messages().map(text)).toEqual(before);
});
