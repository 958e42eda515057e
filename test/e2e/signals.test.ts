import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES, useZotHome, ZOT, zotEnv } from "./zot.ts";

const e2e = useZotHome();

for (const [signal, code] of [
  ["SIGTERM", 143],
  ["SIGINT", 130],
  ["SIGHUP", 129],
] as const) {
  test(`${signal} during a tool call shuts the extensions down and exits with ${code}`, async () => {
    const log = join(e2e.home, "frames.jsonl");
    const proc = Bun.spawn([ZOT, "--permission-mode", "yolo", "-p", "--provider", "mock", "-e", join(FIXTURES, "toolbox"), "call hang {}"], {
      cwd: e2e.home,
      env: zotEnv(e2e.home, { ZOT_TEST_EVENTS: log }),
      stdin: "ignore",
      stdout: "ignore",
      stderr: "ignore",
    });
    const logged = () => (existsSync(log) ? readFileSync(log, "utf8") : "");
    while (!logged().includes('"type":"tool_call"')) await Bun.sleep(10);
    proc.kill(signal);
    expect(await proc.exited).toBe(code);
    expect(logged()).toContain('{"type":"shutdown"}');
  });
}
