// The one temporary-directory fixture of the tests: every directory made here is removed after the
// last test of the run (test/preload.ts; `bun test` emits no process "exit" or "beforeExit", so a
// hook on those never ran and every run left its directories behind), so no test cleans up after
// itself and a failed test leaves nothing behind either.
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const made: string[] = [];

/** A new empty directory `<base>/<prefix>XXXXXX`, its real path (macOS's /var is a link to /private/var). */
export function tempDir(prefix = "zot-test-", base = tmpdir()): string {
  const dir = realpathSync(mkdtempSync(join(base, prefix)));
  made.push(dir);
  return dir;
}

/** Removes every directory tempDir made so far. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
