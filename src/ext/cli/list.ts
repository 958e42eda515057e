// `zot ext list`: what discovery finds in the project and global roots, without spawning anything.
import type { DiscoveredExtension } from "../types.ts";
import type { Ctx } from "./context.ts";
import { installed } from "./lookup.ts";
import { tableLines } from "../../platform/text-table.ts";

// The states as doctor and the JSON spell them; only "spawn" reads better to a person as "enabled".
const STATE: Record<DiscoveredExtension["status"], string> = {
  spawn: "enabled",
  disabled: "disabled",
  shadowed: "shadowed",
  invalid: "invalid",
  theme_only: "theme_only",
  untrusted: "untrusted",
  needs_config: "needs_config",
};

export type ListEntry = {
  name: string;
  version: string | null;
  scope: "project" | "global" | "flag";
  state: string;
  language: string | null;
  description: string | null;
  dir: string;
  error: string | null;
  shadowed_by: string | null;
};

function listEntry(e: DiscoveredExtension): ListEntry {
  return {
    name: e.name,
    version: e.manifest?.version ?? null,
    scope: e.source,
    state: STATE[e.status],
    language: e.manifest?.language ?? null,
    description: e.manifest?.description ?? null,
    dir: e.dir,
    error: e.error,
    shadowed_by: e.shadowedBy ?? null,
  };
}

export async function list(ctx: Ctx, json: boolean): Promise<number> {
  const entries = (await installed(ctx)).map(listEntry);
  if (json) {
    ctx.out.write(JSON.stringify({ home: ctx.home, cwd: ctx.cwd, extensions: entries }, null, 2) + "\n");
    return 0;
  }
  if (entries.length === 0) {
    ctx.out.write(`no extensions installed (looked in ${ctx.cwd}/.zot/extensions and ${ctx.home}/extensions)\n`);
    return 0;
  }
  const rows = entries.map((e) => [e.name, e.version ?? "-", e.scope, e.state, e.language ?? "-", e.dir]);
  const header = ["NAME", "VERSION", "SCOPE", "STATE", "LANGUAGE", "DIR"];
  const [head, ...lines] = tableLines(header, rows);
  ctx.out.write(`${head}\n`);
  entries.forEach((e, i) => {
    ctx.out.write(`${lines[i]}\n`);
    if (e.description) ctx.out.write(`  ${e.description}\n`);
    if (e.error) ctx.out.write(`  error: ${e.error}\n`);
    if (e.shadowed_by) ctx.out.write(`  shadowed by ${e.shadowed_by}\n`);
  });
  return 0;
}
