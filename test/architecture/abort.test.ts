// Every abort listener goes through src/abort.ts's onAbort, which runs at once on a signal that has
// already aborted: a listener added with addEventListener after the abort never runs, and the work
// it should stop runs on (a bash call aborted while its command started kept the command running).
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { code, sources, src } from "./source-text.ts";

/** Where `text` listens to an abort itself: addEventListener("abort"…) or an onabort handler. */
export function abortListeners(text: string): string[] {
  // Strings other than the event's name are not code.
  const body = code(text).replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g, (s) => (/^["'`]abort["'`]$/.test(s) ? s : '""'));
  return [...body.matchAll(/\.\s*addEventListener\s*\(\s*["'`]abort["'`]|\.onabort\s*=/g)].map((m) => m[0].replace(/\s+/g, ""));
}

test("no abort listener in src/ but onAbort's own: every one runs when its signal has already aborted", () => {
  const door = join(src, "abort.ts");
  const violations = sources(src)
    .filter((file) => file !== door)
    .flatMap((file) => abortListeners(readFileSync(file, "utf8")).map((what) => `${relative(src, file)}: ${what}`));
  expect(violations).toEqual([]);
});

test("the rule finds both ways of listening, and not a comment or a string", () => {
  expect(abortListeners(`signal.addEventListener("abort", stop, { once: true });\nopts.signal .addEventListener( 'abort', f);\nsignal.onabort = f;`)).toEqual([
    '.addEventListener("abort"',
    ".addEventListener('abort'",
    ".onabort=",
  ]);
  expect(abortListeners(`// signal.addEventListener("abort", f)\nconst s = "x.onabort = f";\nsignal.addEventListener("close", f);`)).toEqual([]);
});
