import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ProviderServer } from "../helpers/provider-server.ts";
import { anthropic, FIXTURES, jsonLines, useZotHome, ZOT, zotEnv } from "./zot.ts";

const e2e = useZotHome();

type Body = { tools?: { name: string }[]; messages: { role: string; content: unknown }[] };
const toolNames = (s: ProviderServer, i: number) => ((s.requests[i]!.body as Body).tools ?? []).map((t) => t.name);

describe("print mode", () => {
  test("prints the mock provider's answer on stdout and exits 0", async () => {
    const r = await e2e.run(["-p", "--provider", "mock", "hello there"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("mock: hello there\n");
  });

  test("appends piped stdin after the prompt argument", async () => {
    const r = await e2e.run(["-p", "--provider", "mock", "summarise"], { stdin: "line from stdin\n" });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("mock: summarise\n\nline from stdin\n");
  });

  test("takes the whole prompt from stdin when no argument is given", async () => {
    const r = await e2e.run(["-p", "--provider", "mock"], { stdin: "only stdin" });
    expect(r.stdout).toBe("mock: only stdin\n");
  });

  test("runs a bash call from a real provider stream and prints only the final answer on stdout", async () => {
    const server = e2e.serve({
      replies: [
        { kind: "turn", toolCalls: [{ name: "bash", args: { command: "echo from-bash" } }] },
        { kind: "turn", text: "The command printed from-bash." },
      ],
    });
    const r = await e2e.run(["-p", ...anthropic(server), "run it"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("The command printed from-bash.\n");
    expect(r.stderr).toContain("[tool] bash");
    expect(r.stderr).toContain("from-bash");
    const second = server.requests[1]!.body as Body;
    expect(JSON.stringify(second.messages)).toContain("from-bash");
  });

  test("drives an OpenAI-compatible server given by --base-url with /v1", async () => {
    const server = e2e.serve({
      replies: [
        { kind: "turn", toolCalls: [{ name: "bash", args: { command: "echo via-openai" } }] },
        { kind: "turn", text: "openai done" },
      ],
    });
    const r = await e2e.run(["-p", "--provider", "openai", "--model", "gpt-test", "--base-url", server.openaiBase, "--api-key", "sk-test-e2e-key-000", "go"]);
    expect(r).toMatchObject({ code: 0, stdout: "openai done\n" });
    expect(server.requests.map((q) => q.path)).toEqual(["/v1/chat/completions", "/v1/chat/completions"]);
    expect(JSON.stringify(server.requests[1]!.body)).toContain("via-openai");
  });

  test("offers extension tools with their schemas and returns their results to the model", async () => {
    const server = e2e.serve({
      replies: [
        { kind: "turn", toolCalls: [{ name: "weather", args: { city: "Berlin" } }] },
        { kind: "turn", text: "It is foggy." },
      ],
    });
    const r = await e2e.run(["--permission-mode", "yolo", "-p", ...anthropic(server), "-e", join(FIXTURES, "toolbox"), "weather?"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("It is foggy.\n");
    const first = server.requests[0]!.body as { tools: { name: string; input_schema: unknown }[] };
    const weather = first.tools.find((t) => t.name === "weather");
    expect(weather?.input_schema).toEqual({ type: "object", properties: { city: { type: "string" } }, required: ["city"] });
    expect(JSON.stringify((server.requests[1]!.body as Body).messages)).toContain("Berlin: 16C, fog");
  });

  test("calls a tool of an extension written in Python", async () => {
    const server = e2e.serve({
      replies: [
        { kind: "turn", toolCalls: [{ name: "shout", args: { text: "quiet" } }] },
        { kind: "turn", text: "ok" },
      ],
    });
    const r = await e2e.run(["--permission-mode", "yolo", "--json", ...anthropic(server), "-e", join(FIXTURES, "pynote"), "shout"]);
    expect(r.code).toBe(0);
    const result = jsonLines(r.stdout).find((e) => e.type === "tool_result");
    expect(result).toMatchObject({ name: "shout", extension: "pynote", is_error: false, content: [{ type: "text", text: "QUIET" }] });
  });

  test("keeps a deferred tool hidden (defer_loading) until its activation, which a tool_reference expands", async () => {
    const server = e2e.serve({
      replies: [
        { kind: "turn", toolCalls: [{ name: "loader", args: {} }] },
        { kind: "turn", toolCalls: [{ name: "secret", args: {} }] },
        { kind: "turn", text: "done" },
      ],
    });
    const r = await e2e.run(["--permission-mode", "yolo", "-p", ...anthropic(server), "-e", join(FIXTURES, "toolbox"), "go"]);
    expect(r.code).toBe(0);
    expect(toolNames(server, 0)).toContain("loader");
    // Anthropic tool search: the model cannot see a defer_loading tool until a tool_reference names it.
    const hidden = (i: number) =>
      ((server.requests[i]!.body as { tools: { name: string; defer_loading?: boolean }[] }).tools ?? []).find((t) => t.name === "secret");
    expect(hidden(0)?.defer_loading).toBe(true);
    expect(hidden(1)?.defer_loading).toBe(true);
    expect(JSON.stringify((server.requests[1]!.body as Body).messages)).toContain('{"type":"tool_reference","tool_name":"secret"}');
    expect(JSON.stringify((server.requests[2]!.body as Body).messages)).toContain("the secret is 42");
  });

  test("continues the turn with an error result when an extension dies during its tool call", async () => {
    const server = e2e.serve({
      replies: [
        { kind: "turn", toolCalls: [{ name: "explode", args: {} }] },
        { kind: "turn", text: "The tool broke." },
      ],
    });
    const r = await e2e.run(["--permission-mode", "yolo", "--json", ...anthropic(server), "-e", join(FIXTURES, "crasher"), "go"]);
    expect(r.code).toBe(0);
    const result = jsonLines(r.stdout).find((e) => e.type === "tool_result") as { is_error: boolean; extension: string; content: { text: string }[] };
    expect(result.is_error).toBe(true);
    expect(result.extension).toBe("crasher");
    expect(result.content[0]!.text).toContain('extension "crasher" exited with exit code 7');
    expect(server.requests.length).toBe(2);
  });

  test("exits 1 with one clear sentence when the provider rejects the key", async () => {
    const server = e2e.serve({
      replies: [{ kind: "status", status: 401, body: '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}' }],
    });
    const r = await e2e.run(["-p", ...anthropic(server), "hi"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^zot: .*API key was rejected by anthropic/m);
    expect(r.stderr).not.toContain("sk-test-e2e-key-000");
  });

  test("runs a --mock-script and reports a clear error when it runs out", async () => {
    const script = join(e2e.home, "script.jsonl");
    writeFileSync(script, `${JSON.stringify({ tool_calls: [{ name: "bash", args: { command: "echo scripted" } }] })}\n`);
    const r = await e2e.run(["-p", "--mock-script", script, "go"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("scripted");
    expect(r.stderr).toMatch(/zot: .*mock script .* has no response left/);
  });

  test("stops at --max-steps with exit 1", async () => {
    const script = join(e2e.home, "loop.jsonl");
    const call = JSON.stringify({ tool_calls: [{ name: "bash", args: { command: "true" } }] });
    writeFileSync(script, `${call}\n${call}\n${call}\n`);
    const r = await e2e.run(["-p", "--mock-script", script, "--max-steps", "2", "go"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("zot: stopped after 2 model calls (--max-steps 2)");
  });
});

describe("slash commands in print mode", () => {
  const ext = () => ["-p", "--provider", "mock", "-e", join(FIXTURES, "toolbox")];

  test("prints a display response on stdout", async () => {
    const r = await e2e.run([...ext(), "/greet world"]);
    expect(r).toMatchObject({ code: 0, stdout: "hello world\n" });
  });

  test("prints an insert response", async () => {
    const r = await e2e.run([...ext(), "/ins this"]);
    expect(r).toMatchObject({ code: 0, stdout: "inserted this\n" });
  });

  test("runs the turn a prompt response asks for", async () => {
    const r = await e2e.run([...ext(), "/ask something"]);
    expect(r).toMatchObject({ code: 0, stdout: "mock: asked: something\n" });
  });

  test("prints an opened panel's title and lines once", async () => {
    const r = await e2e.run([...ext(), "/panel"]);
    expect(r).toMatchObject({ code: 0, stdout: "Todos\nfirst\nsecond\nesc closes\n" });
  });

  test("reports a command error on stderr with exit 1", async () => {
    const r = await e2e.run([...ext(), "/fail"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("zot: /fail (toolbox): it failed on purpose");
  });

  test("shows extension notes on stderr, not stdout", async () => {
    const r = await e2e.run([...ext(), "/noisy"]);
    expect(r).toMatchObject({ code: 0, stdout: "" });
    expect(r.stderr).toContain("[toolbox] warn: note from toolbox");
  });

  test("names the available commands when the command is unknown", async () => {
    const r = await e2e.run([...ext(), "/nope"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("zot: unknown command /nope");
    expect(r.stderr).toContain("/greet");
  });

  test("sends a prompt that only looks like a path to the model", async () => {
    const r = await e2e.run(["-p", "--provider", "mock", "/tmp/x explain"]);
    expect(r).toMatchObject({ code: 0, stdout: "mock: /tmp/x explain\n" });
  });
});

describe("slash commands in JSON mode", () => {
  const ext = () => ["--json", "--provider", "mock", "-e", join(FIXTURES, "toolbox")];
  // After the start event every run begins with (see sandbox-report.test.ts).
  const events = (stdout: string) => {
    const all = jsonLines(stdout);
    expect(all[0]?.type).toBe("start");
    return all.slice(1);
  };
  const types = (stdout: string) => events(stdout).map((e) => e.type);

  test("a display response is a command_result, an ext_display and a done carrying the text", async () => {
    const r = await e2e.run([...ext(), "/greet world"]);
    expect(r.code).toBe(0);
    expect(events(r.stdout)).toEqual([
      { type: "command_result", name: "greet", extension: "toolbox", action: "display", display: "hello world" },
      { type: "ext_display", extension: "toolbox", text: "hello world" },
      { type: "done", stop: "end_turn", text: "hello world", steps: 0 },
    ]);
  });

  test("a prompt response runs that turn with its events", async () => {
    const r = await e2e.run([...ext(), "/ask something"]);
    expect(r.code).toBe(0);
    expect(types(r.stdout).slice(0, 3)).toEqual(["command_result", "user_message", "turn_start"]);
    expect(jsonLines(r.stdout).at(-1)).toMatchObject({ type: "done", stop: "end_turn", text: "mock: asked: something" });
  });

  test("an opened panel is reported once and closed", async () => {
    const r = await e2e.run([...ext(), "/panel"]);
    expect(jsonLines(r.stdout).at(-1)).toEqual({ type: "done", stop: "end_turn", text: "Todos\nfirst\nsecond\nesc closes", steps: 0 });
  });

  test("a command error and an unknown command end with an error event and exit 1, without a model call", async () => {
    const failed = await e2e.run([...ext(), "/fail"]);
    expect(failed.code).toBe(1);
    expect(jsonLines(failed.stdout).at(-1)).toEqual({ type: "done", stop: "error", text: "", steps: 0, error: "/fail (toolbox): it failed on purpose" });
    const unknown = await e2e.run([...ext(), "/nope"]);
    expect(unknown.code).toBe(1);
    expect(types(unknown.stdout)).toEqual(["error", "done"]);
    expect(String(events(unknown.stdout)[0]?.message)).toContain("unknown command /nope (extension commands: /greet");
  });
});

describe("output to a slow reader", () => {
  test("JSON mode delivers every line even when the reader only starts after zot has finished writing", async () => {
    const proc = Bun.spawn([ZOT, "--permission-mode", "yolo", "--json", "--provider", "mock", "--no-session", 'call bash {"command":"seq 1 200000"}'], {
      cwd: e2e.home,
      env: zotEnv(e2e.home),
      stdin: "ignore",
      stdout: "pipe",
      stderr: "ignore",
    });
    // Let zot fill the pipe and reach its end before anything is read.
    await Bun.sleep(500);
    const [text, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(0);
    const events = jsonLines(text);
    expect(events.at(-1)).toMatchObject({ type: "done", stop: "end_turn" });
    const progress = events
      .filter((e) => e.type === "tool_progress")
      .map((e) => String(e.text))
      .join("");
    expect(progress.endsWith("199999\n200000\n")).toBe(true);
  });
});

test("a reader that goes away early is no crash", async () => {
  const proc = Bun.spawn([ZOT, "--json", "--provider", "mock", "--no-session", 'call bash {"command":"seq 1 100000"}'], {
    cwd: e2e.home,
    env: zotEnv(e2e.home),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  await reader.read();
  await reader.cancel();
  const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  expect(code).toBe(0);
  expect(stderr).not.toContain("internal error");
});
