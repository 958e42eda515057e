// Shared by the `zot ext` CLI, discovery and harness tests: temp dirs, fixture copies, and running
// the CLI with its own ZOT_HOME, in-process with captured output or as its own process.
import { cpSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runExtCli, type CliIo } from "../../src/cli/ext.ts";
import { codeFiles, trustDir, type ExtensionPrint } from "../../src/ext/trust.ts";

const REPO = resolve(import.meta.dir, "../..");
export const FIXTURES = join(import.meta.dir, "..", "fixtures");
export const DISCOVERY = join(FIXTURES, "discovery");

const made: string[] = [];

/** Removes the temp dirs made so far. Every test file using tempDir() registers it with afterEach:
 * bun runs all files in one process and evaluates this module once, so a hook registered here
 * would only ever run for the first file that imported it. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A fresh temp dir (real path, so comparisons with realpath-ed results hold), removed after the test. */
export function tempDir(prefix = "zot-ext-"): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

/**
 * A private copy of the discovery fixtures: `<root>/project` (with .zot/extensions) and `<root>/home`.
 * The project is a trusted folder (its home's trust.json says so), as a user's own project is.
 */
export function discoveryCopy(): { root: string; project: string; home: string } {
  const root = tempDir();
  cpSync(DISCOVERY, root, { recursive: true, verbatimSymlinks: true });
  const project = join(root, "project");
  const home = join(root, "home");
  const trusted = trustDir(home, project, codePrints(join(project, ".zot", "extensions")));
  if (!trusted.ok) throw new Error(trusted.error);
  return { root, project, home };
}

/** Trusts `project` with the extensions it has now, as `zot ext trust` records them. */
export function trustAsIs(home: string, project: string): void {
  const r = trustDir(home, project, codePrints(join(project, ".zot", "extensions")));
  if (!r.ok) throw new Error(r.error);
}

/** The prints of the extensions in `root` whose manifests name them, as trusting their folder records them. */
export function codePrints(root: string): ExtensionPrint[] {
  let dirs: string[];
  try {
    dirs = readdirSync(root);
  } catch {
    return [];
  }
  return dirs.flatMap((d) => {
    try {
      const name: unknown = JSON.parse(readFileSync(join(root, d, "extension.json"), "utf8")).name;
      return typeof name === "string" ? [{ name, files: codeFiles(join(root, d)) }] : [];
    } catch {
      return [];
    }
  });
}

export type CliRun = { code: number; out: string; err: string };

export async function cli(argv: string[], opts: { home: string; cwd: string; io?: CliIo }): Promise<CliRun> {
  let out = "";
  let err = "";
  const code = await runExtCli(argv, {
    env: { ...process.env, ZOT_HOME: opts.home },
    cwd: opts.cwd,
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    isTTY: false,
    stdin: null,
    ...opts.io,
  });
  return { code, out, err };
}

/** `zot ext …` as its own process (`bun src/main.ts ext …`) with stdin not a terminal, the way scripts and CI run it. */
export function spawnZotExt(args: string[], home: string, cwd: string): Bun.Subprocess<"ignore", "pipe", "pipe"> {
  return Bun.spawn([process.execPath, join(REPO, "src/main.ts"), "ext", ...args], {
    cwd,
    env: { ...process.env, ZOT_HOME: home },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
}

export async function runZotExt(args: string[], home: string, cwd = home): Promise<CliRun> {
  const p = spawnZotExt(args, home, cwd);
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out, err };
}
