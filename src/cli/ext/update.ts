// `zot ext update [name…] [--check]`: fetches each locked extension again from its source (git at
// its ref, or the directory it was copied from), shows what changed, asks again when the new
// version adds anything it may do — a permission, a power, a command, a tool, an interceptor, an
// event subscription — swaps it in atomically and keeps the old tree for rollback.
import { globalRoot } from "../../platform/home.ts";
import { dirname, join, resolve } from "node:path";
import { projectExtensionsDir } from "../../ext/discovery.ts";
import { lockPathFor, narrowing, readLock, treeChanges, widening, type LockEntry } from "../../ext/install/lockfile.ts";
import { parsePermissions, permissionsJson } from "../../ext/sandbox/scope.ts";
import { probeRegistrations, registrationChanges } from "./registrations.ts";
import { fail, type Ctx } from "../kit/context.ts";
import { ask, install, type StagedExtension, type Verdict } from "./install.ts";

export type UpdateOptions = { check: boolean; yes: boolean; project: boolean };

export async function update(ctx: Ctx, names: string[], opts: UpdateOptions): Promise<number> {
  const root = opts.project ? projectExtensionsDir(ctx.cwd) : globalRoot(ctx.home);
  const read = readLock(lockPathFor(root));
  if (!read.ok) return fail(ctx, read.error);
  const locked = read.lock.extensions;
  const wanted = names.length > 0 ? names : Object.keys(locked);
  if (wanted.length === 0) return fail(ctx, `${lockPathFor(root)} lists no extensions; extensions installed with zot ext install are recorded there.`);
  let status = 0;
  for (const name of wanted) {
    const key = Object.keys(locked).find((k) => k.toLowerCase() === name.toLowerCase());
    if (!key) {
      status = fail(ctx, `${name} is not in ${lockPathFor(root)}; only extensions installed with zot ext install can be updated (reinstall it once).`);
      continue;
    }
    const entry = locked[key]!;
    const source = entry.source.type === "git" ? `${entry.source.url}${entry.source.ref ? `#${entry.source.ref}` : ""}` : entry.source.path;
    const code = await install(ctx, entry.source.type === "path" ? resolve(ctx.cwd, source) : source, {
      force: true,
      project: opts.project,
      yes: opts.yes,
      keepPrevious: true,
      check: (staged) => decide(ctx, key, entry, join(root, key), staged, opts),
    });
    if (code !== 0) status = code;
  }
  return status;
}

/** The change report for one extension, and whether to go ahead. */
async function decide(ctx: Ctx, name: string, old: LockEntry, dir: string, next: StagedExtension, opts: UpdateOptions): Promise<Verdict> {
  const newPerms = next.manifest.permissions ? permissionsJson(next.manifest.permissions) : null;
  const sameCommit = old.source.type === "git" && next.source.type === "git" && old.source.commit === next.source.commit;
  const files = treeChanges(old, next.dir);
  const changedFiles = files.modified.length + files.added.length + files.removed.length;
  if (sameCommit || (old.source.type === "path" && changedFiles === 0))
    return { go: false, failed: false, message: `${name} is up to date (${describeVersion(old)})` };

  const lines = [`${name}: ${old.version ?? "(no version)"} → ${next.manifest.version ?? "(no version)"}${commits(old, next)}`];
  lines.push(`  files: ${files.modified.length} changed, ${files.added.length} added, ${files.removed.length} removed`);
  const wider = widening(old.permissions, newPerms);
  const narrower = narrowing(old.permissions, newPerms);
  if (wider.length > 0) lines.push(`  permissions widened: ${wider.join("; ")}`);
  if (narrower.length > 0) lines.push(`  permissions narrowed: ${narrower.join("; ")}`);
  // The new copy is probed under the scope the user granted the old one, so checking it grants nothing new.
  const granted = old.permissions ? parsePermissions(old.permissions, lockPathFor(dirname(dir))) : null;
  const oldScope = granted?.ok ? granted.permissions : null;
  const [before, after] = await Promise.all([probeRegistrations(ctx, dir, name, oldScope), probeRegistrations(ctx, next.dir, name, oldScope)]);
  // What is added asks; what the probe could not tell asks too, as it may add anything.
  const added = [...wider];
  if ("error" in after) {
    lines.push(`  registrations: the new copy did not start under the current permissions (${after.error})`);
    added.push("registrations zot could not compare (the new copy did not start)");
  } else if ("error" in before) added.push(`registrations zot could not compare (the installed copy did not start: ${before.error})`);
  else {
    const changes = registrationChanges(before, after);
    const all = [...changes.added, ...changes.removed];
    if (all.length > 0) lines.push(`  ${all.join("; ")}`);
    added.push(...changes.added);
  }
  const installedChanges = treeChanges(old, dir);
  if (installedChanges.modified.length + installedChanges.removed.length > 0)
    lines.push(
      `  note: the installed copy was changed since it was installed (${[...installedChanges.modified, ...installedChanges.removed].join(", ")}); the update replaces it`,
    );
  ctx.out.write(lines.join("\n") + "\n");
  if (opts.check) return { go: false, failed: false, message: `${name}: update available (run zot ext update ${name})` };
  if (added.length > 0 && !opts.yes)
    return ask(
      ctx,
      `${name} ${wider.length === added.length ? "wants more permissions than before" : "adds what it may do"}: ${added.join("; ")}`,
      "update it",
      name,
    );
  return { go: true };
}

function commits(old: LockEntry, next: StagedExtension): string {
  if (old.source.type !== "git" || next.source.type !== "git") return "";
  return ` (commit ${old.source.commit.slice(0, 7)} → ${next.source.commit.slice(0, 7)})`;
}

function describeVersion(e: LockEntry): string {
  return e.source.type === "git" ? `${e.version ?? "no version"}, commit ${e.source.commit.slice(0, 7)}` : (e.version ?? "no version");
}
