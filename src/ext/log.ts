// Per-extension log file: the extension's stderr plus `[zot] …` lines the host writes about it
// (start, warnings, conflicts, exit), so `zot ext logs <name>` tells the whole story in one place.
import { chmodSync, closeSync, mkdirSync, openSync, renameSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { MANIFEST_NAME_PATTERN } from "./protocol.ts";
import { unmasked } from "./mask.ts";
import type { Mask } from "./mask.ts";
import type { DiscoveredExtension } from "./types.ts";

/** Logs larger than this are rotated to `.log.1` when the extension is spawned. */
const LOG_ROTATE_BYTES = 10 * 1024 * 1024;

export function extensionLogPath(home: string, name: string): string {
  return join(home, "logs", `ext-${name}.log`);
}

export class ExtensionLog {
  readonly path: string;
  /** Append-only descriptor; also handed to the child as its stderr so it never waits on us. */
  readonly fd: number;
  private readonly mask: Mask;
  private closed = false;

  private constructor(path: string, fd: number, mask: Mask) {
    this.path = path;
    this.fd = fd;
    this.mask = mask;
  }

  /**
   * Opens (creating `logs/` and the file, mode 0600) and rotates an oversized log first. `mask`
   * applies to the host's own lines, which may quote frames; the extension's stderr is its own.
   */
  static open(home: string, name: string, mask: Mask = unmasked): { ok: true; log: ExtensionLog } | { ok: false; error: string } {
    const path = extensionLogPath(home, name);
    try {
      mkdirSync(join(home, "logs"), { recursive: true, mode: 0o700 });
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
      writeSync(this.fd, `[zot] ${this.mask(text).replace(/\n/g, "\\n")}\n`);
    } catch {
      // A full disk or a deleted file must not break the extension itself.
    }
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
  if (!MANIFEST_NAME_PATTERN.test(d.name)) return;
  let line: string;
  if (d.status === "shadowed") line = `not starting ${d.dir}: shadowed by ${d.shadowedBy ?? "an extension loaded earlier"} with the same name`;
  else if (d.status === "invalid") line = `not starting ${d.dir}: ${d.error ?? "invalid manifest"}`;
  else return;
  const opened = ExtensionLog.open(home, d.name, mask);
  if (!opened.ok) return;
  opened.log.line(line);
  opened.log.close();
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
