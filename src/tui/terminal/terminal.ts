// The terminal session: raw mode and the modes zot turns on, and the guarantee that they are
// turned off again however the process ends.
import { writeSync } from "node:fs";
import {
  altScreenOff,
  altScreenOn,
  altScrollOff,
  altScrollOn,
  cursorHide,
  cursorShow,
  kittyPop,
  kittyPush,
  pasteOff,
  pasteOn,
  sgrReset,
  titlePop,
  titlePush,
} from "./ansi.ts";

/** The parts of process.stdin that Terminal uses. */
export interface TermInput {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
  setEncoding?(encoding: BufferEncoding): unknown;
  on(event: "data", fn: (d: Buffer | string) => void): unknown;
  on(event: "end", fn: () => void): unknown;
  off(event: "data", fn: (d: Buffer | string) => void): unknown;
  off(event: "end", fn: () => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

/** The parts of process.stdout that Terminal uses. */
export interface TermOutput {
  isTTY?: boolean;
  columns?: number;
  rows?: number;
  fd?: number;
  write(s: string): unknown;
  on(event: "resize", fn: () => void): unknown;
  off(event: "resize", fn: () => void): unknown;
}

export class Terminal {
  private entered = false;
  private alt = false;

  constructor(
    private readonly stdin: TermInput,
    private readonly stdout: TermOutput,
  ) {}

  get isTTY(): boolean {
    return this.stdout.isTTY === true;
  }

  get columns(): number {
    return this.stdout.columns && this.stdout.columns > 0 ? this.stdout.columns : 80;
  }

  get rows(): number {
    return this.stdout.rows && this.stdout.rows > 0 ? this.stdout.rows : 24;
  }

  /** Raw mode, optional alternate screen (with alternate scroll), bracketed paste, kitty keyboard flags 1, hidden cursor; the title is saved. */
  enter(opts: { altScreen: boolean }): void {
    if (this.entered) return;
    this.entered = true;
    this.alt = opts.altScreen;
    if (this.stdin.isTTY) this.stdin.setRawMode?.(true);
    this.stdin.setEncoding?.("utf8");
    this.stdin.resume();
    this.write((opts.altScreen ? altScreenOn + altScrollOn : "") + titlePush + pasteOn + kittyPush + cursorHide);
  }

  /** Undoes `enter`; safe to call any number of times, including from exit and signal handlers. */
  restore(): void {
    if (!this.entered) return;
    this.entered = false;
    const seq = kittyPop + pasteOff + sgrReset + cursorShow + titlePop + (this.alt ? altScrollOff + altScreenOff : "");
    // Synchronous when possible: during process exit an async write may never be flushed.
    try {
      if (typeof this.stdout.fd === "number") writeSync(this.stdout.fd, seq);
      else this.stdout.write(seq);
    } catch {
      // The terminal is gone (hangup); there is nothing left to restore.
    }
    try {
      if (this.stdin.isTTY) this.stdin.setRawMode?.(false);
      this.stdin.pause();
    } catch {
      // Same: a closed tty cannot leave raw mode.
    }
  }

  /**
   * Hands the terminal to another program (`$EDITOR`) while `fn` runs, synchronously, and takes it
   * back afterwards with the same modes.
   */
  lend<T>(fn: () => T): T {
    const alt = this.alt;
    this.restore();
    try {
      return fn();
    } finally {
      this.enter({ altScreen: alt });
    }
  }

  /**
   * ctrl+z: gives the terminal back to the shell and stops the process (SIGTSTP, as the terminal
   * would have sent outside raw mode); `fg` continues it, the modes come back and `resumed` redraws.
   */
  suspend(resumed: () => void): void {
    const alt = this.alt;
    this.restore();
    process.once("SIGCONT", () => {
      this.enter({ altScreen: alt });
      resumed();
    });
    process.kill(process.pid, "SIGTSTP");
  }

  /** Calls `fn` after the terminal size changes. Returns an unsubscribe function. */
  onResize(fn: () => void): () => void {
    let last = `${this.columns}x${this.rows}`;
    const handler = () => {
      const now = `${this.columns}x${this.rows}`;
      if (now === last) return;
      last = now;
      fn();
    };
    this.stdout.on("resize", handler);
    process.on("SIGWINCH", handler);
    return () => {
      this.stdout.off("resize", handler);
      process.off("SIGWINCH", handler);
    };
  }

  /** Calls `fn` with each chunk of input as a string. Returns an unsubscribe function. */
  onData(fn: (s: string) => void): () => void {
    const handler = (d: Buffer | string) => fn(typeof d === "string" ? d : d.toString("utf8"));
    this.stdin.on("data", handler);
    return () => this.stdin.off("data", handler);
  }

  /** Calls `fn` once the input ends (the terminal hung up). Returns an unsubscribe function. */
  onEnd(fn: () => void): () => void {
    this.stdin.on("end", fn);
    return () => this.stdin.off("end", fn);
  }

  write(s: string): void {
    this.stdout.write(s);
  }
}

const SIGNALS: Record<string, number> = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1, SIGQUIT: 3 };

/**
 * Restores the terminal on exit, uncaught exception, unhandled rejection and SIGINT, SIGTERM,
 * SIGHUP, SIGQUIT. Other handlers still run: when one of ours is the only listener for a signal,
 * it exits with 128+signal number; otherwise exiting is left to the other listeners (main.ts
 * shuts extensions down first). Likewise for errors: alone, we print the error and exit 1.
 * Returns a function that removes the handlers.
 */
export function installRestoreHandlers(term: Terminal): () => void {
  const onExit = () => term.restore();
  const onError = (event: "uncaughtException" | "unhandledRejection") => (err: unknown) => {
    term.restore();
    if (process.listenerCount(event) === 1) {
      process.stderr.write(`zot: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    }
  };
  const onException = onError("uncaughtException");
  const onRejection = onError("unhandledRejection");
  const signalHandlers = Object.entries(SIGNALS).map(([sig, n]) => {
    const handler = () => {
      term.restore();
      if (process.listenerCount(sig) === 1) process.exit(128 + n);
    };
    process.on(sig, handler);
    return [sig, handler] as const;
  });
  process.on("exit", onExit);
  process.on("uncaughtException", onException);
  process.on("unhandledRejection", onRejection);
  return () => {
    process.off("exit", onExit);
    process.off("uncaughtException", onException);
    process.off("unhandledRejection", onRejection);
    for (const [sig, handler] of signalHandlers) process.off(sig, handler);
  };
}
