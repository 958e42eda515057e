// The system prompt: zot's short default, or the user's replacement ($ZOT_HOME/SYSTEM.md, or
// --system-prompt which wins over it), then the project instructions (AGENTS.md), then every
// --append-system-prompt in order.
import type { Skill } from "./skills.ts";
import { skillsPromptSection } from "./skills.ts";
import { readSystemMd } from "./config.ts";
import { instructionsSection, type InstructionFile } from "./instructions.ts";

export type PromptTool = { name: string; description: string };

export type SystemPromptOptions = {
  home: string;
  cwd: string;
  /** Every tool offered to the model (built-in and extension), in offer order. */
  tools: readonly PromptTool[];
  skills: readonly Skill[];
  /** --system-prompt. */
  systemPrompt?: string | undefined;
  /** --append-system-prompt, in order. */
  append?: readonly string[];
  /** AGENTS.md / CLAUDE.md files, already read. */
  instructions?: readonly InstructionFile[];
  now?: Date;
  platform?: string;
};

export function buildSystemPrompt(o: SystemPromptOptions): string {
  const custom = o.systemPrompt ?? readSystemMd(o.home);
  const parts: string[] = [custom ?? defaultPrompt(o)];
  // A replacement prompt can't know the installed skills; without the list the skill tool is useless.
  if (custom !== null && o.tools.some((t) => t.name === "skill")) {
    const section = skillsPromptSection(o.skills);
    if (section) parts.push(section);
  }
  const instructions = instructionsSection(o.instructions ?? []);
  if (instructions) parts.push(instructions);
  for (const a of o.append ?? []) if (a.trim() !== "") parts.push(a.trim());
  return parts.join("\n\n");
}

function defaultPrompt(o: SystemPromptOptions): string {
  const date = (o.now ?? new Date()).toISOString().slice(0, 10);
  const lines = [
    "You are zot, a coding agent working in the user's terminal. You help with software tasks: reading and changing code, running commands, finding and fixing problems, and explaining what you find.",
    "",
    `Working directory: ${o.cwd}`,
    `Date: ${date}`,
    `Platform: ${o.platform ?? process.platform}`,
  ];
  if (o.tools.length > 0) {
    lines.push("", "## Tools", ...o.tools.map((t) => `- ${t.name}: ${t.description.split("\n")[0]}`));
    lines.push(
      "",
      "Guidelines:",
      "- Look before you change: read the relevant files first.",
      "- Use edit for targeted changes to existing files and write for new files or complete rewrites.",
      "- Use bash to search (rg, grep, find), build and run tests; commands must not wait for input.",
      "- Paths are relative to the working directory.",
      "- Be concise. Mention file paths when you refer to code. Say so plainly when something failed or you are unsure.",
    );
  } else {
    lines.push("", "No tools are available in this session; answer from the conversation alone. Be concise, and say so plainly when you are unsure.");
  }
  const skills = o.tools.some((t) => t.name === "skill") ? skillsPromptSection(o.skills) : "";
  return skills ? `${lines.join("\n")}\n\n${skills}` : lines.join("\n");
}
