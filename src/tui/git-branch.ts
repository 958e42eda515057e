// The git branch for the status line, read from the repository's HEAD file (no `git` process): the
// branch name, or the short commit id when HEAD is detached; null outside a repository.
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { repoRoot } from "../platform/project-root.ts";

export function gitBranch(cwd: string): string | null {
  const root = repoRoot(cwd);
  if (root === null) return null;
  try {
    let gitDir = join(root, ".git");
    // A worktree or submodule has a `.git` file pointing at its git directory.
    if (statSync(gitDir).isFile()) {
      const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(gitDir, "utf8"));
      if (!m) return null;
      gitDir = isAbsolute(m[1]!.trim()) ? m[1]!.trim() : resolve(root, m[1]!.trim());
    }
    const head = readFileSync(join(gitDir, "HEAD"), "utf8").trim();
    const ref = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
    if (ref) return ref[1]!;
    return /^[0-9a-f]{7,}$/.test(head) ? head.slice(0, 7) : null;
  } catch {
    return null;
  }
}
