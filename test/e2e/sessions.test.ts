import { expect, test } from "bun:test";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { anthropic, FIXTURES, sessionFiles, useZotHome, ZOT, zotEnv } from "./zot.ts";
import { elements } from "../helpers/elements.ts";

const e2e = useZotHome();

test("a session killed with SIGKILL mid-tool-call resumes with --continue", async () => {
  const server = e2e.serve({ replies: [{ kind: "turn", text: "Starting.", toolCalls: [{ id: "toolu_hang", name: "hang", args: {} }] }] });
  const proc = Bun.spawn([ZOT, "--permission-mode", "yolo", "-p", ...anthropic(server), "-e", join(FIXTURES, "toolbox"), "first prompt"], {
    cwd: e2e.home,
    env: zotEnv(e2e.home),
    stdin: "ignore",
    stdout: "ignore",
    stderr: "ignore",
  });
  // The tool call is in the transcript once the assistant message line is written.
  for (;;) {
    const file = sessionFiles(e2e.home)[0];
    if (file && readFileSync(file, "utf8").includes("toolu_hang")) break;
    await Bun.sleep(20);
  }
  proc.kill("SIGKILL");
  await proc.exited;
  const [file] = elements(sessionFiles(e2e.home), 1);
  // As if the process had died in the middle of writing a line.
  appendFileSync(file, '{"type":"message","message":{"role":"us');

  server.push({ kind: "turn", text: "Resumed fine." });
  const r = await e2e.run(["-p", ...anthropic(server), "--continue", "second prompt"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("Resumed fine.\n");
  expect(r.stderr).toContain("was cut off mid-write");
  const body = JSON.stringify((server.requests[1]!.body as { messages: unknown }).messages);
  expect(body).toContain("first prompt");
  expect(body).toContain("toolu_hang");
  expect(body).toContain("aborted");
  expect(body).toContain("second prompt");
  expect(sessionFiles(e2e.home)).toEqual([file]);
});

test("--session PATH resumes that transcript and --resume lists it", async () => {
  const server = e2e.serve({
    replies: [
      { kind: "turn", text: "one" },
      { kind: "turn", text: "two" },
    ],
  });
  expect((await e2e.run(["-p", ...anthropic(server), "remember the word kiwi"])).code).toBe(0);
  const [file] = elements(sessionFiles(e2e.home), 1);
  const listed = await e2e.run(["--resume"]);
  expect(listed.code).toBe(0);
  expect(listed.stdout).toContain(file);
  const r = await e2e.run(["-p", ...anthropic(server), "--session", file, "what was the word?"]);
  expect(r.stdout).toBe("two\n");
  expect(JSON.stringify(server.requests[1]!.body)).toContain("remember the word kiwi");
});

test("--no-session writes nothing", async () => {
  const r = await e2e.run(["-p", "--provider", "mock", "--no-session", "hi"]);
  expect(r.code).toBe(0);
  expect(sessionFiles(e2e.home)).toEqual([]);
});

test("--continue without an earlier session starts a new one with a notice", async () => {
  const r = await e2e.run(["-p", "--provider", "mock", "--continue", "hi"]);
  expect(r.code).toBe(0);
  expect(r.stderr).toContain("No earlier session");
  expect(sessionFiles(e2e.home).length).toBe(1);
});

test("transcripts never contain the API key", async () => {
  const server = e2e.serve({
    replies: [
      { kind: "turn", toolCalls: [{ name: "bash", args: { command: "echo $MY_KEY_ECHO" } }] },
      { kind: "turn", text: "ok" },
    ],
  });
  const key = "sk-test-very-secret-key-123456";
  await e2e.run(["-p", "--provider", "anthropic", "--base-url", server.url, "--api-key", key, "hi"], { env: { MY_KEY_ECHO: key } });
  const text = readFileSync(sessionFiles(e2e.home)[0]!, "utf8");
  expect(text).not.toContain(key);
});

test("--session with a missing file, a directory or a file that is no transcript fails with one clear sentence", async () => {
  const missing = await e2e.run(["-p", "--provider", "mock", "--session", join(e2e.home, "gone.jsonl"), "hi"]);
  expect(missing).toMatchObject({ code: 1, stdout: "" });
  expect(missing.stderr).toContain(
    `zot: Session file ${join(e2e.home, "gone.jsonl")} does not exist; run "zot --resume" to list the sessions of this directory.`,
  );
  const dir = await e2e.run(["-p", "--provider", "mock", "--session", e2e.home, "hi"]);
  expect(dir.code).toBe(1);
  expect(dir.stderr).toContain("is a directory");
  writeFileSync(join(e2e.home, "garbage.jsonl"), "not json at all\n\u0000\u0001\n");
  const garbage = await e2e.run(["-p", "--provider", "mock", "--session", join(e2e.home, "garbage.jsonl"), "hi"]);
  expect(garbage.code).toBe(1);
  expect(garbage.stderr).toContain("is not a zot session transcript");
  expect(sessionFiles(e2e.home)).toEqual([]);
});
