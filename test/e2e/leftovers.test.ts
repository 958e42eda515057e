// What a run leaves in $ZOT_HOME: no spill files of long bash output once zot has exited, stale
// ones from a killed run cleaned up, and only private (0700) directories.
import { expect, test } from "bun:test";
import { mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonLines, useZotHome, ZOT, zotEnv } from "./zot.ts";

const e2e = useZotHome();

const LONG = `call bash {"command":"seq 1 100000"}`;

async function run(prompt: string, zotHome = e2e.home): Promise<{ code: number; stdout: string }> {
  const proc = Bun.spawn(["/bin/sh", "-c", `umask 022; exec "$@"`, "sh", ZOT, "--json", "--provider", "mock", "--permission-mode", "yolo", prompt], {
    cwd: e2e.home,
    env: zotEnv(zotHome),
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  return { code, stdout };
}

test("the spill file of long bash output is under $ZOT_HOME while zot runs and gone after it exits", async () => {
  const { code, stdout } = await run(LONG);
  expect(code).toBe(0);
  const result = jsonLines(stdout).find((e) => e.type === "tool_result") as { content: { text: string }[] };
  const m = /the full output is in (\S+\.log)\./.exec(result.content[0]!.text);
  expect(m?.[1]).toStartWith(join(e2e.home, "spill", "zot-bash-"));
  expect(readdirSync(join(e2e.home, "spill"))).toEqual([]);
});

test("spill files a killed run left are removed once a day old; younger ones are left to their run", async () => {
  const spill = join(e2e.home, "spill");
  mkdirSync(spill, { recursive: true });
  writeFileSync(join(spill, "zot-bash-stale.log"), "old output");
  const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
  utimesSync(join(spill, "zot-bash-stale.log"), twoDaysAgo, twoDaysAgo);
  writeFileSync(join(spill, "zot-bash-other-run.log"), "a running zot's output");
  expect((await run(LONG)).code).toBe(0);
  expect(readdirSync(spill)).toEqual(["zot-bash-other-run.log"]);
});

test("every directory a run creates in $ZOT_HOME is 0700 even under umask 022", async () => {
  // A e2e.home zot has to create itself, not the test's own temp directory.
  const zotHome = join(e2e.home, "zot-home");
  expect((await run(LONG, zotHome)).code).toBe(0);
  const dirs: string[] = [];
  const walk = (d: string): void => {
    dirs.push(d);
    for (const e of readdirSync(d, { withFileTypes: true })) if (e.isDirectory()) walk(join(d, e.name));
  };
  walk(zotHome);
  expect(dirs.length).toBeGreaterThan(2);
  for (const d of dirs) expect(`${d} ${(statSync(d).mode & 0o777).toString(8)}`).toBe(`${d} 700`);
});
