// Finding installed extensions by manifest name for remove/enable/disable: the project root first,
// then the global root, each sorted by directory name, so the answer is the same on every run.
import { basename } from "node:path";
import { configFile } from "../../platform/home.ts";
import { discover } from "../../ext/discovery.ts";
import { readExtensionPolicy, type ExtensionPolicy } from "../../ext/sandbox/scope-policy.ts";
import { trustMode } from "../../ext/install/trust.ts";
import type { DiscoveredExtension } from "../../ext/types.ts";
import type { Ctx } from "../kit/context.ts";

export async function installed(ctx: Ctx): Promise<DiscoveredExtension[]> {
  return discover({ extPaths: [], noExt: false, cwd: ctx.cwd, home: ctx.home, trust: trustMode(false, ctx.env), policy: policy(ctx) });
}

/** The user's extension policy from config.json; its warnings go to stderr once per command. */
export function policy(ctx: Ctx): ExtensionPolicy {
  const read = readExtensionPolicy(configFile(ctx.home));
  for (const w of read.warnings) ctx.err.write(`zot ext: ${w}\n`);
  return read.policy;
}

/**
 * The first extension whose manifest name (or, for unreadable manifests, directory name) matches.
 * An untrusted project's copy comes last: in a cloned repository, `zot ext disable x` means the
 * user's own x, not the repository's.
 */
export async function findInstalled(ctx: Ctx, name: string): Promise<DiscoveredExtension | null> {
  const wanted = name.toLowerCase();
  const found = await installed(ctx);
  const all = [...found.filter((e) => e.status !== "untrusted"), ...found.filter((e) => e.status === "untrusted")];
  return all.find((e) => e.name.toLowerCase() === wanted) ?? all.find((e) => e.manifest === null && basename(e.dir).toLowerCase() === wanted) ?? null;
}

export function notFound(ctx: Ctx, name: string): string {
  return `no installed extension named "${name}" in ${ctx.cwd}/.zot/extensions or ${ctx.home}/extensions; run zot ext list to see what is installed.`;
}
