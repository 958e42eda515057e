// Shared by the `zot ext` CLI, discovery and harness tests: fixture copies, and running
// the CLI with its own ZOT_HOME, in-process with captured output or as its own process.
import { cpSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { runExtCli, type CliIo } from "../../src/cli/ext.ts";
import { codeFiles, trustDir, type ExtensionPrint } from "../../src/ext/install/trust.ts";

const REPO = resolve(import.meta.dir, "../..");
export const FIXTURES = join(import.meta.dir, "..", "fixtures");
export const DISCOVERY = join(FIXTURES, "discovery");

import { tempDir } from "../helpers/temp.ts";

export { tempDir };

/**
 * A private copy of the discovery fixtures: `<root>/project` (with .zot/extensions) and `<root>/home`.
 * The project is a trusted folder (its home's trust.json says so), as a user's own project is.
 */
export function discoveryCopy(): { root: string; project: string; home: string } {
  const root = tempDir("zot-ext-");
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
