// The one temporary-directory fixture of the tests: every directory made here is removed when the
// test process exits, so no test cleans up after itself (and a failed test leaves nothing behind).
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const made: string[] = [];
let hooked = false;

/** A new empty directory `<base>/<prefix>XXXXXX`, its real path (macOS's /var is a link to /private/var). */
export function tempDir(prefix = "zot-test-", base = tmpdir()): string {
  if (!hooked) {
    hooked = true;
    process.once("exit", () => {
      for (const dir of made) rmSync(dir, { recursive: true, force: true });
    });
  }
  const dir = realpathSync(mkdtempSync(join(base, prefix)));
  made.push(dir);
  return dir;
}
