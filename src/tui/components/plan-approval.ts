// Leaving plan mode: when a turn in plan mode ends with a reply, the user approves the plan (and
// picks the mode to carry it out in) or keeps planning.
import type { PermissionMode } from "../../runtime/api.ts";
import type { CommandContext } from "../commands/command-context.ts";
import { Picker } from "./pickers.ts";
import { describeMode } from "./permission-view.ts";

export const PLAN_APPROVED = "The plan is approved. Carry it out now.";

type Answer = { label: string; mode: PermissionMode | null };

const ANSWERS: readonly Answer[] = [
  { label: "Yes, carry it out, auto-approving edits", mode: "auto-edit" },
  { label: "Yes, carry it out, asking before each tool", mode: "ask" },
  { label: "No, keep planning (type what to change)", mode: null },
];

export function offerPlanApproval(ctx: CommandContext, submit: (text: string) => void): void {
  ctx.openModal(
    new Picker<Answer>(ctx, {
      title: "Approve the plan?",
      items: [...ANSWERS],
      key: (a) => a.label,
      row: (a) => ({ label: a.label }),
      onPick: (a) => {
        if (a.mode === null) return;
        ctx.runtime.mode = a.mode;
        ctx.status([{ text: describeMode(a.mode), level: "info" }], 4000);
        submit(PLAN_APPROVED);
      },
    }),
  );
}
