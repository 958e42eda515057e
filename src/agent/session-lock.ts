// One writer per session transcript. Two zot processes appending to one file interleave their
// turns into a conversation no provider accepts (a tool result without its call), so the writer
// holds an exclusive lock on the file for as long as it may append to it.
//
// The lock is flock(2) with LOCK_EX|LOCK_NB on the transcript itself (platform/file-lock.ts): the
// kernel drops it when the holder's file is closed or the process dies, so a crash never leaves a
// stale lock behind. Where flock is not available (Windows), sessions are not locked.
import { closeSync, existsSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { ensurePrivateDir } from "../platform/home.ts";
import { flock, LOCK_EX, LOCK_NB } from "../platform/file-lock.ts";
import type { AgentRef } from "../protocol.ts";
import type { SessionWriter } from "./session.ts";
import type { PermissionMode } from "./choices.ts";
import type { Message, Usage } from "./messages.ts";

export type SessionLock = { release(): void };

export type LockResult = { ok: true; lock: SessionLock } | { ok: false; held: true } | { ok: false; held: false; error: string };

/** Takes the writer's lock on `path` (created, 0600, if missing) without waiting; `held` when another process has it. */
export function lockSession(path: string): LockResult {
  let fd: number;
  try {
    ensurePrivateDir(dirname(path));
    fd = openSync(path, "a", 0o600);
  } catch (err) {
    return { ok: false, held: false, error: `could not open ${path} to lock it (${err instanceof Error ? err.message : String(err)})` };
  }
  const fn = flock();
  if (fn !== null && fn(fd, LOCK_EX | LOCK_NB) !== 0) {
    closeSync(fd);
    return { ok: false, held: true };
  }
  let open = true;
  return {
    ok: true,
    lock: {
      release() {
        if (!open) return;
        open = false;
        closeSync(fd);
      },
    },
  };
}

/**
 * A writer that holds the lock while it may append: `lock` is the one taken when the session was
 * opened (resume); a new session takes it with its first record, when its file appears.
 */
export function lockedWriter(inner: SessionWriter, lock?: SessionLock): SessionWriter {
  let held = lock;
  // Taken after the record: the writer creates a new transcript exclusively, so the file must not
  // exist before it; until it does there is nothing to lock. A brand-new file can't be held by
  // anyone else, and a failure to lock is the transcript's own failure to report.
  const ensure = (): void => {
    if (held || inner.path === null || !existsSync(inner.path)) return;
    const r = lockSession(inner.path);
    if (r.ok) held = r.lock;
  };
  return {
    get path() {
      return inner.path;
    },
    message(message: Message) {
      inner.message(message);
      ensure();
    },
    usage(usage: Usage, total: Usage, provider: string, model: string) {
      inner.usage(usage, total, provider, model);
      ensure();
    },
    model(provider: string, model: string) {
      inner.model(provider, model);
      ensure();
    },
    permissionMode(mode: PermissionMode) {
      inner.permissionMode(mode);
      ensure();
    },
    compaction(summary: string, replaced: number, kept: number) {
      inner.compaction(summary, replaced, kept);
      ensure();
    },
    subagent(agent: AgentRef, message: Message) {
      inner.subagent(agent, message);
      ensure();
    },
    rename(title: string) {
      inner.rename(title);
      ensure();
    },
    close() {
      inner.close();
      held?.release();
      held = undefined;
    },
  };
}

/** How a transcript that another process is writing is described in messages. */
export const IN_USE = "is open in another zot process, which holds its lock";
