// The terminal zot runs in, reached without Node's stream objects: raw mode and the window size
// from Bun's own tty binding (the calls its process.stdin and process.stdout make), input from
// Bun's reader of fd 0, output written straight to fd 1. In a compiled zot the first touch of
// process.stdin or process.stdout loads Node's stream and tty classes, ~7 ms of the interactive
// start (bench/RESULTS.md, "The TUI's terminal without Node's streams"). Where the binding is
// missing or fd 0 or 1 is not a terminal, and in a dumb terminal, whose line mode reads
// process.stdin, the Terminal is built on process.stdin and process.stdout.
import { writeSync } from "node:fs";
import { isDumbTerminal } from "../../platform/terminal.ts";
import { type TermInput, Terminal, type TermOutput } from "./terminal.ts";

/**
 * Bun's tty_wrap TTY, as its node:tty uses it: libuv's raw mode (1) and normal mode (0), 0 or an
 * error number back; and [columns, rows].
 */
export type TtyHandle = { setRawMode(mode: number): unknown; getWindowSize(size: number[]): boolean };
type TtyBinding = { isTTY(fd: number): boolean; TTY: new (fd: number, ctx: object) => TtyHandle };

/** The binding decoded at the boundary: null unless it has what is used, with the shapes used. */
function ttyBinding(): TtyBinding | null {
  let b: unknown;
  try {
    b = (process as unknown as { binding(name: string): unknown }).binding("tty_wrap");
  } catch {
    return null;
  }
  if (typeof b !== "object" || b === null) return null;
  const { isTTY, TTY } = b as Record<string, unknown>;
  if (typeof isTTY !== "function" || typeof TTY !== "function") return null;
  const proto = (TTY as { prototype?: Record<string, unknown> }).prototype;
  if (typeof proto?.setRawMode !== "function" || typeof proto.getWindowSize !== "function") return null;
  return b as TtyBinding;
}

type DataFn = (d: Buffer | string) => void;

/** fd 0 read by Bun's reader (polled on the event loop, so a program zot lends the terminal to reads its own keys). */
export class TtyInput implements TermInput {
  readonly isTTY = true;
  private readonly data = new Set<DataFn>();
  private readonly ends = new Set<() => void>();
  private flowing = false;
  private reading = false;
  private ended = false;
  /** What came while paused, handed over on resume, as the kernel's buffer would have kept it. */
  private held: string[] = [];
  private readonly decoder = new TextDecoder();

  constructor(private readonly tty: TtyHandle) {}

  /**
   * libuv keeps the settings from before the first raw mode and puts them back on the way out. A
   * terminal that refuses is an error, as process.stdin's setRawMode makes it: a TUI in cooked mode
   * would echo every key and see none until enter.
   */
  setRawMode(mode: boolean): void {
    const err = this.tty.setRawMode(mode ? 1 : 0);
    if (typeof err === "number" && err !== 0)
      throw new Error(`the terminal refused to ${mode ? "enter" : "leave"} raw mode (error ${Math.abs(err)}); run zot in a terminal, or pass a prompt with -p`);
  }

  /** Input is always handed out as UTF-8 text. */
  setEncoding(): void {}

  on(event: "data" | "end", fn: DataFn | (() => void)): void {
    if (event === "data") this.data.add(fn as DataFn);
    else if (this.ended) queueMicrotask(fn as () => void);
    else this.ends.add(fn as () => void);
  }

  off(event: "data" | "end", fn: DataFn | (() => void)): void {
    if (event === "data") this.data.delete(fn as DataFn);
    else this.ends.delete(fn as () => void);
  }

  /** Held input is handed over after the caller's own set-up, as a Node stream starts flowing on the next tick. */
  resume(): void {
    this.flowing = true;
    if (!this.reading) void this.pump();
    queueMicrotask(() => {
      if (!this.flowing) return;
      const held = this.held;
      this.held = [];
      for (const s of held) this.deliver(s);
      if (this.ended) this.end();
    });
  }

  pause(): void {
    this.flowing = false;
  }

  private async pump(): Promise<void> {
    if (this.ended) return;
    this.reading = true;
    const reader = Bun.stdin.stream().getReader();
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch {
        // A terminal that is gone (hangup) ends the input as end of file does.
        break;
      }
      if (chunk.done) break;
      const s = this.decoder.decode(chunk.value, { stream: true });
      if (s === "") continue;
      if (this.flowing && this.held.length === 0) this.deliver(s);
      else this.held.push(s);
    }
    this.ended = true;
    // Input still held is handed over first, by resume's own turn.
    if (this.flowing && this.held.length === 0) this.end();
  }

  /** A listener's exception is the process's uncaught exception, as from a Node stream's listener; reading goes on. */
  private deliver(s: string): void {
    for (const fn of [...this.data]) {
      try {
        fn(s);
      } catch (e) {
        queueMicrotask(() => {
          throw e;
        });
      }
    }
  }

  private end(): void {
    for (const fn of [...this.ends]) fn();
    this.ends.clear();
  }
}

/** fd 1 written synchronously, as Node writes to a terminal; its size asked of the kernel each time. */
class TtyOutput implements TermOutput {
  readonly isTTY = true;
  readonly fd = 1;
  private readonly size = [0, 0];

  constructor(private readonly tty: TtyHandle) {}

  /** 0 where the kernel cannot say, which Terminal takes as its default. */
  get columns(): number {
    return this.tty.getWindowSize(this.size) ? this.size[0]! : 0;
  }

  get rows(): number {
    return this.tty.getWindowSize(this.size) ? this.size[1]! : 0;
  }

  /** A frame goes out whole: the string in one write as a rule, the rest of a short write after it. */
  write(s: string): void {
    let written = 0;
    try {
      written = writeSync(1, s);
    } catch (e) {
      if (!wouldBlock(e)) throw e;
    }
    const length = Buffer.byteLength(s, "utf8");
    if (written === length) return;
    const bytes = Buffer.from(s, "utf8");
    while (written < length) {
      try {
        written += writeSync(1, bytes, written);
      } catch (e) {
        // A terminal someone else made non-blocking: wait for room rather than drop part of a frame.
        if (!wouldBlock(e)) throw e;
        Bun.sleepSync(1);
      }
    }
  }

  // Terminal listens for SIGWINCH itself; the size is read afresh each time it is asked.
  on(): void {}
  off(): void {}
}

const wouldBlock = (e: unknown): boolean => (e as NodeJS.ErrnoException).code === "EAGAIN";

let opened: { input: TermInput; output: TermOutput } | null | undefined;

/**
 * The process's terminal without Node's streams, or null (no usable binding, or fd 0 or 1 not a
 * terminal). One per process: input read ahead while no Terminal is entered is kept for the next.
 */
export function directTty(): { input: TermInput; output: TermOutput } | null {
  if (opened !== undefined) return opened;
  opened = null;
  const b = ttyBinding();
  if (!b?.isTTY(0) || !b.isTTY(1)) return null;
  let tty: { input: TermInput; output: TermOutput };
  try {
    tty = { input: new TtyInput(new b.TTY(0, {})), output: new TtyOutput(new b.TTY(1, {})) };
  } catch {
    return null;
  }
  opened = tty;
  return tty;
}

/** The terminal zot runs in, as a Terminal: directly where it can be, else through process.stdin and process.stdout. */
export function processTerminal(): Terminal {
  const tty = isDumbTerminal(process.env) ? null : directTty();
  return tty ? new Terminal(tty.input, tty.output) : new Terminal(process.stdin, process.stdout);
}
