// The Python SDK's own unittest suite (sdk/python/test_zot_ext.py), which drives real extension
// processes through a fake host over pipes.
import { expect, test } from "bun:test";
import { resolve } from "node:path";

test("the Python SDK passes its unittest suite", async () => {
  const proc = Bun.spawn(["python3", "-m", "unittest", "-v", "test_zot_ext"], {
    cwd: resolve(import.meta.dir, "../../sdk/python"),
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) console.error(stdout + stderr);
  expect(stderr).toContain("OK");
  expect(code).toBe(0);
});
