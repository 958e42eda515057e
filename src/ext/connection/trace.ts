// `--ext-trace FILE`: every frame in both directions as one JSON line
// `{"t":<ms since zot started, monotonic>,"ext":name,"dir":"in"|"out","frame":{…}}`.
// Buffered in memory and appended in large writes so tracing does not slow the protocol down.
// Frames carry whatever the model and the user typed (tool arguments, prompts), so every line goes
// through the caller's mask first: a key pasted into a tool call must not end up in the file.
import type { Result } from "../../result.ts";
import { appendFileSync, writeFileSync } from "node:fs";
import { unmasked } from "../mask.ts";
import type { Mask } from "../mask.ts";

const FLUSH_BYTES = 256 * 1024;

export type TraceOpened = Result<{ trace: Trace }>;

/** What a connection reports every line to (see `record`). */
export type FrameRecorder = Pick<Trace, "record">;

export class Trace {
  readonly path: string;
  /** Settable: a later load may bring a different mask for the same file. */
  mask: Mask;
  private buf: string[] = [];
  private bytes = 0;
  private failed = false;

  private constructor(path: string, mask: Mask) {
    this.path = path;
    this.mask = mask;
  }

  /** Creates or truncates the file (mode 0600): one trace per run. */
  static open(path: string, mask: Mask = unmasked): TraceOpened {
    try {
      writeFileSync(path, "", { mode: 0o600 });
    } catch (e) {
      return { ok: false, error: `cannot write the extension trace to ${path}: ${reason(e)}` };
    }
    return { ok: true, trace: new Trace(path, mask) };
  }

  /** `json` is the frame's JSON text exactly as sent or received. Lines that were not JSON go in as a string. */
  record(ext: string, dir: "in" | "out", json: string, valid = true): void {
    if (this.failed) return;
    const masked = this.mask(json);
    // A mask may cut across JSON syntax (a "secret" that is also a number, say); such a line goes in as a string.
    const frame = valid && (masked === json || isJson(masked)) ? masked : JSON.stringify(masked);
    const line = `{"t":${performance.now().toFixed(3)},"ext":${JSON.stringify(ext)},"dir":"${dir}","frame":${frame}}\n`;
    this.buf.push(line);
    this.bytes += line.length;
    if (this.bytes >= FLUSH_BYTES) this.flush();
  }

  flush(): void {
    if (this.failed || this.buf.length === 0) return;
    const text = this.buf.join("");
    this.buf = [];
    this.bytes = 0;
    try {
      appendFileSync(this.path, text);
    } catch {
      // The file was writable at start; a full disk later must not break the extensions.
      this.failed = true;
    }
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const REASONS: Record<string, string> = {
  ENOENT: "its directory does not exist",
  ENOTDIR: "a part of the path is not a directory",
  EISDIR: "it is a directory",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "the file system is read-only",
};

function reason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  return (code && REASONS[code]) ?? (e as Error).message;
}
