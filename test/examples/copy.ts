// Example extensions run from a temp copy so state files (todos.json, scratchpad.md) never land in
// the repository. The copy keeps the repository's shape — examples/extensions/<name> beside symlinks
// to sdk/ and src/ — so the examples' relative SDK imports still resolve.
import { cpSync, mkdirSync, readdirSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "../helpers/temp.ts";

export const repo = resolve(import.meta.dir, "../..");
export const examplesSource = join(repo, "examples/extensions");

export const exampleNames = (): string[] =>
  readdirSync(examplesSource, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();

/** Copies every example under `root`; returns the directory of each by name. */
function copyExamples(root: string): (name: string) => string {
  symlinkSync(join(repo, "sdk"), join(root, "sdk"));
  symlinkSync(join(repo, "src"), join(root, "src"));
  const target = join(root, "examples/extensions");
  mkdirSync(target, { recursive: true });
  for (const name of exampleNames()) {
    cpSync(join(examplesSource, name), join(target, name), {
      recursive: true,
      filter: (p) => !/(todos\.json|scratchpad\.md)(\.tmp)?$/.test(p) && !p.includes("__pycache__"),
    });
  }
  return (name) => join(target, name);
}

export type ExampleWorkspace = { root: string; home: string; project: string; dirOf: (name: string) => string };

/** A temp dir holding a copy of the examples, an empty $ZOT_HOME and an empty project; the caller removes `root`. */
export function exampleWorkspace(prefix: string): ExampleWorkspace {
  const root = tempDir(prefix);
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(home);
  mkdirSync(project);
  return { root, home, project, dirOf: copyExamples(root) };
}

/** Bare `bun` in the manifests is looked up on PATH, as for users (`npm test` puts node_modules/.bin there). */
export const exampleEnv = (): Record<string, string> => {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  env.PATH = `${join(repo, "node_modules/.bin")}:${process.env.PATH ?? ""}`;
  env.PYTHONDONTWRITEBYTECODE = "1";
  return env;
};
