// /skills: the skills zot finds for this directory (discovery runs again on every open, so new
// SKILL.md files show at once), with their source and description; enter previews a skill's body.
// Built-in skills are not listed, as in the Go zot.
import type { Skill, SkillSource } from "../../runtime/api.ts";
import type { CommandContext } from "./command-context.ts";
import { Picker } from "../components/pickers.ts";
import { TextOverlay } from "../components/text-overlay.ts";

const SOURCE_LABEL: Readonly<Record<SkillSource, string>> = {
  project: "project",
  global: "global",
  claude: "project (claude)",
  "global-claude": "global (claude)",
  agents: "project (agents)",
  "global-agents": "global (agents)",
  builtin: "built-in",
};

export function skillsCommand(ctx: CommandContext): void {
  const { skills, warnings } = ctx.runtime.skills();
  const mine = skills.filter((s) => s.source !== "builtin");
  if (warnings.length > 0)
    ctx.status(
      warnings.map((text) => ({ text, level: "warn" as const })),
      8000,
    );
  if (mine.length === 0) {
    ctx.status(
      [
        {
          text: "No skills found: add <name>/SKILL.md under .zot/skills, $ZOT_HOME/skills, .claude/skills, ~/.claude/skills, .agents/skills or ~/.agents/skills.",
          level: "info",
        },
      ],
      6000,
    );
    return;
  }
  ctx.openModal(
    new Picker<Skill>(ctx, {
      title: "Skills",
      items: mine,
      key: (s) => `${s.name} ${s.description}`,
      row: (s) => ({ label: s.name, detail: `${SOURCE_LABEL[s.source]} · ${s.description}` }),
      onPick: (s) => {
        const r = ctx.runtime.skillBody(s);
        const text = "error" in r ? r.error : r.body;
        ctx.openModal(
          new TextOverlay(ctx, {
            title: `Skill ${s.name}`,
            hint: `${s.file ?? ""} · ↑↓ pgup pgdn scroll · esc closes`,
            text: () => text,
            onClose: () => skillsCommand(ctx),
          }),
        );
      },
    }),
  );
}
