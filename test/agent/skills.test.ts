import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { discoverSkills, parseSkill, skillsPromptSection } from "../../src/agent/skills.ts";
import { skillTool } from "../../src/agent/tools/skill.ts";
import type { ToolContext, ToolOutput } from "../../src/agent/tool.ts";

let root: string;
let cwd: string;
let home: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "zot-skills-"));
  cwd = join(root, "project");
  home = join(root, "home");
  mkdirSync(cwd);
  mkdirSync(home);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function skill(base: string, dirName: string, frontMatter: string, body: string): string {
  const dir = join(base, dirName);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "SKILL.md"), `---\n${frontMatter}\n---\n${body}\n`);
  return dir;
}
const ctx = (): ToolContext => ({ cwd, signal: new AbortController().signal, progress: () => {}, home });
const text = (out: ToolOutput): string => out.content.map((c) => (c.type === "text" ? c.text : "")).join("");

describe("skills", () => {
  test("are found in every location, and the first location wins a name", () => {
    skill(join(cwd, ".zot/skills"), "deploy", "name: deploy\ndescription: project deploy", "project body");
    skill(join(home, "skills"), "deploy", "name: deploy\ndescription: global deploy", "global body");
    skill(join(home, "skills"), "lint", "description: run the linters", "lint body");
    skill(join(cwd, ".claude/skills"), "review", "name: review\ndescription: 'review a diff'", "r");
    skill(join(cwd, ".agents/skills"), "notes", 'name: notes\ndescription: "write notes"', "n");
    const { skills, warnings } = discoverSkills(cwd, home);
    expect(warnings).toEqual([]);
    const byName = Object.fromEntries(skills.map((s) => [s.name, s]));
    expect(byName.deploy?.description).toBe("project deploy");
    expect(byName.deploy?.source).toBe("project");
    expect(byName.lint?.source).toBe("global");
    expect(byName.review?.description).toBe("review a diff");
    expect(byName.notes?.source).toBe("agents");
    expect(byName["extension-authoring"]!.source).toBe("builtin");
  });

  test("a skill without a description is skipped with a warning naming its file", () => {
    const dir = skill(join(cwd, ".zot/skills"), "bad", "name: bad", "body");
    const { skills, warnings } = discoverSkills(cwd, home);
    expect(skills.some((s) => s.name === "bad")).toBe(false);
    expect(warnings[0]).toContain(join(dir, "SKILL.md"));
  });

  test("front matter parsing handles quotes, comments and folded continuation lines", () => {
    const parsed = parseSkill("---\nname: x\n# comment\ndescription: >\n  first part\n  second part\nother: 'it''s'\n---\n\nBody here.\n");
    expect(parsed.meta).toEqual({ name: "x", description: "first part second part", other: "it's" });
    expect(parsed.body).toBe("Body here.");
    expect(parseSkill("no front matter").body).toBe("no front matter");
  });

  test("the prompt section lists names and descriptions", () => {
    skill(join(home, "skills"), "lint", "description: run the linters", "lint body");
    const section = skillsPromptSection(discoverSkills(cwd, home).skills);
    expect(section).toContain("- lint: run the linters");
    expect(section).toContain("- extension-authoring:");
    expect(skillsPromptSection([])).toBe("");
  });

  test("the skill tool returns the body and the skill's directory", async () => {
    const dir = skill(join(cwd, ".zot/skills"), "deploy", "name: deploy\ndescription: deploy it", "Run ./deploy.sh in this directory.");
    const out = await skillTool.execute({ name: "deploy" }, ctx());
    expect(out.isError).toBe(false);
    expect(text(out)).toContain(`Skill directory: ${dir}`);
    expect(text(out)).toContain("Run ./deploy.sh in this directory.");
    expect(text(out)).not.toContain("description: deploy it");
  });

  test("the skill tool serves built-in skills", async () => {
    const out = await skillTool.execute({ name: "extension-authoring" }, ctx());
    expect(out.isError).toBe(false);
    expect(text(out)).toContain("hello_ack");
  });

  test("the skill tool lists the available skills for an unknown name", async () => {
    const out = await skillTool.execute({ name: "nope" }, ctx());
    expect(out.isError).toBe(true);
    expect(text(out)).toContain('There is no skill named "nope"');
    expect(text(out)).toContain("skill-authoring");
  });
});
