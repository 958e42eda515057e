import { beforeEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { lockedWriter, lockSession } from "../../src/agent/session-lock.ts";
import { createSession } from "../../src/agent/session.ts";
import { repairToolPairs } from "../../src/agent/session-repair.ts";
import type { Message } from "../../src/agent/messages.ts";
import { tempDir } from "../helpers/temp.ts";

let dir: string;
beforeEach(() => {
  dir = tempDir("zot-lock-");
});

describe("the session lock", () => {
  test("is exclusive until released, then free again", () => {
    const path = join(dir, "s.jsonl");
    const first = lockSession(path);
    expect(first.ok).toBe(true);
    expect(lockSession(path)).toEqual({ ok: false, held: true });
    if (first.ok) first.lock.release();
    const again = lockSession(path);
    expect(again.ok).toBe(true);
    if (again.ok) again.lock.release();
  });

  test("a second process cannot take it while the first holds it, and gets it once it is released", async () => {
    const path = join(dir, "s.jsonl");
    const script = `const { lockSession } = await import(${JSON.stringify(join(import.meta.dir, "../../src/agent/session-lock.ts"))}); const r = lockSession(${JSON.stringify(path)}); console.log(r.ok ? "locked" : r.held ? "held" : r.error);`;
    const other = (): string => Bun.spawnSync([process.execPath, "-e", script]).stdout.toString().trim();
    const mine = lockSession(path);
    expect(other()).toBe("held");
    if (mine.ok) mine.lock.release();
    expect(other()).toBe("locked");
  });

  test("a new session takes its lock with its first record and gives it up when closed", () => {
    const w = lockedWriter(createSession({ home: dir, cwd: dir, provider: "mock", model: "mock" }));
    w.message({ role: "user", content: [{ type: "text", text: "hi" }], ts: 1 });
    const path = w.path as string;
    expect(lockSession(path)).toEqual({ ok: false, held: true });
    w.close();
    expect(readFileSync(path, "utf8")).toContain('"hi"');
    const r = lockSession(path);
    expect(r.ok).toBe(true);
    if (r.ok) r.lock.release();
  });
});

describe("repairing tool call and result pairs", () => {
  const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 };
  const call = (ids: string[]): Message => ({
    role: "assistant",
    content: ids.map((id) => ({ type: "toolCall" as const, id, name: "bash", args: {} })),
    stop: "tool_use",
    provider: "mock",
    model: "m",
    usage,
    ts: 1,
  });
  const result = (id: string): Message => ({
    role: "toolResult",
    toolCallId: id,
    toolName: "bash",
    content: [{ type: "text", text: id }],
    isError: false,
    ts: 2,
  });
  const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }], ts: 3 });

  test("drops results without a call, duplicates and late results, and closes unanswered calls", () => {
    const r = repairToolPairs([user("a"), result("ghost"), call(["c1", "c2"]), result("c1"), result("c1"), user("b"), result("c2")]);
    expect(r.messages.map((m) => (m.role === "toolResult" ? `result:${m.toolCallId}:${m.isError}` : m.role))).toEqual([
      "user",
      "assistant",
      "result:c1:false",
      "result:c2:true",
      "user",
    ]);
    expect(r.closed).toBe(1);
    expect(r.dropped).toBe(3);
  });

  test("leaves a valid conversation as it is", () => {
    const msgs = [user("a"), call(["c1"]), result("c1"), user("b")];
    expect(repairToolPairs(msgs)).toEqual({ messages: msgs, closed: 0, dropped: 0 });
  });
});
