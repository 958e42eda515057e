// install.sh, run by /bin/sh (dash on Debian, so bashisms fail), against a local release mirror
// serving what the release script built for this machine.
import { afterAll, beforeAll, beforeEach, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { archiveFileName } from "../../src/platform/targets.ts";
import { startReleaseServer, type ReleaseServer } from "../helpers/release-server.ts";
import { releases, type Releases } from "./fixture.ts";
import { tempDir } from "../helpers/temp.ts";

/** Each test runs zot or the installer on a 100 MiB binary, several times over on a busy machine. */
const SLOW_MS = 120_000;

let rel: Releases;
let server: ReleaseServer;
let scratch = "";

beforeAll(async () => {
  rel = await releases();
  const archive = archiveFileName(rel.current.version, rel.target);
  const dir = rel.current.dir;
  server = startReleaseServer(
    {
      good: { dir },
      tampered: { dir, tamper: [archive] },
      forged: { dir, tamper: [archive], forged: true },
      unsigned: { dir, unsigned: true },
      truncated: { dir, truncate: [archive] },
      cut: { dir, cut: [archive] },
      missing: { dir, omit: [archive] },
      hang: { dir, hang: true },
    },
    rel.signingKey,
  );
}, 600_000);
afterAll(() => server?.stop());

beforeEach(() => {
  scratch = tempDir("zot-install-test-");
  mkdirSync(join(scratch, "tmp"));
});

type Result = { code: number; stdout: string; stderr: string };

async function install(view: string, env: Record<string, string> = {}): Promise<Result> {
  const proc = Bun.spawn(["/bin/sh", join(rel.current.dir, "install.sh")], {
    cwd: scratch,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: join(scratch, "home"), TMPDIR: join(scratch, "tmp"), ZOT_INSTALL_BASE: server.url(view), ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

const lastLine = (text: string): string => text.trimEnd().split("\n").at(-1) ?? "";
const installDir = (): string => join(scratch, "home", ".local", "bin");

/** A failed install leaves no zot, no staged file and nothing in TMPDIR. */
function expectNothingLeft(): void {
  expect(existsSync(installDir()) ? readdirSync(installDir()) : []).toEqual([]);
  expect(readdirSync(join(scratch, "tmp"))).toEqual([]);
}

/** A PATH directory holding only the named tools (and what every run needs), for running without curl or with a fake uname. */
function toolDir(names: string[], fakes: Record<string, string> = {}): string {
  const dir = join(scratch, "tools");
  mkdirSync(dir, { recursive: true });
  for (const name of names) {
    const found = Bun.which(name);
    if (found) symlinkSync(found, join(dir, name));
  }
  for (const [name, script] of Object.entries(fakes)) {
    writeFileSync(join(dir, name), `#!/bin/sh\n${script}\n`);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}
const BASE_TOOLS = ["sh", "mktemp", "rm", "head", "tr", "awk", "cut", "sed", "tar", "gzip", "mkdir", "cp", "chmod", "mv", "sha256sum", "ldd", "cat", "uname"];

test(
  "installs the release for this machine into ~/.local/bin, verified, and says how to put it on PATH",
  async () => {
    const run = await install("good");
    expect(run.stderr).toContain(`zot install: downloading ${archiveFileName(rel.current.version, rel.target)}`);
    expect(run.stderr).toContain(`zot install: installed zot ${rel.current.version} (`);
    expect(run.stderr).toContain(`export PATH="${installDir()}:$PATH"`);
    expect(run.code).toBe(0);
    expect(readdirSync(installDir())).toEqual(["zot"]);
    expect(readdirSync(join(scratch, "tmp"))).toEqual([]);
    const version = Bun.spawnSync([join(installDir(), "zot"), "--version"], { stdout: "pipe" });
    expect(version.stdout.toString()).toStartWith(`zot ${rel.current.version} (`);
  },
  SLOW_MS,
);

test(
  "ZOT_INSTALL_DIR already on PATH gets no PATH advice, and an existing zot there is replaced",
  async () => {
    const dir = join(scratch, "bin");
    mkdirSync(dir);
    writeFileSync(join(dir, "zot"), "#!/bin/sh\necho old\n");
    const run = await install("good", { ZOT_INSTALL_DIR: dir, PATH: `${dir}:${process.env.PATH}` });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("is not on your PATH");
    expect(readdirSync(dir)).toEqual(["zot"]);
    expect(Bun.spawnSync([join(dir, "zot"), "--version"], { stdout: "pipe" }).stdout.toString()).toStartWith(`zot ${rel.current.version} (`);
  },
  SLOW_MS,
);

test(
  "works with wget when curl is not installed, and says plainly that without openssl the signature was not checked",
  async () => {
    const run = await install("good", { PATH: toolDir([...BASE_TOOLS, "wget"]) });
    expect(run.stderr).toContain("zot install: installed");
    expect(run.stderr).toContain(
      "zot install: openssl 3 is not installed, so the signature of SHA256SUMS was not checked (the checksum still catches a corrupt download, not a tampered mirror); install openssl to have it checked.\n",
    );
    expect(run.code).toBe(0);
    expect(readdirSync(installDir())).toEqual(["zot"]);
  },
  SLOW_MS,
);

test(
  "a checksum that does not match stops the install with one sentence and leaves nothing behind",
  async () => {
    const run = await install("tampered");
    expect(run.code).toBe(1);
    expect(lastLine(run.stderr)).toMatch(
      /^zot install: checksum mismatch for zot-\S+\.tar\.gz \(expected 0{64}, got [0-9a-f]{64}\): the download is corrupt or was tampered with; nothing was installed\.$/,
    );
    expectNothingLeft();
  },
  SLOW_MS,
);

test(
  "with openssl, a SHA256SUMS changed without the release key stops the install before the archive is downloaded",
  async () => {
    const run = await install("forged");
    expect(run.code).toBe(1);
    expect(lastLine(run.stderr)).toBe(
      `zot install: the signature of ${server.url("forged")}/SHA256SUMS is not valid for any zot release key: the release was tampered with or is not an official one; nothing was installed.`,
    );
    expect(server.requests).not.toContain(`forged/${archiveFileName(rel.current.version, rel.target)}`);
    expectNothingLeft();
  },
  SLOW_MS,
);

test(
  "a release without a signature is not installed",
  async () => {
    const run = await install("unsigned");
    expect(run.code).toBe(1);
    expect(lastLine(run.stderr)).toStartWith(`zot install: the server answered ${server.url("unsigned")}/SHA256SUMS.sig with an error`);
    expectNothingLeft();
  },
  SLOW_MS,
);

test(
  "a truncated archive fails its checksum and installs nothing",
  async () => {
    const run = await install("truncated");
    expect(run.code).toBe(1);
    expect(lastLine(run.stderr)).toStartWith("zot install: checksum mismatch for ");
    expectNothingLeft();
  },
  SLOW_MS,
);

test(
  "a download cut off mid-way is named as such and installs nothing",
  async () => {
    const run = await install("cut");
    expect(run.code).toBe(1);
    expect(lastLine(run.stderr)).toBe(
      `zot install: the download of ${server.url("cut")}/${archiveFileName(rel.current.version, rel.target)} was cut short; nothing was installed; run the installer again.`,
    );
    expectNothingLeft();
  },
  SLOW_MS,
);

test(
  "a release without this platform says so",
  async () => {
    const run = await install("missing");
    const archive = archiveFileName(rel.current.version, rel.target);
    expect(run.code).toBe(1);
    expect(lastLine(run.stderr)).toBe(
      `zot install: zot ${rel.current.version} has no release for ${rel.target.name} (${archive} is not listed in ${server.url("missing")}/SHA256SUMS); build it from source instead (see the README).`,
    );
    expectNothingLeft();
  },
  SLOW_MS,
);

test(
  "a server that never answers is given up after ZOT_INSTALL_TIMEOUT seconds",
  async () => {
    const run = await install("hang", { ZOT_INSTALL_TIMEOUT: "2" });
    expect(run.code).toBe(1);
    expect(lastLine(run.stderr)).toBe(
      `zot install: no progress for 2 seconds while downloading ${server.url("hang")}/VERSION; check the connection (or raise ZOT_INSTALL_TIMEOUT) and run the installer again.`,
    );
    expectNothingLeft();
  },
  SLOW_MS,
);

test(
  "an unsupported operating system or CPU is refused before anything is downloaded",
  async () => {
    const before = server.requests.length;
    const bsd = await install("good", {
      PATH: toolDir([...BASE_TOOLS.filter((t) => t !== "uname"), "curl"], { uname: 'case "$1" in -s) echo FreeBSD;; -m) echo amd64;; esac' }),
    });
    expect(bsd.code).toBe(1);
    expect(lastLine(bsd.stderr)).toBe(`zot install: zot has no release for the operating system "FreeBSD"; build it from source instead (see the README).`);
    rmSync(join(scratch, "tools"), { recursive: true });
    const riscv = await install("good", {
      PATH: toolDir([...BASE_TOOLS.filter((t) => t !== "uname"), "curl"], { uname: 'case "$1" in -s) echo Linux;; -m) echo riscv64;; esac' }),
    });
    expect(lastLine(riscv.stderr)).toBe(
      `zot install: zot has no release for the linux CPU "riscv64" (there are x64 and arm64 builds); build it from source instead (see the README).`,
    );
    expect(server.requests.length).toBe(before);
    expectNothingLeft();
  },
  SLOW_MS,
);

test(
  "with neither curl nor wget the installer says to install one",
  async () => {
    const run = await install("good", { PATH: toolDir(BASE_TOOLS) });
    expect(run.code).toBe(1);
    expect(lastLine(run.stderr)).toBe("zot install: neither curl nor wget is installed; install one of them and run the installer again.");
    expectNothingLeft();
  },
  SLOW_MS,
);
