// `zot ext install <path|git-url>`: stage a copy or shallow clone in a dot-directory inside the
// target root (same filesystem, ignored by discovery), validate its manifest there, then rename it
// into place. Every failure removes the stage, so nothing half-installed is ever visible; SIGINT,
// SIGTERM and SIGHUP stop git and remove it too, and a stage left by an install that was killed
// outright (its process is gone) is removed by the next install into that root.
import type { Result } from "../../result.ts";
import {
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { killTree, ownsProcessGroup } from "../../platform/process-tree.ts";
import { isTrusted } from "../../ext/install/trust.ts";
import { projectExtensionsDir } from "../../ext/discovery.ts";
import { MANIFEST_FILE, readManifest, themeManifest, type ManifestResult } from "../../ext/install/manifest.ts";
import { isManifestName } from "../../ext/name-rules.ts";
import { isObject } from "../../json.ts";
import { ensurePrivateDir, globalRoot } from "../../platform/home.ts";
import { findThemeFile } from "../../ext/install/theme-file.ts";
import { grants, lockEntry, lockPathFor, LOCK_FILE, readLock, writeLock, type LockEntry, type LockSource } from "../../ext/install/lockfile.ts";
import { expandPermissions, permissionsJson } from "../../ext/sandbox/scope.ts";
import type { Manifest } from "../../ext/types.ts";
import type { Ctx } from "../kit/context.ts";
import { fail, readLine } from "../kit/context.ts";

export type InstallOptions = {
  force: boolean;
  project: boolean;
  /** Grant the declared permissions without asking (scripts). */
  yes: boolean;
  /** `zot ext update`: the copy being replaced is kept for `zot ext rollback`. */
  keepPrevious?: boolean;
  /** `zot ext update` and `sync`: decides on the new copy before it replaces anything (default: consent). */
  check?: (staged: StagedExtension) => Promise<Verdict>;
  /** `zot ext sync`: check out exactly this commit of a git source. */
  commit?: string;
  /** `zot ext sync`: the lockfile is the team's and stays as committed. */
  noRecord?: boolean;
};

/** Go ahead, or stop with a message (an error when `failed`, else a plain report such as "up to date"). */
export type Verdict = { go: true } | { go: false; message: string; failed: boolean };

/** A validated copy in the stage, before it is moved into place. */
export type StagedExtension = { dir: string; manifest: Manifest; source: LockSource };

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
  const root = opts.project ? projectExtensionsDir(ctx.cwd) : globalRoot(ctx.home);
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
  removeStaleStages(root);
  const stage = mkdtempSync(join(root, `${STAGE_PREFIX}${process.pid}-`));
  let keepStage = false;
  // A signal during a long clone or copy stops git (its whole process group) and removes the stage.
  const running: { git: Bun.Subprocess | null } = { git: null };
  const handlers = Object.entries(SIGNAL_EXIT).map(([sig, code]) => {
    const handler = () => {
      void (async () => {
        const git = running.git;
        if (git) {
          killTree(git.pid, "SIGKILL");
          await git.exited;
        }
        rmSync(stage, { recursive: true, force: true });
        ctx.err.write(`zot: install of ${source} stopped by ${sig}; nothing was installed.\n`);
        process.exit(code);
      })();
    };
    process.once(sig as NodeJS.Signals, handler);
    return [sig, handler] as const;
  });
  try {
    const staged = join(stage, "ext");
    const display = git ? git.url : srcDir!;
    if (git) {
      const cloned = await clone(ctx, git, staged, running, opts.commit);
      if (!cloned.ok) return fail(ctx, cloned.error);
    } else {
      const copied = copyTree(srcDir!, staged, root);
      if (!copied.ok) return fail(ctx, copied.error);
    }

    const manifestPath = join(staged, MANIFEST_FILE);
    const themeOnly = findThemeFile(staged) !== null;
    let parsed: ManifestResult;
    if (existsSync(manifestPath)) parsed = readManifest(manifestPath, { allowMissingExec: themeOnly, env: ctx.env });
    else if (!themeOnly) return fail(ctx, `${display} has no ${MANIFEST_FILE} at its top level; an extension directory needs one.`);
    else {
      // A bare theme directory is named after itself, as -e and discovery name it.
      const name = basename(display).replace(/\.git$/, "");
      if (!isManifestName(name))
        return fail(
          ctx,
          `theme directory ${display} has no ${MANIFEST_FILE} and its name is not a valid extension name; add an ${MANIFEST_FILE} with a "name".`,
        );
      parsed = { ok: true, manifest: themeManifest(name) };
    }
    if (!parsed.ok) return fail(ctx, `cannot install ${display}: ${parsed.error.split(staged).join(display)}`);
    const { name, version } = parsed.manifest;

    const dest = join(root, name);
    if (dirname(resolve(dest)) !== resolve(root)) return fail(ctx, `extension name "${name}" would escape ${root}; fix "name" in the manifest.`);
    const existing = sameNamed(root, name);
    const other = otherNamed(dest, name);
    if (other !== null)
      return fail(
        ctx,
        `${dest} holds the extension "${other}", not "${name}", so installing "${name}" there would destroy it; remove "${other}" first (zot ext remove ${other}) or rename one of them.`,
      );
    if (existing.length > 0 && !opts.force)
      return fail(ctx, `${existing[0]} already holds an extension named "${name}"; pass --force to replace it, or zot ext remove ${name} first.`);

    const source: LockSource = git
      ? { type: "git", url: git.url, ref: git.ref, commit: await headCommit(staged) }
      : { type: "path", path: lockedPath(srcDir!, ctx.cwd, opts.project) };
    const candidate: StagedExtension = { dir: staged, manifest: parsed.manifest, source };
    const verdict = opts.check ? await opts.check(candidate) : await consent(ctx, parsed.manifest, opts.yes, dest);
    if (!verdict.go) {
      if (verdict.failed) return fail(ctx, verdict.message);
      ctx.out.write(verdict.message + "\n");
      return 0;
    }

    const moved = commit(stage, staged, dest, existing);
    if (!moved.ok) {
      keepStage = moved.stranded;
      // The previous copy lives on in the stage: later installs must not take it for a stale one.
      if (keepStage) writeFileSync(join(stage, KEPT_MARK), "");
      return fail(ctx, moved.error);
    }
    if (opts.keepPrevious && moved.asides[0]) keepPrevious(root, name, moved.asides[0]);
    const recorded = opts.noRecord
      ? { ok: true as const }
      : record(root, name, lockEntry(source, version, dest, parsed.manifest.permissions, parsed.manifest.settings), opts.keepPrevious === true);
    if (!recorded.ok) ctx.err.write(`zot: installed, but ${recorded.error}; zot ext verify and update will not know this install.\n`);
    ctx.out.write(`installed ${name}${version ? ` ${version}` : ""} at ${dest}\n`);
    if (opts.project && !isTrusted(ctx.home, ctx.cwd))
      ctx.out.write(`${ctx.cwd} is not a trusted folder, so its project extensions do not run; run zot ext trust ${ctx.cwd} to let them.\n`);
    return 0;
  } finally {
    for (const [sig, handler] of handlers) process.off(sig as NodeJS.Signals, handler);
    if (!keepStage) rmSync(stage, { recursive: true, force: true });
  }
}

const STAGE_PREFIX = ".zot-install-";
/** In a stage that holds a previous copy which could not be put back: never removed automatically. */
const KEPT_MARK = ".zot-kept";
const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/** Removes stages whose install process is gone (`.zot-install-<pid>-…`, or unnamed by pid). */
function removeStaleStages(root: string): void {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const n of names) {
    if (!n.startsWith(STAGE_PREFIX)) continue;
    const dir = join(root, n);
    const pid = Number(n.slice(STAGE_PREFIX.length).split("-")[0]);
    if (Number.isSafeInteger(pid) && pid > 0 && alive(pid)) continue;
    if (existsSync(join(dir, KEPT_MARK))) continue;
    rmSync(dir, { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: alive, but someone else's.
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The manifest name in `dest` when it is an extension named other than `name` (case-insensitive), else null. */
function otherNamed(dest: string, name: string): string | null {
  try {
    const raw: unknown = JSON.parse(readFileSync(join(dest, MANIFEST_FILE), "utf8"));
    if (isObject(raw) && typeof raw.name === "string" && raw.name.toLowerCase() !== name.toLowerCase()) return raw.name;
  } catch {
    // No readable manifest: not an extension of another name.
  }
  return null;
}

async function clone(ctx: Ctx, git: GitSource, dest: string, running: { git: Bun.Subprocess | null }, commit?: string): Promise<Result> {
  const cloned = await runGit(
    ctx,
    git,
    ["clone", "--quiet", ...(commit ? ["--no-checkout"] : ["--depth", "1", ...(git.ref ? ["--branch", git.ref] : [])]), "--", git.url, dest],
    running,
  );
  if (!cloned.ok || !commit) return cloned;
  return runGit(ctx, git, ["-C", dest, "checkout", "--quiet", "--detach", commit], running);
}

async function runGit(ctx: Ctx, git: GitSource, gitArgs: string[], running: { git: Bun.Subprocess | null }): Promise<Result> {
  const argv = ["git", ...gitArgs];
  let proc: Bun.Subprocess<"ignore", "ignore", "pipe">;
  try {
    proc = Bun.spawn(argv, {
      cwd: ctx.processCwd,
      stdin: "ignore",
      stdout: "ignore",
      stderr: "pipe",
      // Never wait on a credential prompt nobody can see.
      env: { ...ctx.env, GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "true" } as Record<string, string>,
      // Its own process group, so stopping it reaches the helpers it starts (git-remote-https…).
      detached: ownsProcessGroup(),
    });
    running.git = proc;
  } catch (e) {
    return { ok: false, error: `cannot run git to clone ${git.url} (${errCode(e)}); install git or pass a local directory.` };
  }
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  running.git = null;
  if (code === 0) return { ok: true };
  const said = stderr
    .trimEnd()
    .split("\n")
    .filter((l) => l.trim() !== "");
  const what = `git ${gitArgs[0] === "-C" ? gitArgs[2] : gitArgs[0]} of ${git.url}${git.ref ? ` at ${git.ref}` : ""} failed (exit code ${code}); check the URL, ref and your access.`;
  return { ok: false, error: said.length ? `${what} git said:\n${said.map((l) => `  ${l}`).join("\n")}` : what };
}

/**
 * Copies `src` into `dest` (files with their modes, symlinks as links). When the target root lies
 * inside `src` (`zot ext install . --project`), the directory holding it (zot's own state, such as
 * the project's `.zot/`) is skipped, so the copy never nests into itself.
 */
function copyTree(src: string, dest: string, root: string): Result {
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
function commit(
  stage: string,
  staged: string,
  dest: string,
  existing: string[],
): { ok: true; asides: string[] } | { ok: false; error: string; stranded: boolean } {
  const asides: [string, string][] = [];
  try {
    existing.forEach((dir, i) => {
      const aside = join(stage, `old-${i}-${basename(dir)}`);
      renameSync(dir, aside);
      asides.push([dir, aside]);
    });
    renameSync(staged, dest);
    return { ok: true, asides: asides.map(([, aside]) => aside) };
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

/** Where `zot ext update` keeps the copy it replaced (a dot-directory: discovery never sees it). */
export function previousDir(root: string, name: string): string {
  return join(root, PREVIOUS_DIR, name);
}
const PREVIOUS_DIR = ".zot-previous";

function keepPrevious(root: string, name: string, aside: string): void {
  const target = previousDir(root, name);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
  renameSync(aside, target);
}

/** Adds or replaces `name` in the root's lockfile; with `keepOld`, the replaced entry goes with the previous tree. */
function record(root: string, name: string, entry: LockEntry, keepOld: boolean): Result {
  const path = lockPathFor(root);
  const read = readLock(path);
  if (!read.ok) return read;
  const old = read.lock.extensions[name];
  if (old && keepOld) {
    const prevPath = join(root, PREVIOUS_DIR, LOCK_FILE);
    const prev = readLock(prevPath);
    if (prev.ok) {
      mkdirSync(dirname(prevPath), { recursive: true, mode: 0o700 });
      prev.lock.extensions[name] = old;
      writeLock(prevPath, prev.lock);
    }
  }
  read.lock.extensions[name] = entry;
  return writeLock(path, read.lock);
}

async function headCommit(dir: string): Promise<string> {
  const p = Bun.spawn(["git", "-C", dir, "rev-parse", "HEAD"], { stdin: "ignore", stdout: "pipe", stderr: "ignore" });
  const [out] = await Promise.all([new Response(p.stdout).text(), p.exited]);
  return out.trim();
}

/**
 * An extension that declares permissions is installed only with the user's consent: asked on a
 * terminal, `--yes` for scripts. Without both, the refusal lists what would be granted.
 */
export async function consent(ctx: Ctx, m: Manifest, yes: boolean, dir?: string): Promise<Verdict> {
  if (!m.permissions || yes) return { go: true };
  const granted = grants(permissionsJson(m.permissions));
  if (dir) {
    // Each declared path also as the folder it grants ($CWD is wherever zot later runs, so it stays as written).
    const tmp = process.getBuiltinModule("node:os").tmpdir();
    const expanded = grants(permissionsJson(expandPermissions(m.permissions, { extensionDir: dir, cwd: "$CWD", home: ctx.home, tmp })));
    granted.forEach((g, i) => {
      const e = expanded[i]!;
      if (e !== g && !g.includes("$CWD")) granted[i] = `${g} (${e.slice(e.indexOf(" ") + 1)})`;
    });
  }
  return ask(
    ctx,
    `${m.name}${m.version ? ` ${m.version}` : ""} asks for: ${granted.length > 0 ? granted.join("; ") : "nothing beyond its own directory"}`,
    "install it with these permissions",
    m.name,
  );
}

/** A yes/no question on a terminal; without one, a refusal that says how to answer yes (`--yes`). */
export async function ask(ctx: Ctx, what: string, question: string, name: string): Promise<Verdict> {
  if (!ctx.isTTY) return { go: false, failed: true, message: `${what}; nothing was changed. Pass --yes to grant it without a terminal.` };
  ctx.out.write(`${what}\n${question}? [y/N] `);
  const answer = (await readLine(ctx.stdin())).trim().toLowerCase();
  return answer === "y" || answer === "yes" ? { go: true } : { go: false, failed: true, message: `${name} was not changed (not granted).` };
}

/** A project's lockfile is shared: a source inside the project is recorded relative to it. */
function lockedPath(src: string, project: string, isProject: boolean): string {
  const rel = relative(project, src);
  return isProject && rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : src;
}
