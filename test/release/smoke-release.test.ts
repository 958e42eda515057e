// scripts/smoke-release.ts, the release workflow's per-runner check, on a release built here.
import { beforeAll, beforeEach, expect, test } from "bun:test";
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { binaryFileName, findTarget } from "../../src/platform/targets.ts";
import { releases, ROOT, type Releases } from "./fixture.ts";
import { tempDir } from "../helpers/temp.ts";

const SLOW_MS = 120_000;
let rel: Releases;
let dir = "";
beforeAll(async () => {
  rel = await releases();
}, 600_000);
beforeEach(() => {
  dir = tempDir("zot-smoke-release-");
});

function smoke(releaseDir: string, target: string): { code: number; stderr: string } {
  const p = Bun.spawnSync([process.execPath, join(ROOT, "scripts", "smoke-release.ts"), releaseDir, target], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode, stderr: p.stderr.toString() };
}

test(
  "this machine's release binary passes its smoke tests natively",
  () => {
    expect(smoke(rel.current.dir, rel.target.name)).toEqual({ code: 0, stderr: `smoke: ${rel.target.name} passed natively\n` });
  },
  SLOW_MS,
);

test(
  "a binary for another CPU or OS than its name says fails the format check",
  () => {
    const other = findTarget(rel.target.arch === "x64" ? "darwin-arm64" : "darwin-x64")!;
    writeFileSync(join(dir, "VERSION"), `${rel.current.version}\n`);
    symlinkSync(join(rel.current.dir, binaryFileName(rel.current.version, rel.target)), join(dir, binaryFileName(rel.current.version, other)));
    const r = smoke(dir, other.name);
    expect(r.code).toBe(1);
    expect(r.stderr).toEndWith(` is built for ${rel.target.name}, expected ${other.name}.\n`);
  },
  SLOW_MS,
);
