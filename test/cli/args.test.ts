import { describe, expect, test } from "bun:test";
import { DEFAULT_MAX_STEPS, parseArgv, type CliArgs } from "../../src/cli/args.ts";

function run(argv: string[]): CliArgs {
  const r = parseArgv(argv);
  if (r.kind !== "run") throw new Error(`expected a run, got ${JSON.stringify(r)}`);
  return r.args;
}

function error(argv: string[]): string {
  const r = parseArgv(argv);
  if (r.kind !== "error") throw new Error(`expected an error, got ${JSON.stringify(r)}`);
  return r.message;
}

describe("parseArgv", () => {
  test("defaults to the interactive mode with 50 steps and no prompt", () => {
    const a = run([]);
    expect(a.mode).toBe("interactive");
    expect(a.maxSteps).toBe(DEFAULT_MAX_STEPS);
    expect(a.prompt).toBeUndefined();
  });

  test("joins positional words into the prompt and keeps words after -- verbatim", () => {
    expect(run(["fix", "the", "bug"]).prompt).toBe("fix the bug");
    expect(run(["-p", "--", "--not-a-flag", "-x"]).prompt).toBe("--not-a-flag -x");
  });

  test("accepts every value flag as --flag value and --flag=value", () => {
    const spaced = run([
      "--provider",
      "mock",
      "--model",
      "gpt-x",
      "--api-key",
      "k",
      "--base-url",
      "http://h/v1",
      "--cwd",
      "/tmp",
      "--session",
      "s.jsonl",
      "--mock-script",
      "m.jsonl",
      "--ext-trace",
      "t.jsonl",
    ]);
    const joined = run([
      "--provider=mock",
      "--model=gpt-x",
      "--api-key=k",
      "--base-url=http://h/v1",
      "--cwd=/tmp",
      "--session=s.jsonl",
      "--mock-script=m.jsonl",
      "--ext-trace=t.jsonl",
    ]);
    expect(joined).toEqual(spaced);
    expect(spaced).toMatchObject({
      provider: "mock",
      model: "gpt-x",
      apiKey: "k",
      baseUrl: "http://h/v1",
      cwd: "/tmp",
      session: "s.jsonl",
      mockScript: "m.jsonl",
      extTrace: "t.jsonl",
    });
  });

  test("collects repeatable flags in order", () => {
    const a = run(["-e", "a", "--ext", "b", "--ext=c", "--append-system-prompt", "x", "--append-system-prompt=y"]);
    expect(a.ext).toEqual(["a", "b", "c"]);
    expect(a.appendSystemPrompt).toEqual(["x", "y"]);
  });

  test("--trust trusts the project for one run and is off by default", () => {
    expect(run(["--trust", "-p", "hi"]).trust).toBe(true);
    expect(run(["-p", "hi"]).trust).toBe(false);
  });

  test("accepts the Go zot's alternative spellings", () => {
    expect(run(["--no-extensions"]).noExt).toBe(true);
  });

  test("knows the short switches", () => {
    expect(run(["-p", "-c", "-r", "-h", "-v"])).toMatchObject({ mode: "print", continue: true, resume: true, help: true, version: true });
  });

  test("picks the mode from -p, --json, zot rpc and --mode", () => {
    expect(run(["--json", "x"]).mode).toBe("json");
    expect(run(["rpc"]).mode).toBe("rpc");
    expect(run(["--mode", "rpc"]).mode).toBe("rpc");
    expect(run(["rpc", "--mode=rpc"]).mode).toBe("rpc");
    expect(run(["-p", "rpc"]).prompt).toBe("rpc");
    expect(run(["--rpc"]).mode).toBe("rpc");
  });

  test("zot acp is the ACP mode, and takes the run's flags; another mode beside it is a conflict", () => {
    expect(run(["acp", "--provider", "mock", "--permission-mode", "ask"])).toMatchObject({ mode: "acp", provider: "mock", permissionMode: "ask" });
    expect(parseArgv(["acp", "--json"])).toEqual({ kind: "error", message: "--json conflicts with zot acp; choose one mode." });
  });

  test("passes everything after ext to the extension CLI", () => {
    expect(parseArgv(["ext", "doctor", "--json", "-e", "x"])).toEqual({ kind: "ext", argv: ["doctor", "--json", "-e", "x"] });
  });

  test("zot update takes only --check, and anything else is an error naming it", () => {
    expect(parseArgv(["update"])).toEqual({ kind: "update", check: false });
    expect(parseArgv(["update", "--check"])).toEqual({ kind: "update", check: true });
    expect(parseArgv(["update", "now"])).toEqual({ kind: "error", message: `zot update takes only --check (got "now").` });
  });

  test("splits --tools on commas and keeps built-in names only", () => {
    expect(run(["--tools", "read, bash,,edit"]).tools).toEqual(["read", "bash", "edit"]);
    expect(error(["--tools", "read,fly"])).toContain('unknown tool "fly"');
    expect(error(["--tools="])).toBe(
      "--tools needs at least one tool name (read, write, edit, bash, bash_output, bash_kill, todo, web_fetch, skill, task); use --no-tools for none.",
    );
    expect(error(["--tools", " , "])).toContain("use --no-tools for none");
  });

  test("lower-cases provider, reasoning and mode values", () => {
    expect(run(["--provider", "MOCK", "--reasoning", "High"])).toMatchObject({ provider: "mock", reasoning: "high" });
  });

  test("rejects bad values with one sentence each", () => {
    expect(error(["--frob"])).toBe('unknown flag "--frob"; run "zot --help" for the list of flags.');
    expect(error(["--model"])).toBe("--model needs a value.");
    expect(error(["--max-steps", "1.5"])).toContain("positive whole number");
    expect(error(["--max-steps", "0"])).toContain("positive whole number");
    expect(error(["--base-url", "ftp://x"])).toContain("http:// or https://");
    expect(error(["--mode", "batch"])).toContain("--mode must be one of");
    expect(error(["--print=1"])).toContain("takes no value");
    expect(error(["rpc", "-p"])).toContain("-p conflicts with zot rpc");
    expect(error(["--session", "a", "--no-session"])).toContain("conflicts");
    expect(error(["-c", "--no-session"])).toContain("conflicts");
    expect(error(["--provider", "openai", "--mock-script", "m"])).toContain("mock provider");
  });

  test("never echoes an --api-key value in an error", () => {
    expect(error(["--api-key", "sk-secret-value", "--bogus"])).not.toContain("sk-secret-value");
  });
});
