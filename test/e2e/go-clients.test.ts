// Programs written for the Go zot's RPC keep working: clients equivalent to its Python, Node and
// shell+jq examples (test/fixtures/go-rpc-clients) drive the real `zot rpc` against a local model.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ROOT, useZotHome, zotEnv } from "./zot.ts";

const CLIENTS = join(ROOT, "test/fixtures/go-rpc-clients");
const clients: [string, string[]][] = [
  ["Python", ["python3", join(CLIENTS, "zot_client.py")]],
  ["Node", ["node", join(CLIENTS, "zot-client.cjs")]],
  ["shell + jq", ["bash", join(CLIENTS, "prompt.sh")]],
];

const e2e = useZotHome();

async function run(argv: string[], prompt: string, extra: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = zotEnv(e2e.home, {
    // `zot` on PATH is the binary under test.
    PATH: `${join(ROOT, "dist")}:${zotEnv(e2e.home).PATH}`,
    ZOT_RPC_FLAGS: `--provider anthropic --model claude-sonnet-4-6 --base-url ${e2e.server.url} --api-key sk-test-clients --no-session`,
    ...extra,
  });
  const proc = Bun.spawn([...argv, prompt], { cwd: e2e.home, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

describe.each(clients)("the Go zot's %s example client", (name, argv) => {
  test("streams the reply, sees the tool call and ends on done", async () => {
    e2e.serve({
      replies: [
        { kind: "turn", toolCalls: [{ name: "bash", args: { command: "echo hello-from-tool" } }], usage: { input: 100, output: 10 } },
        { kind: "turn", text: "done: hello-from-tool", usage: { input: 100, output: 10 } },
      ],
    });
    const r = await run(argv, "run the scenario", { ZOTCORE_RPC_TOKEN: "tok-clients" });
    expect({ name, code: r.code, stdout: r.stdout }).toEqual({ name, code: 0, stdout: "done: hello-from-tool\n" });
    expect(r.stderr).toContain("[tool] bash");
    if (name !== "shell + jq") {
      // Python's json.dumps puts a space after the colon, Node's JSON.stringify does not.
      expect(r.stderr).toContain(name === "Python" ? '[tool] bash({"command": "echo hello-from-tool"})' : '[tool] bash({"command":"echo hello-from-tool"})');
      expect(r.stderr).toContain("[usage] cum input=200 output=20 cost=$0.0009");
    }
  });

  test("reports a failed prompt through the error event and exits 1", async () => {
    e2e.serve({
      fallback: { kind: "status", status: 401, body: JSON.stringify({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }) },
    });
    const r = await run(argv, "run the scenario");
    expect({ name, code: r.code }).toEqual({ name, code: 1 });
    expect(r.stderr).toContain("[error] ");
    expect(r.stderr).toContain("invalid x-api-key");
  });
});
