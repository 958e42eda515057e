// Sessions are safe with two writers: a transcript has one writer (a flock on the file), a second
// `zot -c` forks a new session from it, an explicit --session fails clearly, a loaded transcript
// is always a valid conversation, and a signal mid-answer saves the partial answer.
import { sessionDir } from "../../src/platform/home.ts";
import { expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonLines, sessionFiles, useZotHome, ZOT, zotEnv } from "./zot.ts";

const e2e = useZotHome();
/** The zot `holdSession` started in this test. */
let holder: ReturnType<typeof Bun.spawn>;

/** A zot that keeps its session open (a bash call that sleeps) until killed (at the latest after the test). */
async function holdSession(): Promise<string> {
  const proc = Bun.spawn([ZOT, "--permission-mode", "yolo", "-p", "--provider", "mock", `call bash {"command":"sleep 30"}`], {
    cwd: e2e.home,
    env: zotEnv(e2e.home),
    stdin: "ignore",
    stdout: "ignore",
    stderr: "ignore",
  });
  holder = proc;
  e2e.defer(async () => {
    proc.kill("SIGKILL");
    await proc.exited;
  });
  for (;;) {
    const file = sessionFiles(e2e.home)[0];
    // The tool call is written: the holder now waits in the bash call and writes nothing more.
    if (file && readFileSync(file, "utf8").includes(`"arguments":{"command":"sleep 30"}`)) return file;
    await Bun.sleep(20);
  }
}

const records = (file: string) => jsonLines(readFileSync(file, "utf8"));

test("a second zot -c while the session is being written forks a new session, leaving the first untouched", async () => {
  const first = await holdSession();
  const before = readFileSync(first, "utf8");
  const r = await e2e.run(["-p", "--provider", "mock", "-c", "second writer"]);
  expect(r.code).toBe(0);
  const files = sessionFiles(e2e.home);
  expect(files).toHaveLength(2);
  const fork = files.find((f) => f !== first) as string;
  expect(r.stderr).toContain(`zot: ${first} is open in another zot process, which holds its lock; continuing in a new session forked from it: ${fork}\n`);
  expect(readFileSync(first, "utf8")).toBe(before);
  // The fork names the session it copied as its parent, so /session tree shows them together.
  expect(records(fork)[0]).toMatchObject({ type: "meta", meta: { parent: (records(first)[0]!.meta as { id: string }).id } });
  const text = JSON.stringify(records(fork));
  expect(text).toContain("sleep 30");
  expect(text).toContain("second writer");
});

test("--session naming a transcript another zot is writing fails with a clear error", async () => {
  const first = await holdSession();
  const r = await e2e.run(["-p", "--provider", "mock", "--session", first, "intruder"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toBe(
    `zot: Cannot continue ${first}: it is open in another zot process, which holds its lock; wait for that zot to exit, or run zot -c to continue in a new session forked from it.\n`,
  );
  expect(readFileSync(first, "utf8")).not.toContain("intruder");
});

test("the lock goes with its holder, even after kill -9: the next zot -c continues the same file", async () => {
  const first = await holdSession();
  holder?.kill("SIGKILL");
  await holder?.exited;
  const r = await e2e.run(["-p", "--provider", "mock", "-c", "after the crash"]);
  expect(r.code).toBe(0);
  expect(r.stderr).not.toContain("forked");
  expect(sessionFiles(e2e.home)).toEqual([first]);
  expect(readFileSync(first, "utf8")).toContain("after the crash");
});

test("a transcript with a result that has no call, and a call without its result, resumes as a valid conversation", async () => {
  const dir = sessionDir(e2e.home, e2e.home);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "20260101T000000Z-abcd.jsonl");
  const msg = (message: object) => JSON.stringify({ type: "message", message });
  writeFileSync(
    file,
    [
      JSON.stringify({
        type: "session",
        version: 1,
        id: "abcd",
        cwd: e2e.home,
        created: "2026-01-01T00:00:00.000Z",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
      }),
      msg({ role: "user", content: [{ type: "text", text: "first" }], ts: 1 }),
      msg({
        role: "assistant",
        content: [{ type: "toolCall", id: "toolu_a", name: "bash", args: { command: "ls" } }],
        stop: "tool_use",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 },
        ts: 2,
      }),
      msg({ role: "user", content: [{ type: "text", text: "the other writer's prompt" }], ts: 3 }),
      msg({ role: "toolResult", toolCallId: "toolu_a", toolName: "bash", content: [{ type: "text", text: "late result" }], isError: false, ts: 4 }),
      msg({ role: "toolResult", toolCallId: "toolu_ghost", toolName: "bash", content: [{ type: "text", text: "no call" }], isError: false, ts: 5 }),
    ].join("\n") + "\n",
  );
  const server = e2e.serve({ replies: [{ kind: "turn", text: "valid again" }] });
  const r = await e2e.run(["-p", "--provider", "anthropic", "--base-url", server.url, "--api-key", "sk-test-e2e", "-c", "go on"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("valid again\n");
  expect(r.stderr).toContain("had 2 tool results without a matching call");
  const messages = (server.requests[0]!.body as { messages: { role: string; content: { type: string; id?: string; tool_use_id?: string }[] }[] }).messages;
  const uses = messages.flatMap((m) => m.content.filter((b) => b.type === "tool_use").map((b) => b.id));
  const results = messages.flatMap((m) => m.content.filter((b) => b.type === "tool_result").map((b) => b.tool_use_id));
  expect(uses).toEqual(["toolu_a"]);
  expect(results).toEqual(["toolu_a"]);
  // The result sits right after its call.
  const callAt = messages.findIndex((m) => m.content.some((b) => b.type === "tool_use"));
  expect(messages[callAt + 1]!.content[0]!.type).toBe("tool_result");
});

for (const mode of ["-p", "--json"] as const) {
  test(`${mode} interrupted by SIGTERM after text streamed saves the partial answer${mode === "--json" ? " and ends with turn_end and done" : ""}`, async () => {
    const server = e2e.serve({ replies: [{ kind: "turn", text: "partial words then more that never come", stallAfter: 4 }] });
    const proc = Bun.spawn([ZOT, mode, "--provider", "anthropic", "--base-url", server.url, "--api-key", "sk-test-e2e", "tell me"], {
      cwd: e2e.home,
      env: zotEnv(e2e.home),
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    const out = new Response(proc.stdout).text();
    // The stall point: the request arrived and the first events were sent.
    while (server.requests.length === 0) await Bun.sleep(20);
    for (;;) {
      const file = sessionFiles(e2e.home)[0];
      if (file && readFileSync(file, "utf8").includes("tell me")) break;
      await Bun.sleep(20);
    }
    await Bun.sleep(300);
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(143);
    const saved = records(sessionFiles(e2e.home)[0]!)
      .filter((r) => r.type === "message")
      .map((r) => r.message as { role: string; stop?: string; content: { text?: string }[] });
    // The partial reply, then the interruption record that tells the model (and a resume) why it ends there.
    expect(saved.at(-1)).toMatchObject({ role: "user", content: [{ text: "[interrupted by user]" }] });
    const last = saved.at(-2);
    expect(last?.role).toBe("assistant");
    expect(last?.stop).toBe("aborted");
    expect(last?.content[0]?.text).toStartWith("partial");
    if (mode === "--json") {
      const events = jsonLines(await out);
      expect(events.at(-2)).toMatchObject({ type: "turn_end", stop: "aborted" });
      expect(events.at(-1)).toMatchObject({ type: "done", stop: "aborted" });
    }
  });
}
