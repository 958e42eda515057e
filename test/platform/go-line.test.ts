// The go line (src/platform/go-line.ts): a command's shell runs nothing before zot lets it go, and
// a command whose go never comes (zot killed -9 before it listed the command with the reaper) exits
// with 125 having run nothing. Real shells.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { AWAIT_GO, go } from "../../src/platform/go-line.ts";
import { tempDir } from "../helpers/temp.ts";

const start = (script: string) => Bun.spawn(["/bin/sh", "-c", `${AWAIT_GO}${script}`], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });

test("the command waits for its go, then runs with an empty stdin", async () => {
  const dir = tempDir("zot-go-");
  const marker = join(dir, "ran");
  const p = start(`touch ${marker}; cat; echo done`);
  await Bun.sleep(100);
  expect(existsSync(marker)).toBe(false);
  go(p.stdin);
  expect(await p.exited).toBe(0);
  expect(await new Response(p.stdout).text()).toBe("done\n");
  expect(existsSync(marker)).toBe(true);
});

test("a command whose go never comes runs nothing and exits with 125", async () => {
  const dir = tempDir("zot-go-");
  const marker = join(dir, "ran");
  const p = start(`touch ${marker}`);
  // zot gone: the other end of the pipe closes without a go.
  p.stdin.end();
  expect(await p.exited).toBe(125);
  expect(existsSync(marker)).toBe(false);
});
