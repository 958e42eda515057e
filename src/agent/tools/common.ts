// Small pieces every file tool needs: path resolution against the session cwd, argument checks,
// results, and the atomic write used by write, edit and the config files.
import { closeSync, fchmodSync, fsyncSync, openSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { randomHex } from "../random.ts";
import type { Json, JsonObject } from "../../ext/protocol.ts";
import type { ToolOutput } from "../tool.ts";

export function textResult(text: string, isError = false): ToolOutput {
  return { content: [{ type: "text", text }], isError };
}

/** `~` and `~/x` expand to the user's home; relative paths resolve against the session cwd. */
export function resolvePath(cwd: string, path: string): string {
  let p = path;
  // node:os is loaded only for a `~` path (loading it costs start-up memory).
  if (p === "~") p = process.getBuiltinModule("node:os").homedir();
  else if (p.startsWith("~/")) p = join(process.getBuiltinModule("node:os").homedir(), p.slice(2));
  return isAbsolute(p) ? resolve(p) : resolve(cwd, p);
}

export function stringArg(args: JsonObject, key: string): string | undefined {
  const v = args[key];
  return typeof v === "string" ? v : undefined;
}

/**
 * A positive integer argument, or undefined when absent; an error sentence when present but wrong.
 * Models sometimes send numbers as strings ("10"); those are accepted.
 */
export function positiveIntArg(args: JsonObject, key: string): { value?: number; error?: string } {
  const v: Json | undefined = args[key];
  if (v === undefined || v === null) return {};
  const n = typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1) return { error: `"${key}" must be a positive whole number, got ${JSON.stringify(v)}.` };
  return { value: n };
}

export function errorText(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return code ? `${code}: ${err.message}` : err.message;
  }
  return String(err);
}

/**
 * Writes through a temp file in the same directory and renames it over the target, so readers see
 * the old or the new content, never half of it. A symlinked target is written through (the link
 * stays a link), and an existing file keeps its permission bits unless `mode` says otherwise.
 */
export function atomicWrite(path: string, data: string | Uint8Array, mode?: number): void {
  let target = path;
  let keepMode: number | undefined;
  try {
    target = realpathSync(path);
    keepMode = statSync(target).mode & 0o7777;
  } catch {
    // A new file: no mode to keep, and no link to follow.
  }
  const tmp = join(dirname(target), `.${basename(target)}.${randomHex(6)}.tmp`);
  const wanted = mode ?? keepMode;
  const fd = openSync(tmp, "wx", wanted ?? 0o666);
  try {
    // open() applies the umask; an explicit or inherited mode must come out exactly.
    if (wanted !== undefined) fchmodSync(fd, wanted);
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkQuietly(tmp);
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(tmp, target);
  } catch (err) {
    unlinkQuietly(tmp);
    throw err;
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n : n + 1;
}
