// A test signals a process only through test/helpers/processes.ts's `signal`, which refuses pid 0,
// 1 and anything not a positive integer: process.kill(0, …) reaches the test's own process group,
// process.kill(-1, …) every process the user may signal, and a pid a test reads from an empty file
// or takes from a server that never started is just that. (A command-server test did
// `process.kill(server?.pid ?? -1, "SIGKILL")`; where the sandbox was not enforced it killed the
// test run and the shell that started it.) Probes with signal 0 send nothing and stay allowed.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { code, sources, src } from "./source-text.ts";

const tests = resolve(import.meta.dir, "..");

/** Each `process.kill(…)` in `text` that sends a signal (its arguments, strings blanked). */
export function signalsSent(text: string): string[] {
  // Strings are not code (a script a test writes for a subprocess is its own matter).
  const body = code(text).replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""');
  const found: string[] = [];
  for (const m of body.matchAll(/\bprocess\.kill\s*\(/g)) {
    let depth = 1;
    let i = m.index + m[0].length;
    for (; i < body.length && depth > 0; i++) depth += body[i] === "(" ? 1 : body[i] === ")" ? -1 : 0;
    const args = body.slice(m.index + m[0].length, i - 1).trim();
    if (!/,\s*0\s*$/.test(args)) found.push(args);
  }
  return found;
}

test("no test sends a signal with process.kill but the helper, which refuses pid 0, 1 and non-integers", () => {
  const door = join(tests, "helpers", "processes.ts");
  const violations = sources(tests)
    .filter((file) => file !== door)
    .flatMap((file) => signalsSent(readFileSync(file, "utf8")).map((args) => `${relative(tests, file)}: process.kill(${args})`));
  expect(violations).toEqual([]);
});

test("in src/, signals are sent only where the pid is checked first (platform/signallable.ts) or is zot's own", () => {
  // process-tree.ts's killTree and the command server's signalGroup check the pid; the terminal stops zot itself (Ctrl-Z).
  const allowed = ["platform/process-tree.ts", "platform/command-server.ts", "tui/terminal/terminal.ts"];
  const violations = sources(src)
    .map((file) => relative(src, file))
    .filter((file) => !allowed.includes(file))
    .flatMap((file) => signalsSent(readFileSync(join(src, file), "utf8")).map((args) => `${file}: process.kill(${args})`));
  expect(violations).toEqual([]);
});

test("the rule finds a signal sent, not a probe with 0, a comment or a string", () => {
  expect(signalsSent(`process.kill(old, "SIGKILL");\nprocess.kill(-pid, 'SIGTERM');\nprocess.kill(Number(f(x)));`)).toEqual([
    'old, ""',
    '-pid, ""',
    "Number(f(x))",
  ]);
  expect(signalsSent(`process.kill(pid, 0);\n// process.kill(pid, "SIGKILL")\nconst s = "process.kill(1, 9)";`)).toEqual([]);
});
