// The one atomic file write: the write and edit tools, the config and state files of every layer.
import {
  closeSync,
  constants,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
  type Stats,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { randomHex } from "../random.ts";

/** What a file system entry is, as a refusal names it ("a FIFO (named pipe)"). */
export function fileKind(st: Stats): string {
  if (st.isFile()) return "a regular file";
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSocket()) return "a socket";
  return "not a regular file";
}

/**
 * Writes through a temp file in the same directory and renames it over the target, so readers see
 * the old or the new content, never half of it. A symlinked target is written through (the link
 * stays a link); an existing file keeps its permission bits (unless `mode` says otherwise), owner
 * and group. A target that is not a regular file (a device, a FIFO, a socket) is never replaced.
 * Two cases are written in place instead, since a rename would change what the user has: a file
 * with more than one hard link (the rename would split it from its other names) and a file whose
 * owner we can't give to the replacement (another user's file that we may write to). `data` may be
 * given as pieces written one after the other, so a big file's edit need not be copied into one.
 */
export function atomicWrite(path: string, data: string | Uint8Array | readonly Uint8Array[], mode?: number): void {
  let target = path;
  let existing: Stats | undefined;
  try {
    target = realpathSync(path);
    existing = statSync(target);
  } catch {
    // A new file: nothing to keep, and no link to follow.
  }
  if (existing && !existing.isFile()) throw new Error(`${target} is ${fileKind(existing)}, not a regular file; it was left untouched`);
  const bytes = typeof data === "string" ? [Buffer.from(data, "utf8")] : data instanceof Uint8Array ? [data] : data;
  if (existing && existing.nlink > 1) return writeInPlace(target, bytes, mode);
  const tmp = join(dirname(target), `.${basename(target)}.${randomHex(6)}.tmp`);
  const wanted = mode ?? (existing ? existing.mode & 0o7777 : undefined);
  const fd = openSync(tmp, "wx", wanted ?? 0o666);
  try {
    if (existing && !ownedAsWeWouldCreate(existing)) {
      try {
        fchownSync(fd, existing.uid, existing.gid);
      } catch {
        closeSync(fd);
        unlinkQuietly(tmp);
        return writeInPlace(target, bytes, mode);
      }
    }
    // open() applies the umask, and chown clears set-id bits: an explicit or inherited mode must come out exactly.
    if (wanted !== undefined) fchmodSync(fd, wanted);
    writeAll(fd, bytes);
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

function ownedAsWeWouldCreate(st: Stats): boolean {
  if (typeof process.getuid !== "function" || typeof process.getgid !== "function") return true;
  return st.uid === process.getuid() && st.gid === process.getgid();
}

/** Rewrites the file's own inode: not atomic, but it keeps every hard link and the owner. */
function writeInPlace(target: string, bytes: readonly Uint8Array[], mode: number | undefined): void {
  // O_NONBLOCK: if the path was swapped for a FIFO since it was checked, opening fails instead of hanging.
  const fd = openSync(target, constants.O_WRONLY | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`${target} is no longer a regular file; it was left untouched`);
    writeAll(fd, bytes);
    ftruncateSync(
      fd,
      bytes.reduce((n, b) => n + b.length, 0),
    );
    if (mode !== undefined) fchmodSync(fd, mode);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function writeAll(fd: number, pieces: readonly Uint8Array[]): void {
  for (const bytes of pieces) {
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}
