// Path facts the sandbox decides on: where a path really leads, and whether one lies in another.
// The launcher loads it, so it does not import node:path (platform/launcher-command.ts says why).
import { nodeFs } from "./node-fs.ts";

/** node:path's `sep`. */
const sep = process.platform === "win32" ? "\\" : "/";

/** The real path of `path` (symlinks resolved), or `path` itself when it does not exist. */
export function realPath(path: string): string {
  try {
    return nodeFs().realpathSync(path);
  } catch {
    return path;
  }
}

/** Whether `path` is `dir` or lies in it (plain comparison of absolute, normal paths). */
export function isWithin(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}
