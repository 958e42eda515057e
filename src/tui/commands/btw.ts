// /btw <question>: a side chat over the conversation as it is now, in a box above the editor. The
// answer streams in; nothing of it is added to the session or sent on later turns. esc closes the
// box (and stops the answer if it is still coming).
import type { CommandContext } from "./command-context.ts";
import { TextOverlay } from "../components/text-overlay.ts";

export function btwCommand(ctx: CommandContext, args: string): void {
  const question = args.trim();
  if (question === "") {
    ctx.status([{ text: "Ask it inline: /btw <question> (the answer is not kept in the session).", level: "info" }], 5000);
    return;
  }
  const stop = new AbortController();
  let answer = "";
  let state = "answering…";
  const overlay = new TextOverlay(ctx, {
    title: "btw",
    hint: "side chat, not saved · ↑↓ scroll · esc closes",
    text: () => `**${question}**\n\n${answer}${state ? `\n\n_${state}_` : ""}`,
    height: 14,
    onClose: () => stop.abort(),
  });
  ctx.openModal(overlay);
  void ctx.runtime
    .sideQuestion(question, stop.signal, (text) => {
      answer += text;
      ctx.redraw();
    })
    .then((r) => {
      if (r.ok) {
        answer = r.text;
        state = "";
      } else state = r.error === "cancelled" ? "stopped" : `failed: ${r.error}`;
      ctx.redraw();
    });
}
