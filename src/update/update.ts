// `zot update [--check]`: asks the release base for the latest version and, unless only checking,
// checks the Ed25519 signature of SHA256SUMS against the keys pinned in this binary, downloads
// this target's binary, verifies it against SHA256SUMS, makes sure it runs, and swaps it in for
// the running one. It runs only when the user types it: zot makes no other network request.
import { realpathSync } from "node:fs";
import { buildInfo, isReleaseBuild } from "../version.ts";
import { replaceBinary } from "../platform/replace-binary.ts";
import { binaryFileName, findTarget, SUMS_FILE, VERSION_FILE } from "../platform/targets.ts";
import { download } from "./download.ts";
import { pinnedKeys, SIGNATURE_FILE, verifySums } from "./signature.ts";
import { compareVersions, listedSum, MAX_BINARY_BYTES, MAX_LISTING_BYTES, releaseSource, sha256Hex } from "./release-source.ts";

export type UpdateIo = { out: (text: string) => void; err: (text: string) => void };

/** How long the new binary gets to answer `--version` before it counts as broken. */
const CHECK_TIMEOUT_MS = 30_000;

export async function runUpdate(check: boolean, env: Record<string, string | undefined>, io: UpdateIo): Promise<number> {
  const fail = (message: string): number => {
    io.err(`zot update: ${message}\n`);
    return 1;
  };
  const info = buildInfo();
  const target = findTarget(info.target);
  if (!isReleaseBuild() || !target) return fail(`this zot runs from source, not from a release binary; update it with "git pull && npm run build".`);
  const source = releaseSource(env);
  if ("error" in source) return fail(source.error);

  const latestFile = await download(`${source.base}/${VERSION_FILE}`, source.stallTimeoutMs, MAX_LISTING_BYTES);
  if (!latestFile.ok) return fail(`could not find the latest version: ${latestFile.error}.`);
  const latest = new TextDecoder().decode(latestFile.bytes).trim();
  const order = compareVersions(latest, info.version);
  if (order === null)
    return fail(`${source.base}/${VERSION_FILE} holds ${JSON.stringify(latest.slice(0, 40))}, which is not a version number; check ZOT_INSTALL_BASE.`);
  if (order <= 0) {
    io.out(`zot ${info.version} is up to date (the latest release is ${latest}).\n`);
    return 0;
  }
  if (check) {
    io.out(`zot ${latest} is available (this is ${info.version}); run "zot update" to install it.\n`);
    return 0;
  }

  const name = binaryFileName(latest, target);
  const sums = await download(`${source.base}/${SUMS_FILE}`, source.stallTimeoutMs, MAX_LISTING_BYTES);
  if (!sums.ok) return fail(`${sums.error}; nothing was changed, try again.`);
  const signatures = await download(`${source.base}/${SIGNATURE_FILE}`, source.stallTimeoutMs, MAX_LISTING_BYTES);
  if (!signatures.ok) {
    if (signatures.status === 404)
      return fail(
        `zot ${latest} at ${source.base} is not signed (it has no ${SIGNATURE_FILE}); zot does not install an unsigned release; nothing was changed.`,
      );
    return fail(`${signatures.error}; nothing was changed, try again.`);
  }
  const verified = await verifySums(sums.bytes, new TextDecoder().decode(signatures.bytes), pinnedKeys());
  if (!verified.ok)
    return fail(
      `the release signature at ${source.base}/${SIGNATURE_FILE} is not valid (${verified.error}): the release was tampered with or is not an official one; nothing was changed.`,
    );
  const expected = listedSum(new TextDecoder().decode(sums.bytes), name);
  if (!expected) return fail(`zot ${latest} has no release for ${target.name} (${name} is not listed in ${source.base}/${SUMS_FILE}); nothing was changed.`);
  io.err(`zot update: downloading ${name}\n`);
  const binary = await download(`${source.base}/${name}`, source.stallTimeoutMs, MAX_BINARY_BYTES);
  if (!binary.ok) return fail(`${binary.error}; nothing was changed, try again.`);
  const actual = sha256Hex(binary.bytes);
  if (actual !== expected)
    return fail(`checksum mismatch for ${name} (expected ${expected}, got ${actual}): the download is corrupt or was tampered with; nothing was changed.`);

  const current = realpathSync(process.execPath);
  const problem = await replaceBinary(current, binary.bytes, (staged) => answersVersion(staged, latest));
  if (problem) return fail(problem);
  io.out(`zot updated from ${info.version} to ${latest} at ${current}.\n`);
  return 0;
}

/** The new binary must start and say it is `version`, or it does not replace the working one. */
async function answersVersion(binary: string, version: string): Promise<string | null> {
  try {
    const proc = Bun.spawn([binary, "--version"], { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const timer = setTimeout(() => proc.kill("SIGKILL"), CHECK_TIMEOUT_MS);
    const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    clearTimeout(timer);
    if (code === 0 && stdout.startsWith(`zot ${version} (`)) return null;
    return `the downloaded zot ${version} did not run here (it printed ${JSON.stringify(stdout.trim().slice(0, 80))}, exit ${code}); the old binary is still in place.`;
  } catch (e) {
    return `the downloaded zot ${version} could not be started (${(e as Error).message}); the old binary is still in place.`;
  }
}
