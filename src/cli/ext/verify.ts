// `zot ext verify`: re-hashes every installed extension recorded in the lockfile and reports files
// changed or removed behind zot's back (exit 1), files added since (which may be the extension's own
// data), and extensions present but never recorded.
import { globalRoot } from "../../platform/home.ts";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { projectExtensionsDir } from "../../ext/discovery.ts";
import { lockPathFor, readLock, treeChanges, type TreeChanges } from "../../ext/install/lockfile.ts";
import { fail, type Ctx } from "../kit/context.ts";
import { installed } from "./lookup.ts";

type Finding = { name: string; state: "ok" | "changed" | "missing"; changes: TreeChanges | null };

export async function verify(ctx: Ctx, opts: { project: boolean; json: boolean }): Promise<number> {
  const root = opts.project ? projectExtensionsDir(ctx.cwd) : globalRoot(ctx.home);
  const lockPath = lockPathFor(root);
  const read = readLock(lockPath);
  if (!read.ok) return fail(ctx, read.error);
  const findings: Finding[] = Object.entries(read.lock.extensions).map(([name, entry]) => {
    const dir = join(root, name);
    if (!existsSync(dir)) return { name, state: "missing", changes: null };
    const changes = treeChanges(entry, dir);
    return { name, state: changes.modified.length + changes.removed.length > 0 ? "changed" : "ok", changes };
  });
  const source = opts.project ? "project" : "global";
  const unrecorded = (await installed(ctx))
    .filter((e) => e.source === source && !Object.keys(read.lock.extensions).some((k) => k.toLowerCase() === e.name.toLowerCase()))
    .map((e) => e.name);
  const bad = findings.some((f) => f.state !== "ok");
  if (opts.json) {
    ctx.out.write(JSON.stringify({ lockfile: lockPath, ok: !bad, extensions: findings, unrecorded }, null, 2) + "\n");
    return bad ? 1 : 0;
  }
  for (const f of findings) {
    if (f.state === "missing") ctx.out.write(`${f.name}: missing (recorded in the lockfile, not installed in ${root})\n`);
    else if (f.state === "changed")
      ctx.out.write(`${f.name}: CHANGED since it was installed — modified: ${list(f.changes!.modified)}; removed: ${list(f.changes!.removed)}\n`);
    else ctx.out.write(`${f.name}: ok\n`);
    if (f.changes && f.changes.added.length > 0) ctx.out.write(`  added since: ${f.changes.added.join(", ")} (may be the extension's own data)\n`);
  }
  for (const name of unrecorded) ctx.out.write(`${name}: not in the lockfile (installed by hand); reinstall it with zot ext install to record it\n`);
  if (findings.length === 0) ctx.out.write(`${lockPath} records no extensions\n`);
  return bad ? 1 : 0;
}

function list(xs: string[]): string {
  return xs.length === 0 ? "none" : xs.join(", ");
}
