// The built binary with a WebSocket extension: a TypeScript SDK server started on its own, then
// `zot ext doctor --json`, `zot ext test` and a `-p` turn in which the mock model calls its tool;
// a wrong token and a non-loopback URL are refused with clear errors.
import { afterAll, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { serverCommand, startServer, wsExtension, type Server } from "../ext/ws-server.ts";
import { waitFor } from "../helpers/wait.ts";
import { RpcSession, runZot } from "./zot.ts";
import { tempDir } from "../helpers/temp.ts";

const TOKEN = "e2e-ws-token";
const home = tempDir("zot-e2e-");
let server: Server | null = null;
const others: Server[] = [];
let rpc: RpcSession | null = null;
afterAll(async () => {
  rpc?.proc.kill("SIGKILL");
  await server?.kill();
  for (const o of others) await o.kill();
});

/** Every transcript under $ZOT_HOME/sessions. */
function sessionFiles(zotHome: string): string[] {
  const root = join(zotHome, "sessions");
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => join(root, f));
}

async function sdkServer(name: string): Promise<Server> {
  const { argv, env } = serverCommand("the TypeScript SDK under Bun", name, 0);
  server = await startServer(argv, { ...env, WS_TOKEN: TOKEN });
  return server;
}

test("zot connects to a running WebSocket extension: doctor reports it, ext test passes, and the model calls its tool", async () => {
  const s = await sdkServer("desk");
  const ext = wsExtension("desk", { url: `ws://127.0.0.1:${s.port}/zot`, token_env: "DESK_TOKEN" });
  const env = { DESK_TOKEN: TOKEN };

  const doctor = await runZot(["ext", "doctor", "--json", "--no-ext", "-e", ext], { home, env });
  expect(doctor.code).toBe(0);
  const entry = JSON.parse(doctor.stdout).extensions[0];
  expect(entry).toMatchObject({
    name: "desk",
    status: "ready",
    version: "1.0.0",
    sandbox: "unrestricted (runs outside zot)",
    permissions: null,
    url: `ws://127.0.0.1:${s.port}/zot`,
  });
  expect(entry.tools.map((t: { name: string }) => t.name).sort()).toEqual(["echo", "hang"]);
  expect(doctor.stdout).not.toContain(TOKEN);

  const human = await runZot(["ext", "doctor", "--no-ext", "-e", ext], { home, env });
  expect(human.stdout).toContain("sandbox   unrestricted (runs outside zot)");
  expect(human.stdout).toContain(`url       ws://127.0.0.1:${s.port}/zot`);

  const script = join(ext, "test.jsonl");
  writeFileSync(
    script,
    `{"send": {"type": "tool_call", "id": "$auto", "name": "echo", "args": {"n": 7}}}\n{"expect": {"type": "tool_result", "id": "$last_id"}, "within_ms": 5000}\n`,
  );
  const tested = await runZot(["ext", "test", ext, script, "--json"], { home, env });
  const report = JSON.parse(tested.stdout);
  expect(report.steps.filter((st: { status: string }) => st.status === "fail")).toEqual([]);
  expect(tested.code).toBe(0);

  const turn = await runZot(["--permission-mode", "yolo", "-p", "--provider", "mock", "--no-ext", "-e", ext, 'call echo {"city":"Oslo"}'], { home, env });
  expect(turn.stderr).toContain(`[tool] echo (desk) {"city":"Oslo"}`);
  expect(turn.stdout).toContain(`mock: tool echo returned: echo {"city":"Oslo"} from ${s.pid}`);
  expect(turn.code).toBe(0);
});

test("the token is masked like an API key: a tool result quoting it reaches neither the output, the trace nor the transcript", async () => {
  const s = server ?? (await sdkServer("desk"));
  const ext = wsExtension("desk", { url: `ws://127.0.0.1:${s.port}/zot`, token_env: "DESK_TOKEN" });
  const trace = join(home, "mask-trace.jsonl");
  const turn = await runZot(
    ["--permission-mode", "yolo", "-p", "--provider", "mock", "--no-ext", "-e", ext, "--ext-trace", trace, `call echo {"city":"${TOKEN}"}`],
    { home, env: { DESK_TOKEN: TOKEN } },
  );
  expect(turn.code).toBe(0);
  expect(turn.stdout).toContain(`mock: tool echo returned: echo {"city":"[redacted]"} from ${s.pid}`);
  expect(turn.stderr).toContain(`[tool] echo (desk) {"city":"[redacted]"}`);
  const written = [turn.stdout, turn.stderr, readFileSync(trace, "utf8"), ...sessionFiles(home).map((f) => readFileSync(f, "utf8"))];
  expect(sessionFiles(home).length).toBeGreaterThan(0);
  for (const text of written) expect(text).not.toContain(TOKEN);
});

test("a wrong token fails doctor with the HTTP status and what to fix, and a non-loopback ws:// URL is invalid", async () => {
  const s = server ?? (await sdkServer("desk"));
  const ext = wsExtension("desk-bad", { url: `ws://127.0.0.1:${s.port}/zot`, token_env: "DESK_TOKEN" });
  const wrong = await runZot(["ext", "doctor", "--json", "--no-ext", "-e", ext], { home, env: { DESK_TOKEN: "nope" } });
  expect(wrong.code).toBe(1);
  const failed = JSON.parse(wrong.stdout).extensions[0];
  expect(failed.status).toBe("failed");
  expect(failed.error).toContain("the extension refused zot's token (HTTP 401)");

  const remote = wsExtension("far", { url: "ws://192.0.2.10:9000/" });
  const invalid = await runZot(["ext", "doctor", "--json", "--no-ext", "-e", remote], { home });
  const entry = JSON.parse(invalid.stdout).extensions[0];
  expect(entry.status).toBe("invalid");
  expect(entry.error).toContain('field "transport.url" points to 192.0.2.10, which is not this machine');
});

test("in zot rpc, a Python SDK server killed mid-call fails the tool at once, and after it comes back zot reconnects and the tool works", async () => {
  const start = (port: number) => {
    const { argv, env } = serverCommand("the Python SDK", "pydesk", port);
    return startServer(argv, { ...env, WS_TOKEN: TOKEN });
  };
  const first = await start(0);
  others.push(first);
  const ext = wsExtension("pydesk", { url: `ws://127.0.0.1:${first.port}/`, token_env: "DESK_TOKEN" });
  const session = new RpcSession(["--permission-mode", "yolo", "--provider", "mock", "--no-ext", "-e", ext], { home, env: { DESK_TOKEN: TOKEN } });
  rpc = session;
  const done = (n: number) => session.waitForNth((f) => f.type === "done", n);

  expect(await session.request({ type: "prompt", message: "call hang {}" })).toMatchObject({ success: true });
  await waitFor(() => first.output().includes("hanging on"));
  await first.kill();
  // The tool deadline is 60 s; this answer is the dropped connection, not a timeout.
  expect(String((await done(1)).text)).toContain('mock: tool hang failed: tool "hang" failed: extension "pydesk" closed the WebSocket connection (code 1006)');
  const exited = await session.waitFor((f) => f.type === "ext_notify" && String(f.message).includes("zot reconnects when it is back"));
  expect(exited).toMatchObject({ extension: "pydesk", level: "error" });

  const second = await start(first.port);
  others.push(second);
  await session.waitFor((f) => f.type === "ext_notify" && f.message === `reconnected to ws://127.0.0.1:${first.port}/`);
  expect(await session.request({ type: "prompt", message: 'call echo {"again":true}' })).toMatchObject({ success: true });
  expect(String((await done(2)).text)).toContain(`mock: tool echo returned: echo {"again":true} from ${second.pid}`);
  const closed = await session.close();
  expect(closed.code).toBe(0);
  expect(closed.stderr).not.toContain(TOKEN);
});
