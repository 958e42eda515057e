import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { matches, parseScript, prepareSend } from "../../src/ext/harness-script.ts";
import { runHarness, type HarnessOptions, type HarnessReport } from "../../src/ext/harness.ts";
import { cli, FIXTURES, tempDir } from "./cli-helpers.ts";

const H = join(FIXTURES, "harness");

async function run(name: string, script = "", extra: Pick<HarnessOptions, "timings"> = {}): Promise<HarnessReport> {
  const parsed = parseScript(script, "inline.jsonl");
  if (!parsed.ok) throw new Error(parsed.error);
  const home = tempDir();
  return runHarness({ dir: join(H, name), steps: parsed.steps, home, cwd: home, zotVersion: "test", ...extra });
}

function step(r: HarnessReport, name: string) {
  const s = r.steps.find((x) => x.name === name);
  if (!s) throw new Error(`no step ${name} in ${r.steps.map((x) => x.name).join(", ")}`);
  return s;
}

describe("script format", () => {
  test("parses send, expect, expect_none and sleep lines, skipping comments and blanks", () => {
    const r = parseScript(
      [
        "# comment",
        "",
        "// also a comment",
        '{"send":{"type":"tool_call","name":"x","args":{}}}',
        '{"expect":{"type":"tool_result"},"within_ms":10,"name":"got it"}',
        '{"expect_none":{"type":"notify"}}',
        '{"sleep_ms":5}',
      ].join("\n"),
      "s.jsonl",
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.steps.map((s) => [s.kind, s.line, s.name])).toEqual([
      ["send", 4, null],
      ["expect", 5, "got it"],
      ["expect_none", 6, null],
      ["sleep", 7, null],
    ]);
  });

  test("rejects bad lines with the file and line number", () => {
    const bad = [
      '{"send": 1}',
      "{nope",
      '{"expect":{}, "send":{"type":"x"}}',
      '{"sleep_ms":-1}',
      '{"expect":{"type":"x"},"within_ms":"soon"}',
      '{"expekt":{}}',
      '{"send":{"type":"ready"},"within_ms":5}',
    ];
    for (const line of bad) {
      const r = parseScript(`\n${line}\n`, "s.jsonl");
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toContain("s.jsonl:2");
    }
  });

  test("request frames get generated ids, type and id first, and $last_id is substituted", () => {
    let n = 0;
    const next = () => `id${++n}`;
    const a = prepareSend({ name: "x", type: "tool_call", args: {} }, null, next);
    expect(JSON.stringify(a.frame)).toBe('{"type":"tool_call","id":"id1","name":"x","args":{}}');
    const b = prepareSend({ type: "tool_cancel", id: "$last_id" }, a.id, next);
    expect(b.frame).toEqual({ type: "tool_cancel", id: "id1" });
    const c = prepareSend({ type: "panel_key", panel_id: "p", key: "up" }, null, next);
    expect(c.frame).toEqual({ type: "panel_key", panel_id: "p", key: "up" });
    expect(prepareSend({ type: "command_invoked", id: "mine", name: "n", args: "" }, null, next).id).toBe("mine");
    expect(prepareSend({ type: "shutdown", id: "$auto" }, null, next).id).toBe("id2");
  });

  test("subset matching: objects by subset, arrays element-wise with equal length, scalars exactly", () => {
    expect(matches({ type: "a" }, { type: "a", extra: 1 })).toBe(true);
    expect(matches({ a: { b: 1 } }, { a: { b: 1, c: 2 } })).toBe(true);
    expect(matches({ a: [{ t: 1 }] }, { a: [{ t: 1, u: 2 }] })).toBe(true);
    expect(matches({ a: [1] }, { a: [1, 2] })).toBe(false);
    expect(matches({ a: null }, {})).toBe(false);
    expect(matches({ a: null }, { a: null })).toBe(true);
    expect(matches({ a: 1 }, { a: "1" })).toBe(false);
  });
});

describe("runHarness", () => {
  test("a well-behaved extension passes the handshake and every script step", async () => {
    const r = await run("good", readFileSync(join(H, "good", "good.jsonl"), "utf8"));
    expect(r.steps.filter((s) => s.status !== "pass")).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.registrations).toEqual({ commands: ["greet"], tools: [{ name: "echo", deferred: false }], events: ["turn_end"], intercept: ["tool_call"] });
    expect(r.steps.map((s) => s.kind)).toEqual([
      "handshake",
      "handshake",
      "handshake",
      "handshake",
      "conformance",
      "send",
      "expect",
      "send",
      "expect",
      "send",
      "expect",
      "send",
      "expect",
      "expect_none",
      "sleep",
      "conformance",
      "shutdown",
    ]);
    expect(step(r, "call echo").line).toBe(5);
  });

  test("a line before hello fails the handshake, quoting it, and skips the script", async () => {
    const r = await run("junk", '{"send":{"type":"shutdown"}}');
    expect(r.ok).toBe(false);
    const hello = step(r, "hello is the first line");
    expect(hello.status).toBe("fail");
    expect(hello.detail).toContain("Starting junk extension...");
    expect(step(r, "send shutdown").status).toBe("skip");
    expect(step(r, "stdout carries only frames").status).toBe("fail");
  });

  test("a hello with another name fails", async () => {
    const r = await run("mismatch");
    const s = step(r, "hello.name matches the manifest");
    expect(s.status).toBe("fail");
    expect(s.detail).toContain("someone-else");
  });

  test("an exit before hello reports the exit code and the log path", async () => {
    const r = await run("early-exit");
    const s = step(r, "hello is the first line");
    expect(s.status).toBe("fail");
    expect(s.detail).toContain("exit code 3");
    expect(s.detail).toContain(r.log);
    expect(readFileSync(r.log, "utf8")).toContain("cannot start: missing config");
  });

  test("registration without ready is a warning, and so is exiting without shutdown_ack", async () => {
    const r = await run("no-ready");
    expect(r.ok).toBe(true);
    expect(step(r, "registration completes with ready").status).toBe("warn");
    expect(step(r, "exits on shutdown").status).toBe("warn");
    expect(r.registrations.commands).toEqual(["legacy"]);
  });

  test("a missing answer fails its expect step, reports what did arrive, and skips the rest", async () => {
    const r = await run(
      "good",
      [
        '{"send":{"type":"command_invoked","name":"greet","args":"x"}}',
        '{"send":{"type":"command_invoked","name":"greet","args":"y"}}',
        // Answers come in order, so once "hi y" is here, "hi x" is waiting unmatched.
        '{"expect":{"type":"command_response","display":"hi y"}}',
        '{"expect":{"type":"command_response","display":"nope"},"within_ms":50,"name":"the missing one"}',
        '{"sleep_ms":1}',
      ].join("\n"),
    );
    expect(r.ok).toBe(false);
    const s = step(r, "the missing one");
    expect(s.status).toBe("fail");
    expect(s.detail).toContain("hi x");
    expect(step(r, "sleep 1 ms").status).toBe("skip");
    expect(step(r, "exits on shutdown").status).toBe("pass");
  });

  test("a send step with a frame the host would never send fails, naming the field, and skips the rest", async () => {
    const r = await run("good", ['{"send":{"type":"tool_call","name":"echo","args":"not an object"}}', '{"expect":{"type":"tool_result"}}'].join("\n"));
    const s = step(r, "send tool_call");
    expect(s.status).toBe("fail");
    expect(s.detail).toBe('not a frame the host sends: tool_call: field "args" must be an object, got string; fix the script line.');
    expect(step(r, "expect tool_result").status).toBe("skip");
    expect(step(r, "exits on shutdown").status).toBe("pass");
  });

  test("expect_none fails when a matching frame arrives", async () => {
    const r = await run(
      "good",
      ['{"send":{"type":"command_invoked","name":"greet","args":"notify"}}', '{"expect_none":{"type":"notify","message":"pinged"},"within_ms":3000}'].join(
        "\n",
      ),
    );
    const s = step(r, "expect no notify");
    expect(s.status).toBe("fail");
    expect(s.detail).toContain("pinged");
  });

  test("stdout lines that are not frames fail the conformance check", async () => {
    const r = await run("chatty", ['{"send":{"type":"command_invoked","name":"talk","args":""}}', '{"expect":{"type":"command_response"}}'].join("\n"));
    const s = step(r, "stdout carries only frames");
    expect(s.status).toBe("fail");
    expect(s.detail).toContain("debug: got a command");
  });

  test("an extension that ignores shutdown fails that step and is killed", async () => {
    const r = await run("stubborn", "", { timings: { shutdownGraceMs: 200 } });
    expect(step(r, "exits on shutdown").status).toBe("fail");
    expect(r.ok).toBe(false);
  });

  test("a theme-only or invalid extension fails the manifest step", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "extension.json"), '{"name":"t"}');
    const r = await runHarness({ dir, steps: [], home: dir, cwd: dir, zotVersion: "test" });
    expect(step(r, "manifest is valid").status).toBe("fail");
  });
});

describe("zot ext test", () => {
  test("prints each step and exits 0 when everything passed", async () => {
    const home = tempDir();
    const r = await cli(["test", join(H, "good"), join(H, "good", "good.jsonl")], { home, cwd: home });
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toContain("hello is the first line");
    expect(r.out).toContain("[line 2]");
    expect(r.out).toContain("passed: 17 steps");
  });

  test("--json prints the report and the exit code follows failures", async () => {
    const home = tempDir();
    const script = join(home, "s.jsonl");
    writeFileSync(script, '{"expect":{"type":"notify"},"within_ms":50}\n');
    const r = await cli(["test", join(H, "good"), script, "--json"], { home, cwd: home });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.out) as HarnessReport;
    expect(report.ok).toBe(false);
    expect(report.extension).toBe("good");
    expect(report.steps.find((s) => s.kind === "expect")?.status).toBe("fail");
  });

  test("a bad script is an error before anything is spawned", async () => {
    const home = tempDir();
    const script = join(home, "s.jsonl");
    writeFileSync(script, "{bad\n");
    const r = await cli(["test", join(H, "good"), script], { home, cwd: home });
    expect(r.code).toBe(1);
    expect(r.err).toStartWith("zot: ");
    expect(r.err).toContain("s.jsonl:1");
  });

  test("a missing directory or script is a clear error", async () => {
    const home = tempDir();
    expect((await cli(["test", join(home, "nope"), "x.jsonl"], { home, cwd: home })).err).toContain("does not exist");
    expect((await cli(["test", join(H, "good"), join(home, "x.jsonl")], { home, cwd: home })).err).toContain("cannot read the script");
  });
});

test("zot ext test starts the extension with the user's environment but without zot's RPC token", async () => {
  const home = tempDir();
  const script = parseScript(`{"expect":{"type":"notify","message":"token=unset key=sk-ant-user-key other=kept"},"within_ms":5000}`, "env.jsonl");
  if (!script.ok) throw new Error(script.error);
  const r = await runHarness({
    dir: join(FIXTURES, "ext", "env-report"),
    steps: script.steps,
    home,
    cwd: home,
    env: { ...process.env, ZOTCORE_RPC_TOKEN: "rpc-token-123456", ANTHROPIC_API_KEY: "sk-ant-user-key", ZOT_TEST_USER_VAR: "kept" },
    zotVersion: "test",
  });
  expect(r.steps.filter((s) => s.kind === "expect").map((s) => [s.status, s.detail])).toEqual([["pass", null]]);
});
