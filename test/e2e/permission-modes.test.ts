// Permission modes through the built binary: the flag, config.json, the mode a resumed session keeps,
// what a headless run refuses; and headless runs without a key failing instead of answering from
// the offline mock.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { anthropic, jsonLines, sessionFiles, useZotHome } from "./zot.ts";

const e2e = useZotHome({ prefix: "zot-modes-e2e-" });

const TOUCH = 'call bash {"command":"touch made"}';
const made = () => existsSync(join(e2e.home, "made"));

describe("permission modes", () => {
  test("where the kernel sandbox confines commands, the default mode runs them unasked, inside it", async () => {
    const r = await e2e.run(["-p", "--provider", "mock", TOUCH]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain("failed");
    expect(made()).toBe(true);
  });

  test("a headless run in ask mode runs reads and read-only commands and refuses the rest, saying so", async () => {
    writeFileSync(join(e2e.home, "notes.txt"), "hello notes\n");
    const printed = await e2e.run(["-p", "--provider", "mock", "--permission-mode", "ask", TOUCH]);
    expect(printed.code).toBe(0);
    expect(printed.stderr).toContain("[tool] bash failed: permission mode ask: this call needs the user's approval, and nobody can give it in this run");
    const r = await e2e.run([
      "--json",
      "--provider",
      "mock",
      "--permission-mode",
      "ask",
      `call read {"path":"notes.txt"}\ncall bash {"command":"grep hello notes.txt | wc -l"}\n${TOUCH}`,
    ]);
    expect(r.code).toBe(0);
    const results = jsonLines(r.stdout).filter((e) => e.type === "tool_result");
    expect(results.map((e) => e.is_error)).toEqual([false, false, true]);
    expect(JSON.stringify(results[2])).toContain("--permission-mode yolo");
    expect(made()).toBe(false);
  });

  test("a headless run in plan mode refuses a change as plan mode's doing, not the user's, and says what to do", async () => {
    const r = await e2e.run(["--json", "--provider", "mock", "--permission-mode", "plan", TOUCH]);
    expect(r.code).toBe(0);
    const result = jsonLines(r.stdout).find((e) => e.type === "tool_result");
    const text = JSON.stringify(result?.content);
    expect(result?.is_error).toBe(true);
    expect(text).toContain("Blocked by plan mode (the user did not decline it)");
    expect(text).toContain("present your plan");
    expect(text).not.toContain("declined this tool call");
    expect(made()).toBe(false);
  });

  test("--permission-mode yolo lets the command run; a bad mode or a conflict with --no-yolo is a usage error", async () => {
    const yolo = await e2e.run(["-p", "--provider", "mock", "--permission-mode", "yolo", TOUCH]);
    expect(yolo.code).toBe(0);
    expect(yolo.stderr).not.toContain("failed");
    expect(made()).toBe(true);
    const bad = await e2e.run(["-p", "--provider", "mock", "--permission-mode", "careful", "hi"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`--permission-mode must be ask, auto-edit, yolo or plan (got "careful")`);
    const both = await e2e.run(["-p", "--provider", "mock", "--no-yolo", "--permission-mode", "yolo", "hi"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--permission-mode yolo conflicts with --no-yolo; choose one permission mode.");
  });

  test("config.json's permissionMode is the mode of a new session", async () => {
    writeFileSync(join(e2e.home, "config.json"), JSON.stringify({ permissionMode: "yolo" }));
    const r = await e2e.run(["-p", "--provider", "mock", TOUCH]);
    expect(r.code).toBe(0);
    expect(made()).toBe(true);
  });

  test("a resumed session keeps its mode: zot -c after a --no-yolo session does not come back in yolo", async () => {
    writeFileSync(join(e2e.home, "config.json"), JSON.stringify({ permissionMode: "yolo" }));
    const first = await e2e.run(["-p", "--provider", "mock", "--no-yolo", "hello"]);
    expect(first.code).toBe(0);
    const [file] = sessionFiles(e2e.home);
    expect(JSON.parse(readFileSync(file!, "utf8").split("\n")[0]!).meta.permission_mode).toBe("ask");
    const again = await e2e.run(["-p", "--provider", "mock", "-c", TOUCH]);
    expect(again.code).toBe(0);
    expect(made()).toBe(false);
    expect(sessionFiles(e2e.home)).toHaveLength(1);
    // Asked for on the command line, the mode changes, and the session records the change.
    const yolo = await e2e.run(["-p", "--provider", "mock", "-c", "--permission-mode", "yolo", TOUCH]);
    expect(yolo.code).toBe(0);
    expect(made()).toBe(true);
    const metas = readFileSync(file!, "utf8")
      .split("\n")
      .filter((l) => l.includes('"type":"meta"'));
    expect(JSON.parse(metas.at(-1)!).meta.permission_mode).toBe("yolo");
  });
});

test("RPC's get_state reports the permission mode", async () => {
  const rpc = e2e.rpc(["--provider", "mock", "--permission-mode", "auto-edit"]);
  const state = await rpc.request({ type: "get_state" });
  expect(state).toMatchObject({ success: true, data: { permission_mode: "auto-edit", yolo: false } });
  expect((await rpc.close()).code).toBe(0);
});

describe("headless runs without a key", () => {
  const sentence = (home: string) =>
    `zot: No API key found for any provider: set ANTHROPIC_API_KEY (or OPENAI_API_KEY, KIMI_API_KEY), pass --api-key with --provider, or add the key to ${join(home, "auth.json")}; or pass --provider mock to run on the offline mock provider.`;

  test("print and JSON modes exit 2 with how to add a key, and answer nothing", async () => {
    for (const mode of ["-p", "--json"]) {
      const r = await e2e.run([mode, "hello"]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(sentence(e2e.home));
    }
  });

  test("zot rpc exits 2 too", async () => {
    const rpc = e2e.rpc([]);
    const done = await rpc.close();
    expect(done.code).toBe(2);
    expect(done.stderr).toContain(sentence(e2e.home));
  });

  test("an explicit provider without its key exits 2", async () => {
    const r = await e2e.run(["-p", "--provider", "openai", "hello"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("No API key for openai: set OPENAI_API_KEY, pass --api-key, or add the key to");
  });

  test("--provider mock and --mock-script run offline on purpose", async () => {
    const mock = await e2e.run(["-p", "--provider", "mock", "hello"]);
    expect(mock.code).toBe(0);
    expect(mock.stdout).toBe("mock: hello\n");
    const script = join(e2e.root, "script.jsonl");
    writeFileSync(script, JSON.stringify({ text: "scripted" }) + "\n");
    const scripted = await e2e.run(["-p", "--mock-script", script, "hello"]);
    expect(scripted.code).toBe(0);
    expect(scripted.stdout).toBe("scripted\n");
    expect(scripted.stderr).toBe("");
  });
});

test("a --model given on the command line is used for the run and not saved as the default", async () => {
  const server = e2e.serve({ replies: [{ kind: "turn", text: "from the proxy model" }] });
  const r = await e2e.run(["-p", ...anthropic(server), "--model", "one-off-model", "hello"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("from the proxy model\n");
  expect(server.requests[0]!.body).toMatchObject({ model: "one-off-model" });
  expect(existsSync(join(e2e.home, "config.json")) ? JSON.parse(readFileSync(join(e2e.home, "config.json"), "utf8")) : {}).not.toHaveProperty("model");
});
