// `zot ext remove <name>`: deletes an installed extension directory after confirmation. The
// directory is first renamed to a dot-name (invisible to discovery) so removal is all-or-nothing
// from zot's point of view; a symlinked extension loses only its link, never the linked tree.
import { lstatSync, mkdtempSync, renameSync, rmSync, unlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { unlock } from "../../ext/install/lockfile.ts";
import type { Ctx } from "../kit/context.ts";
import { fail, readLine } from "../kit/context.ts";
import { findInstalled, notFound } from "./lookup.ts";

export async function remove(ctx: Ctx, name: string, yes: boolean): Promise<number> {
  const ext = await findInstalled(ctx, name);
  if (!ext) return fail(ctx, notFound(ctx, name));
  if (!yes) {
    if (!ctx.isTTY) return fail(ctx, `refusing to remove ${ext.name} (${ext.dir}) without confirmation; pass --yes to remove it.`);
    ctx.out.write(`remove ${ext.name} (${ext.source}) at ${ext.dir}? [y/N] `);
    const answer = (await readLine(ctx.stdin())).trim().toLowerCase();
    if (answer !== "y" && answer !== "yes") {
      ctx.out.write("not removed\n");
      return 1;
    }
  }
  try {
    if (lstatSync(ext.dir).isSymbolicLink()) {
      unlinkSync(ext.dir);
    } else {
      const trash = mkdtempSync(join(dirname(ext.dir), ".zot-remove-"));
      renameSync(ext.dir, join(trash, "ext"));
      rmSync(trash, { recursive: true, force: true });
    }
  } catch (e) {
    return fail(ctx, `cannot remove ${ext.dir} (${(e as NodeJS.ErrnoException).code ?? String(e)}); check its permissions.`);
  }
  const unlocked = unlock(dirname(ext.dir), basename(ext.dir));
  if (!unlocked.ok) ctx.err.write(`zot: removed ${ext.name}, but ${unlocked.error}; zot ext verify will report it as missing.\n`);
  ctx.out.write(`removed ${ext.name} from ${ext.dir}\n`);
  return 0;
}
