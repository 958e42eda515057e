// `npm run release`: cross-compiles zot for every release target into dist/release/ — the bare
// binary, an archive with LICENSE and README (.tar.gz; .zip on Windows), one SHA256SUMS, a VERSION
// file and the installers — checks each binary's executable format and smoke-tests the ones that can run here.
//
//   bun scripts/release.ts [--target NAME]... [--out DIR] [--version X.Y.Z] [--no-smoke]
//
// --target limits the build (repeatable; the tests build only this machine's); --out writes
// elsewhere (it must be missing or empty); --version labels a build other than package.json's.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import pkg from "../package.json" with { type: "json" };
import { archiveFileName, binaryFileName, findTarget, installedName, SUMS_FILE, TARGETS, VERSION_FILE, type Target } from "../src/platform/targets.ts";
import { sha256Hex } from "../src/update/release-source.ts";
import { buildArgs, buildStamp, ROOT } from "./build-flags.ts";
import { tarGz, zip, type ArchiveEntry } from "./release/archive.ts";
import { targetMismatch } from "./release/exe-format.ts";
import { smokeTest } from "./release/smoke.ts";

type Options = { targets: Target[]; out: string; version: string; smoke: boolean; clearOut: boolean };

function parse(argv: string[]): Options | string {
  const opts: Options = { targets: [], out: join(ROOT, "dist", "release"), version: pkg.version, smoke: true, clearOut: true };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === "--no-smoke") {
      opts.smoke = false;
      continue;
    }
    if (flag !== "--target" && flag !== "--out" && flag !== "--version") return `unknown flag "${flag}"; the flags are --target NAME, --out DIR, --version X.Y.Z and --no-smoke.`;
    const value = argv[++i];
    if (value === undefined || value === "") return `${flag} needs a value.`;
    if (flag === "--target") {
      const t = findTarget(value);
      if (!t) return `--target ${value} is not a release target; choose from ${TARGETS.map((x) => x.name).join(", ")}.`;
      opts.targets.push(t);
    } else if (flag === "--out") {
      opts.out = resolve(value);
      opts.clearOut = false;
    } else {
      if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(value)) return `--version must look like 1.2.3 or 1.2.3-rc.1 (got "${value}").`;
      opts.version = value;
    }
  }
  if (opts.targets.length === 0) opts.targets = [...TARGETS];
  return opts;
}

async function build(target: Target, outfile: string, version: string): Promise<string | null> {
  const proc = Bun.spawn([process.execPath, "build", ...buildArgs(target, outfile, buildStamp(target, version), true)], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return code === 0 ? null : `bun build for ${target.name} failed (exit ${code}):\n${err || out}`;
}

function archive(version: string, target: Target, binary: Uint8Array): Uint8Array {
  const folder = `zot-${version}-${target.name}`;
  const entries: ArchiveEntry[] = [
    { name: `${folder}/${installedName(target)}`, data: binary, executable: true },
    { name: `${folder}/LICENSE`, data: readFileSync(join(ROOT, "LICENSE")), executable: false },
    { name: `${folder}/README.md`, data: readFileSync(join(ROOT, "README.md")), executable: false },
  ];
  return target.os === "windows" ? zip(entries) : tarGz(entries);
}

async function main(): Promise<number> {
  const opts = parse(process.argv.slice(2));
  if (typeof opts === "string") {
    process.stderr.write(`release: ${opts}\n`);
    return 2;
  }
  if (opts.clearOut) rmSync(opts.out, { recursive: true, force: true });
  else if (existsSync(opts.out) && readdirSync(opts.out).length > 0) {
    process.stderr.write(`release: ${opts.out} is not empty; give --out a new or empty directory.\n`);
    return 2;
  }
  mkdirSync(opts.out, { recursive: true });
  const sums: string[] = [];
  const rows: string[] = [];
  let failed = false;
  for (const target of opts.targets) {
    const binName = binaryFileName(opts.version, target);
    const binPath = join(opts.out, binName);
    process.stderr.write(`release: building ${binName}\n`);
    const err = await build(target, binPath, opts.version);
    if (err) {
      process.stderr.write(`release: ${err}\n`);
      return 1;
    }
    const binary = readFileSync(binPath);
    const mismatch = targetMismatch(binary, target);
    const archName = archiveFileName(opts.version, target);
    const packed = archive(opts.version, target, binary);
    writeFileSync(join(opts.out, archName), packed);
    sums.push(`${sha256Hex(binary)}  ${binName}`, `${sha256Hex(packed)}  ${archName}`);
    let smoke = "not run (--no-smoke)";
    if (mismatch) {
      failed = true;
      smoke = `FAILED: ${binName} is ${mismatch}`;
    } else if (opts.smoke) {
      const result = await smokeTest(binPath, target, opts.version);
      if (!result.ran) smoke = `format checked; not run: ${result.why}`;
      else if (result.problems.length > 0) {
        failed = true;
        smoke = `FAILED ${result.via}: ${result.problems.join("; ")}`;
      } else smoke = `passed ${result.via}`;
    }
    rows.push(`  ${target.name.padEnd(17)} ${(binary.length / 1048576).toFixed(1).padStart(6)} MiB  ${smoke}`);
  }
  sums.sort((a, b) => a.slice(66).localeCompare(b.slice(66)));
  writeFileSync(join(opts.out, SUMS_FILE), `${sums.join("\n")}\n`);
  writeFileSync(join(opts.out, VERSION_FILE), `${opts.version}\n`);
  // Published with every release so the one-line install always fetches the latest installer.
  for (const installer of ["install.sh", "install.ps1"]) copyFileSync(join(ROOT, installer), join(opts.out, installer));
  process.stderr.write(`release: zot ${opts.version} in ${opts.out}\n${rows.join("\n")}\n`);
  return failed ? 1 : 0;
}

process.exit(await main());
