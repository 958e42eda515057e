// The file picker's ignore rules: gitignore patterns and the directories always left out.
import { beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { IgnoreRules } from "../../src/agent/ignore-rules.ts";
import { tempDir } from "../helpers/temp.ts";

let dir: string;
beforeEach(() => {
  dir = tempDir("zot-ignore-");
});

test("gitignore patterns: names anywhere, anchored paths, directories only, globs, ** and negation", () => {
  writeFileSync(join(dir, ".gitignore"), "# comment\n*.log\n!keep.log\n/secret.txt\ntmp/\ndocs/**/*.pdf\nfoo?.c\n");
  const r = new IgnoreRules(dir);
  r.load("");
  expect(r.ignored("a.log", false)).toBe(true);
  expect(r.ignored("src/deep/b.log", false)).toBe(true);
  expect(r.ignored("keep.log", false)).toBe(false);
  expect(r.ignored("secret.txt", false)).toBe(true);
  expect(r.ignored("src/secret.txt", false)).toBe(false);
  expect(r.ignored("tmp", true)).toBe(true);
  expect(r.ignored("tmp", false)).toBe(false);
  expect(r.ignored("docs/a/b/c.pdf", false)).toBe(true);
  expect(r.ignored("docs/c.pdf", false)).toBe(true);
  expect(r.ignored("foo1.c", false)).toBe(true);
  expect(r.ignored("foo12.c", false)).toBe(false);
  expect(r.ignored("src/main.ts", false)).toBe(false);
});

test("a nested .gitignore applies below its directory only", () => {
  mkdirSync(join(dir, "pkg"));
  writeFileSync(join(dir, "pkg", ".gitignore"), "gen/\n");
  const r = new IgnoreRules(dir);
  r.load("");
  r.load("pkg");
  expect(r.ignored("pkg/gen", true)).toBe(true);
  expect(r.ignored("gen", true)).toBe(false);
});

test("dependency, version-control and build directories are always left out", () => {
  const r = new IgnoreRules(dir);
  for (const name of ["node_modules", ".git", "dist", "build", "target", "__pycache__", ".venv"]) expect(r.ignored(`x/${name}`, true)).toBe(true);
  expect(r.ignored("src", true)).toBe(false);
});
