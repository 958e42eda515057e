// Streams that never hang, seen from the command line: config.json's timeouts apply, every retry
// is announced (a stderr line in print mode, a `retry` event in JSON mode), and zot always ends.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { anthropicEvents } from "../helpers/provider-server.ts";
import { jsonLines, useZotHome } from "./zot.ts";

const e2e = useZotHome();

const MODEL = "claude-sonnet-4-5";

function serve(handler: (n: number) => Response | Promise<Response>): string {
  let n = 0;
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, idleTimeout: 0, fetch: () => handler(++n) });
  e2e.defer(() => server.stop(true));
  return `http://127.0.0.1:${server.port}`;
}

const busyThenOk = (n: number): Response =>
  n === 1
    ? new Response("busy", { status: 503, headers: { "retry-after-ms": "100" } })
    : new Response(anthropicEvents({ kind: "turn", text: "answer after retry" }, MODEL).join(""), { headers: { "content-type": "text/event-stream" } });

const args = (url: string) => ["--provider", "anthropic", "--api-key", "sk-test-123456", "--base-url", url, "--model", MODEL, "--no-session"];

test("print mode announces a retry on stderr and still prints the answer", async () => {
  const url = serve(busyThenOk);
  const r = await e2e.run(["-p", ...args(url), "hi"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("answer after retry\n");
  expect(r.stderr).toContain("zot: anthropic answered HTTP 503: busy; retrying in 0.1 s (attempt 2 of 3)\n");
});

test("JSON mode reports a retry as an event with attempt, delay and reason", async () => {
  const url = serve(busyThenOk);
  const r = await e2e.run(["--json", ...args(url), "hi"]);
  expect(r.code).toBe(0);
  const events = jsonLines(r.stdout);
  expect(events.find((e) => e.type === "retry")).toEqual({
    type: "retry",
    attempt: 2,
    attempts: 3,
    delay_ms: 100,
    reason: "anthropic answered HTTP 503: busy",
  });
  expect(events.at(-1)).toMatchObject({ type: "done", stop: "end_turn", text: "answer after retry" });
  // assistant_start (the Go zot's event) marks the response that streams, after the retry.
  const types = events.map((e) => e.type);
  expect(types.filter((t) => t === "assistant_start")).toHaveLength(1);
  expect(types.indexOf("assistant_start")).toBeGreaterThan(types.indexOf("retry"));
});

test("a server that never answers ends zot -p after the connect timeout from config.json, with a clear error", async () => {
  writeFileSync(join(e2e.home, "config.json"), JSON.stringify({ connect_timeout: 0.3 }));
  const url = serve(() => new Promise<Response>(() => {}));
  const r = await e2e.run(["-p", ...args(url), "hi"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("zot: no response from anthropic within 0.3 s; retrying in 1 s (attempt 2 of 3)\n");
  expect(r.stderr).toContain(
    `zot: anthropic at ${url} did not answer within 0.3 s after 3 attempts; check your network and --base-url, or raise connect_timeout in config.json\n`,
  );
});

test("RPC: a compact sent just before stdin closes, against a server that stops answering, times out and zot exits", async () => {
  writeFileSync(join(e2e.home, "config.json"), JSON.stringify({ connect_timeout: 0.2 }));
  const url = serve((n) => (n === 1 ? busyThenOk(2) : new Promise<Response>(() => {})));
  const input = [JSON.stringify({ id: "1", type: "prompt", message: "hi" }), JSON.stringify({ id: "2", type: "compact" })].join("\n") + "\n";
  const r = await e2e.run(["rpc", ...args(url)], { stdin: input });
  expect(r.code).toBe(0);
  const frames = jsonLines(r.stdout);
  expect(frames.filter((f) => f.type === "retry").map((f) => f.reason)).toEqual([
    "no response from anthropic within 0.2 s",
    "no response from anthropic within 0.2 s",
  ]);
  expect(frames.at(-1)).toMatchObject({
    type: "done",
    stop: "error",
    error: `compaction failed: anthropic at ${url} did not answer within 0.2 s after 3 attempts; check your network and --base-url, or raise connect_timeout in config.json`,
  });
});
