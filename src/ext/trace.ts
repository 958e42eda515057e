// `--ext-trace FILE`: every frame in both directions as one JSON line
// `{"t":<ms since zot started, monotonic>,"ext":name,"dir":"in"|"out","frame":{…}}`.
// Buffered in memory and appended in large writes so tracing does not slow the protocol down.
import { appendFileSync, writeFileSync } from "node:fs";

const FLUSH_BYTES = 256 * 1024;

export class Trace {
  readonly path: string;
  private buf: string[] = [];
  private bytes = 0;
  private failed = false;

  /** Truncates the file: one trace per run. */
  constructor(path: string) {
    this.path = path;
    try {
      writeFileSync(path, "", { mode: 0o600 });
    } catch {
      this.failed = true;
    }
  }

  /** `json` is the frame's JSON text exactly as sent or received. Lines that were not JSON go in as a string. */
  record(ext: string, dir: "in" | "out", json: string, valid = true): void {
    if (this.failed) return;
    const frame = valid ? json : JSON.stringify(json);
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
      this.failed = true;
    }
  }
}
