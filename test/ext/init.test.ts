import { afterEach, afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { cli, tempDir, removeTempDirs } from "./cli-helpers.ts";

afterEach(removeTempDirs);

// The ts scaffold runs `bun` from PATH, as a user's would. The bun running these tests may be
// installed as `bun.exe` (the npm package) or started by full path, so put a `bun` link to it first.
const savedPath = process.env.PATH;
const binDir = mkdtempSync(join(tmpdir(), "zot-bun-"));
beforeAll(() => {
  symlinkSync(process.execPath, join(binDir, "bun"));
  process.env.PATH = `${binDir}${delimiter}${savedPath ?? ""}`;
});
afterAll(() => {
  process.env.PATH = savedPath;
  rmSync(binDir, { recursive: true, force: true });
});

describe("zot ext init", () => {
  for (const lang of ["ts", "python", "node", "sh"]) {
    test(`the ${lang} scaffold passes zot ext test and zot ext doctor right away`, async () => {
      const work = tempDir();
      const home = join(work, "home");
      const name = `my.${lang}-ext`;
      const made = await cli(["init", name, "--lang", lang], { home, cwd: work });
      expect(made.err).toBe("");
      expect(made.code).toBe(0);
      const dir = join(work, name);
      for (const f of ["extension.json", "README.md", "test.jsonl"]) expect(existsSync(join(dir, f))).toBe(true);

      const tested = await cli(["test", dir, join(dir, "test.jsonl")], { home, cwd: work });
      expect(tested.out).not.toContain("FAIL");
      expect(tested.out).not.toContain("warn");
      expect(tested.code).toBe(0);

      const doctor = await cli(["doctor", "--json", "--no-ext", "-e", dir], { home, cwd: work });
      const report = JSON.parse(doctor.out);
      expect(report.extensions[0]).toMatchObject({
        name,
        status: "ready",
        commands: [`my-${lang}-ext`],
        tools: [{ name: `my_${lang}_ext_echo`, deferred: false }],
      });
      expect(doctor.code).toBe(0);
    });
  }

  test("ts is the default language", async () => {
    const work = tempDir();
    expect((await cli(["init", "plain"], { home: work, cwd: work })).code).toBe(0);
    const manifest = JSON.parse(readFileSync(join(work, "plain", "extension.json"), "utf8"));
    expect(manifest).toMatchObject({ name: "plain", exec: "bun", args: ["index.ts"], language: "typescript", enabled: true });
  });

  test("the go scaffold writes sources and documents the build step", async () => {
    const work = tempDir();
    const r = await cli(["init", "gopher", "--lang", "go"], { home: work, cwd: work });
    expect(r.code).toBe(0);
    expect(r.out).toContain("go build -o gopher .");
    expect(readdirSync(join(work, "gopher")).sort()).toEqual([".gitignore", "README.md", "extension.json", "go.mod", "main.go", "test.jsonl"]);
    expect(readFileSync(join(work, "gopher", "README.md"), "utf8")).toContain("go build -o gopher .");
    expect(JSON.parse(readFileSync(join(work, "gopher", "extension.json"), "utf8")).exec).toBe("./gopher");
  });

  test("the directory is an ordinary one, not the private stage it was built in", async () => {
    const work = tempDir();
    await cli(["init", "perms", "--lang", "sh"], { home: work, cwd: work });
    expect(statSync(join(work, "perms")).mode & 0o777).toBe(0o755);
    expect(readdirSync(work).filter((n) => n.startsWith("."))).toEqual([]);
  });

  test("bad names, unknown languages and existing directories are refused without writing anything", async () => {
    const work = tempDir();
    const bad = await cli(["init", "Bad Name"], { home: work, cwd: work });
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/^zot: /);
    const lang = await cli(["init", "x", "--lang", "cobol"], { home: work, cwd: work });
    expect(lang.code).toBe(1);
    expect(lang.err).toContain("cobol");
    expect(readdirSync(work)).toEqual([]);
    await cli(["init", "taken", "--lang", "sh"], { home: work, cwd: work });
    const again = await cli(["init", "taken", "--lang", "sh"], { home: work, cwd: work });
    expect(again.code).toBe(1);
    expect(again.err).toContain("already exists");
  });

  test("--cwd chooses where the extension is created", async () => {
    const work = tempDir();
    const other = tempDir();
    expect((await cli(["init", "elsewhere", "--lang", "sh", "--cwd", other], { home: work, cwd: work })).code).toBe(0);
    expect(existsSync(join(other, "elsewhere", "extension.json"))).toBe(true);
  });
});
