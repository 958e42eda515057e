// A running command as the bash tool sees it, however it was started (spawn.ts): its pid, its
// merged output, its end and a way to signal its process group.
import type { TreeSignal } from "../../platform/process-tree.ts";

/** `drained`: false when a process that left the group held the output open and the rest was cut; `error`: the command's outcome is unknown, and why. */
export type CommandExit = { code: number | null; signal: string | null; drained: boolean; error?: string };

export type Command = {
  readonly pid: number;
  /** stdout and stderr merged as written; ends when the command has exited. */
  readonly output: AsyncIterable<Uint8Array>;
  readonly exited: Promise<CommandExit>;
  /** Signals the command's whole process group while it runs; afterwards it does nothing. */
  kill(signal: TreeSignal): void;
};

/** Chunks handed from a producer to one reader, in order. */
export class Chunks implements AsyncIterable<Uint8Array> {
  private queue: Uint8Array[] = [];
  private ended = false;
  private wake: (() => void) | null = null;

  push(bytes: Uint8Array): void {
    this.queue.push(bytes);
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    for (;;) {
      const next = this.queue.shift();
      if (next) yield next;
      else if (this.ended) return;
      else await new Promise<void>((res) => (this.wake = res));
      this.wake = null;
    }
  }
}
