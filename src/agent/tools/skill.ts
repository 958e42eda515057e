// The `skill` tool: returns a skill's instructions on demand (names and descriptions are already in
// the system prompt).
import type { JsonObject } from "../../json.ts";
import type { ToolOutput } from "../tool.ts";
import { defineTool, stringParam } from "./define.ts";
import { discoverSkills, skillBody } from "../skills.ts";
import { stringArg, textResult } from "./common.ts";

const DESCRIPTION = `Load a skill: detailed instructions for a specific kind of task. The available skills and when to use them are listed in the system prompt.
Argument: name (the skill's name). Returns the skill's instructions and its directory; files the skill mentions by relative path are in that directory.`;

export const skillTool = defineTool({
  name: "skill",
  description: DESCRIPTION,
  params: { name: stringParam("Name of the skill to load.", { nonEmpty: true }) },
  preview(args: JsonObject): string {
    return `skill ${stringArg(args, "name") ?? "?"}`;
  },
  async execute(args, ctx): Promise<ToolOutput> {
    const name = args.name.trim();
    const { skills } = discoverSkills(ctx.cwd, ctx.home);
    const skill = skills.find((s) => s.name === name) ?? skills.find((s) => s.name.toLowerCase() === name.toLowerCase());
    if (!skill) {
      const names = skills.map((s) => s.name).join(", ");
      return textResult(`There is no skill named "${name}". ${names ? `Available skills: ${names}.` : "No skills are installed."}`, true);
    }
    const loaded = skillBody(skill);
    if ("error" in loaded) return textResult(loaded.error, true);
    const where = skill.dir === null ? "Built into zot (no directory)." : `Skill directory: ${skill.dir} (relative paths in the skill are relative to it).`;
    return textResult(`# Skill: ${skill.name}\n${where}\n\n${loaded.body}`);
  },
});
