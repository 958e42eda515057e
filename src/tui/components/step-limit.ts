// When a turn stops at --max-steps, the TUI offers to go on for another round of steps instead of
// telling the user to restart with a bigger flag.
import type { CommandContext } from "../commands/command-context.ts";
import { Picker } from "./pickers.ts";

export function offerMoreSteps(ctx: CommandContext, steps: number, goOn: () => void): void {
  const items = [`Continue for another ${steps} steps`, "Stop here"];
  ctx.openModal(
    new Picker<string>(ctx, {
      title: `The agent stopped after ${steps} steps (--max-steps).`,
      items,
      key: (s) => s,
      row: (s) => ({ label: s }),
      onPick: (s) => {
        if (s === items[0]) goOn();
      },
    }),
  );
}
