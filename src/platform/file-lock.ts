// Exclusive advisory locks between zot processes: flock(2) reached through bun:ffi (libc.so.6 on
// Linux, libSystem on macOS). The kernel drops a lock when its holder's file is closed or the
// process dies, kill -9 included, so a crash never leaves a stale lock behind. Where flock is not
// available (Windows), nothing is locked.
import type { Result } from "../result.ts";
import { closeSync, openSync } from "node:fs";

export const LOCK_EX = 2;
export const LOCK_NB = 4;

export type Flock = (fd: number, op: number) => number;

let flockFn: Flock | null | undefined;

/** libc's flock, loaded on first use (dlopen costs a few milliseconds); null where there is none. */
export function flock(): Flock | null {
  if (flockFn !== undefined) return flockFn;
  flockFn = null;
  const lib = process.platform === "darwin" ? "libSystem.B.dylib" : process.platform === "linux" ? "libc.so.6" : null;
  if (lib === null) return null;
  try {
    // Loaded lazily: bun:ffi is only needed by runs that lock something.
    const { dlopen, FFIType } = require("bun:ffi") as typeof import("bun:ffi");
    const { symbols } = dlopen(lib, { flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 } });
    flockFn = (fd, op) => symbols.flock(fd, op);
  } catch {
    // No usable libc: unlocked, as on Windows.
  }
  return flockFn;
}

/** How long a short read-modify-write waits for another process's lock before giving up. */
const WAIT_MS = 2000;
const POLL_MS = 5;

/**
 * Runs `fn` holding an exclusive lock on `lockPath` (created 0600 if missing): for a
 * read-modify-write of a small shared file, so two processes never lose each other's change. It
 * waits at most two seconds for a holder, polling, rather than blocking in flock and hanging the
 * event loop behind a stopped process.
 */
export function withFileLock<T>(lockPath: string, fn: () => T): Result<{ value: T }> {
  let fd: number;
  try {
    fd = openSync(lockPath, "a", 0o600);
  } catch (err) {
    return { ok: false, error: `could not open ${lockPath} to lock it (${err instanceof Error ? err.message : String(err)})` };
  }
  try {
    const lock = flock();
    if (lock !== null) {
      const deadline = Date.now() + WAIT_MS;
      while (lock(fd, LOCK_EX | LOCK_NB) !== 0) {
        if (Date.now() >= deadline) return { ok: false, error: `${lockPath} stayed locked by another zot process for ${WAIT_MS / 1000} s; try again` };
        Bun.sleepSync(POLL_MS);
      }
    }
    return { ok: true, value: fn() };
  } finally {
    closeSync(fd);
  }
}
