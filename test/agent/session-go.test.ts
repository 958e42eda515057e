import { sessionDir } from "../../src/platform/home.ts";
import { beforeEach, describe, expect, test } from "bun:test";
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { appendSession, createSession, openSession } from "../../src/agent/session.ts";
import { latestSession, listSessions } from "../../src/agent/session-list.ts";
import type { AssistantMessage, ToolResultMessage, UserMessage } from "../../src/agent/messages.ts";
import { isRfc3339, readWithGoRules } from "../helpers/go-session-rules.ts";
import { tempDir } from "../helpers/temp.ts";

const GO_FIXTURES = join(import.meta.dir, "../fixtures/zot-go");
const GO_SESSION = join(GO_FIXTURES, "session-tool-call-continued.jsonl");

let home: string;
let cwd: string;
beforeEach(() => {
  home = tempDir("zot-session-go-");
  cwd = join(home, "project");
  mkdirSync(cwd);
});

const usage = (input: number, output: number, cost: number) => ({ input, output, cacheRead: 0, cacheWrite: 0, cost });
const user = (text: string, ts = 1000): UserMessage => ({ role: "user", content: [{ type: "text", text }], ts });
const calling = (ids: string[], ts = 2000): AssistantMessage => ({
  role: "assistant",
  content: [
    { type: "thinking", thinking: "let me look", signature: "sig" },
    { type: "text", text: "Looking." },
    ...ids.map((id) => ({ type: "toolCall" as const, id, name: "bash", args: { command: `echo ${id}` } })),
  ],
  stop: "tool_use",
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  usage: usage(100, 10, 0.00045),
  ts,
});
const result = (id: string, ts = 3000): ToolResultMessage => ({
  role: "toolResult",
  toolCallId: id,
  toolName: "bash",
  content: [{ type: "text", text: `out ${id}` }],
  isError: false,
  ts,
});
const answer = (text: string, ts = 4000): AssistantMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  stop: "end_turn",
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  usage: usage(100, 10, 0.00045),
  ts,
});

/** The Go fixture placed as a session of `cwd`, with its recorded cwd replaced by this one. */
function placeGoSession(): string {
  const path = join(sessionDir(home, cwd), "20261201-073011-bed10963.jsonl");
  mkdirSync(sessionDir(home, cwd), { recursive: true });
  copyFileSync(GO_SESSION, path);
  writeFileSync(path, readFileSync(path, "utf8").replace('"cwd":"/home/user/proj"', `"cwd":${JSON.stringify(cwd)}`));
  return path;
}

describe("transcripts written by the Go zot", () => {
  test("load with their tool calls, results, usage and model", () => {
    const r = openSession(GO_SESSION);
    if (!r.ok) throw new Error(r.error);
    const s = r.session;
    expect(s.warnings).toEqual([]);
    expect(s.meta).toMatchObject({
      id: "bed10963-8407-425b-b57f-d004869d1b6a",
      cwd: "/home/user/proj",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      version: "0.0.0",
    });
    expect(s.provider).toBe("anthropic");
    expect(s.model).toBe("claude-sonnet-4-5");
    expect(s.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant", "user", "assistant"]);
    expect(s.messages[0]).toEqual({ role: "user", content: [{ type: "text", text: "first prompt" }], ts: Date.parse("2026-12-01T07:30:11.578Z") });
    expect(s.messages[1]).toMatchObject({
      role: "assistant",
      stop: "tool_use",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      content: [{ type: "toolCall", id: "toolu_mock_1", name: "bash", args: { command: "echo hello-from-tool" } }],
    });
    expect(s.messages[2]).toEqual({
      role: "toolResult",
      toolCallId: "toolu_mock_1",
      toolName: "bash",
      content: [{ type: "text", text: "$ echo hello-from-tool\n\nhello-from-tool\n\n[exit 0]  Took 0.0s" }],
      isError: false,
      ts: Date.parse("2026-12-01T07:30:11.592Z"),
    });
    expect(s.messages[5]).toMatchObject({ role: "assistant", stop: "end_turn", content: [{ type: "text", text: "hello from mock" }] });
    // The last usage row's cumulative is the session total, as the Go zot seeds its cost from it.
    expect(s.usage).toEqual({ input: 300, output: 30, cacheRead: 0, cacheWrite: 0, cost: 0.00135 });
  });

  test("are listed with their first prompt, model, message count and cost, and -c picks them", () => {
    const path = placeGoSession();
    const [info] = listSessions(home, cwd);
    expect(info).toMatchObject({
      path,
      id: "bed10963-8407-425b-b57f-d004869d1b6a",
      preview: "first prompt",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      messages: 6,
      cost: 0.00135,
      created: "2026-12-01T07:30:11.578370396Z",
    });
    expect(latestSession(home, cwd)).toBe(path);
  });

  test("a rename row titles the session and the last meta row sets the model", () => {
    const path = placeGoSession();
    appendFileSync(path, JSON.stringify({ type: "rename", title: "the tool run" }) + "\n");
    const meta = JSON.parse(readFileSync(path, "utf8").split("\n")[0]!).meta;
    appendFileSync(path, JSON.stringify({ type: "meta", meta: { ...meta, model: "claude-haiku-4-5" } }) + "\n");
    const r = openSession(path);
    if (!r.ok) throw new Error(r.error);
    expect(r.session.title).toBe("the tool run");
    expect(r.session.model).toBe("claude-haiku-4-5");
    expect(r.session.meta?.id).toBe("bed10963-8407-425b-b57f-d004869d1b6a");
    expect(listSessions(home, cwd)[0]).toMatchObject({ title: "the tool run", model: "claude-haiku-4-5" });
  });

  test("OpenAI reasoning blocks, parent and fork_point are kept through a zot continuation", () => {
    const path = join(sessionDir(home, cwd), "20261201-080000-aaaaaaaa.jsonl");
    mkdirSync(sessionDir(home, cwd), { recursive: true });
    const reasoning = { reasoning_id: "rs_1", summary: "thought", encrypted_content: "ENC" };
    writeFileSync(
      path,
      [
        {
          type: "meta",
          meta: {
            id: "aaaaaaaa-1111-4111-8111-111111111111",
            cwd,
            model: "gpt-5",
            provider: "openai",
            started: "2026-12-01T08:00:00Z",
            version: "0.1.62",
            parent: "bed10963-8407-425b-b57f-d004869d1b6a",
            fork_point: 4,
          },
        },
        { type: "message", message: { role: "user", content: [{ text: "hi" }], time: "2026-12-01T08:00:01Z" } },
        { type: "message", message: { role: "assistant", content: [reasoning, { text: "hello" }], time: "2026-12-01T08:00:02Z" } },
      ]
        .map((r) => JSON.stringify(r))
        .join("\n") + "\n",
    );
    const r = openSession(path);
    if (!r.ok) throw new Error(r.error);
    expect(r.session.meta).toMatchObject({ parent: "bed10963-8407-425b-b57f-d004869d1b6a", fork_point: 4 });
    // The reasoning is zot's thinking part (summary and encrypted content, as the Responses client keeps it).
    expect(r.session.messages[1]).toMatchObject({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "thought", signature: "ENC", id: "rs_1" },
        { type: "text", text: "hello" },
      ],
    });
    const w = appendSession(r.session);
    w.message(user("more", Date.parse("2026-12-01T08:01:00Z")));
    w.message({ ...(r.session.messages[1] as AssistantMessage), ts: Date.parse("2026-12-01T08:01:01Z") });
    w.close();
    const go = readWithGoRules(readFileSync(path, "utf8"));
    expect(go.messages[3]!.content).toEqual([
      { kind: "reasoning", id: "rs_1" },
      { kind: "text", text: "hello" },
    ]);
    const rows = readFileSync(path, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rows.at(-1).message.content[0]).toEqual(reasoning);
    expect(listSessions(home, cwd)[0]).toMatchObject({ parent: "bed10963-8407-425b-b57f-d004869d1b6a", forkPoint: 4 });
  });

  test("continued by zot, keep one history that the Go zot reads back whole", () => {
    const path = placeGoSession();
    const loaded = openSession(path);
    if (!loaded.ok) throw new Error(loaded.error);
    const w = appendSession(loaded.session);
    w.message(user("third prompt", 5000));
    w.message(calling(["t1", "t2"], 6000));
    w.message(result("t1", 7000));
    w.message(result("t2", 7001));
    w.usage(usage(100, 10, 0.00045), usage(400, 40, 0.0018), "anthropic", "claude-sonnet-4-5");
    w.message(answer("both ran", 8000));
    w.close();

    const again = openSession(path);
    if (!again.ok) throw new Error(again.error);
    expect(again.session.messages).toHaveLength(11);
    // The results of one step share their row's time: the last one's.
    expect(again.session.messages.slice(6)).toEqual([
      user("third prompt", 5000),
      calling(["t1", "t2"], 6000),
      result("t1", 7001),
      result("t2", 7001),
      answer("both ran", 8000),
    ]);
    expect(again.session.usage).toEqual(usage(400, 40, 0.0018));

    const go = readWithGoRules(readFileSync(path, "utf8"));
    expect(go.firstLineIsMeta).toBe(true);
    expect(go.stubs).toBe(0);
    expect(go.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "user", "assistant", "user", "assistant", "tool", "assistant"]);
    // Both results of the two parallel calls are in the one tool message right after the calls.
    expect(go.messages[8]!.content).toEqual([
      { kind: "tool_result", call_id: "t1", is_error: false, content: [{ kind: "text", text: "out t1" }] },
      { kind: "tool_result", call_id: "t2", is_error: false, content: [{ kind: "text", text: "out t2" }] },
    ]);
    expect(go.cumulative).toEqual({ input_tokens: 400, output_tokens: 40, cache_read_tokens: 0, cache_write_tokens: 0, cost_usd: 0.0018 });
  });
});

describe("transcripts zot writes, read with the Go zot's rules", () => {
  test("start with a complete meta row and hold blocks the Go zot recognises by their fields", () => {
    const w = createSession({ home, cwd, provider: "anthropic", model: "claude-sonnet-4-5", now: new Date("2026-12-01T09:00:00Z") });
    w.message({
      role: "user",
      content: [
        { type: "text", text: "look at this" },
        { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
      ],
      ts: 1000,
    });
    w.message(calling(["c1"]));
    w.message({ ...result("c1"), isError: true });
    w.usage(usage(100, 10, 0.00045), usage(100, 10, 0.00045), "anthropic", "claude-sonnet-4-5");
    w.model("anthropic", "claude-haiku-4-5");
    w.message(answer("done"));
    w.usage(usage(50, 5, 0.0002), usage(150, 15, 0.00065), "anthropic", "claude-haiku-4-5");
    w.close();
    const text = readFileSync(w.path as string, "utf8");
    const go = readWithGoRules(text);
    expect(go.firstLineIsMeta).toBe(true);
    const first = JSON.parse(text.split("\n")[0]!).meta;
    expect(Object.keys(first).sort()).toEqual(["cwd", "id", "model", "provider", "started", "version"]);
    expect(first).toMatchObject({ cwd, provider: "anthropic", model: "claude-sonnet-4-5", started: "2026-12-01T09:00:00.000Z" });
    // The reader keeps the last meta row: the model switch survives a Go resume.
    expect(go.meta).toMatchObject({ id: first.id, model: "claude-haiku-4-5" });
    expect(go.stubs).toBe(0);
    expect(go.messages).toHaveLength(4);
    expect(go.messages[0]!.content).toEqual([
      { kind: "text", text: "look at this" },
      { kind: "image", mime_type: "image/png" },
    ]);
    // zot's thinking block reads as an empty text block, which the Go zot's providers skip.
    expect(go.messages[1]!.content).toEqual([
      { kind: "text", text: "" },
      { kind: "text", text: "Looking." },
      { kind: "tool_call", id: "c1", name: "bash", arguments: { command: "echo c1" } },
    ]);
    expect(go.messages[2]).toMatchObject({
      role: "tool",
      content: [{ kind: "tool_result", call_id: "c1", is_error: true, content: [{ kind: "text", text: "out c1" }] }],
    });
    expect(go.messages.every((m) => isRfc3339(m.time))).toBe(true);
    expect(isRfc3339(first.started)).toBe(true);
    expect(go.cumulative).toMatchObject({ input_tokens: 150, output_tokens: 15, cost_usd: 0.00065 });
  });

  test("a tool result is written as soon as every call of its message has one", () => {
    const w = createSession({ home, cwd, provider: "mock", model: "m" });
    w.message(user("go"));
    w.message(calling(["a", "b"]));
    w.message(result("a"));
    expect(readFileSync(w.path as string, "utf8")).not.toContain('"call_id":"a"');
    w.message(result("b"));
    const rows = readFileSync(w.path as string, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rows.at(-1).message.content.map((b: { call_id: string }) => b.call_id)).toEqual(["a", "b"]);
    w.close();
  });
  test("a result's activated_tools (Kimi K3 dynamic tools) survive a reload, and the Go zot still reads the result", () => {
    const secret = { name: "secret", description: "Tells the secret.", schema: { type: "object", properties: {} } };
    const w = createSession({ home, cwd, provider: "kimi", model: "kimi-k3" });
    w.message(user("load it"));
    w.message(calling(["c1", "c2"]));
    w.message({ ...result("c1"), activatedTools: [secret] });
    w.message(result("c2"));
    w.close();
    const text = readFileSync(w.path as string, "utf8");
    const row = JSON.parse(text.trim().split("\n").at(-1) as string);
    expect(row.message.content[0].activated_tools).toEqual([secret]);
    expect(row.message.content[1].activated_tools).toBeUndefined();
    const r = openSession(w.path as string);
    if (!r.ok) throw new Error(r.error);
    expect(r.session.messages[2]).toMatchObject({ role: "toolResult", toolCallId: "c1", activatedTools: [secret] });
    expect(r.session.messages[3]).not.toHaveProperty("activatedTools");
    expect(readWithGoRules(text).messages[2]!.content).toEqual([
      { kind: "tool_result", call_id: "c1", is_error: false, content: [{ kind: "text", text: "out c1" }] },
      { kind: "tool_result", call_id: "c2", is_error: false, content: [{ kind: "text", text: "out c2" }] },
    ]);
  });
});

describe("transcripts of earlier zot versions", () => {
  test("still load: session and model rows, typed blocks, toolResult messages (with their activated tools) and summed usage", () => {
    const path = join(home, "old.jsonl");
    writeFileSync(
      path,
      [
        { type: "session", version: 1, id: "abcd1234", cwd, created: "2026-11-29T19:15:00.000Z", provider: "mock", model: "mock-1" },
        { type: "message", message: { role: "user", content: [{ type: "text", text: "run it" }], ts: 1 } },
        {
          type: "message",
          message: {
            role: "assistant",
            content: [{ type: "toolCall", id: "t1", name: "bash", args: { command: "ls" } }],
            stop: "tool_use",
            provider: "mock",
            model: "mock-1",
            usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, cost: 0 },
            ts: 2,
          },
        },
        {
          type: "message",
          message: {
            role: "toolResult",
            toolCallId: "t1",
            toolName: "bash",
            content: [{ type: "text", text: "a.txt" }],
            isError: false,
            ts: 3,
            activatedTools: [{ name: "secret", description: "Tells the secret.", schema: { type: "object" } }],
          },
          intercept: { blocked_by: "guard", reason: "no" },
        },
        { type: "usage", usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, cost: 0.5 }, provider: "mock", model: "mock-1", ts: 4 },
        { type: "usage", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, cost: 0.25 }, provider: "mock", model: "mock-1", ts: 5 },
        { type: "model", provider: "openai", model: "gpt-x", ts: 6 },
      ]
        .map((r) => JSON.stringify(r))
        .join("\n") + "\n",
    );
    const r = openSession(path);
    if (!r.ok) throw new Error(r.error);
    expect(r.session.warnings).toEqual([]);
    expect(r.session.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
    expect(r.session.messages[2]).toMatchObject({ activatedTools: [{ name: "secret", description: "Tells the secret.", schema: { type: "object" } }] });
    expect(r.session.usage).toEqual({ input: 11, output: 6, cacheRead: 0, cacheWrite: 0, cost: 0.75 });
    expect(r.session).toMatchObject({ provider: "openai", model: "gpt-x", meta: { id: "abcd1234", started: "2026-11-29T19:15:00.000Z" } });
  });
});
