// `zot ext rollback <name>`: puts back the tree `zot ext update` replaced, and its lock entry. The
// two swap places, so a second rollback returns to the update.
import { globalRoot } from "../../platform/home.ts";
import { existsSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { projectExtensionsDir } from "../../ext/discovery.ts";
import { LOCK_FILE, lockPathFor, readLock, writeLock } from "../../ext/install/lockfile.ts";
import { fail, type Ctx } from "../kit/context.ts";
import { previousDir } from "./install.ts";

export async function rollback(ctx: Ctx, name: string, opts: { project: boolean }): Promise<number> {
  const root = opts.project ? projectExtensionsDir(ctx.cwd) : globalRoot(ctx.home);
  const lockPath = lockPathFor(root);
  const lock = readLock(lockPath);
  if (!lock.ok) return fail(ctx, lock.error);
  const key = Object.keys(lock.lock.extensions).find((k) => k.toLowerCase() === name.toLowerCase()) ?? name;
  const previous = previousDir(root, key);
  if (!existsSync(previous)) return fail(ctx, `there is no earlier version of ${name} to roll back to (zot ext update keeps one in ${previous}).`);
  const current = join(root, key);
  const prevLockPath = join(root, ".zot-previous", LOCK_FILE);
  const prevLock = readLock(prevLockPath);
  if (!prevLock.ok) return fail(ctx, prevLock.error);

  const swap = mkdtempSync(join(root, ".zot-rollback-"));
  try {
    if (existsSync(current)) renameSync(current, join(swap, "current"));
    renameSync(previous, current);
    if (existsSync(join(swap, "current"))) renameSync(join(swap, "current"), previous);
  } catch (e) {
    return fail(ctx, `rolling back ${name} failed (${(e as NodeJS.ErrnoException).code ?? String(e)}); check ${root} and ${swap}.`);
  } finally {
    rmSync(swap, { recursive: true, force: true });
  }
  const now = lock.lock.extensions[key];
  const before = prevLock.lock.extensions[key];
  if (before) lock.lock.extensions[key] = before;
  if (now) prevLock.lock.extensions[key] = now;
  const written = writeLock(lockPath, lock.lock);
  if (!written.ok) return fail(ctx, `${name} was rolled back, but ${written.error}.`);
  writeLock(prevLockPath, prevLock.lock);
  ctx.out.write(
    `rolled ${key} back to ${before?.version ?? "its previous version"}${before?.source.type === "git" ? ` (commit ${before.source.commit.slice(0, 7)})` : ""}; zot ext rollback ${key} again returns to ${now?.version ?? "the update"}\n`,
  );
  return 0;
}
