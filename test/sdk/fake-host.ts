import { elements } from "../helpers/elements.ts";
// A minimal host for SDK tests and benchmarks: spawns an extension over real pipes, writes host frames,
// and waits for extension frames by predicate. It checks nothing itself; tests assert on what it saw.
type Frame = Record<string, unknown> & { type: string };

export class FakeHost {
  readonly proc: ReturnType<typeof Bun.spawn>;
  /** Every stdout line, in order, parsed or as `{type:"<not json>", line}`. */
  readonly seen: Frame[] = [];
  private readonly waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  private readonly consumed = new Set<Frame>();
  private stderrText = "";
  readonly done: Promise<number>;

  constructor(cmd: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) {
    this.proc = Bun.spawn(cmd, { cwd: opts.cwd ?? process.cwd(), env: { ...process.env, ...opts.env }, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    const out = this.pump(this.proc.stdout as ReadableStream<Uint8Array>, (line) => this.onLine(line));
    const err = this.pump(this.proc.stderr as ReadableStream<Uint8Array>, (line) => (this.stderrText += line + "\n"));
    this.done = Promise.all([out, err]).then(() => this.proc.exited);
  }

  get stderr(): string {
    return this.stderrText;
  }

  send(frame: Record<string, unknown>): void {
    const stdin = this.proc.stdin as import("bun").FileSink;
    stdin.write(JSON.stringify(frame) + "\n");
    stdin.flush();
  }

  /** Closes the extension's stdin (end of input). */
  end(): void {
    (this.proc.stdin as import("bun").FileSink).end();
  }

  /** The first not-yet-taken frame matching `match` (earlier frames included), or the next to arrive. */
  take(match: (f: Frame) => boolean, timeoutMs = 10_000): Promise<Frame> {
    const found = this.seen.find((f) => !this.consumed.has(f) && match(f));
    if (found) {
      this.consumed.add(found);
      return Promise.resolve(found);
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        match,
        resolve: (f: Frame) => {
          clearTimeout(timer);
          resolve(f);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`no matching frame within ${timeoutMs} ms; saw ${JSON.stringify(this.seen)}; stderr: ${this.stderrText}`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Takes the reply with this id. */
  reply(id: string): Promise<Frame> {
    return this.take((f) => f.id === id);
  }

  /** Sends `hello_ack` after `hello` and resolves with every frame up to and including `ready`. */
  async handshake(ack: Record<string, unknown> = {}): Promise<Frame[]> {
    await this.take((f) => f.type === "hello");
    this.send({
      type: "hello_ack",
      protocol_version: 1,
      zot_version: "test",
      provider: "mock",
      model: "m",
      cwd: "/project",
      extension_dir: "/ext",
      data_dir: "/ext",
      capabilities: [],
      ...ack,
    });
    await this.take((f) => f.type === "ready");
    const at = this.seen.findIndex((f) => f.type === "ready");
    return this.seen.slice(0, at + 1);
  }

  kill(): void {
    this.proc.kill("SIGKILL");
  }

  private onLine(line: string): void {
    let frame: Frame;
    try {
      const parsed: unknown = JSON.parse(line);
      frame = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Frame) : { type: "<not a frame>", line };
    } catch {
      frame = { type: "<not json>", line };
    }
    this.seen.push(frame);
    const i = this.waiters.findIndex((w) => w.match(frame));
    if (i >= 0) {
      const [w] = elements(this.waiters.splice(i, 1), 1);
      this.consumed.add(frame);
      w.resolve(frame);
    }
  }

  private async pump(stream: ReadableStream<Uint8Array>, onLine: (line: string) => void): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of stream) {
      buffer += decoder.decode(chunk, { stream: true });
      let nl = buffer.indexOf("\n");
      while (nl >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.trim()) onLine(line);
        nl = buffer.indexOf("\n");
      }
    }
    if (buffer.trim()) onLine(buffer);
  }
}
