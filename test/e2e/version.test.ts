import { expect, test } from "bun:test";
import { cpSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hostTarget } from "../../scripts/host-target.ts";
import pkg from "../../package.json" with { type: "json" };
import { ROOT, useZotHome } from "./zot.ts";
import { tempDir } from "../helpers/temp.ts";

const e2e = useZotHome();

test("zot --version prints the version, the commit it was built from and the build date", async () => {
  const git = Bun.spawnSync(["git", "rev-parse", "--short=7", "HEAD"], { cwd: ROOT, stdout: "pipe" });
  const commit = git.exitCode === 0 ? git.stdout.toString().trim() : "unknown";
  const run = await e2e.run(["--version"]);
  expect(run).toMatchObject({ code: 0, stderr: "" });
  expect(run.stdout).toMatch(new RegExp(`^zot ${pkg.version.replaceAll(".", "\\.")} \\(${commit} \\d{4}-\\d\\d-\\d\\d\\)\\n$`));
});

test("zot --version --json gives the same facts as JSON, with the target", async () => {
  const text = (await e2e.run(["--version"])).stdout;
  const run = await e2e.run(["--version", "--json"]);
  const info = JSON.parse(run.stdout) as Record<string, string>;
  expect(Object.keys(info)).toEqual(["version", "commit", "date", "target"]);
  expect(text).toBe(`zot ${info.version} (${info.commit} ${info.date})\n`);
  expect(info.target).toBe(hostTarget()!.name);
});

test("a build from a source tree without git says the commit is unknown and still works", async () => {
  const tree = tempDir("zot-tarball-");
  for (const part of ["src", "scripts", "package.json", "tsconfig.json", "bunfig.toml"]) cpSync(join(ROOT, part), join(tree, part), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(tree, "node_modules"));
  const build = Bun.spawnSync([process.execPath, join(tree, "scripts", "build.ts")], {
    cwd: tree,
    env: { ...process.env, GIT_CEILING_DIRECTORIES: tmpdir() },
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(build.exitCode).toBe(0);
  const version = Bun.spawnSync([join(tree, "dist", "zot"), "--version"], { stdout: "pipe" });
  expect(version.stdout.toString()).toMatch(new RegExp(`^zot ${pkg.version.replaceAll(".", "\\.")} \\(unknown \\d{4}-\\d\\d-\\d\\d\\)\\n$`));
}, 120_000);
