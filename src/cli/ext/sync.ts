// `zot ext sync`: installs exactly the extensions a project pins in `.zot/extensions.lock.json`
// (committed by the team), at their locked commits, and refuses any whose content does not hash to
// the locked value. Only in trusted folders: a lockfile is a list of programs to run.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { projectExtensionsDir } from "../../ext/discovery.ts";
import { hashTree, lockPathFor, readLock, type LockEntry } from "../../ext/install/lockfile.ts";
import { approveExtensions, codeFiles, isTrusted, trustMode } from "../../ext/install/trust.ts";
import { fail, type Ctx } from "../kit/context.ts";
import { consent, install, type StagedExtension, type Verdict } from "./install.ts";

export async function sync(ctx: Ctx, opts: { yes: boolean }): Promise<number> {
  if (trustMode(false, ctx.env) !== "all" && !isTrusted(ctx.home, ctx.cwd))
    return fail(
      ctx,
      `${ctx.cwd} is not a trusted folder, and zot ext sync installs programs its lockfile names; review .zot/extensions.lock.json, then run zot ext trust ${ctx.cwd}.`,
    );
  const root = projectExtensionsDir(ctx.cwd);
  const lockPath = lockPathFor(root);
  if (!existsSync(lockPath)) return fail(ctx, `${lockPath} does not exist; a project pins its extensions there (zot ext install --project writes it).`);
  const read = readLock(lockPath);
  if (!read.ok) return fail(ctx, read.error);
  let status = 0;
  const installed: string[] = [];
  for (const [name, entry] of Object.entries(read.lock.extensions)) {
    const dir = join(root, name);
    if (existsSync(dir) && hashTree(dir).hash === entry.hash) {
      ctx.out.write(`${name}: up to date\n`);
      continue;
    }
    const source = entry.source.type === "git" ? entry.source.url : resolve(ctx.cwd, entry.source.path);
    const code = await install(ctx, source, {
      force: true,
      project: true,
      yes: opts.yes,
      noRecord: true,
      ...(entry.source.type === "git" ? { commit: entry.source.commit } : {}),
      check: (staged) => matches(ctx, name, entry, staged, opts.yes),
    });
    if (code !== 0) status = code;
    else if (existsSync(dir) && hashTree(dir).hash === entry.hash) installed.push(name);
  }
  // In a trusted folder, what the user just synced from the team's lockfile is approved as installed
  // (a run with --trust or ZOT_TRUST_PROJECT=1 records nothing, as everywhere).
  if (installed.length > 0 && trustMode(false, ctx.env) !== "all") {
    const approved = approveExtensions(
      ctx.home,
      ctx.cwd,
      installed.map((name) => ({ name, files: codeFiles(join(root, name)) })),
    );
    if (!approved.ok) ctx.err.write(`zot: synced, but ${approved.error}; the synced extensions are asked about before they run.\n`);
  }
  return status;
}

/** A synced copy must be byte for byte what the team locked; then the user grants its permissions. */
async function matches(ctx: Ctx, name: string, entry: LockEntry, staged: StagedExtension, yes: boolean): Promise<Verdict> {
  const got = hashTree(staged.dir).hash;
  if (got !== entry.hash)
    return {
      go: false,
      failed: true,
      message: `${name} from ${staged.source.type === "git" ? `${staged.source.url} at ${staged.source.commit.slice(0, 7)}` : staged.dir} hashes to ${got}, but the lockfile pins ${entry.hash}; it was not installed (the source changed, or the lockfile was edited).`,
    };
  return consent(ctx, staged.manifest, yes);
}
