// Where a headless mode writes: its stdout and its stderr, one text at a time.
export type ModeOutput = {
  out(text: string): void;
  err(text: string): void;
  /**
   * Resolves when what waits to be written to `out` is below the high-water mark (at once when
   * it is): a mode that could produce without end (RPC) waits on it before producing more.
   */
  writable?(): Promise<void>;
};
