// The atomic file write used by the write and edit tools and by the config files.
import { closeSync, fchmodSync, fsyncSync, openSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { randomHex } from "./random.ts";

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
