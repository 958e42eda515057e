// `zot ext install` interrupted, killed, and pointed at the wrong directory, as its own process: a
// signal stops git and removes the stage, a killed install's stage goes with the next install,
// --force never replaces an extension of another name, and a failed clone shows all git said.
import { describe, expect, test } from "bun:test";
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { runZotExt, spawnZotExt, tempDir } from "./cli-helpers.ts";
import { waitFor } from "../helpers/wait.ts";

const EXT_FIXTURES = join(resolve(import.meta.dir, "../.."), "test/fixtures/ext");

function shExt(parent: string, dirName: string, name = dirName): string {
  const dir = join(parent, dirName);
  cpSync(join(EXT_FIXTURES, "plain-sh"), dir, { recursive: true });
  chmodSync(join(dir, "main.sh"), 0o755);
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name, version: "1.0.0", exec: "./main.sh" }));
  return dir;
}

/** Processes whose command line mentions `needle`. */
function processesWith(needle: string): string[] {
  const ps = Bun.spawnSync(["ps", "-eo", "pid,args"], { stdout: "pipe" }).stdout.toString();
  return ps.split("\n").filter((l) => l.includes(needle) && !l.includes("ps -eo"));
}

describe("a signal during zot ext install", () => {
  for (const [sig, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const) {
    test(`${sig} stops the clone, removes the stage and exits ${code}`, async () => {
      const home = tempDir();
      let asked = 0;
      // A git server that takes the request and never answers: the clone hangs until stopped.
      const server = Bun.serve({
        hostname: "127.0.0.1",
        port: 0,
        fetch: () => {
          asked++;
          return new Promise<Response>(() => {});
        },
      });
      const url = `http://127.0.0.1:${server.port}/stuck-${sig}.git`;
      try {
        const p = spawnZotExt(["install", url], home, home);
        await waitFor(() => asked > 0 || null, 20_000);
        const root = join(home, "extensions");
        expect(readdirSync(root).filter((n) => n.startsWith(".zot-install-"))).toHaveLength(1);
        p.kill(sig);
        const [err, exit] = await Promise.all([new Response(p.stderr).text(), p.exited]);
        expect(exit).toBe(code);
        expect(err).toBe(`zot: install of ${url} stopped by ${sig}; nothing was installed.\n`);
        expect(readdirSync(root)).toEqual([]);
        expect(processesWith(`stuck-${sig}.git`)).toEqual([]);
      } finally {
        server.stop(true);
      }
    }, 40_000);
  }
});

describe("stages left by a killed install", () => {
  test("are removed by the next install; a running install's stage and a stage keeping a previous copy are not", async () => {
    const home = tempDir();
    const root = join(home, "extensions");
    const stale = join(root, ".zot-install-99999999-abc123");
    const unnamed = join(root, ".zot-install-Xy12Ab");
    const running = join(root, `.zot-install-${process.pid}-def456`);
    const kept = join(root, ".zot-install-99999998-keep00");
    for (const d of [stale, unnamed, running, kept]) mkdirSync(join(d, "ext"), { recursive: true });
    writeFileSync(join(kept, ".zot-kept"), "");
    const src = shExt(tempDir(), "fresh");
    const r = await runZotExt(["install", src], home);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(unnamed)).toBe(false);
    expect(existsSync(running)).toBe(true);
    expect(existsSync(kept)).toBe(true);
    expect(readdirSync(root).sort()).toEqual(
      [running, kept]
        .map((d) => d.slice(root.length + 1))
        .concat("fresh")
        .sort(),
    );
  });
});

describe("--force", () => {
  test("refuses to replace a directory that holds an extension of another name, naming both", async () => {
    const home = tempDir();
    const root = join(home, "extensions");
    mkdirSync(root);
    const victim = shExt(root, "foo", "bar");
    const src = shExt(tempDir(), "foo");
    const r = await runZotExt(["install", src, "--force"], home);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `zot: ${victim} holds the extension "bar", not "foo", so installing "foo" there would destroy it; remove "bar" first (zot ext remove bar) or rename one of them.\n`,
    );
    expect(JSON.parse(readFileSync(join(victim, "extension.json"), "utf8")).name).toBe("bar");
    expect(readdirSync(root)).toEqual(["foo"]);
  });

  test("still replaces an older copy of the same extension", async () => {
    const home = tempDir();
    shExt(join(home, "extensions"), "foo");
    const r = await runZotExt(["install", shExt(tempDir(), "foo"), "--force"], home);
    expect(r.code).toBe(0);
  });
});

describe("a failed clone", () => {
  test("shows everything git said, not just its last line", async () => {
    const home = tempDir();
    const missing = join(tempDir(), "no-such-repo.git");
    const r = await runZotExt(["install", `file://${missing}`], home);
    expect(r.code).toBe(1);
    expect(r.err).toStartWith(`zot: git clone of file://${missing} failed (exit code 128); check the URL, ref and your access. git said:\n`);
    expect(r.err).toContain("does not appear to be a git repository");
    expect(r.err).toContain("Could not read from remote repository");
    expect(r.err.split("\n").length).toBeGreaterThan(3);
  });
});
