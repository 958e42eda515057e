import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES, tempDir, ZOT, zotEnv } from "./zot.ts";

let home: string;
let cleanup: () => void;

beforeEach(() => {
  ({ dir: home, cleanup } = tempDir());
});
afterEach(() => cleanup());

for (const [signal, code] of [
  ["SIGTERM", 143],
  ["SIGINT", 130],
  ["SIGHUP", 129],
] as const) {
  test(`${signal} during a tool call shuts the extensions down and exits with ${code}`, async () => {
    const log = join(home, "frames.jsonl");
    const proc = Bun.spawn([ZOT, "-p", "--provider", "mock", "-e", join(FIXTURES, "toolbox"), "call hang {}"], {
      cwd: home,
      env: zotEnv(home, { ZOT_TEST_EVENTS: log }),
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
