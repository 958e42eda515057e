// `zot ext` run as its own process (`bun src/main.ts ext …`), with stdin not a terminal, the way
// scripts and CI run it: git installs from a bare repository, `install .`, `remove` without a
// terminal, byte-exact enable/disable, `logs -f`, and the exact JSON of `doctor` and `list`.
import { describe, expect, test } from "bun:test";
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { runZotExt, spawnZotExt, tempDir, trustAsIs } from "./cli-helpers.ts";
import { waitFor } from "../helpers/wait.ts";

const REPO = resolve(import.meta.dir, "../..");
const EXT_FIXTURES = join(REPO, "test/fixtures/ext");

const temp = (): string => tempDir("zot-cliproc-");

async function git(cwd: string, ...args: string[]): Promise<void> {
  const p = Bun.spawn(["git", "-c", "user.email=t@t", "-c", "user.name=t", "-c", "init.defaultBranch=main", ...args], {
    cwd,
    stdout: "ignore",
    stderr: "pipe",
  });
  const code = await p.exited;
  if (code !== 0) throw new Error(`git ${args.join(" ")} failed: ${await new Response(p.stderr).text()}`);
}

/** A working extension directory (the plain sh fixture) renamed to `name`. */
function shExt(parent: string, name: string, version = "1.0.0"): string {
  const dir = join(parent, name);
  cpSync(join(EXT_FIXTURES, "plain-sh"), dir, { recursive: true });
  const script = readFileSync(join(dir, "main.sh"), "utf8").replaceAll("plain-sh", name);
  writeFileSync(join(dir, "main.sh"), script);
  chmodSync(join(dir, "main.sh"), 0o755);
  writeFileSync(join(dir, "extension.json"), JSON.stringify({ name, version, exec: "./main.sh" }, null, 2) + "\n");
  return dir;
}

describe("zot ext install from git", () => {
  test("a file:// bare repository installs at the tag or branch named by #ref, without the stage left behind", async () => {
    const home = temp();
    const work = shExt(temp(), "gitty", "1.0.0");
    await git(work, "init", "-q");
    await git(work, "add", ".");
    await git(work, "commit", "-q", "-m", "v1");
    await git(work, "tag", "v1");
    writeFileSync(join(work, "extension.json"), JSON.stringify({ name: "gitty", version: "2.0.0", exec: "./main.sh" }, null, 2) + "\n");
    await git(work, "commit", "-q", "-am", "v2");
    const bare = join(temp(), "gitty.git");
    await git(work, "clone", "-q", "--bare", work, bare);

    const r1 = await runZotExt(["install", `file://${bare}#v1`], home);
    expect(r1.err).toBe("");
    expect(r1.code).toBe(0);
    expect(r1.out).toBe(`installed gitty 1.0.0 at ${join(home, "extensions", "gitty")}\n`);
    const r2 = await runZotExt(["install", `file://${bare}#main`], home);
    expect(r2.code).toBe(1);
    expect(r2.err).toMatch(/^zot: .*already holds an extension named "gitty"; pass --force/);
    const r3 = await runZotExt(["install", `file://${bare}#main`, "--force"], home);
    expect(r3.code).toBe(0);
    expect(JSON.parse(readFileSync(join(home, "extensions", "gitty", "extension.json"), "utf8")).version).toBe("2.0.0");
    const r4 = await runZotExt(["install", `file://${bare}#no-such-ref`, "--force"], home);
    expect(r4.code).toBe(1);
    expect(r4.err).toMatch(/^zot: git clone of file:\/\/.* at no-such-ref failed/);
    expect(readdirSync(join(home, "extensions"))).toEqual(["gitty"]);

    const doctor = await runZotExt(["doctor", "--json"], home);
    expect(doctor.code).toBe(0);
    expect(JSON.parse(doctor.out).extensions[0]).toMatchObject({ name: "gitty", version: "2.0.0", status: "ready", commands: ["echo-sh"] });
  });

  test("`install .` from inside an extension directory installs it globally", async () => {
    const home = temp();
    const dir = shExt(temp(), "here");
    const r = await runZotExt(["install", "."], home, dir);
    expect(r.code).toBe(0);
    expect(readFileSync(join(home, "extensions", "here", "main.sh"), "utf8")).toContain('"name":"here"');
    expect(readdirSync(join(home, "extensions"))).toEqual(["here"]);
  });
});

describe("zot ext remove, enable, disable as a process", () => {
  test("remove without --yes and without a terminal refuses, changes nothing, and exits 1", async () => {
    const home = temp();
    shExt(join(home, "extensions"), "keepme");
    const r = await runZotExt(["remove", "keepme"], home);
    expect(r.code).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toMatch(/^zot: refusing to remove keepme .* without confirmation; pass --yes to remove it\.\n$/);
    expect(existsSync(join(home, "extensions", "keepme", "extension.json"))).toBe(true);
    const yes = await runZotExt(["remove", "KEEPME", "--yes"], home);
    expect(yes.code).toBe(0);
    expect(existsSync(join(home, "extensions", "keepme"))).toBe(false);
  });

  test("disable and enable rewrite only the enabled value and keep every other byte", async () => {
    const home = temp();
    const dir = shExt(join(home, "extensions"), "fmt");
    const original = '{\n\t"name" : "fmt",   "exec": "./main.sh",\n\t"enabled" :true , "x": {"enabled": true}\n}\n';
    writeFileSync(join(dir, "extension.json"), original);
    expect((await runZotExt(["disable", "fmt"], home)).code).toBe(0);
    expect(readFileSync(join(dir, "extension.json"), "utf8")).toBe(original.replace('"enabled" :true ,', '"enabled" :false ,'));
    const list = JSON.parse((await runZotExt(["list", "--json"], home)).out);
    expect(list.extensions[0].state).toBe("disabled");
    expect((await runZotExt(["enable", "fmt"], home)).code).toBe(0);
    expect(readFileSync(join(dir, "extension.json"), "utf8")).toBe(original);
  });
});

describe("zot ext logs -f as a process", () => {
  test("follows the log as zot writes it, showing the host's [zot] lines and the extension's stderr", async () => {
    const home = temp();
    const ext = join(temp(), "plain-node");
    cpSync(join(EXT_FIXTURES, "plain-node"), ext, { recursive: true });
    const follower = spawnZotExt(["logs", "plain-node", "-f"], home, home);
    let seen = "";
    const decoder = new TextDecoder();
    const reading = (async () => {
      for await (const chunk of follower.stdout) seen += decoder.decode(chunk, { stream: true });
    })();
    try {
      // The log does not exist yet: -f waits for it. doctor then writes it.
      const d = await runZotExt(["doctor", "--json", "-e", ext], home);
      expect(d.code).toBe(0);
      await waitFor(() => seen.includes("[zot] process exited") || null, 15_000);
      expect(seen).toMatch(/^\[zot\] starting plain-node 0\.3\.0 at /m);
      expect(seen).toContain("[zot] registration complete (ready)");
      expect(seen).toContain('got {"type":"hello_ack"');
      expect(seen).toContain("[zot] shutdown acknowledged");
    } finally {
      follower.kill("SIGINT");
      await follower.exited;
      await reading;
    }
  });
});

const DOCTOR_KEYS = [
  "commands",
  "conflicts",
  "dir",
  "error",
  "events",
  "granted",
  "intercept",
  "log",
  "name",
  "permissions",
  "sandbox",
  "shadowed_by",
  "source",
  "startup_ms",
  "status",
  "tools",
  "url",
  "version",
  "warnings",
];

describe("zot ext doctor and list JSON", () => {
  test("doctor --json has exactly the documented fields for every status and exits by failed/invalid", async () => {
    const home = temp();
    const project = temp();
    const proot = join(project, ".zot", "extensions");
    shExt(proot, "good");
    const disabled = shExt(proot, "twin");
    writeFileSync(join(disabled, "extension.json"), JSON.stringify({ name: "twin", exec: "./main.sh", enabled: false }));
    shExt(join(home, "extensions"), "twin");
    mkdirSync(join(home, "extensions", "theme"), { recursive: true });
    writeFileSync(join(home, "extensions", "theme", "theme.json"), JSON.stringify({ name: "t", colors: { text: "#000000" } }));
    trustAsIs(home, project);

    const ok = await runZotExt(["doctor", "--json", "--cwd", project], home);
    expect(ok.err).toBe("");
    expect(ok.code).toBe(0);
    const report = JSON.parse(ok.out);
    expect(Object.keys(report).sort()).toEqual(["agent_sandbox", "cwd", "extensions", "home", "ok", "zot_version"]);
    expect(report).toMatchObject({ home, cwd: project, ok: true });
    expect(report.zot_version).toBe(pkg.version);
    expect(report.extensions.map((e: { name: string; source: string; status: string }) => [e.name, e.source, e.status])).toEqual([
      ["good", "project", "ready"],
      ["twin", "project", "disabled"],
      ["theme", "global", "theme_only"],
      ["twin", "global", "shadowed"],
    ]);
    for (const e of report.extensions) {
      expect(Object.keys(e).sort()).toEqual(DOCTOR_KEYS);
      expect(e.log).toBe(join(home, "logs", `ext-${e.name}.log`));
      if (e.status !== "ready") expect(e.startup_ms).toBeNull();
    }
    expect(report.extensions[0].startup_ms).toBeGreaterThan(0);

    // An invalid manifest makes it exit 1, in human output too.
    mkdirSync(join(proot, "broken"));
    writeFileSync(join(proot, "broken", "extension.json"), '{"name": 3}');
    const bad = await runZotExt(["doctor", "--json", "--cwd", project], home);
    expect(bad.code).toBe(1);
    const broken = JSON.parse(bad.out).extensions.find((e: { dir: string }) => e.dir.endsWith("broken"));
    expect(broken).toMatchObject({ status: "invalid", version: null, startup_ms: null, commands: [] });
    expect(broken.error).toContain(join(proot, "broken", "extension.json"));
    expect(JSON.parse(bad.out).ok).toBe(false);
    expect((await runZotExt(["doctor", "--cwd", project], home)).code).toBe(1);
    // A failed load (exit before hello) is 1 as well, and --no-ext skips the broken roots.
    const failing = await runZotExt(["doctor", "--json", "--no-ext", "-e", join(EXT_FIXTURES, "exit-early")], home);
    expect(failing.code).toBe(1);
    expect(JSON.parse(failing.out).extensions[0]).toMatchObject({ source: "flag", status: "failed" });
  });

  test("doctor caps warnings at 100, the last saying how many more; warnings alone still exit 0", async () => {
    const home = temp();
    const r = await runZotExt(["doctor", "--json", "-e", join(EXT_FIXTURES, "noisy")], home);
    expect(r.code).toBe(0);
    const e = JSON.parse(r.out).extensions[0];
    expect(e).toMatchObject({ status: "ready", commands: ["noisy"] });
    expect(e.warnings.length).toBe(100);
    expect(e.warnings[0]).toBe('ignored a frame of unknown type "bogus_0"');
    expect(e.warnings[98]).toBe('ignored a frame of unknown type "bogus_98"');
    expect(e.warnings[99]).toBe(`…and 151 more warnings; see ${join(home, "logs", "ext-noisy.log")}`);
    expect(readFileSync(e.log, "utf8")).toContain('[zot] warning: ignored a frame of unknown type "bogus_249"');
  });

  test("a disabled copy shadows a later copy of its name; an invalid one shadows nothing", async () => {
    const home = temp();
    const project = temp();
    const proot = join(project, ".zot", "extensions");
    // Project: "a-off" disables "alpha"; "b-broken" claims the name "beta" but its exec is missing.
    shExt(proot, "a-off");
    writeFileSync(join(proot, "a-off", "extension.json"), JSON.stringify({ name: "alpha", exec: "./main.sh", enabled: false }));
    shExt(proot, "b-broken");
    writeFileSync(join(proot, "b-broken", "extension.json"), JSON.stringify({ name: "beta", exec: "./missing.sh" }));
    shExt(join(home, "extensions"), "alpha");
    shExt(join(home, "extensions"), "beta");
    trustAsIs(home, project);
    const r = await runZotExt(["doctor", "--json", "--cwd", project], home);
    expect(r.code).toBe(1);
    const rows = JSON.parse(r.out).extensions.map((e: { name: string; source: string; status: string }) => [e.name, e.source, e.status]);
    expect(rows).toEqual([
      ["alpha", "project", "disabled"],
      ["beta", "project", "invalid"],
      ["alpha", "global", "shadowed"],
      ["beta", "global", "ready"],
    ]);
    const list = JSON.parse((await runZotExt(["list", "--json", "--cwd", project], home)).out);
    expect(list.extensions[2]).toMatchObject({ name: "alpha", state: "shadowed", shadowed_by: join(proot, "a-off") });
  });

  test("list --json has the documented fields and spawns nothing", async () => {
    const home = temp();
    shExt(join(home, "extensions"), "lister");
    const r = await runZotExt(["list", "--json"], home);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out);
    expect(Object.keys(out).sort()).toEqual(["cwd", "extensions", "home"]);
    expect(Object.keys(out.extensions[0]).sort()).toEqual(["description", "dir", "error", "language", "name", "scope", "shadowed_by", "state", "version"]);
    expect(out.extensions[0]).toMatchObject({ name: "lister", scope: "global", state: "enabled", version: "1.0.0" });
    expect(existsSync(join(home, "logs"))).toBe(false);
  });
});
