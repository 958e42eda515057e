// Where a headless mode writes: its stdout and its stderr, one text at a time.
export type ModeOutput = { out(text: string): void; err(text: string): void };
