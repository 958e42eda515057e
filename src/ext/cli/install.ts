// `zot ext install <path|git-url>`: stage a copy or shallow clone in a dot-directory inside the
// target root (same filesystem, ignored by discovery), validate its manifest there, then rename it
// into place. Every failure removes the stage, so nothing half-installed is ever visible.
import { constants, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, symlinkSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { globalRoot, projectRoot } from "../discovery.ts";
import { MANIFEST_FILE, readManifest } from "../manifest.ts";
import { isObject } from "../protocol.ts";
import { ensurePrivateDir } from "../home.ts";
import { findThemeFile } from "../themes.ts";
import type { Ctx } from "./context.ts";
import { fail } from "./context.ts";

export type InstallOptions = { force: boolean; project: boolean };

export type GitSource = { url: string; ref: string | null };

/** `https://…`, `http://…`, `ssh://…`, `git://…`, `file://…`, `user@host:path` or `*.git`, with an optional `#ref`. */
export function parseGitSource(source: string): GitSource | null {
  const hash = source.lastIndexOf("#");
  const url = hash > 0 ? source.slice(0, hash) : source;
  const ref = hash > 0 ? source.slice(hash + 1) : null;
  const isGit = /^(https?|ssh|git|file):\/\//i.test(url) || /^[\w.-]+@[\w.-]+:/.test(url) || /\.git\/?$/i.test(url);
  if (!isGit) return null;
  return { url, ref: ref === "" ? null : ref };
}

export async function install(ctx: Ctx, source: string, opts: InstallOptions): Promise<number> {
  const root = opts.project ? projectRoot(ctx.cwd) : globalRoot(ctx.home);
  const git = parseGitSource(source);
  let srcDir: string | null = null;
  if (!git) {
    const abs = resolve(ctx.processCwd, source);
    try {
      if (!statSync(abs).isDirectory()) return fail(ctx, `${abs} is not a directory; pass an extension directory or a git URL.`);
    } catch {
      return fail(ctx, `${abs} does not exist; pass an extension directory or a git URL.`);
    }
    srcDir = realpathSync(abs);
  }

  try {
    ensurePrivateDir(root);
  } catch (e) {
    return fail(ctx, `cannot create ${root} (${errCode(e)}); check its permissions.`);
  }
  const stage = mkdtempSync(join(root, ".zot-install-"));
  let keepStage = false;
  // Ctrl-C during a long clone or copy must not leave the stage behind either.
  const onSignal = () => {
    rmSync(stage, { recursive: true, force: true });
    process.exit(130);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    const staged = join(stage, "ext");
    const display = git ? git.url : srcDir!;
    if (git) {
      const cloned = await clone(ctx, git, staged);
      if (!cloned.ok) return fail(ctx, cloned.error);
    } else {
      const copied = copyTree(srcDir!, staged, root);
      if (!copied.ok) return fail(ctx, copied.error);
    }

    const manifestPath = join(staged, MANIFEST_FILE);
    if (!existsSync(manifestPath)) return fail(ctx, `${display} has no ${MANIFEST_FILE} at its top level; an extension directory needs one.`);
    const parsed = readManifest(manifestPath, { allowMissingExec: findThemeFile(staged) !== null, env: ctx.env });
    if (!parsed.ok) return fail(ctx, `cannot install ${display}: ${parsed.error.split(staged).join(display)}`);
    const { name, version } = parsed.manifest;

    const dest = join(root, name);
    if (dirname(resolve(dest)) !== resolve(root)) return fail(ctx, `extension name "${name}" would escape ${root}; fix "name" in the manifest.`);
    const existing = sameNamed(root, name);
    if (existing.length > 0 && !opts.force)
      return fail(ctx, `${existing[0]} already holds an extension named "${name}"; pass --force to replace it, or zot ext remove ${name} first.`);

    const moved = commit(stage, staged, dest, existing);
    if (!moved.ok) {
      keepStage = moved.stranded;
      return fail(ctx, moved.error);
    }
    ctx.out.write(`installed ${name}${version ? ` ${version}` : ""} at ${dest}\n`);
    return 0;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    if (!keepStage) rmSync(stage, { recursive: true, force: true });
  }
}

async function clone(ctx: Ctx, git: GitSource, dest: string): Promise<{ ok: true } | { ok: false; error: string }> {
  const argv = ["git", "clone", "--quiet", "--depth", "1", ...(git.ref ? ["--branch", git.ref] : []), "--", git.url, dest];
  let proc: Bun.Subprocess<"ignore", "ignore", "pipe">;
  try {
    proc = Bun.spawn(argv, {
      cwd: ctx.processCwd,
      stdin: "ignore",
      stdout: "ignore",
      stderr: "pipe",
      // Never wait on a credential prompt nobody can see.
      env: { ...ctx.env, GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "true" } as Record<string, string>,
    });
  } catch (e) {
    return { ok: false, error: `cannot run git to clone ${git.url} (${errCode(e)}); install git or pass a local directory.` };
  }
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  if (code === 0) return { ok: true };
  const last = stderr.trim().split("\n").filter(Boolean).pop() ?? `exit code ${code}`;
  return { ok: false, error: `git clone of ${git.url}${git.ref ? ` at ${git.ref}` : ""} failed (${last.trim()}); check the URL, ref and your access.` };
}

/**
 * Copies `src` into `dest` (files with their modes, symlinks as links). When the target root lies
 * inside `src` (`zot ext install . --project`), the directory holding it (zot's own state, such as
 * the project's `.zot/`) is skipped, so the copy never nests into itself.
 */
function copyTree(src: string, dest: string, root: string): { ok: true } | { ok: false; error: string } {
  const skip = realpathSync(root);
  const walk = (from: string, to: string) => {
    mkdirSync(to, { mode: statSync(from).mode & 0o7777 });
    for (const entry of readdirSync(from, { withFileTypes: true })) {
      const a = join(from, entry.name);
      const b = join(to, entry.name);
      if (a === skip || skip.startsWith(a + sep)) continue;
      if (entry.isSymbolicLink()) symlinkSync(readlinkSync(a), b);
      else if (entry.isDirectory()) walk(a, b);
      else if (entry.isFile()) copyFileSync(a, b, constants.COPYFILE_EXCL);
    }
  };
  try {
    walk(src, dest);
    return { ok: true };
  } catch (e) {
    return { ok: false, error: `copying ${src} failed (${e instanceof Error ? e.message : String(e)}); nothing was installed.` };
  }
}

/** Directories in `root` named `name` or whose manifest is named `name` (both case-insensitive). */
function sameNamed(root: string, name: string): string[] {
  const wanted = name.toLowerCase();
  const out: string[] = [];
  for (const entry of readdirSync(root).sort()) {
    if (entry.startsWith(".")) continue;
    const dir = join(root, entry);
    if (entry.toLowerCase() === wanted) {
      out.push(dir);
      continue;
    }
    try {
      const raw: unknown = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), "utf8"));
      if (isObject(raw) && typeof raw.name === "string" && raw.name.toLowerCase() === wanted) out.push(dir);
    } catch {
      // Not an extension, or an unreadable one: it cannot clash by name.
    }
  }
  return out;
}

/** Moves replaced copies aside into the stage, renames the new one into place, and restores on failure. */
function commit(stage: string, staged: string, dest: string, existing: string[]): { ok: true } | { ok: false; error: string; stranded: boolean } {
  const asides: [string, string][] = [];
  try {
    existing.forEach((dir, i) => {
      const aside = join(stage, `old-${i}-${basename(dir)}`);
      renameSync(dir, aside);
      asides.push([dir, aside]);
    });
    renameSync(staged, dest);
    return { ok: true };
  } catch (e) {
    const stranded = asides.reverse().filter(([dir, aside]) => {
      try {
        renameSync(aside, dir);
        return false;
      } catch {
        return true;
      }
    });
    if (stranded.length > 0)
      return {
        ok: false,
        error: `moving the extension into ${dest} failed (${errCode(e)}) and the previous copy could not be put back; it is kept in ${stage}.`,
        stranded: true,
      };
    return { ok: false, error: `moving the extension into ${dest} failed (${errCode(e)}); nothing was changed.`, stranded: false };
  }
}

function errCode(e: unknown): string {
  return (e as NodeJS.ErrnoException)?.code ?? (e instanceof Error ? e.message : String(e));
}
