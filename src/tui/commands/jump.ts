// /jump [text]: scroll the chat back to an earlier prompt, picked from a filterable list (the
// text, if given, is the first filter). Nothing changes but the view: ctrl+end returns to the bottom.
import type { CommandContext } from "./command-context.ts";
import { Picker } from "../components/pickers.ts";

type Turn = { index: number; text: string };

export function jumpCommand(ctx: CommandContext, args: string): void {
  const turns: Turn[] = ctx.turns().map((text, index) => ({ index, text }));
  if (turns.length === 0) {
    ctx.status([{ text: "No turns to jump to yet.", level: "info" }], 3000);
    return;
  }
  const picker = new Picker<Turn>(ctx, {
    title: "Jump to turn",
    items: [...turns].reverse(),
    key: (t) => t.text,
    row: (t) => ({ label: `#${t.index + 1}`, detail: t.text.replace(/\s+/g, " ") }),
    onPick: (t) => {
      ctx.jumpTo(t.index);
      ctx.status([{ text: `viewing turn ${t.index + 1} of ${turns.length} · ctrl+end returns to the bottom`, level: "info" }], 10_000);
    },
    empty: "no turn matches",
  });
  for (const ch of args.trim()) picker.handle(ch, ch);
  ctx.openModal(picker);
}
