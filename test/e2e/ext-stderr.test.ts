// An extension's stderr reaches its log through zot's mask: an API key from its environment and a
// `zot ext config` secret it prints (each split across two writes) are masked while it runs and
// after it exits, and its last words are in the log before zot reports the exit.
import { expect, test } from "bun:test";
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../helpers/wait.ts";
import { ROOT, useZotHome } from "./zot.ts";

const KEY = "sk-ant-FAKE-stderr-0123456789abcdef";
const TOKEN = "tok-FAKE-config-secret-9876543210";

const e2e = useZotHome();

function expectNoSecret(text: string): void {
  for (const secret of [KEY, TOKEN]) for (let i = 4; i + 8 <= secret.length; i++) expect(text).not.toContain(secret.slice(i, i + 8));
}

test("an extension printing its API key and its configured secret to stderr, in pieces, leaves only masked forms in its log", async () => {
  cpSync(join(ROOT, "test/fixtures/ext/stderr-secrets"), join(e2e.home, "extensions", "stderr-secrets"), { recursive: true });
  const config = await e2e.run(["ext", "config", "stderr-secrets", `token=${TOKEN}`]);
  expect(config.stderr).toBe("");
  expect(config.code).toBe(0);
  const server = e2e.serve({
    replies: [
      { kind: "turn", text: "", toolCalls: [{ name: "finish", args: {} }] },
      { kind: "turn", text: "done" },
    ],
  });
  const logPath = join(e2e.home, "logs", "ext-stderr-secrets.log");
  const log = () => (existsSync(logPath) ? readFileSync(logPath, "utf8") : "");
  const rpc = e2e.rpc(["--permission-mode", "yolo", "--provider", "anthropic", "--base-url", server.url], { env: { ANTHROPIC_API_KEY: KEY } });

  // While it runs: both lines are whole and masked, though each reached zot in two pieces.
  await waitFor(() => log().includes("debug: token="), 15_000);
  const running = log();
  expect(running).toContain("debug: ANTHROPIC_API_KEY=sk-a…[redacted]\n");
  expect(running).toContain("debug: token=tok-…[redacted]\n");
  expectNoSecret(running);

  // The model calls `finish`: it prints both again, the last line without a newline, and exits.
  await rpc.request({ type: "prompt", message: "finish it" });
  await waitFor(() => rpc.frames.find((f) => f.type === "done"), 30_000);
  const exited = await waitFor(() => (log().includes("[zot] process exited with exit code 3") ? log() : undefined), 15_000);
  expect(exited).toContain("fatal: giving up with key sk-a…[redacted]\nfatal: and token tok-…[redacted]\n[zot] process exited with exit code 3");
  expect((await rpc.close()).code).toBe(0);
  expectNoSecret(log());
  // The key did reach the provider: masking is for the log, not for the extension or the request.
  expect(server.requests[0]!.headers["x-api-key"]).toBe(KEY);
});

test("an MCP server's stderr is masked in its log the same way", async () => {
  const list = join(e2e.root, "servers.json");
  // The server prints the key to stderr in two pieces before it starts serving.
  const script = `printf 'debug: key=%s' "\${ANTHROPIC_API_KEY%????????????????????}" >&2; sleep 0.1; printf '%s\\n' "\${ANTHROPIC_API_KEY#???????????????}" >&2; exec python3 ${JSON.stringify(join(ROOT, "test/fixtures/mcp/legacy_server.py"))}`;
  writeFileSync(list, JSON.stringify({ mcpServers: { loud: { command: "sh", args: ["-c", script] } } }));
  const r = await e2e.run(["--permission-mode", "yolo", "-p", "--provider", "mock", "--mcp", list, 'call mcp__loud__echo {"text":"hi"}'], {
    env: { ANTHROPIC_API_KEY: KEY },
  });
  expect(r.stdout).toContain("echo: hi");
  const log = readFileSync(join(e2e.home, "logs", "mcp-loud.log"), "utf8");
  expect(log).toContain("debug: key=sk-a…[redacted]\n");
  expectNoSecret(log);
});
