// Release builds for the installer and update tests, made once per test run by the real release
// script for this machine's target only: the current version, and a newer one to update to.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { hostTarget } from "../../scripts/host-target.ts";
import type { Target } from "../../src/platform/targets.ts";

export const ROOT = resolve(import.meta.dir, "../..");
export const NEXT_VERSION = "9.9.0";

export type Releases = { target: Target; current: { dir: string; version: string }; next: { dir: string; version: string } };

let built: Promise<Releases> | null = null;

async function release(out: string, args: string[]): Promise<void> {
  const target = hostTarget()!;
  const proc = Bun.spawn([process.execPath, join(ROOT, "scripts", "release.ts"), "--target", target.name, "--out", out, ...args], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [err, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`scripts/release.ts ${args.join(" ")} failed (exit ${code}):\n${err}`);
}

/** Built on first use and shared by every test file of the run; removed when the run ends. */
export function releases(): Promise<Releases> {
  if (built) return built;
  const root = mkdtempSync(join(tmpdir(), "zot-releases-"));
  process.on("exit", () => rmSync(root, { recursive: true, force: true }));
  built = (async () => {
    const current = join(root, pkg.version);
    const next = join(root, NEXT_VERSION);
    await release(current, []);
    await release(next, ["--version", NEXT_VERSION, "--no-smoke"]);
    return { target: hostTarget()!, current: { dir: current, version: pkg.version }, next: { dir: next, version: NEXT_VERSION } };
  })();
  return built;
}
