// Replacing the running zot with a new binary without a moment where neither works: the new file
// is written beside the old one (same directory, so same file system), checked, then renamed into
// place. POSIX renames over a running executable; Windows cannot, but it can rename a running .exe
// aside, so there the old one moves to `zot.exe.old` first and comes back if the second rename fails.
import { chmodSync, existsSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, posix, win32 } from "node:path";
import { randomHex } from "../agent/random.ts";

/** Where the new binary is staged: a hidden name beside the current one (`.exe` kept on Windows so it can be run). */
export function stagingPath(current: string, platform: string, suffix: string): string {
  const path = platform === "win32" ? win32 : posix;
  return path.join(path.dirname(current), `.${path.basename(current)}.update-${suffix}${platform === "win32" ? ".exe" : ""}`);
}

/** Where Windows parks the running executable while the new one takes its name. */
export function windowsAsidePath(current: string): string {
  return `${current}.old`;
}

/**
 * Writes `bytes` beside `current`, lets `check` run the staged file (null = fine), then renames it
 * over `current`. On any failure the staged file is removed and `current` is as it was.
 */
export async function replaceBinary(
  current: string,
  bytes: Uint8Array,
  check: (staged: string) => Promise<string | null>,
  platform: string = process.platform,
): Promise<string | null> {
  const staged = stagingPath(current, platform, randomHex(4));
  const where = dirname(current);
  try {
    writeFileSync(staged, bytes, { flag: "wx", mode: 0o755 });
    if (platform !== "win32") chmodSync(staged, statSync(current).mode & 0o777 || 0o755);
  } catch (e) {
    rmSync(staged, { force: true });
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EACCES" || code === "EPERM" || code === "EROFS")
      return `cannot write beside ${current} (${code}); run zot update as a user who can write to ${where}, or install zot into a directory you own.`;
    return `cannot write the new binary beside ${current} (${(e as Error).message}); nothing was changed.`;
  }
  const problem = await check(staged);
  if (problem) {
    rmSync(staged, { force: true });
    return problem;
  }
  try {
    if (platform === "win32") swapOnWindows(current, staged);
    else renameSync(staged, current);
  } catch (e) {
    rmSync(staged, { force: true });
    return `could not move the new binary over ${current} (${(e as Error).message}); the old one is still in place.`;
  }
  return null;
}

function swapOnWindows(current: string, staged: string): void {
  let aside = windowsAsidePath(current);
  // Left by the previous update. If a zot still runs from it, it cannot be deleted; park beside it.
  if (existsSync(aside)) rmSync(aside, { force: true });
  if (existsSync(aside)) aside = join(dirname(aside), `${basename(aside)}-${randomHex(3)}`);
  renameSync(current, aside);
  try {
    renameSync(staged, current);
  } catch (e) {
    renameSync(aside, current);
    throw e;
  }
}
