import { describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { discover } from "../../src/ext/discovery.ts";
import type { DiscoveredExtension } from "../../src/ext/types.ts";
import { discoveryCopy, tempDir } from "./cli-helpers.ts";

function byDir(list: DiscoveredExtension[], dir: string): DiscoveredExtension {
  const hit = list.find((e) => e.dir === dir);
  if (!hit) throw new Error(`no entry for ${dir}`);
  return hit;
}

describe("discover", () => {
  test("walks the project root then the global root, each sorted by directory name", async () => {
    const { project, home } = discoveryCopy();
    const list = await discover({ extPaths: [], noExt: false, cwd: project, home });
    const p = join(project, ".zot", "extensions");
    const g = join(home, "extensions");
    expect(list.map((e) => e.dir)).toEqual([
      ...["alpha", "bad-json", "bad-name", "beta-broken", "missing-exec", "no-exec", "not-executable", "not-on-path", "off", "shared", "wrong-types"].map((d) =>
        join(p, d),
      ),
      ...["beta", "linked", "no-manifest", "off-ext", "shared", "theme-bad", "theme-bare", "theme-ok", "zz-case"].map((d) => join(g, d)),
    ]);
    expect(list.every((e) => (e.dir.startsWith(p) ? e.source === "project" : e.source === "global"))).toBe(true);
  });

  test("a project extension shadows a global one of the same name, case-insensitively", async () => {
    const { project, home } = discoveryCopy();
    const list = await discover({ extPaths: [], noExt: false, cwd: project, home });
    const winner = byDir(list, join(project, ".zot", "extensions", "shared"));
    expect(winner.status).toBe("spawn");
    const loser = byDir(list, join(home, "extensions", "shared"));
    expect(loser.status).toBe("shadowed");
    expect(loser.shadowedBy).toBe(winner.dir);
    const upper = byDir(list, join(home, "extensions", "zz-case"));
    expect(upper.name).toBe("Shared");
    expect(upper.status).toBe("shadowed");
    expect(upper.shadowedBy).toBe(winner.dir);
  });

  test("a disabled copy is recorded and still shadows later copies of its name", async () => {
    const { project, home } = discoveryCopy();
    const list = await discover({ extPaths: [], noExt: false, cwd: project, home });
    const off = byDir(list, join(project, ".zot", "extensions", "off"));
    expect(off.status).toBe("disabled");
    expect(off.manifest?.enabled).toBe(false);
    expect(byDir(list, join(home, "extensions", "off-ext")).status).toBe("shadowed");
  });

  test("an invalid manifest shadows nothing", async () => {
    const { project, home } = discoveryCopy();
    const list = await discover({ extPaths: [], noExt: false, cwd: project, home });
    const broken = byDir(list, join(project, ".zot", "extensions", "beta-broken"));
    expect(broken.status).toBe("invalid");
    expect(broken.name).toBe("beta");
    expect(byDir(list, join(home, "extensions", "beta")).status).toBe("spawn");
  });

  test("every kind of bad manifest is invalid with an error naming the manifest and field", async () => {
    const { project, home } = discoveryCopy();
    const list = await discover({ extPaths: [], noExt: false, cwd: project, home });
    const p = join(project, ".zot", "extensions");
    const cases: [string, string][] = [
      ["bad-json", "not valid JSON"],
      ["bad-name", '"name"'],
      ["beta-broken", '"enabled"'],
      ["missing-exec", '"exec"'],
      ["no-exec", '"exec"'],
      ["not-executable", "not executable"],
      ["not-on-path", "PATH"],
      ["wrong-types", '"args"'],
    ];
    for (const [dir, needle] of cases) {
      const e = byDir(list, join(p, dir));
      expect(e.status).toBe("invalid");
      expect(e.manifest).toBeNull();
      expect(e.error).toContain(join(p, dir, "extension.json"));
      expect(e.error).toContain(needle);
    }
    const none = byDir(list, join(home, "extensions", "no-manifest"));
    expect(none.status).toBe("invalid");
    expect(none.error).toContain("extension.json");
  });

  test("theme-only directories are loaded as themes, with warnings for unknown roles", async () => {
    const { project, home } = discoveryCopy();
    const list = await discover({ extPaths: [], noExt: false, cwd: project, home });
    const ok = byDir(list, join(home, "extensions", "theme-ok"));
    expect(ok.status).toBe("theme_only");
    expect(ok.theme).toEqual({
      name: "Ocean",
      colors: { text: "#c0c5ce", accent: 39 },
      extension: "theme-ok",
      path: join(home, "extensions", "theme-ok", "theme.json"),
    });
    expect(ok.warnings.join(" ")).toContain("sparkles");
    const bare = byDir(list, join(home, "extensions", "theme-bare"));
    expect(bare.status).toBe("theme_only");
    expect(bare.name).toBe("theme-bare");
    expect(bare.theme?.name).toBe("Bare");
  });

  test("a theme with a bad colour is rejected with a warning naming it", async () => {
    const { project, home } = discoveryCopy();
    const list = await discover({ extPaths: [], noExt: false, cwd: project, home });
    const bad = byDir(list, join(home, "extensions", "theme-bad"));
    expect(bad.status).toBe("theme_only");
    expect(bad.theme).toBeNull();
    expect(bad.warnings.join(" ")).toContain('"Broken"');
    expect(bad.warnings.join(" ")).toContain('"text"');
  });

  test("symlinked extension directories are followed", async () => {
    const { project, home } = discoveryCopy();
    const list = await discover({ extPaths: [], noExt: false, cwd: project, home });
    const linked = byDir(list, join(home, "extensions", "linked"));
    expect(linked.status).toBe("spawn");
    expect(linked.name).toBe("linked");
    expect(linked.manifest?.exec).toBe(join(home, "extensions", "linked", "ext.sh"));
  });

  test("hidden directories (install stages, .git) are not extensions", async () => {
    const { project, home } = discoveryCopy();
    const list = await discover({ extPaths: [], noExt: false, cwd: project, home });
    expect(list.some((e) => e.dir.includes(".hidden"))).toBe(false);
  });

  test("--ext paths come first, relative to the process cwd, and win over both roots", async () => {
    const { root, project, home } = discoveryCopy();
    const flag = relative(process.cwd(), join(root, "flag-ext"));
    const list = await discover({ extPaths: [flag], noExt: false, cwd: project, home });
    expect(list[0]!.dir).toBe(join(root, "flag-ext"));
    expect(list[0]!.source).toBe("flag");
    expect(list[0]!.status).toBe("spawn");
    expect(byDir(list, join(project, ".zot", "extensions", "shared")).status).toBe("shadowed");
    expect(byDir(list, join(project, ".zot", "extensions", "shared")).shadowedBy).toBe(join(root, "flag-ext"));
  });

  test("--no-ext skips both roots but keeps --ext paths", async () => {
    const { root, project, home } = discoveryCopy();
    const list = await discover({ extPaths: [join(root, "flag-ext")], noExt: true, cwd: project, home });
    expect(list.map((e) => e.dir)).toEqual([join(root, "flag-ext")]);
  });

  test("an --ext path that does not exist is reported as invalid", async () => {
    const base = tempDir();
    const list = await discover({ extPaths: [join(base, "nope")], noExt: true, cwd: base, home: base });
    expect(list).toHaveLength(1);
    expect(list[0]!.status).toBe("invalid");
    expect(list[0]!.error).toContain(join(base, "nope"));
  });

  test("an --ext path naming extension.json means its directory", async () => {
    const { root } = discoveryCopy();
    const list = await discover({ extPaths: [join(root, "flag-ext", "extension.json")], noExt: true, cwd: root, home: root });
    expect(list[0]!.dir).toBe(join(root, "flag-ext"));
    expect(list[0]!.status).toBe("spawn");
  });

  test("the same directory reached twice is one extension", async () => {
    const { project, home } = discoveryCopy();
    const alpha = join(project, ".zot", "extensions", "alpha");
    const list = await discover({ extPaths: [alpha], noExt: false, cwd: project, home });
    expect(list.filter((e) => e.name === "alpha")).toHaveLength(1);
    expect(list[0]!.source).toBe("flag");
  });

  test("a project root that is also the global root does not shadow itself", async () => {
    const base = tempDir();
    const ext = join(base, ".zot", "extensions", "solo");
    mkdirSync(ext, { recursive: true });
    writeFileSync(join(ext, "extension.json"), JSON.stringify({ name: "solo", exec: "sh" }));
    const list = await discover({ extPaths: [], noExt: false, cwd: base, home: join(base, ".zot") });
    expect(list.map((e) => e.status)).toEqual(["spawn"]);
  });

  test("missing roots are simply empty", async () => {
    const base = tempDir();
    expect(await discover({ extPaths: [], noExt: false, cwd: base, home: join(base, "home") })).toEqual([]);
  });

  test("a symlinked root entry pointing nowhere is skipped", async () => {
    const base = tempDir();
    const root = join(base, "home", "extensions");
    mkdirSync(root, { recursive: true });
    symlinkSync(join(base, "gone"), join(root, "dangling"));
    expect(await discover({ extPaths: [], noExt: false, cwd: base, home: realpathSync(join(base, "home")) })).toEqual([]);
  });
});
