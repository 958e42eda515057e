// node:fs, loaded on first use, for the modules the sandbox launcher runs: importing it costs a
// start ~2 ms of CPU, and the launcher (the agent's command server at every sandboxed session's
// start) needs it only on paths it rarely takes (src/main.ts; test/architecture/launcher.test.ts).
import type * as Fs from "node:fs";

export function nodeFs(): typeof Fs {
  return require("node:fs") as typeof Fs;
}
