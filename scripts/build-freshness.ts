// Whether dist/zot was built from the sources as they are now. `npm start` rebuilds when it was
// not; the end-to-end and terminal test helpers refuse to run a stale binary, so a plain `bun test`
// after an edit cannot silently test the old build.
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

type Newest = { path: string; mtimeMs: number };

function newestIn(dir: string, best: Newest): Newest {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) best = newestIn(path, best);
    else {
      const mtimeMs = statSync(path).mtimeMs;
      if (mtimeMs > best.mtimeMs) best = { path, mtimeMs };
    }
  }
  return best;
}

/** The most recently changed input of the build: any file in src/, or package.json (the version). */
export function newestSource(root: string): Newest {
  const pkg = join(root, "package.json");
  return newestIn(join(root, "src"), { path: pkg, mtimeMs: statSync(pkg).mtimeMs });
}

/** Null when `binary` exists and is newer than every source; else the sentence saying what to do. */
export function staleBuildProblem(root: string, binary: string): string | null {
  const shown = relative(root, binary);
  let built: number;
  try {
    built = statSync(binary).mtimeMs;
  } catch {
    return `${shown} does not exist; run "npm run build" (or "npm test", which builds first).`;
  }
  const newest = newestSource(root);
  if (built >= newest.mtimeMs) return null;
  return `${shown} is older than ${relative(root, newest.path)}, so it would test an old build; run "npm run build" (or "npm test", which builds first).`;
}

/** For test helpers: the binary's path, or an error naming the stale or missing build. */
export function freshBinary(root: string, binary: string): string {
  const problem = staleBuildProblem(root, binary);
  if (problem) throw new Error(problem);
  return binary;
}
