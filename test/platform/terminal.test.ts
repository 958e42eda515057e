// isTerminal tells a terminal from everything else stdout can be; a real terminal (a tmux pane) is
// covered end to end in test/e2e/terminal-safety.test.ts and the TUI tests.
import { afterEach, expect, test } from "bun:test";
import { closeSync, openSync } from "node:fs";
import { join } from "node:path";
import { isDumbTerminal, isTerminal } from "../../src/platform/terminal.ts";
import { tempDir } from "../helpers/temp.ts";

const fds: number[] = [];
let dir = "";
afterEach(() => {
  for (const fd of fds.splice(0)) closeSync(fd);
  dir = "";
});
const open = (path: string, flags: string) => {
  const fd = openSync(path, flags);
  fds.push(fd);
  return fd;
};

test("a regular file, /dev/null, /dev/zero and a closed descriptor are not terminals", () => {
  dir = tempDir("zot-terminal-");
  expect(isTerminal(open(join(dir, "out.txt"), "w"))).toBe(false);
  expect(isTerminal(open("/dev/null", "w"))).toBe(false);
  expect(isTerminal(open("/dev/zero", "r"))).toBe(false);
  expect(isTerminal(987_654)).toBe(false);
});

test("a pipe is not a terminal", async () => {
  const child = Bun.spawn(
    [
      process.execPath,
      "-e",
      `const { isTerminal } = await import(${JSON.stringify(join(import.meta.dir, "../../src/platform/terminal.ts"))}); console.log(isTerminal(1), isTerminal(0));`,
    ],
    { stdin: "pipe", stdout: "pipe" },
  );
  child.stdin.end();
  expect((await new Response(child.stdout).text()).trim()).toBe("false false");
});

test("TERM=dumb is a dumb terminal; any other TERM, or none, is not", () => {
  expect(isDumbTerminal({ TERM: "dumb" })).toBe(true);
  expect(isDumbTerminal({ TERM: "xterm-256color" })).toBe(false);
  expect(isDumbTerminal({})).toBe(false);
});
