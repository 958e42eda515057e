import { beforeEach, expect, test } from "bun:test";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freshBinary, staleBuildProblem } from "../../scripts/build-freshness.ts";
import { tempDir } from "../helpers/temp.ts";

let root = "";
const at = (path: string, seconds: number): void => utimesSync(path, seconds, seconds);

beforeEach(() => {
  root = tempDir("zot-freshness-");
  mkdirSync(join(root, "src", "cli"), { recursive: true });
  mkdirSync(join(root, "dist"));
  writeFileSync(join(root, "package.json"), "{}");
  writeFileSync(join(root, "src", "main.ts"), "");
  writeFileSync(join(root, "src", "cli", "args.ts"), "");
  for (const f of ["package.json", "src/main.ts", "src/cli/args.ts"]) at(join(root, f), 1_000);
});

test("a binary built after every source is accepted", () => {
  writeFileSync(join(root, "dist", "zot"), "");
  at(join(root, "dist", "zot"), 2_000);
  expect(staleBuildProblem(root, join(root, "dist", "zot"))).toBeNull();
  expect(freshBinary(root, join(root, "dist", "zot"))).toBe(join(root, "dist", "zot"));
});

test("a binary older than a file deep in src/ is refused, naming that file and the command that rebuilds", () => {
  writeFileSync(join(root, "dist", "zot"), "");
  at(join(root, "dist", "zot"), 2_000);
  at(join(root, "src", "cli", "args.ts"), 3_000);
  const problem = staleBuildProblem(root, join(root, "dist", "zot"));
  expect(problem).toBe(`dist/zot is older than src/cli/args.ts, so it would test an old build; run "npm run build" (or "npm test", which builds first).`);
  expect(() => freshBinary(root, join(root, "dist", "zot"))).toThrow(problem!);
});

test("a version bump in package.json makes the binary stale", () => {
  writeFileSync(join(root, "dist", "zot"), "");
  at(join(root, "dist", "zot"), 2_000);
  at(join(root, "package.json"), 3_000);
  expect(staleBuildProblem(root, join(root, "dist", "zot"))).toContain("older than package.json");
});

test("a missing binary is refused with the command that builds it", () => {
  expect(staleBuildProblem(root, join(root, "dist", "zot"))).toBe(`dist/zot does not exist; run "npm run build" (or "npm test", which builds first).`);
});
