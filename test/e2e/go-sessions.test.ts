// A Go zot user switches: their sessions continue in zot, and what zot appends the Go zot reads back.
import { sessionDir } from "../../src/platform/home.ts";
import { expect, test } from "bun:test";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readWithGoRules } from "../helpers/go-session-rules.ts";
import { ROOT, sessionFiles, useZotHome } from "./zot.ts";

const GO_SESSION = join(ROOT, "test/fixtures/zot-go/session-tool-call-continued.jsonl");

const e2e = useZotHome();

/** The recorded Go transcript as the newest session of `e2e.home` (the cwd of these runs). */
function placeGoSession(): string {
  const dir = sessionDir(e2e.home, e2e.home);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "20261201-073011-bed10963.jsonl");
  writeFileSync(path, readFileSync(GO_SESSION, "utf8").replace('"cwd":"/home/user/proj"', `"cwd":${JSON.stringify(e2e.home)}`));
  return path;
}

type Body = { model: string; messages: { role: string; content: { type: string; id?: string; tool_use_id?: string; text?: string }[] | string }[] };

test("zot -c continues the Go zot's newest session: one history, the model of its last meta, usage accumulating", async () => {
  const path = placeGoSession();
  const meta = JSON.parse(readFileSync(path, "utf8").split("\n")[0]!).meta;
  appendFileSync(path, JSON.stringify({ type: "meta", meta: { ...meta, model: "claude-haiku-4-5" } }) + "\n");
  const server = e2e.serve({ replies: [{ kind: "turn", text: "continued in zot", usage: { input: 100, output: 10 } }] });
  const r = await e2e.run(["-p", "-c", "--provider", "anthropic", "--base-url", server.url, "--api-key", "sk-test-go", "third prompt"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("continued in zot\n");

  const body = server.requests[0]!.body as Body;
  expect(body.model).toBe("claude-haiku-4-5");
  const flat = body.messages.map((m) => [
    m.role,
    ...(typeof m.content === "string" ? [m.content] : m.content.map((b) => b.type + ":" + (b.text ?? b.id ?? b.tool_use_id))),
  ]);
  expect(flat).toEqual([
    ["user", "text:first prompt"],
    ["assistant", "tool_use:toolu_mock_1"],
    ["user", "tool_result:toolu_mock_1"],
    ["assistant", "text:done: $ echo hello-from-tool\n\nhello-from-tool\n\n[exit 0]  Took 0.0s"],
    ["user", "text:second prompt"],
    ["assistant", "text:hello from mock"],
    ["user", "text:third prompt"],
  ]);

  expect(sessionFiles(e2e.home)).toEqual([path]);
  const go = readWithGoRules(readFileSync(path, "utf8"));
  expect(go.firstLineIsMeta).toBe(true);
  expect(go.stubs).toBe(0);
  expect(go.meta?.model).toBe("claude-haiku-4-5");
  expect(go.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "user", "assistant", "user", "assistant"]);
  expect(go.messages.at(-1)?.content).toEqual([{ kind: "text", text: "continued in zot" }]);
  // 300 input / 30 output tokens from the Go runs, plus this response's 100 / 10.
  expect(go.cumulative).toMatchObject({ input_tokens: 400, output_tokens: 40 });
});

test("zot --resume lists a Go session with its first prompt, model and message count", async () => {
  const path = placeGoSession();
  const r = await e2e.run(["--resume"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("6 msgs · claude-sonnet-4-5 · $0.00");
  expect(r.stdout).toContain("first prompt");
  expect(r.stdout).toContain(path);
});

test("zot rpc --session opens a Go session and get_messages shows its history", async () => {
  const path = placeGoSession();
  const rpc = e2e.rpc(["--provider", "mock", "--session", path]);
  try {
    const res = await rpc.request({ type: "get_messages" });
    const messages = (res.data as { messages: { role: string; content: Record<string, unknown>[] }[] }).messages;
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "user", "assistant"]);
    expect(messages[2]!.content).toEqual([
      {
        type: "tool_result",
        call_id: "toolu_mock_1",
        name: "bash",
        is_error: false,
        content: [{ type: "text", text: "$ echo hello-from-tool\n\nhello-from-tool\n\n[exit 0]  Took 0.0s" }],
      },
    ]);
    const state = await rpc.request({ type: "get_state" });
    expect(state.data).toMatchObject({ message_count: 6, session: path, usage: { input: 300, output: 30, cost_usd: 0.00135 } });
  } finally {
    await rpc.close();
  }
});

test("the Go zot's OpenAI reasoning goes back to the same model over Responses, and stays in the Go shape", async () => {
  const dir = sessionDir(e2e.home, e2e.home);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "20261201-080000-aaaaaaaa.jsonl");
  const reasoning = { reasoning_id: "rs_go_1", summary: "The user greets me.", encrypted_content: "gAAAA-go-encrypted" };
  const rows = [
    {
      type: "meta",
      meta: {
        id: "aaaaaaaa-1111-4111-8111-111111111111",
        cwd: e2e.home,
        model: "gpt-6.2-sol",
        provider: "openai",
        started: "2026-12-01T08:00:00Z",
        version: "0.1.62",
      },
    },
    { type: "message", message: { role: "user", content: [{ text: "hi" }], time: "2026-12-01T08:00:01Z" } },
    { type: "message", message: { role: "assistant", content: [reasoning, { text: "hello" }], time: "2026-12-01T08:00:02Z" } },
  ];
  writeFileSync(path, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  const server = e2e.serve({ replies: [{ kind: "turn", text: "again" }] });
  const r = await e2e.run(["-p", "--provider", "openai", "--api-key", "sk-proj-go", "--base-url", `${server.url}/v1`, "-c", "more"]);
  expect(r).toMatchObject({ code: 0, stdout: "again\n" });
  const input = (server.requests[0]!.body as { input: Record<string, unknown>[] }).input;
  expect(input.map((i) => i.type ?? i.role)).toEqual(["user", "reasoning", "message", "user"]);
  expect(input[1]).toEqual({ type: "reasoning", summary: [{ type: "summary_text", text: "The user greets me." }], encrypted_content: "gAAAA-go-encrypted" });
  // zot's rows keep the block as the Go zot wrote it, so the Go zot can go on with it too.
  const go = readWithGoRules(readFileSync(path, "utf8"));
  expect(go.messages.map((m) => m.content[0])).toEqual([
    { kind: "text", text: "hi" },
    { kind: "reasoning", id: "rs_go_1" },
    { kind: "text", text: "more" },
    { kind: "text", text: "again" },
  ]);
});
