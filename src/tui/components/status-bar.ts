// The status bar: where the session stands (model, context, spend) on the left, and what zot is
// doing (spinner, extensions, permission mode) on the right.
import type { ExtensionState } from "../../ext/types.ts";
import type { Usage } from "../../agent/messages.ts";
import { sandboxLabel, type PermissionMode, type SandboxStatus } from "../../runtime/api.ts";
import { formatCount, formatDuration, spinnerFrame } from "./spinner.ts";
import type { Component, StyleRef } from "./component.ts";
import type { Style } from "../terminal/theme.ts";
import { truncate } from "../terminal/wrap.ts";
import { visibleWidth } from "../terminal/width.ts";

export type StatusInfo = {
  provider: string;
  model: string;
  context: { used: number; window: number };
  usage: Usage;
  /** When the running turn (or /compact) started; null when idle. */
  busySince: number | null;
  busyLabel: string;
  extensions: { loaded: number; failed: number };
  mode: PermissionMode;
  /** /jail is on. */
  jailed?: boolean;
  /** The agent's command sandbox. */
  sandbox?: SandboxStatus;
  /** The working directory, shortened, and its git branch (or null outside a repository). */
  place: { dir: string; branch: string | null };
  /** The thinking level, when the model is asked to think. */
  reasoning: string | null;
};

export function extensionCounts(states: readonly ExtensionState[]): { loaded: number; failed: number } {
  let loaded = 0;
  let failed = 0;
  for (const s of states) {
    if (s.status === "ready" || s.status === "auto_ready" || s.status === "theme_only") loaded++;
    else if (s.status === "failed" || s.status === "invalid" || s.status === "exited") failed++;
  }
  return { loaded, failed };
}

/** One line: `info` read at each render, at the time `clock` gives. */
export class StatusBar implements Component {
  constructor(
    private readonly theme: StyleRef,
    private readonly clock: () => number,
    private readonly info: () => StatusInfo,
  ) {}

  render(width: number): string[] {
    return [statusLine(this.info(), width, this.theme.style, this.clock())];
  }

  invalidate(): void {}
}

function statusLine(info: StatusInfo, width: number, style: Style, now: number): string {
  const left: string[] = [`${info.provider}/${info.model}${info.reasoning ? ` (think ${info.reasoning})` : ""}`];
  if (info.context.window > 0) {
    const pct = Math.min(100, Math.round((info.context.used / info.context.window) * 100));
    left.push(`ctx ${pct}% of ${formatCount(info.context.window)}`);
  }
  const u = info.usage;
  if (u.input + u.output + u.cacheRead + u.cacheWrite > 0) left.push(`↑${formatCount(u.input + u.cacheRead + u.cacheWrite)} ↓${formatCount(u.output)}`);
  if (u.cost > 0) left.push(`$${u.cost < 1 ? u.cost.toFixed(3) : u.cost.toFixed(2)}`);
  // Last on the left, so a narrow screen cuts the directory before the numbers.
  left.push(info.place.branch ? `${info.place.dir} (${info.place.branch})` : info.place.dir);

  const right: string[] = [];
  if (info.busySince !== null) right.push(style.fg("accent", `${spinnerFrame(now)} ${info.busyLabel} ${formatDuration(now - info.busySince)}`));
  const ext = info.extensions;
  if (ext.loaded + ext.failed > 0) right.push(`${ext.loaded} ext` + (ext.failed > 0 ? " " + style.fg("error", `${ext.failed} failed`) : ""));
  if (info.jailed) right.push(style.fg("warning", "jailed"));
  if (info.sandbox) right.push(info.sandbox.enforced ? sandboxLabel(info.sandbox) : style.fg("warning", sandboxLabel(info.sandbox)));
  right.push(info.mode === "yolo" ? info.mode : style.fg(info.mode === "plan" ? "accent" : "warning", info.mode));

  const sep = style.fg("muted", " · ");
  const r = right.join(sep);
  const rw = visibleWidth(r);
  const l = truncate(left.join(" · "), Math.max(0, width - rw - 2));
  const gap = Math.max(1, width - visibleWidth(l) - rw);
  return truncate(style.fg("status", l) + " ".repeat(gap) + r, width);
}
