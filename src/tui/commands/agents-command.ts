// /agents: the agents the `task` tool can run (the files are read again on every open, so a new
// agent file shows at once), each with its source; enter shows an agent's tools and system prompt.
import type { AgentDefinition } from "../../runtime/api.ts";
import type { CommandContext } from "./command-context.ts";
import { Picker } from "../components/pickers.ts";
import { TextOverlay } from "../components/text-overlay.ts";

export function agentsCommand(ctx: CommandContext): void {
  const { agents, warnings, untrusted } = ctx.runtime.agents();
  const notes = [
    ...warnings.map((text) => ({ text, level: "warn" as const })),
    ...untrusted.map((dir) => ({ text: `Not read: ${dir} (this folder is not trusted; /trust to review it).`, level: "info" as const })),
  ];
  if (notes.length > 0) ctx.status(notes, 8000);
  ctx.openModal(
    new Picker<AgentDefinition>(ctx, {
      title: "Agents (the task tool)",
      items: agents,
      key: (a) => `${a.name} ${a.description}`,
      row: (a) => ({ label: a.name, detail: `${a.source} · ${a.description}` }),
      onPick: (a) => {
        const text = [
          `Source: ${a.source}`,
          `Tools: ${a.tools === null ? "all" : a.tools.join(", ") || "none"}${a.readOnly ? " (bash: only commands that only look)" : ""}`,
          `Model: ${a.model ?? "the session's"}`,
          `Subagents: ${a.subagents ? "may start them" : "no"}`,
          "",
          a.prompt,
        ].join("\n");
        ctx.openModal(
          new TextOverlay(ctx, { title: `Agent ${a.name}`, hint: "↑↓ pgup pgdn scroll · esc closes", text: () => text, onClose: () => agentsCommand(ctx) }),
        );
      },
    }),
  );
}
