// The project a working directory belongs to: the enclosing git repository's root (a directory
// holding `.git`, a directory or a worktree's file), or the directory itself outside any repository.
// Project instructions are gathered up to it and "always" approvals are remembered under it.
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** The nearest ancestor of `cwd` (itself included) holding `.git`, or null. */
export function repoRoot(cwd: string): string | null {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

export function projectRoot(cwd: string): string {
  return repoRoot(cwd) ?? resolve(cwd);
}
