// Per-extension log file: the extension's stderr plus `[zot] …` lines the host writes about it
// (start, warnings, conflicts, exit), so `zot ext logs <name>` tells the whole story in one place.
// Everything written here goes through the mask: the extension's stderr as much as the host's lines.
import type { Result } from "../../result.ts";
import { chmodSync, closeSync, fstatSync, openSync, readSync, renameSync, statSync, writeSync } from "node:fs";
import { ensurePrivateDir, extensionLogPath, logsDir } from "../../platform/home.ts";
import { isManifestName } from "../name-rules.ts";
import { unmasked } from "../mask.ts";
import type { Mask } from "../mask.ts";
import type { DiscoveredExtension } from "../types.ts";

/** Logs larger than this are rotated to `.log.1` when the extension is spawned. */
const LOG_ROTATE_BYTES = 10 * 1024 * 1024;
/** How much of the log's end `lastWords` reads: the end of a long stack trace fits. */
const TAIL_BYTES = 16 * 1024;
/** Longest quote of the extension's last words in an error message. */
const LAST_WORDS_CHARS = 200;
/** A stderr line that names the failure, in the languages extensions are written in. */
const ERROR_LIKE = /error|exception|cannot|can't|not found|no such|fatal|panic|denied|failed/i;
/** Stack frames and trailers that follow the error line (Node prints its version last, Bun too). */
const TRAILER = /^(at\s|file ".*", line \d|node\.js v\d|bun v\d|[\^~]+$|[{}[\]()]+,?$)/i;

export class ExtensionLog {
  readonly path: string;
  /** Append-only descriptor. MCP servers get it as their stderr; extensions' stderr is piped through `output`. */
  readonly fd: number;
  /** Applied to every line written here; also to the text around a cut in an over-long stderr line. */
  readonly mask: Mask;
  /** Where this run's part of the log starts: earlier runs' lines are not this process's words. */
  private readonly runStart: number;
  private closed = false;

  private constructor(path: string, fd: number, mask: Mask) {
    this.path = path;
    this.fd = fd;
    this.mask = mask;
    this.runStart = fstatSync(fd).size;
  }

  /**
   * Opens (creating `logs/` and the file, mode 0600) and rotates an oversized log first. `mask`
   * applies to the host's own lines, which may quote frames, and to the extension's stderr.
   * `path` is for other children zot logs the same way (MCP servers: `logs/mcp-<name>.log`).
   */
  static open(home: string, name: string, mask: Mask = unmasked, path = extensionLogPath(home, name)): Result<{ log: ExtensionLog }> {
    try {
      ensurePrivateDir(logsDir(home));
      rotateIfLarge(path);
      const fd = openSync(path, "a", 0o600);
      chmodSync(path, 0o600);
      return { ok: true, log: new ExtensionLog(path, fd, mask) };
    } catch (e) {
      return { ok: false, error: `cannot open log ${path}: ${(e as Error).message}` };
    }
  }

  /** One host line, prefixed `[zot] `. Never throws: logging must not take the host down. */
  line(text: string): void {
    if (this.closed) return;
    try {
      writeSync(this.fd, `[zot] ${this.mask(text).replaceAll("\n", "\\n")}\n`);
    } catch {
      // A full disk or a deleted file must not break the extension itself.
    }
  }

  /** The extension's own output: whole lines, newlines included, masked and appended as they are. */
  output(text: string): void {
    if (this.closed) return;
    try {
      writeSync(this.fd, this.mask(text));
    } catch {
      // As for `line`: the log failing must not take the extension down.
    }
  }

  /**
   * What the extension last said on stderr in this run, for an error message: the last line that
   * reads like an error (Node and Python follow theirs with stack frames and a version line), else
   * the last non-empty line. Control characters are removed and the line is cut at 200 characters.
   * Null when it wrote nothing or the log cannot be read.
   */
  lastWords(): string | null {
    let text: string;
    try {
      text = readTail(this.path, this.runStart);
    } catch {
      return null;
    }
    const lines = text
      .split(/\r\n|\n|\r/)
      .filter((l) => !l.startsWith("[zot] "))
      .map(clean)
      .filter((l) => l !== "");
    const words = lines.filter((l) => !TRAILER.test(l));
    const pick = words.findLast((l) => ERROR_LIKE.test(l)) ?? words.at(-1) ?? lines.at(-1);
    if (pick === undefined) return null;
    return pick.length > LAST_WORDS_CHARS ? `${pick.slice(0, LAST_WORDS_CHARS)}…` : pick;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      closeSync(this.fd);
    } catch {
      // Already closed.
    }
  }
}

/** Why a discovered extension was not started, in the log `zot ext logs <name>` shows. */
export function noteNotStarted(home: string, d: DiscoveredExtension, mask: Mask = unmasked): void {
  // An invalid manifest's name may be anything, and it names a file here: only valid names get a line.
  if (!isManifestName(d.name)) return;
  let line: string;
  if (d.status === "shadowed") line = `not starting ${d.dir}: shadowed by ${d.shadowedBy ?? "an extension loaded earlier"} with the same name`;
  else if (d.status === "invalid") line = `not starting ${d.dir}: ${d.error ?? "invalid manifest"}`;
  else if (d.status === "untrusted") line = `${d.dir}: ${d.error ?? "not started: its folder is not trusted"}`;
  else return;
  const opened = ExtensionLog.open(home, d.name, mask);
  if (!opened.ok) return;
  opened.log.line(line);
  opened.log.close();
}

/** The log from `from` on, at most its last TAIL_BYTES (starting at a line boundary when cut). */
function readTail(path: string, from: number): string {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(from, size - TAIL_BYTES);
    if (size <= start) return "";
    const buf = Buffer.alloc(size - start);
    const n = readSync(fd, buf, 0, buf.length, start);
    const text = buf.subarray(0, n).toString("utf8");
    return start > from ? text.slice(text.indexOf("\n") + 1) : text;
  } finally {
    closeSync(fd);
  }
}

/** Terminal escapes and other control characters out, surrounding blanks trimmed. */
function clean(line: string): string {
  return line
    .replace(/\x1b\[[0-?]*[ -/]*[@-~]/g, "")
    .replace(/[\x00-\x1f\x7f-\x9f]/g, " ")
    .trim();
}

function rotateIfLarge(path: string): void {
  let size = 0;
  try {
    size = statSync(path).size;
  } catch {
    return;
  }
  if (size > LOG_ROTATE_BYTES) renameSync(path, `${path}.1`);
}
