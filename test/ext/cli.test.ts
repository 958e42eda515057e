import { describe, expect, test } from "bun:test";
import {
  appendFileSync,
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { setEnabled } from "../../src/cli/ext/toggle.ts";
import { parseGitSource } from "../../src/cli/ext/install.ts";
import { cli, DISCOVERY, discoveryCopy, tempDir, trustAsIs } from "./cli-helpers.ts";
import { waitFor } from "../helpers/wait.ts";

const marker = (home: string, dir: string) => join(home, `started${realpathSync(dir).replaceAll("/", "_")}`);

/** A minimal valid extension directory named `name` inside `parent`. */
function makeExt(parent: string, name: string, manifest: Record<string, unknown> = {}): string {
  const dir = join(parent, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "run.sh"), "#!/bin/sh\nexit 0\n");
  chmodSync(join(dir, "run.sh"), 0o755);
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name, version: "1.0.0", exec: "./run.sh", ...manifest }, null, 2) + "\n");
  return dir;
}

function leftovers(root: string): string[] {
  return existsSync(root) ? readdirSync(root).filter((n) => n.startsWith(".")) : [];
}

describe("zot ext (dispatch)", () => {
  test("--help lists every subcommand", async () => {
    const home = tempDir();
    const r = await cli(["--help"], { home, cwd: home });
    expect(r.code).toBe(0);
    for (const sub of ["list", "doctor", "install", "remove", "enable", "disable", "logs", "init", "test", "--cwd"]) expect(r.out).toContain(sub);
  });

  test("each subcommand has its own --help", async () => {
    const home = tempDir();
    const r = await cli(["install", "--help"], { home, cwd: home });
    expect(r.code).toBe(0);
    expect(r.out).toContain("--force");
  });

  test("unknown commands, unknown options and missing arguments are one-line errors with exit 1", async () => {
    const home = tempDir();
    for (const argv of [["frobnicate"], ["list", "--bogus"], ["remove"], ["install", "a", "b"], ["doctor", "-e"]]) {
      const r = await cli(argv, { home, cwd: home });
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/^zot: [^\n]+\n$/);
      expect(r.out).toBe("");
    }
  });

  test("--cwd must be an existing directory", async () => {
    const home = tempDir();
    const r = await cli(["list", "--cwd", join(home, "missing")], { home, cwd: home });
    expect(r.code).toBe(1);
    expect(r.err).toContain("--cwd");
  });
});

describe("zot ext list", () => {
  test("shows every installed extension with version, scope, state and language, spawning nothing", async () => {
    const { project, home } = discoveryCopy();
    const r = await cli(["list", "--cwd", project], { home, cwd: home });
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/alpha\s+1\.0\.0\s+project\s+enabled\s+sh/);
    expect(r.out).toMatch(/shared\s+1\.0\.0\s+global\s+shadowed/);
    expect(r.out).toMatch(/off-ext\s+1\.0\.0\s+project\s+disabled/);
    expect(r.out).toMatch(/theme-ok\s+2\.0\.0\s+global\s+theme_only/);
    expect(r.out).toMatch(/bad-json\s+-\s+project\s+invalid/);
    expect(r.out).toContain("project extension");
    expect(readdirSync(home).filter((f) => f.startsWith("started"))).toEqual([]);
  });

  test("--json gives the same entries as data", async () => {
    const { project, home } = discoveryCopy();
    const r = await cli(["list", "--json"], { home, cwd: project });
    const data = JSON.parse(r.out) as { home: string; cwd: string; extensions: Record<string, unknown>[] };
    expect(data.home).toBe(home);
    expect(data.cwd).toBe(project);
    const alpha = data.extensions.find((e) => e.name === "alpha");
    expect(alpha).toEqual({
      name: "alpha",
      version: "1.0.0",
      scope: "project",
      state: "enabled",
      language: "sh",
      description: "project extension",
      dir: join(project, ".zot", "extensions", "alpha"),
      error: null,
      shadowed_by: null,
    });
    const loser = data.extensions.find((e) => e.dir === join(home, "extensions", "shared"));
    expect(loser?.shadowed_by).toBe(join(project, ".zot", "extensions", "shared"));
  });

  test("an empty setup says where it looked", async () => {
    const home = tempDir();
    const r = await cli(["list"], { home, cwd: home });
    expect(r.code).toBe(0);
    expect(r.out).toContain("no extensions installed");
  });
});

describe("zot ext doctor", () => {
  test("--json has exactly the documented shape and exits 1 when something is invalid", async () => {
    const { project, home } = discoveryCopy();
    const r = await cli(["doctor", "--json", "--cwd", project], { home, cwd: home });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.out);
    expect(Object.keys(report)).toEqual(["zot_version", "home", "cwd", "ok", "extensions", "agent_sandbox"]);
    expect(Object.keys(report.agent_sandbox)).toEqual(["mode", "enforced", "network", "reason", "default_permission_mode"]);
    expect(report.ok).toBe(false);
    expect(report.home).toBe(home);
    expect(report.cwd).toBe(project);
    for (const e of report.extensions) {
      expect(Object.keys(e)).toEqual([
        "name",
        "dir",
        "source",
        "status",
        "error",
        "version",
        "commands",
        "tools",
        "events",
        "intercept",
        "conflicts",
        "warnings",
        "log",
        "startup_ms",
        "permissions",
        "sandbox",
        "granted",
        "url",
        "shadowed_by",
      ]);
    }
    const status = (dir: string) => report.extensions.find((e: { dir: string }) => e.dir === dir)?.status;
    const p = join(project, ".zot", "extensions");
    const g = join(home, "extensions");
    expect(status(join(p, "alpha"))).toBe("ready");
    expect(status(join(p, "shared"))).toBe("ready");
    expect(status(join(g, "shared"))).toBe("shadowed");
    expect(status(join(g, "zz-case"))).toBe("shadowed");
    expect(status(join(p, "off"))).toBe("disabled");
    expect(status(join(p, "bad-json"))).toBe("invalid");
    expect(status(join(g, "theme-ok"))).toBe("theme_only");
    expect(status(join(g, "linked"))).toBe("ready");
    expect(report.extensions.find((e: { dir: string }) => e.dir === join(g, "shared"))?.shadowed_by).toBe(join(p, "shared"));
    const alpha = report.extensions.find((e: { dir: string }) => e.dir === join(p, "alpha"));
    expect(alpha.commands).toEqual(["alpha-cmd"]);
    expect(alpha.log).toBe(join(home, "logs", "ext-alpha.log"));
    expect(alpha.startup_ms).toBeGreaterThan(0);
  });

  test("the human report names what shadows an extension", async () => {
    const { project, home } = discoveryCopy();
    const r = await cli(["doctor", "--cwd", project], { home, cwd: home });
    const block = r.out.slice(r.out.indexOf(`shared  1.0.0  shadowed  (global)`));
    expect(block.split("\n").slice(0, 3).join("\n")).toContain(
      `  shadowed  by ${join(project, ".zot", "extensions", "shared")}, which has the same name and loads first`,
    );
  });

  test("shadowed and disabled extensions are never started; winners are", async () => {
    const { project, home } = discoveryCopy();
    await cli(["doctor", "--json"], { home, cwd: project });
    const p = join(project, ".zot", "extensions");
    const g = join(home, "extensions");
    expect(existsSync(marker(home, join(p, "shared")))).toBe(true);
    expect(existsSync(marker(home, join(g, "shared")))).toBe(false);
    expect(existsSync(marker(home, join(g, "zz-case")))).toBe(false);
    expect(existsSync(marker(home, join(p, "off")))).toBe(false);
    expect(existsSync(marker(home, join(g, "off-ext")))).toBe(false);
    expect(existsSync(marker(home, join(g, "beta")))).toBe(true);
  });

  test("-e loads a directory for this run and --no-ext skips the roots; all ready means exit 0", async () => {
    const { root, home } = discoveryCopy();
    const r = await cli(["doctor", "--json", "--no-ext", "-e", "flag-ext", "--cwd", join(root, "project")], { home, cwd: root });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out);
    expect(report.ok).toBe(true);
    expect(report.extensions.map((e: { source: string; status: string }) => [e.source, e.status])).toEqual([["flag", "ready"]]);
  });

  test("human output has one block per extension and a summary", async () => {
    const { project, home } = discoveryCopy();
    const r = await cli(["doctor"], { home, cwd: project });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^alpha {2}1\.0\.0 {2}ready {2}\(project\)/m);
    expect(r.out).toContain("commands  /alpha-cmd");
    expect(r.out).toContain(`log       ${join(home, "logs", "ext-alpha.log")}`);
    expect(r.out).toContain("problems found");
  });
});

describe("zot ext install", () => {
  test("copies a directory into $ZOT_HOME/extensions/<manifest name>, keeping modes", async () => {
    const src = tempDir();
    const home = tempDir();
    const dir = makeExt(src, "folder-name", { name: "pretty" });
    mkdirSync(join(dir, "lib"));
    writeFileSync(join(dir, "lib", "x.txt"), "x");
    const r = await cli(["install", dir], { home, cwd: src });
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const dest = join(home, "extensions", "pretty");
    expect(r.out).toContain(dest);
    expect(readFileSync(join(dest, "lib", "x.txt"), "utf8")).toBe("x");
    expect(statSync(join(dest, "run.sh")).mode & 0o111).not.toBe(0);
    expect(leftovers(join(home, "extensions"))).toEqual([]);
  });

  test("a theme directory with only themes/theme.json installs as -e loads it: named after the directory, a theme", async () => {
    const src = tempDir();
    const home = tempDir();
    const dir = join(src, "dusk");
    mkdirSync(join(dir, "themes"), { recursive: true });
    writeFileSync(join(dir, "themes", "theme.json"), JSON.stringify({ name: "dusk", colors: { accent: "#112233" } }));
    const r = await cli(["install", dir], { home, cwd: src });
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    expect(existsSync(join(home, "extensions", "dusk", "themes", "theme.json"))).toBe(true);
    const list = await cli(["list"], { home, cwd: src });
    expect(list.out).toMatch(/dusk\s+-\s+global\s+theme_only/);
    const bad = join(src, "not a name");
    mkdirSync(bad);
    writeFileSync(join(bad, "theme.json"), JSON.stringify({ name: "x", colors: {} }));
    const refused = await cli(["install", bad], { home, cwd: src });
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(`theme directory ${bad} has no extension.json and its name is not a valid extension name`);
  });

  test("`install . --project` from inside the extension does not copy the project root into itself", async () => {
    const home = tempDir();
    const dir = makeExt(tempDir(), "selfie");
    const r1 = await cli(["install", ".", "--project"], { home, cwd: dir });
    expect(r1.err).toBe("");
    expect(r1.code).toBe(0);
    const dest = join(dir, ".zot", "extensions", "selfie");
    expect(existsSync(join(dest, "extension.json"))).toBe(true);
    expect(existsSync(join(dest, ".zot"))).toBe(false);
    expect(leftovers(join(dir, ".zot", "extensions"))).toEqual([]);
    // The same directory installs globally too.
    const r2 = await cli(["install", "."], { home, cwd: dir });
    expect(r2.code).toBe(0);
    expect(existsSync(join(home, "extensions", "selfie", "extension.json"))).toBe(true);
  });

  test("a bad manifest leaves no trace and names the problem", async () => {
    const home = tempDir();
    const dir = makeExt(tempDir(), "broken", { exec: "./missing" });
    const r = await cli(["install", dir], { home, cwd: dir });
    expect(r.code).toBe(1);
    expect(r.err).toContain('"exec"');
    expect(r.err).toContain(dir);
    expect(r.err).not.toContain(".zot-install-");
    expect(readdirSync(join(home, "extensions"))).toEqual([]);
  });

  test("a directory without extension.json is refused", async () => {
    const home = tempDir();
    const src = tempDir();
    const r = await cli(["install", src], { home, cwd: src });
    expect(r.code).toBe(1);
    expect(r.err).toContain("extension.json");
    expect(readdirSync(join(home, "extensions"))).toEqual([]);
  });

  test("a failed clone leaves no trace", async () => {
    const home = tempDir();
    const r = await cli(["install", `file://${join(home, "no-such-repo.git")}`], { home, cwd: home });
    expect(r.code).toBe(1);
    // One sentence, then git's own words, indented.
    expect(r.err).toMatch(/^zot: git clone [^\n]+ git said:\n( {2}[^\n]+\n)+$/);
    expect(readdirSync(join(home, "extensions"))).toEqual([]);
  });

  test("a git URL is cloned shallowly, at a branch when given #ref", async () => {
    const home = tempDir();
    const repo = makeExt(tempDir(), "from-git");
    const git = async (...args: string[]) => {
      const p = Bun.spawn(["git", "-C", repo, "-c", "user.email=t@t", "-c", "user.name=t", ...args], { stdout: "ignore", stderr: "pipe" });
      expect(await p.exited).toBe(0);
    };
    await git("init", "-q", "-b", "main");
    await git("add", ".");
    await git("commit", "-q", "-m", "one");
    await git("checkout", "-q", "-b", "next");
    writeFileSync(join(repo, "NEXT"), "on next");
    await git("add", ".");
    await git("commit", "-q", "-m", "two");
    const r = await cli(["install", `file://${repo}#next`], { home, cwd: home });
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const dest = join(home, "extensions", "from-git");
    expect(readFileSync(join(dest, "NEXT"), "utf8")).toBe("on next");
    const r2 = await cli(["install", `file://${repo}#main`, "--force"], { home, cwd: home });
    expect(r2.code).toBe(0);
    expect(existsSync(join(dest, "NEXT"))).toBe(false);
    expect(leftovers(join(home, "extensions"))).toEqual([]);
  });

  test("an existing destination is refused without --force and replaced with it", async () => {
    const home = tempDir();
    const v1 = makeExt(tempDir(), "dup", { version: "1.0.0" });
    const v2 = makeExt(tempDir(), "dup", { version: "2.0.0" });
    expect((await cli(["install", v1], { home, cwd: home })).code).toBe(0);
    const refused = await cli(["install", v2], { home, cwd: home });
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("--force");
    const manifest = join(home, "extensions", "dup", "extension.json");
    expect(JSON.parse(readFileSync(manifest, "utf8")).version).toBe("1.0.0");
    expect((await cli(["install", v2, "--force"], { home, cwd: home })).code).toBe(0);
    expect(JSON.parse(readFileSync(manifest, "utf8")).version).toBe("2.0.0");
    expect(readdirSync(join(home, "extensions"))).toEqual(["dup"]);
  });

  test("an installed copy with the same manifest name under another directory counts as existing", async () => {
    const home = tempDir();
    makeExt(join(home, "extensions"), "old-dir", { name: "Same" });
    const src = makeExt(tempDir(), "same");
    const r = await cli(["install", src], { home, cwd: home });
    expect(r.code).toBe(1);
    expect(r.err).toContain(join(home, "extensions", "old-dir"));
    expect((await cli(["install", src, "--force"], { home, cwd: home })).code).toBe(0);
    expect(readdirSync(join(home, "extensions"))).toEqual(["same"]);
  });

  test("a missing source path is an error", async () => {
    const home = tempDir();
    const r = await cli(["install", "nowhere"], { home, cwd: home });
    expect(r.code).toBe(1);
    expect(r.err).toContain("does not exist");
  });

  test("git sources are recognised by scheme, scp form or .git suffix, with an optional #ref", () => {
    expect(parseGitSource("https://example.com/a/b")).toEqual({ url: "https://example.com/a/b", ref: null });
    expect(parseGitSource("git@github.com:a/b.git#v1")).toEqual({ url: "git@github.com:a/b.git", ref: "v1" });
    expect(parseGitSource("ssh://git@host/x")).toEqual({ url: "ssh://git@host/x", ref: null });
    expect(parseGitSource("file:///srv/repo#main")).toEqual({ url: "file:///srv/repo", ref: "main" });
    expect(parseGitSource("../thing.git")).toEqual({ url: "../thing.git", ref: null });
    expect(parseGitSource("./my-ext")).toBeNull();
    expect(parseGitSource(".")).toBeNull();
  });
});

describe("zot ext remove", () => {
  test("without --yes and without a terminal it refuses and explains", async () => {
    const home = tempDir();
    const dir = makeExt(join(home, "extensions"), "keep");
    const r = await cli(["remove", "keep"], { home, cwd: home });
    expect(r.code).toBe(1);
    expect(r.err).toContain("--yes");
    expect(existsSync(dir)).toBe(true);
  });

  test("--yes removes it, looking the manifest name up case-insensitively", async () => {
    const home = tempDir();
    const dir = makeExt(join(home, "extensions"), "dir-name", { name: "Gone" });
    const r = await cli(["remove", "gone", "--yes"], { home, cwd: home });
    expect(r.code).toBe(0);
    expect(existsSync(dir)).toBe(false);
    expect(leftovers(join(home, "extensions"))).toEqual([]);
  });

  test("in a terminal it asks, and only y removes", async () => {
    const home = tempDir();
    const dir = makeExt(join(home, "extensions"), "ask");
    const answer = (text: string) => new Blob([text]).stream();
    const no = await cli(["remove", "ask"], { home, cwd: home, io: { isTTY: true, stdin: answer("n\n") } });
    expect(no.code).toBe(1);
    expect(existsSync(dir)).toBe(true);
    const yes = await cli(["remove", "ask"], { home, cwd: home, io: { isTTY: true, stdin: answer("y\n") } });
    expect(yes.code).toBe(0);
    expect(existsSync(dir)).toBe(false);
  });

  test("in a trusted folder the project copy is found first", async () => {
    const home = tempDir();
    const project = tempDir();
    const local = makeExt(join(project, ".zot", "extensions"), "both");
    const global = makeExt(join(home, "extensions"), "both");
    trustAsIs(home, project);
    expect((await cli(["remove", "both", "--yes", "--cwd", project], { home, cwd: home })).code).toBe(0);
    expect(existsSync(local)).toBe(false);
    expect(existsSync(global)).toBe(true);
  });

  test("a symlinked extension loses its link, never the linked directory", async () => {
    const home = tempDir();
    const target = makeExt(tempDir(), "linked-away");
    mkdirSync(join(home, "extensions"));
    symlinkSync(target, join(home, "extensions", "linked-away"));
    expect((await cli(["remove", "linked-away", "--yes"], { home, cwd: home })).code).toBe(0);
    expect(existsSync(join(home, "extensions", "linked-away"))).toBe(false);
    expect(existsSync(join(target, "extension.json"))).toBe(true);
  });

  test("an unknown name is an error", async () => {
    const home = tempDir();
    const r = await cli(["remove", "ghost", "--yes"], { home, cwd: home });
    expect(r.code).toBe(1);
    expect(r.err).toContain('"ghost"');
  });
});

describe("zot ext enable / disable", () => {
  test("replaces only the enabled value, keeping every other byte", async () => {
    const home = tempDir();
    const dir = join(home, "extensions", "fmt");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "run.sh"), "#!/bin/sh\n", { mode: 0o755 });
    const original = '{\n    "exec" : "./run.sh",\n\t"name":"fmt",   "enabled" :   true ,\n    "x": {"enabled": true}\n}\n';
    writeFileSync(join(dir, "extension.json"), original);
    const r = await cli(["disable", "fmt"], { home, cwd: home });
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, "extension.json"), "utf8")).toBe(original.replace('"enabled" :   true', '"enabled" :   false'));
    expect((await cli(["enable", "fmt"], { home, cwd: home })).code).toBe(0);
    expect(readFileSync(join(dir, "extension.json"), "utf8")).toBe(original);
  });

  test("inserts the field in the file's own style when it is absent", async () => {
    const home = tempDir();
    const dir = makeExt(join(home, "extensions"), "ins");
    const before = readFileSync(join(dir, "extension.json"), "utf8");
    expect((await cli(["disable", "ins"], { home, cwd: home })).code).toBe(0);
    const after = readFileSync(join(dir, "extension.json"), "utf8");
    expect(after).toBe(before.replace('"./run.sh"\n}', '"./run.sh",\n  "enabled": false\n}'));
    const list = JSON.parse((await cli(["list", "--json"], { home, cwd: home })).out);
    expect(list.extensions[0].state).toBe("disabled");
  });

  test("a disabled extension can be found and re-enabled; doing it twice is harmless", async () => {
    const home = tempDir();
    makeExt(join(home, "extensions"), "twice", { enabled: false });
    expect((await cli(["enable", "twice"], { home, cwd: home })).code).toBe(0);
    const again = await cli(["enable", "twice"], { home, cwd: home });
    expect(again.code).toBe(0);
    expect(again.out).toContain("already enabled");
  });

  test("setEnabled handles compact, empty and nested objects", () => {
    expect(setEnabled('{"name":"a","exec":"b"}', false)).toEqual({ ok: true, text: '{"name":"a","exec":"b","enabled":false}' });
    expect(setEnabled("{}", true)).toEqual({ ok: true, text: '{"enabled": true}' });
    expect(setEnabled('{"a":{"enabled":false},"b":[1,{"c":"}"}]}', true)).toEqual({
      ok: true,
      text: '{"a":{"enabled":false},"b":[1,{"c":"}"}],"enabled":true}',
    });
    expect(setEnabled('{"s":"quote \\" enabled","enabled":"no"}', true)).toEqual({ ok: true, text: '{"s":"quote \\" enabled","enabled":true}' });
    expect(setEnabled("{oops", true).ok).toBe(false);
  });

  test("an unreadable manifest is reported, not rewritten", async () => {
    const home = tempDir();
    const { project } = discoveryCopy();
    const r = await cli(["disable", "bad-json"], { home, cwd: project });
    expect(r.code).toBe(1);
    expect(r.err).toContain("not valid JSON");
  });
});

describe("zot ext logs", () => {
  test("prints the log", async () => {
    const home = tempDir();
    mkdirSync(join(home, "logs"));
    writeFileSync(join(home, "logs", "ext-loud.log"), "[zot] starting loud\nhello from stderr\n");
    const r = await cli(["logs", "loud"], { home, cwd: home });
    expect(r.code).toBe(0);
    expect(r.out).toBe("[zot] starting loud\nhello from stderr\n");
  });

  test("a missing log or a bad name is an error", async () => {
    const home = tempDir();
    expect((await cli(["logs", "quiet"], { home, cwd: home })).err).toContain(join(home, "logs", "ext-quiet.log"));
    expect((await cli(["logs", "../etc"], { home, cwd: home })).code).toBe(1);
  });

  test("-f follows appended lines until stopped", async () => {
    const home = tempDir();
    mkdirSync(join(home, "logs"));
    const path = join(home, "logs", "ext-tail.log");
    writeFileSync(path, "one\n");
    const ctrl = new AbortController();
    let out = "";
    const seen = (text: string) => waitFor(() => out.includes(text));
    const done = cli(["logs", "tail", "-f"], { home, cwd: home, io: { signal: ctrl.signal, stdout: { write: (s: string) => (out += s) } } });
    await seen("one\n");
    appendFileSync(path, "two\n");
    await seen("two\n");
    ctrl.abort();
    expect((await done).code).toBe(0);
    expect(out).toBe("one\ntwo\n");
  });

  test("-f continues with the new log after rotation", async () => {
    const home = tempDir();
    mkdirSync(join(home, "logs"));
    const path = join(home, "logs", "ext-rot.log");
    writeFileSync(path, "old\n");
    const ctrl = new AbortController();
    let out = "";
    const seen = (text: string) => waitFor(() => out.includes(text));
    const done = cli(["logs", "rot", "-f"], { home, cwd: home, io: { signal: ctrl.signal, stdout: { write: (s: string) => (out += s) } } });
    await seen("old\n");
    appendFileSync(path, "last old line\n");
    renameSync(path, `${path}.1`);
    writeFileSync(path, "new\n");
    await seen("new\n");
    ctrl.abort();
    await done;
    expect(out).toBe("old\nlast old line\nnew\n");
  });

  test("-f waits for a log that does not exist yet", async () => {
    const home = tempDir();
    const ctrl = new AbortController();
    let out = "";
    const done = cli(["logs", "later", "-f"], { home, cwd: home, io: { signal: ctrl.signal, stdout: { write: (s: string) => (out += s) } } });
    mkdirSync(join(home, "logs"));
    writeFileSync(join(home, "logs", "ext-later.log"), "arrived\n");
    await waitFor(() => out.includes("arrived"));
    ctrl.abort();
    expect((await done).code).toBe(0);
  });
});

test("the fixtures keep their executable bits", () => {
  expect(lstatSync(join(DISCOVERY, "home", "extensions", "linked")).isSymbolicLink()).toBe(true);
  expect(statSync(join(DISCOVERY, "project", ".zot", "extensions", "alpha", "ext.sh")).mode & 0o111).not.toBe(0);
});
