import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { FIXTURES, useZotHome } from "./zot.ts";

const e2e = useZotHome();

describe("flag errors exit 2 with one sentence", () => {
  const cases: [string, string[], string][] = [
    ["an unknown flag", ["--bogus"], 'unknown flag "--bogus"'],
    ["a missing value", ["--model"], "--model needs a value"],
    ["an unknown provider", ["--provider", "acme"], "--provider must be one of anthropic, openai, kimi, kimi-code, ollama, mock"],
    ["a bad reasoning level", ["--reasoning=extreme"], "--reasoning must be low, medium, high, xhigh or max"],
    ["a bad wire", ["--wire", "grpc"], "--wire must be chat or responses"],
    ["a bad step limit", ["--max-steps", "-3"], "--max-steps must be a positive whole number"],
    ["an unknown built-in tool", ["--tools", "read,teleport"], 'unknown tool "teleport"'],
    ["a value given to a switch", ["--json=yes"], "--json takes no value"],
    ["two modes", ["-p", "--json", "x"], "--json conflicts with -p"],
    ["a cwd that is not a directory", ["-p", "--cwd", "/nonexistent/dir", "x"], "--cwd /nonexistent/dir is not a directory"],
    ["a missing mock script", ["-p", "--mock-script", "/nonexistent.jsonl", "x"], "--mock-script /nonexistent.jsonl is not a readable file"],
    ["a print run without a prompt", ["-p", "--provider", "mock"], "no prompt"],
    ["a prompt argument to zot rpc", ["rpc", "--provider", "mock", "hello"], "zot rpc takes no prompt argument"],
    [
      "an extension trace that cannot be written",
      ["-p", "--provider", "mock", "--ext-trace", "/nonexistent/dir/t.jsonl", "x"],
      "cannot write the extension trace to /nonexistent/dir/t.jsonl",
    ],
  ];
  for (const [what, args, message] of cases) {
    test(`rejects ${what}`, async () => {
      const r = await e2e.run(args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toStartWith("zot: ");
      expect(r.stderr).toContain(message);
    });
  }
});

describe("informational flags", () => {
  test("--version prints the package version with the commit and build date", async () => {
    const r = await e2e.run(["--version"]);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout).toStartWith(`zot ${pkg.version} (`);
  });

  test("--help lists every flag", async () => {
    const r = await e2e.run(["--help"]);
    expect(r.code).toBe(0);
    const flags = [
      "-p, --print",
      "--json",
      "zot rpc",
      "--mode",
      "--provider",
      "--model",
      "--api-key",
      "--base-url",
      "--system-prompt",
      "--append-system-prompt",
      "--reasoning",
      "-c, --continue",
      "-r, --resume",
      "--session",
      "--no-session",
      "--cwd",
      "--no-tools",
      "--tools",
      "--max-steps",
      "-e, --ext",
      "--no-ext",
      "--no-yolo",
      "--list-models",
      "--mock-script",
      "--ext-trace",
      "-v, --version",
      "-h, --help",
      "zot ext",
    ];
    for (const f of flags) expect(r.stdout).toContain(f);
  });

  test("--list-models prints the catalog with its source", async () => {
    const r = await e2e.run(["--list-models"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^PROVIDER\s+MODEL/);
    expect(r.stdout).toMatch(/anthropic\s+claude-sonnet-5-5\s.*anthropic\s+builtin/);
  });

  test("zot ext passes the rest of the arguments to the extension CLI", async () => {
    const r = await e2e.run(["ext", "list", "--json"]);
    expect(r.code).toBe(0);
    // The extension CLI's own listing of this (empty) e2e.home, not the agent's.
    expect(JSON.parse(r.stdout)).toEqual({ home: e2e.home, cwd: e2e.home, extensions: [] });
  });
});

describe("flags that shape the run", () => {
  const body = (i = 0) => e2e.server.requests[i]!.body as { system: { text: string }[] | string; tools?: { name: string }[]; model: string };

  test("--flag=value works like --flag value, and prompts, tools and model reach the request", async () => {
    const server = e2e.serve({ replies: [{ kind: "turn", text: "ok" }] });
    const r = await e2e.run([
      "-p",
      "--provider=anthropic",
      `--base-url=${server.url}`,
      "--api-key=sk-test-e2e",
      "--model=claude-haiku-4-5",
      "--tools=read,bash",
      "--system-prompt=You are terse.",
      "--append-system-prompt",
      "Extra one.",
      "--append-system-prompt=Extra two.",
      "hi",
    ]);
    expect(r.code).toBe(0);
    expect(body().model).toBe("claude-haiku-4-5");
    expect((body().tools ?? []).map((t) => t.name)).toEqual(["read", "bash"]);
    const system = JSON.stringify(body().system);
    expect(system).toContain("You are terse.");
    expect(system.indexOf("Extra one.")).toBeLessThan(system.indexOf("Extra two."));
  });

  test("--no-tools offers neither built-in nor extension tools", async () => {
    const server = e2e.serve({ replies: [{ kind: "turn", text: "ok" }] });
    await e2e.run(["-p", "--provider", "anthropic", "--base-url", server.url, "--api-key", "sk-test-e2e", "--no-tools", "-e", join(FIXTURES, "toolbox"), "hi"]);
    expect(body().tools ?? []).toEqual([]);
  });

  test("--no-yolo in print mode refuses a command that needs approval and says why on stderr", async () => {
    const r = await e2e.run(["-p", "--provider", "mock", "--no-yolo", 'call bash {"command":"touch yolo-ran"}']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("[tool] bash failed: permission mode ask: this call needs the user's approval");
    expect(existsSync(join(e2e.home, "yolo-ran"))).toBe(false);
  });

  test("without a terminal, a prompt runs in print mode and no prompt is a usage error", async () => {
    expect(await e2e.run(["--provider", "mock", "hello"])).toMatchObject({ code: 0, stdout: "mock: hello\n" });
    const r = await e2e.run(["--provider", "mock"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("zot: no terminal for the interactive mode and no prompt");
  });

  test("--mode rpc is the same as zot rpc", async () => {
    const r = await e2e.run(["--mode", "rpc", "--provider", "mock"], { stdin: '{"id":"1","type":"ping"}\n' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout.trim())).toEqual({ type: "response", id: "1", command: "ping", success: true, data: { pong: true } });
  });

  test("--ext-trace writes every extension frame to the file", async () => {
    const trace = join(e2e.home, "trace.jsonl");
    await e2e.run(["-p", "--provider", "mock", "-e", join(FIXTURES, "toolbox"), "--ext-trace", trace, "/greet t"]);
    const text = await Bun.file(trace).text();
    expect(text).toContain("command_invoked");
    expect(text).toContain("hello t");
  });

  test("a keyed provider without any key fails with a sentence saying how to add one", async () => {
    const r = await e2e.run(["-p", "--provider", "openai", "hello"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("zot: No API key for openai: set OPENAI_API_KEY");
  });
});
