// Project instructions: which AGENTS.md / CLAUDE.md files reach the system prompt, in what order,
// cut where too long; and what /init asks the model.
import { beforeEach, expect, test } from "bun:test";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { initPrompt, INSTRUCTIONS_MAX_BYTES, loadInstructions } from "../../src/agent/instructions.ts";
import { buildSystemPrompt } from "../../src/agent/system-prompt.ts";
import { tempDir } from "../helpers/temp.ts";

let dir: string;
let home: string;
let repo: string;
beforeEach(() => {
  dir = tempDir("zot-instr-");
  home = join(dir, "home");
  repo = join(dir, "repo");
  mkdirSync(home);
  mkdirSync(join(repo, ".git"), { recursive: true });
  mkdirSync(join(repo, "pkg", "app"), { recursive: true });
});

test("the global file comes first, then the repository root down to the working directory", () => {
  writeFileSync(join(home, "AGENTS.md"), "global rules");
  writeFileSync(join(repo, "AGENTS.md"), "root rules");
  writeFileSync(join(repo, "pkg", "app", "AGENTS.md"), "app rules");
  writeFileSync(join(dir, "AGENTS.md"), "outside the repository");
  const files = loadInstructions(join(repo, "pkg", "app"), home);
  expect(files.map((f) => [f.path, f.text])).toEqual([
    [join(home, "AGENTS.md"), "global rules"],
    [join(repo, "AGENTS.md"), "root rules"],
    [join(repo, "pkg", "app", "AGENTS.md"), "app rules"],
  ]);
});

test("a directory's AGENTS.md and CLAUDE.md are both followed, the same file or text only once", () => {
  writeFileSync(join(repo, "AGENTS.md"), "agents");
  writeFileSync(join(repo, "CLAUDE.md"), "claude at root");
  writeFileSync(join(repo, "pkg", "CLAUDE.md"), "claude in pkg");
  expect(loadInstructions(join(repo, "pkg"), home).map((f) => f.text)).toEqual(["agents", "claude at root", "claude in pkg"]);
  rmSync(join(repo, "CLAUDE.md"));
  symlinkSync(join(repo, "AGENTS.md"), join(repo, "CLAUDE.md"));
  writeFileSync(join(repo, "pkg", "AGENTS.md"), "claude in pkg");
  expect(loadInstructions(join(repo, "pkg"), home).map((f) => f.path)).toEqual([join(repo, "AGENTS.md"), join(repo, "pkg", "AGENTS.md")]);
});

test("outside a repository only the working directory's file counts", () => {
  const loose = join(dir, "loose", "inner");
  mkdirSync(loose, { recursive: true });
  writeFileSync(join(dir, "loose", "AGENTS.md"), "parent");
  writeFileSync(join(loose, "AGENTS.md"), "here");
  expect(loadInstructions(loose, home).map((f) => f.text)).toEqual(["here"]);
});

test("the files reach the system prompt, a long one cut with a note", () => {
  writeFileSync(join(repo, "AGENTS.md"), "Run `make check` before committing.\n" + "x".repeat(INSTRUCTIONS_MAX_BYTES));
  const instructions = loadInstructions(repo, home);
  expect(instructions[0]!.cut).toBe(true);
  const prompt = buildSystemPrompt({ home, cwd: repo, tools: [], skills: [], instructions });
  expect(prompt).toContain("## Project instructions");
  expect(prompt).toContain(`### ${join(repo, "AGENTS.md")}\n\nRun \`make check\` before committing.`);
  expect(prompt).toContain(`[zot: cut to the first ${INSTRUCTIONS_MAX_BYTES} bytes; read the file for the rest]`);
});

test("/init asks for AGENTS.md at the repository root, and to improve one that exists", () => {
  expect(initPrompt(join(repo, "pkg"))).toContain(`Study this project and write ${join(repo, "AGENTS.md")}`);
  writeFileSync(join(repo, "AGENTS.md"), "old");
  const again = initPrompt(repo);
  expect(again).toContain(`improve ${join(repo, "AGENTS.md")}`);
  expect(again).toContain("read it first");
});

test("/init takes an existing CLAUDE.md into account, whether or not AGENTS.md exists yet", () => {
  writeFileSync(join(repo, "CLAUDE.md"), "claude rules");
  const fresh = initPrompt(repo);
  expect(fresh).toContain(`write ${join(repo, "AGENTS.md")}`);
  expect(fresh).toContain(`${join(repo, "CLAUDE.md")} exists: read it first and carry over what is still right`);
  writeFileSync(join(repo, "AGENTS.md"), "agents rules");
  expect(initPrompt(repo)).toContain(`${join(repo, "CLAUDE.md")} exists too, and zot follows both files`);
});
