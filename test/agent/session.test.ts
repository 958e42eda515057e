import { sessionDir } from "../../src/platform/home.ts";
import { beforeEach, describe, expect, test } from "bun:test";
import { appendFileSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync, mkdirSync } from "node:fs";
import { repairToolPairs } from "../../src/agent/session-repair.ts";
import { basename, join } from "node:path";
import { createHash } from "node:crypto";
import { appendSession, createSession, noSession, openSession, sessionTimestamp } from "../../src/agent/session.ts";
import { latestSession, listSessions } from "../../src/agent/session-list.ts";
import { emptyUsage } from "../../src/agent/messages.ts";
import type { AssistantMessage, Message, ToolResultMessage, UserMessage } from "../../src/agent/messages.ts";
import { tempDir } from "../helpers/temp.ts";

let home: string;
let cwd: string;
beforeEach(() => {
  home = tempDir("zot-session-");
  cwd = join(home, "project");
  mkdirSync(cwd);
});

const user = (text: string, ts = 1): UserMessage => ({ role: "user", content: [{ type: "text", text }], ts });
const assistant = (text: string, calls: { id: string; name: string }[] = []): AssistantMessage => ({
  role: "assistant",
  content: [{ type: "text", text }, ...calls.map((c) => ({ type: "toolCall" as const, id: c.id, name: c.name, args: { command: "ls" } }))],
  stop: calls.length ? "tool_use" : "end_turn",
  provider: "mock",
  model: "mock-1",
  usage: emptyUsage(),
  ts: 2,
});
const result = (id: string, text: string, extension?: string): ToolResultMessage => ({
  role: "toolResult",
  toolCallId: id,
  toolName: "bash",
  content: [{ type: "text", text }],
  isError: false,
  ...(extension ? { extension } : {}),
  ts: 3,
});

describe("session transcripts", () => {
  test("live under sessions/<first 16 hex of sha256(cwd)>/<UTC YYYYMMDD-HHMMSS>-<8 hex>.jsonl, as the Go zot names them", () => {
    const w = createSession({ home, cwd, provider: "mock", model: "mock-1", now: new Date("2026-11-29T19:15:00.123Z") });
    w.message(user("hi"));
    w.close();
    const hash = createHash("sha256").update(cwd).digest("hex").slice(0, 16);
    expect(w.path).toStartWith(join(home, "sessions", hash, "20261129-191500-"));
    expect(basename(w.path as string)).toMatch(/^20261129-191500-[0-9a-f]{8}\.jsonl$/);
    expect(sessionDir(home, cwd)).toBe(join(home, "sessions", hash));
    expect(sessionTimestamp(new Date("2026-01-02T03:04:05Z"))).toBe("20260102-030405");
    const meta = JSON.parse(readFileSync(w.path as string, "utf8").split("\n")[0]!).meta;
    expect(basename(w.path as string).slice(16, 24)).toBe(meta.id.slice(0, 8));
    expect(meta.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(statSync(w.path as string).mode & 0o777).toBe(0o600);
  });

  test("each record is on disk as a whole line as soon as it is written", () => {
    const w = createSession({ home, cwd, provider: "mock", model: "mock-1" });
    w.message(user("first"));
    const afterOne = readFileSync(w.path as string, "utf8");
    expect(afterOne.endsWith("\n")).toBe(true);
    const lines = afterOne
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: "meta", meta: { cwd, provider: "mock", model: "mock-1" } });
    expect(lines[1]).toEqual({ type: "message", message: { role: "user", content: [{ text: "first" }], time: "1970-01-01T00:00:00.001Z" } });
    const u = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, cost: 0.01 };
    w.usage(u, u, "mock", "mock-1");
    w.model("anthropic", "claude-x");
    const all = readFileSync(w.path as string, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(all.map((r) => r.type)).toEqual(["meta", "message", "usage", "meta"]);
    expect(all[2]).toMatchObject({
      usage: { input_tokens: 10, output_tokens: 5, cache_read_tokens: 0, cache_write_tokens: 0, cost_usd: 0.01 },
      cumulative: { input_tokens: 10 },
    });
    expect(all[3].meta).toMatchObject({ id: lines[0].meta.id, provider: "anthropic", model: "claude-x", started: lines[0].meta.started });
    w.close();
  });

  test("nothing is written until the first record", () => {
    const w = createSession({ home, cwd, provider: "mock", model: "mock-1" });
    w.close();
    expect(() => readdirSync(sessionDir(home, cwd))).toThrow();
  });

  test("--no-session writes nothing", () => {
    noSession.message(user("x"));
    noSession.usage(emptyUsage(), emptyUsage(), "mock", "m");
    expect(noSession.path).toBeNull();
    expect(readdirSync(home)).toEqual(["project"]);
  });

  test("round-trips messages, attribution, interception, usage and model changes", () => {
    const w = createSession({ home, cwd, provider: "mock", model: "mock-1" });
    w.message(user("run it"));
    w.message(assistant("ok", [{ id: "t1", name: "bash" }]));
    const guarded = { ...result("t1", "files", "guard"), intercept: { args: { command: "echo GUARDED" }, rewritten_by: ["guard"] } };
    w.message(guarded);
    w.message(assistant("done"));
    w.usage(
      { input: 10, output: 5, cacheRead: 1, cacheWrite: 2, cost: 0.5 },
      { input: 10, output: 5, cacheRead: 1, cacheWrite: 2, cost: 0.5 },
      "mock",
      "mock-1",
    );
    w.usage(
      { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, cost: 0.25 },
      { input: 11, output: 6, cacheRead: 1, cacheWrite: 2, cost: 0.75 },
      "mock",
      "mock-1",
    );
    w.model("openai", "gpt-x");
    w.close();
    const r = openSession(w.path as string);
    if (!r.ok) throw new Error(r.error);
    expect(r.session.warnings).toEqual([]);
    expect(r.session.messages).toEqual([user("run it"), assistant("ok", [{ id: "t1", name: "bash" }]), guarded, assistant("done")]);
    expect(r.session.usage).toEqual({ input: 11, output: 6, cacheRead: 1, cacheWrite: 2, cost: 0.75 });
    expect(r.session.provider).toBe("openai");
    expect(r.session.model).toBe("gpt-x");
    const line = readFileSync(w.path as string, "utf8")
      .split("\n")
      .find((l) => l.includes('"role":"tool"'));
    const written = JSON.parse(line as string);
    expect(written.message.content[0].intercept).toEqual({ args: { command: "echo GUARDED" }, rewritten_by: ["guard"] });
    // The record sits in its result block, once: not also inside the message.
    expect(written.message.intercept).toBeUndefined();
  });

  test("a file cut mid-line still loads, skipping the broken line with a warning", () => {
    const w = createSession({ home, cwd, provider: "mock", model: "mock-1" });
    w.message(user("one"));
    w.message(assistant("two"));
    w.close();
    const path = w.path as string;
    truncateSync(path, statSync(path).size - 10);
    const r = openSession(path);
    if (!r.ok) throw new Error(r.error);
    expect(r.session.messages).toEqual([user("one")]);
    expect(r.session.warnings).toHaveLength(1);
    expect(r.session.warnings[0]).toContain("cut off mid-write");
  });

  test("appending after a cut line starts a fresh line, so the new record survives", () => {
    const w = createSession({ home, cwd, provider: "mock", model: "mock-1" });
    w.message(user("one"));
    w.close();
    const path = w.path as string;
    appendFileSync(path, '{"type":"message","mess');
    const loaded = openSession(path);
    if (!loaded.ok) throw new Error(loaded.error);
    const a = appendSession(loaded.session);
    a.message(user("again"));
    a.close();
    const r = openSession(path);
    if (!r.ok) throw new Error(r.error);
    expect(r.session.messages).toEqual([user("one"), user("again")]);
    expect(r.session.warnings[0]).toContain("Line 3");
  });

  test("tool calls without results get aborted results on load", () => {
    const w = createSession({ home, cwd, provider: "mock", model: "mock-1" });
    w.message(user("go"));
    w.message(
      assistant("calling", [
        { id: "a", name: "bash" },
        { id: "b", name: "read" },
      ]),
    );
    w.message(result("a", "ran"));
    w.close();
    const r = openSession(w.path as string);
    if (!r.ok) throw new Error(r.error);
    const m = r.session.messages;
    expect(m).toHaveLength(4);
    expect(m[2]).toEqual(result("a", "ran"));
    expect(m[3]).toMatchObject({ role: "toolResult", toolCallId: "b", toolName: "read", isError: true });
    expect(JSON.stringify(m[3])).toContain("aborted");
  });

  test("orphan results are inserted before the next user message", () => {
    const msgs: Message[] = [assistant("x", [{ id: "c1", name: "bash" }]), user("next")];
    const out = repairToolPairs(msgs).messages;
    expect(out.map((m) => m.role)).toEqual(["assistant", "toolResult", "user"]);
  });

  test("a compacted session reloads as the summary plus later messages", () => {
    const w = createSession({ home, cwd, provider: "mock", model: "mock-1" });
    w.message(user("old question"));
    w.message(assistant("old answer"));
    w.compaction("We talked about old things.", 2, 0);
    w.message(user("new question"));
    w.close();
    const r = openSession(w.path as string);
    if (!r.ok) throw new Error(r.error);
    expect(r.session.messages).toHaveLength(2);
    expect(JSON.stringify(r.session.messages[0])).toContain("We talked about old things.");
    expect(r.session.messages[1]).toEqual(user("new question"));
  });

  test("a compaction that kept the latest messages reloads as the summary, those messages and later ones", () => {
    const w = createSession({ home, cwd, provider: "mock", model: "mock-1" });
    w.message(user("old question"));
    w.message(assistant("old answer"));
    w.message(user("recent question"));
    w.message(assistant("recent answer"));
    w.compaction("We talked about old things.", 2, 2);
    w.message(user("new question"));
    w.close();
    const r = openSession(w.path as string);
    if (!r.ok) throw new Error(r.error);
    expect(r.session.messages.slice(1)).toEqual([user("recent question"), assistant("recent answer"), user("new question")]);
    expect(JSON.stringify(r.session.messages[0])).toContain("We talked about old things.");
  });

  test("secrets are redacted before they reach the file", () => {
    const secret = "sk-ant-api03-SECRETSECRETSECRET";
    const w = createSession({ home, cwd, provider: "mock", model: "mock-1", secrets: [secret] });
    w.message(user(`my key is ${secret}`));
    w.close();
    expect(readFileSync(w.path as string, "utf8")).not.toContain(secret);
  });

  test("lists sessions newest first with a preview and message count; latest picks the newest", () => {
    const older = createSession({ home, cwd, provider: "mock", model: "m", now: new Date("2026-01-01T00:00:00Z") });
    older.message(user("the older one"));
    older.close();
    const newer = createSession({ home, cwd, provider: "mock", model: "m", now: new Date("2026-02-01T00:00:00Z") });
    newer.message(user("the newer one\nwith two lines"));
    newer.message(assistant("reply"));
    newer.close();
    const other = createSession({ home, cwd: home, provider: "mock", model: "m" });
    other.message(user("another project"));
    other.close();
    const list = listSessions(home, cwd);
    expect(list.map((s) => s.path)).toEqual([newer.path as string, older.path as string]);
    expect(list[0]).toMatchObject({ preview: "the newer one with two lines", messages: 2, created: "2026-02-01T00:00:00.000Z" });
    expect(latestSession(home, cwd)).toBe(newer.path);
    expect(latestSession(home, join(home, "elsewhere"))).toBeNull();
  });

  test("opening a missing file, a directory or a foreign file is a clear error", () => {
    const missing = openSession(join(home, "nope.jsonl"));
    expect(missing).toEqual({
      ok: false,
      error: `Session file ${join(home, "nope.jsonl")} does not exist; run "zot --resume" to list the sessions of this directory.`,
    });
    expect(openSession(home)).toEqual({
      ok: false,
      error: `Session path ${home} is a directory; give a .jsonl transcript file (run "zot --resume" to list them).`,
    });
    writeFileSync(join(home, "x.jsonl"), '{"hello":1}\n');
    const foreign = openSession(join(home, "x.jsonl"));
    expect(foreign).toEqual({
      ok: false,
      error: `${join(home, "x.jsonl")} is not a zot session transcript (no meta or message lines); run "zot --resume" to list the sessions of this directory.`,
    });
  });

  test("survives kill -9 of the writing process", async () => {
    const script = join(home, "writer.ts");
    const sessionModule = join(import.meta.dir, "../../src/agent/session.ts");
    writeFileSync(
      script,
      `import { createSession } from ${JSON.stringify(sessionModule)};
const w = createSession({ home: ${JSON.stringify(home)}, cwd: ${JSON.stringify(cwd)}, provider: "mock", model: "m" });
for (let i = 0; ; i++) {
  w.message({ role: "user", content: [{ type: "text", text: "message " + i + " " + "x".repeat(5000) }], ts: i });
  if (i === 20) console.log("ready");
  if (i > 20) await Bun.sleep(1);
}
`,
    );
    const proc = Bun.spawn([process.execPath, script], { stdout: "pipe", stderr: "inherit" });
    const reader = proc.stdout.getReader();
    await reader.read();
    proc.kill("SIGKILL");
    await proc.exited;
    const path = latestSession(home, cwd);
    expect(path).toStartWith(`${sessionDir(home, cwd)}/`);
    const r = openSession(path as string);
    if (!r.ok) throw new Error(r.error);
    expect(r.session.messages.length).toBeGreaterThanOrEqual(21);
    expect(r.session.warnings.length).toBeLessThanOrEqual(1);
  });
});

describe("session write failures", () => {
  test("are reported once and never break the conversation", () => {
    writeFileSync(join(home, "sessions"), "a file where the sessions folder should be");
    const errors: string[] = [];
    const w = createSession({ home, cwd, provider: "mock", model: "m", onError: (m) => errors.push(m) });
    w.message(user("one"));
    w.message(user("two"));
    w.close();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("could not write the session transcript");
  });
});
