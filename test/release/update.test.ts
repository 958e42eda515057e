// `zot update` run by a release binary copied into a temp directory, against a local release
// mirror serving what the release script built: the current version and a newer one.
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { binaryFileName } from "../../src/platform/targets.ts";
import { sha256Hex } from "../../src/update/release-source.ts";
import { startReleaseServer, type ReleaseServer } from "../helpers/release-server.ts";
import { releases, ROOT, throwawayKey, type Releases } from "./fixture.ts";
import { tempDir } from "../helpers/temp.ts";

/** Each test runs zot or the installer on a 100 MiB binary, several times over on a busy machine. */
const SLOW_MS = 120_000;

let rel: Releases;
let server: ReleaseServer;
let scratch = "";
let zot = "";
let nextName = "";

beforeAll(async () => {
  rel = await releases();
  nextName = binaryFileName(rel.next.version, rel.target);
  const dir = rel.next.dir;
  server = startReleaseServer(
    {
      current: { dir: rel.current.dir },
      next: { dir },
      tampered: { dir, tamper: [nextName] },
      forged: { dir, tamper: [nextName], forged: true },
      unsigned: { dir, unsigned: true },
      stranger: { dir, signedBy: await throwawayKey() },
      truncated: { dir, truncate: [nextName] },
      cut: { dir, cut: [nextName] },
      missing: { dir, omit: [nextName] },
      broken: { dir, replace: { [nextName]: new TextEncoder().encode("#!/bin/sh\necho 'not zot'\n") } },
      hang: { dir, hang: true },
    },
    rel.signingKey,
  );
}, 600_000);
afterAll(() => server?.stop());

beforeEach(() => {
  scratch = tempDir("zot-update-test-");
  mkdirSync(join(scratch, "bin"));
  zot = join(scratch, "bin", "zot");
  copyFileSync(join(rel.current.dir, binaryFileName(rel.current.version, rel.target)), zot);
});

type Result = { code: number; stdout: string; stderr: string };

async function run(args: string[], view: string, env: Record<string, string> = {}): Promise<Result> {
  const proc = Bun.spawn([zot, ...args], {
    cwd: scratch,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: scratch, ZOT_HOME: join(scratch, "home"), ZOT_INSTALL_BASE: server.url(view), ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

const digest = (path: string): string => sha256Hex(readFileSync(path));
const versionOf = (): string => Bun.spawnSync([zot, "--version"], { stdout: "pipe" }).stdout.toString();

/** After a failed update the old binary is byte for byte the same, still runs, and nothing was left beside it. */
function expectUntouched(before: string): void {
  expect(digest(zot)).toBe(before);
  expect(versionOf()).toStartWith(`zot ${rel.current.version} (`);
  expect(readdirSync(join(scratch, "bin"))).toEqual(["zot"]);
}

test(
  "zot update --check against the release it already is says it is up to date",
  async () => {
    const r = await run(["update", "--check"], "current");
    expect(r).toEqual({ code: 0, stdout: `zot ${rel.current.version} is up to date (the latest release is ${rel.current.version}).\n`, stderr: "" });
  },
  SLOW_MS,
);

test(
  "zot update --check reports a newer release and changes nothing",
  async () => {
    const before = digest(zot);
    const r = await run(["update", "--check"], "next");
    expect(r).toEqual({
      code: 0,
      stdout: `zot ${rel.next.version} is available (this is ${rel.current.version}); run "zot update" to install it.\n`,
      stderr: "",
    });
    expect(server.requests.filter((p) => p.startsWith("next/"))).toEqual(["next/VERSION"]);
    expectUntouched(before);
  },
  SLOW_MS,
);

test(
  "zot update downloads the newer release, verifies it and replaces itself in place",
  async () => {
    const r = await run(["update"], "next");
    expect(r.stderr).toBe(`zot update: downloading ${nextName}\n`);
    expect(r.stdout).toBe(`zot updated from ${rel.current.version} to ${rel.next.version} at ${zot}.\n`);
    expect(r.code).toBe(0);
    expect(digest(zot)).toBe(digest(join(rel.next.dir, nextName)));
    expect(versionOf()).toStartWith(`zot ${rel.next.version} (`);
    expect(readdirSync(join(scratch, "bin"))).toEqual(["zot"]);
  },
  SLOW_MS,
);

test(
  "a tampered checksum, a truncated file, a cut connection or a missing platform leave the old binary working",
  async () => {
    const before = digest(zot);
    const tampered = await run(["update"], "tampered");
    expect(tampered.code).toBe(1);
    expect(tampered.stderr.trimEnd().split("\n").at(-1)).toMatch(
      new RegExp(
        `^zot update: checksum mismatch for ${nextName} \\(expected 0{64}, got [0-9a-f]{64}\\): the download is corrupt or was tampered with; nothing was changed\\.$`,
      ),
    );
    expectUntouched(before);

    const truncated = await run(["update"], "truncated");
    expect(truncated.code).toBe(1);
    expect(truncated.stderr).toContain(`zot update: checksum mismatch for ${nextName} `);
    expectUntouched(before);

    const cut = await run(["update"], "cut");
    expect(cut.code).toBe(1);
    expect(cut.stderr.trimEnd().split("\n").at(-1)).toMatch(
      new RegExp(
        `^zot update: the download of http://127\\.0\\.0\\.1:\\d+/cut/${nextName} was cut short (after \\d+ bytes|\\(\\d+ of \\d+ bytes\\)); nothing was changed, try again\\.$`,
      ),
    );
    expectUntouched(before);

    const missing = await run(["update"], "missing");
    expect(missing).toEqual({
      code: 1,
      stdout: "",
      stderr: `zot update: zot ${rel.next.version} has no release for ${rel.target.name} (${nextName} is not listed in ${server.url("missing")}/SHA256SUMS); nothing was changed.\n`,
    });
    expectUntouched(before);
  },
  SLOW_MS,
);

test(
  "an unsigned release, a SHA256SUMS changed without the key and a signature by an unpinned key are refused before the binary is downloaded",
  async () => {
    const before = digest(zot);
    const unsigned = await run(["update"], "unsigned");
    expect(unsigned).toEqual({
      code: 1,
      stdout: "",
      stderr: `zot update: zot ${rel.next.version} at ${server.url("unsigned")} is not signed (it has no SHA256SUMS.sig); zot does not install an unsigned release; nothing was changed.\n`,
    });
    const forged = await run(["update"], "forged");
    expect(forged.code).toBe(1);
    expect(forged.stderr).toMatch(
      new RegExp(
        `^zot update: the release signature at ${server.url("forged")}/SHA256SUMS\\.sig is not valid \\(its signature by [0-9a-f]{16} does not match SHA256SUMS\\): the release was tampered with or is not an official one; nothing was changed\\.\n$`,
      ),
    );
    const stranger = await run(["update"], "stranger");
    expect(stranger.code).toBe(1);
    expect(stranger.stderr).toContain(
      `zot update: the release signature at ${server.url("stranger")}/SHA256SUMS.sig is not valid (it is signed by no key this zot trusts (signed by `,
    );
    for (const view of ["unsigned", "forged", "stranger"]) expect(server.requests).not.toContain(`${view}/${nextName}`);
    expectUntouched(before);
  },
  SLOW_MS,
);

test(
  "a download that passes its checksum but does not run as zot does not replace the working binary",
  async () => {
    const before = digest(zot);
    const r = await run(["update"], "broken");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `zot update: the downloaded zot ${rel.next.version} did not run here (it printed "not zot", exit 0); the old binary is still in place.\n`,
    );
    expectUntouched(before);
  },
  SLOW_MS,
);

test(
  "a server that never answers is given up after ZOT_INSTALL_TIMEOUT seconds",
  async () => {
    const before = digest(zot);
    const r = await run(["update", "--check"], "hang", { ZOT_INSTALL_TIMEOUT: "2" });
    expect(r).toEqual({
      code: 1,
      stdout: "",
      stderr: `zot update: could not find the latest version: no progress for 2 seconds while downloading ${server.url("hang")}/VERSION (check the connection, or raise ZOT_INSTALL_TIMEOUT).\n`,
    });
    expectUntouched(before);
  },
  SLOW_MS,
);

test(
  "bad settings and bad arguments are refused with one sentence",
  async () => {
    expect(await run(["update"], "next", { ZOT_INSTALL_BASE: "ftp://mirror" })).toEqual({
      code: 1,
      stdout: "",
      stderr: `zot update: ZOT_INSTALL_BASE must be an http:// or https:// URL (got "ftp://mirror").\n`,
    });
    expect(await run(["update", "--force"], "next")).toEqual({ code: 2, stdout: "", stderr: `zot: zot update takes only --check (got "--force").\n` });
  },
  SLOW_MS,
);

test(
  "zot run from source refuses to update itself and says how to update a checkout",
  async () => {
    const proc = Bun.spawn([process.execPath, join(ROOT, "src", "main.ts"), "update", "--check"], {
      cwd: ROOT,
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, ZOT_INSTALL_BASE: server.url("next") },
    });
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    expect({ code, stderr }).toEqual({
      code: 1,
      stderr: `zot update: this zot runs from source, not from a release binary; update it with "git pull && npm run build".\n`,
    });
  },
  SLOW_MS,
);
