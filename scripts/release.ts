// `npm run release`: cross-compiles zot for every release target into dist/release/ — the bare
// binary, an archive with LICENSE and README (.tar.gz; .zip on Windows), one SHA256SUMS, its
// Ed25519 signature SHA256SUMS.sig, a VERSION file and the installers — checks each binary's
// executable format and smoke-tests the ones that can run here.
//
//   ZOT_RELEASE_SIGNING_KEY_FILE=key.pem bun scripts/release.ts [--target NAME]... [--out DIR] [--version X.Y.Z] [--no-smoke] [--pin-own-key]
//
// --target limits the build (repeatable; the tests build only this machine's); --out writes
// elsewhere (it must be missing or empty); --version labels a build other than package.json's;
// --pin-own-key pins the signing keys in the binaries and install.sh beside the project's (the
// tests' throwaway key; a fork's own releases). The signing key never enters the repository.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import pkg from "../package.json" with { type: "json" };
import { archiveFileName, binaryFileName, findTarget, installedName, SUMS_FILE, TARGETS, VERSION_FILE, type Target } from "../src/platform/targets.ts";
import { sha256Hex } from "../src/update/release-source.ts";
import { RELEASE_KEYS } from "../src/update/release-keys.ts";
import { SIGNATURE_FILE } from "../src/update/signature.ts";
import { signatureFile, signers, withInstallerKeys } from "./release/sign.ts";
import { buildArgs, buildStamp, ROOT } from "./build-flags.ts";
import { tarGz, zip, type ArchiveEntry } from "./release/archive.ts";
import { targetMismatch } from "./release/exe-format.ts";
import { smokeTest } from "./release/smoke.ts";

type Options = { targets: Target[]; out: string; version: string; smoke: boolean; clearOut: boolean; pinOwnKey: boolean };

function parse(argv: string[]): Options | string {
  const opts: Options = { targets: [], out: join(ROOT, "dist", "release"), version: pkg.version, smoke: true, clearOut: true, pinOwnKey: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === "--no-smoke" || flag === "--pin-own-key") {
      if (flag === "--no-smoke") opts.smoke = false;
      else opts.pinOwnKey = true;
      continue;
    }
    if (flag !== "--target" && flag !== "--out" && flag !== "--version")
      return `unknown flag "${flag}"; the flags are --target NAME, --out DIR, --version X.Y.Z, --no-smoke and --pin-own-key.`;
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

async function build(target: Target, outfile: string, version: string, releaseKeys: readonly string[]): Promise<string | null> {
  const stamp = { ...buildStamp(target, version), ...(releaseKeys.length > 0 ? { releaseKeys } : {}) };
  const proc = Bun.spawn([process.execPath, "build", ...buildArgs(target, outfile, stamp, true)], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
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
  const keys = await signers(process.env);
  if (typeof keys === "string") {
    process.stderr.write(`release: ${keys}.\n`);
    return 2;
  }
  const extraPins = opts.pinOwnKey ? keys.map((k) => k.publicKey).filter((k) => !RELEASE_KEYS.includes(k)) : [];
  const pinned = [...RELEASE_KEYS, ...extraPins];
  // A release signed only by keys no binary pins would be refused by every `zot update`.
  if (!keys.some((k) => pinned.includes(k.publicKey))) {
    process.stderr.write(
      `release: the signing key ${keys.map((k) => k.id).join(", ")} is not pinned in src/update/release-keys.ts, so no zot would accept this release; sign with a pinned key (or pass --pin-own-key for a release of your own).\n`,
    );
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
    const err = await build(target, binPath, opts.version, extraPins);
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
  const sumsText = new TextEncoder().encode(`${sums.join("\n")}\n`);
  writeFileSync(join(opts.out, SUMS_FILE), sumsText);
  writeFileSync(join(opts.out, SIGNATURE_FILE), await signatureFile(sumsText, keys));
  writeFileSync(join(opts.out, VERSION_FILE), `${opts.version}\n`);
  // Published with every release so the one-line install always fetches the latest installer,
  // which pins the same keys as the binaries.
  writeFileSync(join(opts.out, "install.sh"), withInstallerKeys(readFileSync(join(ROOT, "install.sh"), "utf8"), pinned), { mode: 0o755 });
  copyFileSync(join(ROOT, "install.ps1"), join(opts.out, "install.ps1"));
  process.stderr.write(`release: zot ${opts.version} in ${opts.out}\n${rows.join("\n")}\n`);
  return failed ? 1 : 0;
}

process.exit(await main());
