// Background commands through the built binary: events in --json and RPC, and nothing left running
// once zot has exited (grandchildren included).
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { jsonLines, mockScript, useZotHome } from "./zot.ts";
import { alive } from "../ext/fixture-host.ts";
import { waitFor } from "../helpers/wait.ts";

const e2e = useZotHome({ prefix: "zot-bg-e2e-" });

const LEAVES_A_GRANDCHILD = `sh -c 'echo $$ > grandchild.pid; exec sleep 300' & echo started; wait`;

test("--json shows the job start; bash_output follows it; zot's exit ends the job and its grandchild", async () => {
  const path = mockScript(e2e.root, [
    { tool_calls: [{ name: "bash", args: { command: LEAVES_A_GRANDCHILD, background: true } }] },
    { tool_calls: [{ name: "bash", args: { command: "while [ ! -s grandchild.pid ]; do sleep 0.02; done; cat grandchild.pid" } }] },
    { tool_calls: [{ name: "bash_output", args: { id: "bg1" } }] },
    { text: "all done" },
  ]);
  const r = await e2e.run(["--mock-script", path, "--json", "start the server"], { cwd: e2e.root });
  expect(r.code).toBe(0);
  const events = jsonLines(r.stdout);
  const start = events.find((e) => e.type === "background_job");
  expect(start).toMatchObject({ type: "background_job", id: "bg1", command: LEAVES_A_GRANDCHILD, state: "running" });
  expect(typeof start!.pid).toBe("number");
  const results = events.filter((e) => e.type === "tool_result").map((e) => JSON.stringify(e.content));
  expect(results[0]).toContain("Started background command bg1");
  expect(results[2]).toContain("[bg1 running:");
  const grandchild = Number(readFileSync(join(e2e.root, "grandchild.pid"), "utf8"));
  await waitFor(() => !alive(grandchild));
  expect(alive(start!.pid as number)).toBe(false);
});

test("RPC clients see the job start and its end after bash_kill", async () => {
  const path = mockScript(e2e.root, [
    { tool_calls: [{ name: "bash", args: { command: "sleep 300", background: true } }] },
    { tool_calls: [{ name: "bash_kill", args: { id: "bg1" } }] },
    { text: "stopped it" },
  ]);
  const rpc = e2e.rpc(["--mock-script", path], { cwd: e2e.root });
  await rpc.request({ type: "prompt", message: "go" });
  const started = await rpc.waitFor((f) => f.type === "background_job" && f.state === "running");
  expect(started).toMatchObject({ id: "bg1", command: "sleep 300" });
  const ended = await rpc.waitFor((f) => f.type === "background_job" && f.state === "killed");
  expect(ended).toMatchObject({ id: "bg1", exit_code: null, signal: "SIGTERM" });
  const result = await rpc.waitFor((f) => f.type === "tool_result" && f.name === "bash_kill");
  expect(JSON.stringify(result.content)).toContain("Stopped bg1: killed (by SIGTERM).");
  await rpc.waitFor((f) => f.type === "done");
  expect((await rpc.close()).code).toBe(0);
  expect(alive(started.pid as number)).toBe(false);
});
