import { beforeEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "../helpers/temp.ts";

const SCRIPT = join(resolve(import.meta.dir, "../.."), "scripts", "release.ts");
let dir = "";
beforeEach(() => {
  dir = tempDir("zot-release-cli-");
});

function release(...args: string[]): { code: number; stderr: string } {
  const p = Bun.spawnSync([process.execPath, SCRIPT, ...args], { stdout: "pipe", stderr: "pipe" });
  return { code: p.exitCode, stderr: p.stderr.toString() };
}

test("an unknown target is refused with the list of targets, before anything is built", () => {
  expect(release("--target", "linux-riscv64", "--out", join(dir, "out"))).toEqual({
    code: 2,
    stderr:
      "release: --target linux-riscv64 is not a release target; choose from linux-x64, linux-arm64, linux-x64-musl, linux-arm64-musl, darwin-x64, darwin-arm64, windows-x64.\n",
  });
});

test("a version label that is no version number, and an unknown flag, are refused", () => {
  expect(release("--version", "latest")).toEqual({ code: 2, stderr: `release: --version must look like 1.2.3 or 1.2.3-rc.1 (got "latest").\n` });
  expect(release("--fast")).toEqual({
    code: 2,
    stderr: `release: unknown flag "--fast"; the flags are --target NAME, --out DIR, --version X.Y.Z, --no-smoke and --pin-own-key.\n`,
  });
});

test("an --out directory that already holds files is not written into", () => {
  writeFileSync(join(dir, "notes.txt"), "mine");
  expect(release("--target", "linux-x64", "--out", dir)).toEqual({ code: 2, stderr: `release: ${dir} is not empty; give --out a new or empty directory.\n` });
});
