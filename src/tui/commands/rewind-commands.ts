// `/rewind` and esc esc on an empty editor: pick an earlier prompt, then what to restore (code and
// conversation, conversation only, code only); a code restore first lists every file it will
// change, restore or remove, and waits for enter. `/rewind undo` (or the picker's first row) puts
// back what the last rewind replaced.
import type { RewindPlan } from "../../runtime/api.ts";
import type { RestoreChoice, RewindPoint } from "../../runtime/api.ts";
import type { CommandContext } from "./command-context.ts";
import { modalHeader, Picker, type Modal } from "../components/pickers.ts";
import { showSwitch } from "./session-commands.ts";
import { truncate } from "../terminal/wrap.ts";

const CHOICES: readonly { restore: RestoreChoice; label: string; what: string }[] = [
  { restore: "both", label: "Restore code and conversation", what: "files as they were, and a branch of the session before the prompt" },
  { restore: "conversation", label: "Restore conversation only", what: "a branch of the session before the prompt; the files stay" },
  { restore: "code", label: "Restore code only", what: "files as they were; the conversation stays" },
];

const UNDO = "undo";

export function rewindCommand(ctx: CommandContext, args: string): void {
  if (ctx.busy) {
    ctx.status([{ text: "A turn is running; press esc to cancel it first.", level: "warn" }], 4000);
    return;
  }
  const arg = args.trim();
  if (arg === UNDO) return undoRewind(ctx);
  if (arg !== "") {
    ctx.status([{ text: `Unknown /rewind argument "${arg}". Usage: /rewind · /rewind undo`, level: "error" }], 6000);
    return;
  }
  rewindPicker(ctx);
}

type Row = { kind: "undo" } | { kind: "prompt"; point: RewindPoint; number: number };

/** The prompts of this session, newest first, with "undo the last rewind" above them when there is one. */
export function rewindPicker(ctx: CommandContext): void {
  const listed = ctx.runtime.rewindPoints();
  const undo = ctx.runtime.undoRewindPlan().ok;
  if (!listed.ok && !undo) {
    ctx.status([{ text: `Nothing to rewind: ${listed.error}.`, level: "info" }], 4000);
    return;
  }
  const points = listed.ok ? listed.points : [];
  const rows: Row[] = [
    ...(undo ? [{ kind: "undo" as const }] : []),
    ...points.map((point, i) => ({ kind: "prompt" as const, point, number: i + 1 })).reverse(),
  ];
  ctx.openModal(
    new Picker<Row>(ctx, {
      title: "Rewind to before which prompt?",
      items: rows,
      key: (r) => (r.kind === "undo" ? "undo the last rewind" : r.point.text),
      row: (r) =>
        r.kind === "undo"
          ? { label: "↶ undo", detail: "put back what the last rewind replaced" }
          : { label: `#${r.number}`, detail: `${r.point.text.replace(/\s+/g, " ")}${r.point.code ? "" : "  (no code checkpoint)"}` },
      onPick: (r) => (r.kind === "undo" ? undoRewind(ctx) : choose(ctx, r.point, r.number)),
      empty: "no prompts match",
    }),
  );
}

function choose(ctx: CommandContext, point: RewindPoint, number: number): void {
  const choices = point.code ? CHOICES : CHOICES.filter((c) => c.restore === "conversation");
  ctx.openModal(
    new Picker(ctx, {
      title: `Rewind to before prompt #${number}${point.code ? "" : " (no code checkpoint was recorded for it)"}`,
      items: [...choices],
      key: (c) => c.label,
      row: (c) => ({ label: c.label, detail: c.what }),
      onPick: (c) => {
        if (c.restore === "conversation") return apply(ctx, point, number, c.restore);
        const plan = ctx.runtime.rewindPlan(point.index);
        if (!plan.ok) {
          ctx.status([{ text: `Rewind failed: ${plan.error}.`, level: "error" }], 8000);
          return;
        }
        ctx.openModal(new PlanConfirm(ctx, `${c.label} to before prompt #${number}?`, plan.plan, () => apply(ctx, point, number, c.restore)));
      },
    }),
  );
}

function apply(ctx: CommandContext, point: RewindPoint, number: number, restore: RestoreChoice): void {
  const r = ctx.runtime.rewind(point.index, restore);
  if (!r.ok) {
    ctx.status([{ text: `Rewind failed: ${r.error}.`, level: "error" }], 8000);
    return;
  }
  const files = restore === "conversation" ? "" : `${filesDone(r.plan)} `;
  const undo = "/rewind undo puts it back.";
  if (r.path !== null) {
    showSwitch(
      ctx,
      r.warnings,
      `Rewound to before prompt #${number}: ${files}the conversation is a new branch (${r.path}) and the prompt is back in the editor. ${undo}`,
    );
    ctx.setEditor(r.text);
  } else ctx.info(`Rewound the files to before prompt #${number}: ${files}${undo}`, "success");
  for (const f of r.failed) ctx.info(`Not restored: ${f}`, "error");
}

function undoRewind(ctx: CommandContext): void {
  const plan = ctx.runtime.undoRewindPlan();
  if (!plan.ok) {
    ctx.status([{ text: `Nothing to undo: ${plan.error}.`, level: "info" }], 4000);
    return;
  }
  const run = (): void => {
    const r = ctx.runtime.undoRewind();
    if (!r.ok) {
      ctx.status([{ text: `Undo failed: ${r.error}.`, level: "error" }], 8000);
      return;
    }
    const done = `Undid the last rewind: ${filesDone(r.plan)}${r.session && r.session === ctx.runtime.sessionPath ? ` Back in ${r.session}.` : ""}`;
    showSwitch(ctx, r.warnings, done);
    for (const f of r.failed) ctx.info(`Not restored: ${f}`, "error");
  };
  ctx.openModal(new PlanConfirm(ctx, "Undo the last rewind?", plan.plan, run));
}

function filesDone(plan: RewindPlan): string {
  const n = plan.changes.length;
  return n === 0 ? "no files needed changing." : `${n} ${n === 1 ? "file" : "files"} changed, restored or removed.`;
}

const ACTION_LABEL: Record<RewindPlan["changes"][number]["action"], string> = { change: "change ", restore: "restore", remove: "remove " };
/** Rows of the listing shown at once; the rest are counted. */
const MAX_ROWS = 14;

/** The files a code restore will touch, listed before anything happens: enter goes ahead, esc cancels. */
class PlanConfirm implements Modal {
  constructor(
    private readonly ctx: CommandContext,
    private readonly title: string,
    private readonly plan: RewindPlan,
    private readonly onConfirm: () => void,
  ) {}

  handle(label: string): boolean {
    if (label === "esc" || label === "ctrl+c" || label === "n") {
      this.ctx.status([{ text: "Rewind cancelled; nothing was changed.", level: "info" }], 3000);
      return true;
    }
    if (label === "enter" || label === "y") {
      this.onConfirm();
      return true;
    }
    return false;
  }

  render(width: number): string[] {
    const style = this.ctx.style;
    const out = modalHeader(style, width, this.title, style.fg("muted", "enter rewinds · esc cancels"));
    const rows = [
      ...this.plan.changes.map((c) => `${style.fg(c.action === "remove" ? "error" : "accent", ACTION_LABEL[c.action])}  ${c.path}`),
      ...this.plan.kept.map((k) => `${style.fg("muted", "leave  ")}  ${k.path} ${style.fg("muted", `(${k.why})`)}`),
    ];
    if (rows.length === 0) out.push(style.fg("muted", "No file differs from the checkpoint; only the conversation part (if any) changes."));
    for (const r of rows.slice(0, MAX_ROWS)) out.push(truncate(`  ${r}`, width));
    if (rows.length > MAX_ROWS) out.push(style.fg("muted", `  … and ${rows.length - MAX_ROWS} more`));
    return out;
  }

  invalidate(): void {}
}
