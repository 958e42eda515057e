// The permission mode and the standing approvals in the TUI: shift+tab cycles the mode (ask /
// auto-edit / yolo / plan), `/permissions` lists the "don't ask again" rules and revokes
// the one picked.
import { nextMode, type ListedRule, type PermissionMode } from "../../runtime/api.ts";
import type { CommandContext } from "../commands/command-context.ts";
import { Picker } from "./pickers.ts";

export const MODE_HELP: Readonly<Record<PermissionMode, string>> = {
  ask: "reads and read-only commands run; edits, other commands and extension tools ask first",
  "auto-edit": "reads and edits inside the project run without asking; the rest asks",
  yolo: "every tool call runs without asking",
  plan: "only reads and read-only commands run; the model proposes a plan for you to approve",
};

export function describeMode(mode: PermissionMode): string {
  return `Mode: ${mode} — ${MODE_HELP[mode]} (shift+tab to change).`;
}

export function cycleMode(ctx: CommandContext): void {
  const mode = nextMode(ctx.runtime.mode);
  ctx.runtime.mode = mode;
  ctx.status([{ text: describeMode(mode), level: mode === "yolo" ? "warn" : "info" }], 4000);
}

export function permissionsPicker(ctx: CommandContext): void {
  const rules = ctx.runtime.permissions();
  if (rules.length === 0) {
    ctx.status([{ text: `No standing approvals. ${describeMode(ctx.runtime.mode)}`, level: "info" }], 5000);
    return;
  }
  ctx.openModal(
    new Picker<ListedRule>(ctx, {
      title: "Standing approvals · enter revokes",
      items: rules,
      key: (r) => r.label,
      row: (r) => ({ label: r.label, detail: r.always ? "always, this project" : "this session" }),
      onPick: (r) => {
        const done = ctx.runtime.revokePermission(r);
        if (done.ok) ctx.status([{ text: `Revoked: ${r.label} (${r.always ? "always" : "this session"}). Such calls ask again.`, level: "success" }], 5000);
        else ctx.status([{ text: done.error, level: "error" }], 8000);
      },
    }),
  );
}
