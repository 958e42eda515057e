// Getting the user's attention and telling the terminal what zot is doing: a bell or a desktop
// notification (OSC 9 or OSC 777, where the terminal is known to show them) when a turn that took
// a while ends or an approval waits, and the window title with the state.
import type { NotifyMode } from "../../runtime/api.ts";
import type { Env } from "../../platform/env.ts";
import { sanitize, windowTitle } from "./ansi.ts";

/** A turn shorter than this ends without a notification: the user is probably still watching. */
export const NOTIFY_AFTER_MS = 5000;

/** `auto`: a desktop notification where the terminal is known to show one (not through tmux or screen), else the bell. */
export function resolveNotify(mode: NotifyMode, env: Env): Exclude<NotifyMode, "auto"> {
  if (mode !== "auto") return mode;
  if (env.TMUX || env.STY) return "bell";
  if (["iTerm.app", "WezTerm", "ghostty"].includes(env.TERM_PROGRAM ?? "") || env.KITTY_WINDOW_ID) return "osc9";
  if (/^foot/.test(env.TERM ?? "") || Number(env.VTE_VERSION ?? 0) >= 5000) return "osc777";
  return "bell";
}

export function notification(mode: Exclude<NotifyMode, "auto">, message: string): string {
  const text = sanitize(message).replace(/[\x07\x1b;\n]/g, " ");
  switch (mode) {
    case "bell":
      return "\x07";
    case "osc9":
      return `\x1b]9;${text}\x07`;
    case "osc777":
      return `\x1b]777;notify;zot;${text}\x07`;
    case "off":
      return "";
  }
}

export type TitleState = "idle" | "working" | "waiting for approval";

/** The window title: zot, the project directory's name, and what zot is doing. */
export function titleText(cwd: string, state: TitleState): string {
  const base = cwd.split("/").filter(Boolean).pop() ?? cwd;
  return windowTitle(`zot · ${sanitize(base)} · ${state}`);
}
