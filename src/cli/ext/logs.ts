// `zot ext logs <name> [-f]`: prints an extension's log (its stderr plus the host's `[zot]` lines);
// `-f` keeps following it in-process, across rotation and truncation, until interrupted.
import { extensionLogPath } from "../../platform/home.ts";
import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { isManifestName } from "../../ext/name-rules.ts";
import { abortableSleep } from "../../abort.ts";
import type { Ctx } from "../kit/context.ts";
import { fail } from "../kit/context.ts";

const POLL_MS = 100;
const CHUNK = 64 * 1024;

export async function logs(ctx: Ctx, name: string, follow: boolean): Promise<number> {
  if (!isManifestName(name)) return fail(ctx, `"${name}" is not a valid extension name; run zot ext list to see the names.`);
  const path = findLog(extensionLogPath(ctx.home, name));
  if (!follow) {
    const file = openLog(path);
    if (!file) return fail(ctx, `no log for ${name} at ${path}; the extension has not been started yet.`);
    const decoder = new TextDecoder();
    copyFrom(ctx, file.fd, 0, decoder);
    flush(ctx, decoder);
    closeSync(file.fd);
    return 0;
  }

  // zot itself stops following on Ctrl-C; callers (tests) may pass their own signal.
  const ctrl = new AbortController();
  const onSigint = () => ctrl.abort();
  if (!ctx.signal) process.once("SIGINT", onSigint);
  const signal = ctx.signal ?? ctrl.signal;
  let file = openLog(path);
  if (!file) ctx.err.write(`waiting for ${path} to appear (Ctrl-C to stop)\n`);
  let pos = 0;
  // One decoder across polls, so a UTF-8 sequence split between two writes stays intact.
  const decoder = new TextDecoder();
  try {
    while (!signal.aborted) {
      if (file) pos = copyFrom(ctx, file.fd, pos, decoder);
      await abortableSleep(POLL_MS, signal);
      let st: { ino: number; size: number } | null = null;
      try {
        st = statSync(path);
      } catch {
        st = null;
      }
      if (file && (st === null || st.ino !== file.ino)) {
        // Rotated or deleted: drain what is left of the old file, then start on the new one.
        copyFrom(ctx, file.fd, pos, decoder);
        flush(ctx, decoder);
        closeSync(file.fd);
        file = null;
        pos = 0;
      }
      if (!file && st) file = openLog(path);
      if (file && st && st.size < pos) pos = 0;
    }
    flush(ctx, decoder);
  } finally {
    process.off("SIGINT", onSigint);
    if (file) closeSync(file.fd);
  }
  return 0;
}

/** The log for `name`, matching the file name case-insensitively when the exact one is absent. */
function findLog(exact: string): string {
  try {
    statSync(exact);
    return exact;
  } catch {
    const want = basename(exact).toLowerCase();
    try {
      const hit = readdirSync(dirname(exact)).find((f) => f.toLowerCase() === want);
      if (hit) return join(dirname(exact), hit);
    } catch {
      // No logs directory yet.
    }
    return exact;
  }
}

function openLog(path: string): { fd: number; ino: number } | null {
  try {
    const fd = openSync(path, "r");
    return { fd, ino: statSync(path).ino };
  } catch {
    return null;
  }
}

/** Writes everything from `pos` to the current end; returns the new position. */
function copyFrom(ctx: Ctx, fd: number, pos: number, decoder: TextDecoder): number {
  const buf = Buffer.alloc(CHUNK);
  for (;;) {
    const n = readSync(fd, buf, 0, CHUNK, pos);
    if (n <= 0) break;
    pos += n;
    ctx.out.write(decoder.decode(buf.subarray(0, n), { stream: true }));
  }
  return pos;
}

function flush(ctx: Ctx, decoder: TextDecoder): void {
  const rest = decoder.decode();
  if (rest) ctx.out.write(rest);
}
