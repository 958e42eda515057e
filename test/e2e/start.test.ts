import { expect, test } from "bun:test";
import { join, resolve } from "node:path";

// Not from zot.ts: that helper refuses a stale dist/zot, and rebuilding one is what npm start is for.
const ROOT = resolve(import.meta.dir, "../..");

async function start(args: string[]): Promise<{ code: number; stdout: string }> {
  const proc = Bun.spawn([process.execPath, join(ROOT, "scripts", "start.ts"), ...args], { cwd: ROOT, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  return { code, stdout };
}

test("npm start runs dist/zot with the given arguments and passes its exit status through", async () => {
  expect(await start(["--version"])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^zot \d+\.\d+\.\d+ \(/) });
  expect((await start(["--no-such-flag"])).code).toBe(2);
});
