import { afterEach, beforeEach, expect, test } from "bun:test";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startProviderServer, type ProviderServer } from "../helpers/provider-server.ts";
import { FIXTURES, runZot, sessionFiles, tempDir, ZOT, zotEnv } from "./zot.ts";

let home: string;
let cleanup: () => void;
let server: ProviderServer;

beforeEach(() => {
  ({ dir: home, cleanup } = tempDir());
});
afterEach(async () => {
  await server?.stop();
  cleanup();
});

const anthropic = () => ["--provider", "anthropic", "--base-url", server.url, "--api-key", "sk-test-e2e"];

test("a session killed with SIGKILL mid-tool-call resumes with --continue", async () => {
  server = startProviderServer({ replies: [{ kind: "turn", text: "Starting.", toolCalls: [{ id: "toolu_hang", name: "hang", args: {} }] }] });
  const proc = Bun.spawn([ZOT, "-p", ...anthropic(), "-e", join(FIXTURES, "toolbox"), "first prompt"], {
    cwd: home,
    env: zotEnv(home),
    stdin: "ignore",
    stdout: "ignore",
    stderr: "ignore",
  });
  // The tool call is in the transcript once the assistant message line is written.
  for (;;) {
    const file = sessionFiles(home)[0];
    if (file && readFileSync(file, "utf8").includes("toolu_hang")) break;
    await Bun.sleep(20);
  }
  proc.kill("SIGKILL");
  await proc.exited;
  const [file] = sessionFiles(home);
  // As if the process had died in the middle of writing a line.
  appendFileSync(file, '{"type":"message","message":{"role":"us');

  server.push({ kind: "turn", text: "Resumed fine." });
  const r = await runZot(["-p", ...anthropic(), "--continue", "second prompt"], { home });
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("Resumed fine.\n");
  expect(r.stderr).toContain("was cut off mid-write");
  const body = JSON.stringify((server.requests[1].body as { messages: unknown }).messages);
  expect(body).toContain("first prompt");
  expect(body).toContain("toolu_hang");
  expect(body).toContain("aborted");
  expect(body).toContain("second prompt");
  expect(sessionFiles(home)).toEqual([file]);
});

test("--session PATH resumes that transcript and --resume lists it", async () => {
  server = startProviderServer({ replies: [{ kind: "turn", text: "one" }, { kind: "turn", text: "two" }] });
  expect((await runZot(["-p", ...anthropic(), "remember the word kiwi"], { home })).code).toBe(0);
  const [file] = sessionFiles(home);
  const listed = await runZot(["--resume"], { home });
  expect(listed.code).toBe(0);
  expect(listed.stdout).toContain(file);
  const r = await runZot(["-p", ...anthropic(), "--session", file, "what was the word?"], { home });
  expect(r.stdout).toBe("two\n");
  expect(JSON.stringify(server.requests[1].body)).toContain("remember the word kiwi");
});

test("--no-session writes nothing", async () => {
  const r = await runZot(["-p", "--provider", "mock", "--no-session", "hi"], { home });
  expect(r.code).toBe(0);
  expect(sessionFiles(home)).toEqual([]);
});

test("--continue without an earlier session starts a new one with a notice", async () => {
  const r = await runZot(["-p", "--provider", "mock", "--continue", "hi"], { home });
  expect(r.code).toBe(0);
  expect(r.stderr).toContain("No earlier session");
  expect(sessionFiles(home).length).toBe(1);
});

test("transcripts never contain the API key", async () => {
  server = startProviderServer({ replies: [{ kind: "turn", toolCalls: [{ name: "bash", args: { command: "echo $MY_KEY_ECHO" } }] }, { kind: "turn", text: "ok" }] });
  const key = "sk-test-very-secret-key-123456";
  await runZot(["-p", "--provider", "anthropic", "--base-url", server.url, "--api-key", key, "hi"], { home, env: { MY_KEY_ECHO: key } });
  const text = readFileSync(sessionFiles(home)[0], "utf8");
  expect(text).not.toContain(key);
});

test("--session with a missing file, a directory or a file that is no transcript fails with one clear sentence", async () => {
  const missing = await runZot(["-p", "--provider", "mock", "--session", join(home, "gone.jsonl"), "hi"], { home });
  expect(missing).toMatchObject({ code: 1, stdout: "" });
  expect(missing.stderr).toContain(`zot: Session file ${join(home, "gone.jsonl")} does not exist; run "zot --resume" to list the sessions of this directory.`);
  const dir = await runZot(["-p", "--provider", "mock", "--session", home, "hi"], { home });
  expect(dir.code).toBe(1);
  expect(dir.stderr).toContain("is a directory");
  writeFileSync(join(home, "garbage.jsonl"), "not json at all\n\u0000\u0001\n");
  const garbage = await runZot(["-p", "--provider", "mock", "--session", join(home, "garbage.jsonl"), "hi"], { home });
  expect(garbage.code).toBe(1);
  expect(garbage.stderr).toContain("is not a zot session transcript");
  expect(sessionFiles(home)).toEqual([]);
});
