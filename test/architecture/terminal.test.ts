// The interactive mode reaches the terminal through processTerminal (tui/terminal/process-terminal.ts),
// not Node's process.stdin / process.stdout, whose first touch costs ~7 ms of the start
// (bench/RESULTS.md, "The TUI's terminal without Node's streams"). In src/tui only processTerminal's
// fallback and the dumb terminal's line mode name them.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { code, sources, src } from "./source-text.ts";

const ALLOWED = new Set(["tui/terminal/process-terminal.ts", "tui/line-mode.ts"]);

/** Where `text` names process.stdin or process.stdout, outside comments. */
const streamUses = (text: string): string[] => [...code(text).matchAll(/\bprocess\.(stdin|stdout)\b/g)].map((m) => m[0]);

test("the TUI names process.stdin and process.stdout only in processTerminal's fallback and the line mode", () => {
  const found = sources(join(src, "tui"))
    .map((file) => ({ file: relative(src, file), uses: streamUses(readFileSync(file, "utf8")) }))
    .filter((f) => f.uses.length > 0 && !ALLOWED.has(f.file));
  expect(found).toEqual([]);
});

test("the rule finds a use in code and none in a comment", () => {
  expect(streamUses('// process.stdout is not used here\nprocess.stdout.write("x");\nconst s = process.stdin;')).toEqual(["process.stdout", "process.stdin"]);
  expect(streamUses("/* process.stdin */ const x = 1;")).toEqual([]);
});
