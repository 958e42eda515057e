// How zot starts its own launcher (and the launcher its exec guard): the compiled binary
// re-executes itself as `zot __sandbox …`; from source, Bun runs ext/sandbox/launch.ts. The
// launcher loads this module, and nothing it loads at start imports node:path (~0.7 ms of CPU at
// every sandboxed session's start: test/architecture/launcher.test.ts).
import { nodeFs } from "./node-fs.ts";

export const LAUNCHER_ARG = "__sandbox";

/**
 * Set to "1", it makes zot's compiled binary run as the Bun it is built on (`zot index.ts` is
 * `bun index.ts`): the runtime for TypeScript and JavaScript extensions when neither bun nor node
 * is installed. From source zot already is bun, which ignores it.
 */
export const EMBEDDED_RUNTIME_ENV = "BUN_BE_BUN";

const isCompiled = Bun.main.startsWith("/$bunfs/") || Bun.main.includes("~BUN");

/** Whether this process is the compiled zot binary (rather than Bun running the sources). */
export function compiled(): boolean {
  return isCompiled;
}

/**
 * `direct`: zot itself starts the launcher. Another program in between (unshare, entering a new
 * user namespace) cannot start it through /proc/PID/exe, so it gets the path.
 */
export function launcherCommand(direct = true): string[] {
  return compiled() ? [runningBinary(direct), LAUNCHER_ARG] : [process.execPath, Bun.fileURLToPath(new URL("../ext/sandbox/launch.ts", import.meta.url))];
}

/** /proc/PID/exe where /proc is mounted (asked once: it stays for the process's life, and every sandboxed command's start asks). */
let selfExe: string | null | undefined;

/**
 * The binary this process runs. Once `zot update` (or a rebuild) has replaced or removed it on
 * disk, its path names another version or nothing, and the kernel still starts this very file
 * through /proc/PID/exe. That path is used whenever /proc is there, not only after a removal was
 * seen: a check of the path followed by a spawn of it loses to a removal in between.
 */
function runningBinary(direct: boolean): string {
  const path = process.execPath;
  if (!direct || process.platform !== "linux") return path;
  selfExe ??= nodeFs().existsSync(`/proc/${process.pid}/exe`) ? `/proc/${process.pid}/exe` : null;
  return selfExe ?? path;
}
