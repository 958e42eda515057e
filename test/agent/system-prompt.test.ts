import { beforeEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildSystemPrompt } from "../../src/agent/system-prompt.ts";
import { discoverSkills } from "../../src/agent/skills.ts";
import { builtinTools } from "../../src/agent/tools/index.ts";
import { tempDir } from "../helpers/temp.ts";

let home: string;
beforeEach(() => {
  home = tempDir("zot-prompt-");
});

const base = () => ({
  home,
  cwd: "/work/proj",
  tools: builtinTools(),
  skills: discoverSkills("/work/proj", home).skills,
  now: new Date("2026-11-29T12:00:00Z"),
});

describe("system prompt", () => {
  test("the default names zot, the cwd, the date, the tools and the skills", () => {
    const p = buildSystemPrompt(base());
    expect(p).toContain("You are zot");
    expect(p).toContain("Working directory: /work/proj");
    expect(p).toContain("Date: 2026-11-29");
    expect(p).toContain("- bash: Run a shell command");
    expect(p).toContain("- extension-authoring:");
  });

  test("SYSTEM.md replaces the default, and --system-prompt wins over it", () => {
    writeFileSync(join(home, "SYSTEM.md"), "Custom from file.");
    const fromFile = buildSystemPrompt(base());
    expect(fromFile).toStartWith("Custom from file.");
    expect(fromFile).not.toContain("You are zot");
    const fromFlag = buildSystemPrompt({ ...base(), systemPrompt: "From the flag.", append: ["Extra one.", "Extra two."] });
    expect(fromFlag).toStartWith("From the flag.");
    expect(fromFlag).not.toContain("Custom from file.");
    expect(fromFlag.endsWith("Extra one.\n\nExtra two.")).toBe(true);
  });

  test("without tools there is no tool or skill list", () => {
    const p = buildSystemPrompt({ ...base(), tools: [] });
    expect(p).toContain("No tools are available");
    expect(p).not.toContain("## Skills");
  });
});
