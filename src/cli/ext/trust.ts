// `zot ext trust [DIR]`, `zot ext trust --list`, `zot ext untrust [DIR]`: the user's decisions about
// which folders' project extensions and MCP servers may run (the store itself lives in ../trust.ts).
import { resolve } from "node:path";
import { capabilityLines } from "../../ext/capabilities.ts";
import { extensionTarget, serverTarget, visible } from "../../ext/exec-line.ts";
import { trustProject } from "../../runtime/project-code.ts";
import { listTrusted, untrustDir } from "../../ext/install/trust.ts";
import { type Ctx, fail } from "../kit/context.ts";

export async function trust(ctx: Ctx, dir: string | undefined, listOnly: boolean): Promise<number> {
  if (listOnly) {
    if (dir !== undefined) return fail(ctx, "zot ext trust --list takes no folder; run it without one.");
    const r = listTrusted(ctx.home);
    if (!r.ok) return fail(ctx, r.error);
    if (r.entries.length === 0) ctx.out.write("no trusted folders\n");
    for (const e of r.entries) ctx.out.write(`${e.path}${e.trustedAt ? `  (since ${e.trustedAt})` : ""}\n`);
    return 0;
  }
  const target = dir === undefined ? ctx.cwd : resolve(ctx.processCwd, dir);
  const r = await trustProject(ctx.home, target);
  if (!r.ok) return fail(ctx, r.error);
  const { extensions: found, servers } = r;
  ctx.out.write(`trusted ${r.path}${r.already ? " (again)" : ""} and its subfolders\n`);
  if (found.length === 0 && servers.length === 0) ctx.out.write("it has no project extensions or MCP servers now; new ones will be asked about\n");
  if (found.length > 0) {
    ctx.out.write("its project extensions may run:\n");
    for (const entry of found) {
      const t = extensionTarget(entry.manifest!);
      ctx.out.write(`  ${visible(entry.name)}  ${t.label}: ${t.line}\n`);
      for (const c of capabilityLines(entry.manifest!)) ctx.out.write(`    ${c}\n`);
    }
  }
  if (servers.length > 0) {
    ctx.out.write("its project MCP servers may load (as written in their lists):\n");
    for (const s of servers) {
      const t = serverTarget(s.written);
      ctx.out.write(`  ${visible(s.name)}  ${t.label}: ${t.line}\n`);
    }
  }
  return 0;
}

export function untrust(ctx: Ctx, dir: string | undefined): number {
  const target = dir === undefined ? ctx.cwd : resolve(ctx.processCwd, dir);
  const r = untrustDir(ctx.home, target);
  if (!r.ok) return fail(ctx, r.error);
  ctx.out.write(`untrusted ${r.path}: its project extensions and MCP servers no longer run\n`);
  return 0;
}
