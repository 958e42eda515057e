// The one definition of how zot is compiled: `npm run build` (scripts/build.ts) and
// `npm run release` (scripts/release.ts) both build with these flags, so a release binary is the
// binary the tests ran.
import { join, resolve } from "node:path";
import pkg from "../package.json" with { type: "json" };
import type { Target } from "../src/platform/targets.ts";

export const ROOT = resolve(import.meta.dir, "..");

/**
 * Every flag earns its place by a measurement (bench/build-ab.ts, the same rounds with and without
 * it; the numbers are in bench/RESULTS.md, "Build flags"). A flag that stopped paying is removed.
 */
export const BUILD_FLAGS: readonly string[] = [
  "--compile",
  // Shorter code to load: −0.7 to −1.0 ms CPU per run (echo, --version); peak RSS ±0.2 MiB.
  "--minify",
  // Precompiled bytecode instead of parsing the bundle at every start: without it the echo run
  // takes +17 ms CPU (+80 %) and +0.5 MiB, zot --version +2.4 ms CPU and +0.9 MiB.
  "--bytecode",
  // Each lazily imported part (TUI, RPC, ext CLI, agent runtime) its own chunk, so a run loads only
  // what its mode uses: zot --version −2.0 MiB peak and −1.6 ms CPU, the echo run −0.4 MiB.
  "--splitting",
  "--format",
  "esm",
  // Raised JIT thresholds: one-shot code stays in the interpreter instead of being compiled on a
  // core the tools and extensions need: 50 bash calls −15 % CPU and −6.4 MiB peak, one call −1.5 MiB.
  // The TUI and RPC mode switch back (Bun.unsafe.setJITPolicy(1) in src/cli/run.ts).
  "--compile-jit-policy=100",
  // Not for speed: a compiled zot must not read a .env or bunfig.toml from whatever directory it
  // is started in.
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-bunfig",
];

export type BuildStamp = {
  version: string;
  commit: string;
  date: string;
  target: string;
  /** Release keys to pin beside src/update/release-keys.ts (scripts/release.ts --pin-own-key). */
  releaseKeys?: readonly string[];
};

/** Bun's name for a target: `bun-linux-x64-musl`, `bun-windows-x64`. */
export function bunTarget(target: Target): string {
  return `bun-${target.name}`;
}

/** What is stamped into the binary. A tarball without git says "unknown" for the commit. */
export function buildStamp(target: Target, version: string = pkg.version, env: Record<string, string | undefined> = process.env): BuildStamp {
  const git = Bun.spawnSync(["git", "rev-parse", "--short=7", "HEAD"], { cwd: ROOT, stdout: "pipe", stderr: "ignore" });
  const commit = git.exitCode === 0 ? git.stdout.toString().trim() : "unknown";
  // SOURCE_DATE_EPOCH (reproducible builds) wins over the clock.
  const epoch = Number(env.SOURCE_DATE_EPOCH);
  const when = env.SOURCE_DATE_EPOCH && Number.isFinite(epoch) ? new Date(epoch * 1000) : new Date();
  return { version, commit, date: when.toISOString().slice(0, 10), target: target.name };
}

/** The full `bun build` argument list (after `bun build`) for one target. */
export function buildArgs(target: Target, outfile: string, stamp: BuildStamp, crossCompile: boolean): string[] {
  return [
    ...BUILD_FLAGS,
    ...(crossCompile ? [`--target=${bunTarget(target)}`] : []),
    ...(stamp.version === pkg.version ? [] : ["--define", `ZOT_BUILD_VERSION=${JSON.stringify(stamp.version)}`]),
    "--define",
    `ZOT_BUILD_COMMIT=${JSON.stringify(stamp.commit)}`,
    "--define",
    `ZOT_BUILD_DATE=${JSON.stringify(stamp.date)}`,
    "--define",
    `ZOT_BUILD_TARGET=${JSON.stringify(stamp.target)}`,
    ...(stamp.releaseKeys?.length ? ["--define", `ZOT_BUILD_RELEASE_KEYS=${JSON.stringify(JSON.stringify(stamp.releaseKeys))}`] : []),
    join(ROOT, "src", "main.ts"),
    "--outfile",
    outfile,
  ];
}
