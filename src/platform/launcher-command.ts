// How zot starts its own launcher (and the launcher its exec guard): the compiled binary
// re-executes itself as `zot __sandbox …`; from source, Bun runs ext/sandbox/launch.ts.
import { join } from "node:path";

export const LAUNCHER_ARG = "__sandbox";

/**
 * Set to "1", it makes zot's compiled binary run as the Bun it is built on (`zot index.ts` is
 * `bun index.ts`): the runtime for TypeScript and JavaScript extensions when neither bun nor node
 * is installed. From source zot already is bun, which ignores it.
 */
export const EMBEDDED_RUNTIME_ENV = "BUN_BE_BUN";

/** Whether this process is the compiled zot binary (rather than Bun running the sources). */
export function compiled(): boolean {
  return Bun.main.startsWith("/$bunfs/") || Bun.main.includes("~BUN");
}

export function launcherCommand(): string[] {
  return compiled() ? [process.execPath, LAUNCHER_ARG] : [process.execPath, join(import.meta.dir, "..", "ext", "sandbox", "launch.ts")];
}
