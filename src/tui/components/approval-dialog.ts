// The approval dialog: which tool (and owning extension) wants to run, everything it will do — the
// whole command with control characters made visible, the coloured diff of an edit or write, a new
// file's content, or the arguments as formatted JSON — scrollable when long, and the answers:
// once, a standing rule scoped to what was asked (this session or always for the project), yolo,
// or no with a reason. Esc refuses the call and stops the turn.
import type { ApprovalDetail, ConfirmDecision, ConfirmRequest } from "../../agent/events.ts";
import { revealControls, sanitize } from "../terminal/ansi.ts";
import { renderDiff, renderNumbered } from "./diff-view.ts";
import type { Component, StyleRef } from "./component.ts";
import { highlight } from "./list.ts";
import { ScrollWindow } from "./scroll-window.ts";
import { rewriteLine } from "./chat-log.ts";
import type { Style } from "../terminal/theme.ts";
import { truncate, wrap } from "../terminal/wrap.ts";

/**
 * One answer. `slot` is its number, the same in every dialog: an answer that does not apply to a
 * call (no rule can be scoped for it) is left out and the others keep their numbers, so a
 * practised `1` or `5` never means something else. A new kind of answer takes a new number.
 */
type Choice = { slot: number; label: string; key?: string; decision: ConfirmDecision | "reason" };

/** Rows of the dialog besides the detail: rule, title, scroll line, hint. */
const CHROME = 4;

export class ApprovalDialog implements Component {
  selected = 0;
  /** Non-null while the user types the reason for "no". */
  reason: string | null = null;
  /** ctrl+o: the detail takes as much of the screen as it can. */
  expanded = false;
  readonly scroll = new ScrollWindow();
  readonly choices: Choice[];
  private detailCache: { width: number; style: Style; lines: string[] } | null = null;

  constructor(
    private readonly theme: StyleRef,
    readonly req: ConfirmRequest,
    private readonly resolve: (decision: ConfirmDecision) => void,
  ) {
    this.choices = choicesFor(req);
  }

  /** Handles a key; true once the dialog is answered. */
  handle(label: string, text: string | null): boolean {
    if (this.reason !== null) return this.handleReason(label, text);
    switch (label) {
      case "up":
      case "shift+tab":
        this.selected = (this.selected + this.choices.length - 1) % this.choices.length;
        return false;
      case "down":
      case "tab":
        this.selected = (this.selected + 1) % this.choices.length;
        return false;
      case "ctrl+o":
        this.expanded = !this.expanded;
        return false;
      case "enter":
        return this.choose(this.selected);
      case "esc":
      case "ctrl+c":
        this.resolve({ kind: "stop" });
        return true;
    }
    if (this.scroll.key(label) || text === null) return false;
    const keyed = this.choices.findIndex((c) => String(c.slot) === text || c.key === text);
    return keyed >= 0 ? this.choose(keyed) : false;
  }

  /** Answers "no" without a reason (the turn was cancelled under the dialog). */
  cancel(): void {
    this.resolve({ kind: "no" });
  }

  /** The dialog for `width` columns in at most `rows` rows (without a limit, the whole detail shows). */
  render(width: number, rows = Number.POSITIVE_INFINITY): string[] {
    const style = this.theme.style;
    const w = Math.max(10, width);
    const detail = this.detailLines(w, style);
    const rewrite = rewriteLine({ ...(this.req.rewritten_by ? { rewrittenBy: this.req.rewritten_by } : {}) }, w, style);
    const room = Math.max(3, rows - this.choices.length - CHROME - 4 - rewrite.length);
    const height = Math.min(detail.length, this.expanded ? room : Math.min(room, Math.max(3, Math.floor(rows * 0.4))));
    const tool = sanitize(this.req.name);
    const by = this.req.agent ? style.fg("accent", ` (subagent ${sanitize(this.req.agent.id)})`) : "";
    const owner = (this.req.extension ? style.fg("muted", ` [${sanitize(this.req.extension)}]`) : "") + by;
    const out = [
      style.fg("border", "─".repeat(w)),
      truncate(
        style.bold(style.fg("warning", escalating(this.req) ? "Run " : "Allow ")) +
          style.bold(style.fg("tool", tool)) +
          owner +
          style.bold(style.fg("warning", escalating(this.req) ? " outside the sandbox?" : "?")) +
          style.fg("muted", "  " + summary(this.req.detail)),
        w,
      ),
      ...rewrite,
      ...this.scroll.show(style, detail, height, w, ` · ctrl+o ${this.expanded ? "smaller" : "taller"}`),
    ];
    this.choices.forEach((c, i) => {
      const line = `${i === this.selected ? "›" : " "} ${c.slot}. ${c.label}`;
      out.push(i === this.selected ? highlight(style, truncate(line, w)) : truncate(line, w));
    });
    if (this.reason !== null) out.push(truncate(style.fg("accent", "  reason (optional, enter to send): ") + this.reason, w));
    else out.push(style.fg("muted", truncate("  esc: no, and stop the turn", w)));
    return out;
  }

  invalidate(): void {
    this.detailCache = null;
  }

  private detailLines(width: number, style: Style): string[] {
    if (this.detailCache?.width === width && this.detailCache.style === style) return this.detailCache.lines;
    const lines = detailLines(this.req.detail, width, style);
    this.detailCache = { width, style, lines };
    return lines;
  }

  private choose(i: number): boolean {
    const choice = this.choices[i]!;
    if (choice.decision === "reason") {
      this.selected = i;
      this.reason = "";
      return false;
    }
    this.resolve(choice.decision);
    return true;
  }

  private handleReason(label: string, text: string | null): boolean {
    if (text !== null) {
      this.reason += text;
      return false;
    }
    switch (label) {
      case "enter": {
        const reason = (this.reason ?? "").trim();
        this.resolve(reason ? { kind: "no", reason } : { kind: "no" });
        return true;
      }
      case "backspace":
        this.reason = (this.reason ?? "").slice(0, -1);
        return false;
      case "esc":
      case "ctrl+c":
        this.resolve({ kind: "stop" });
        return true;
      default:
        return false;
    }
  }
}

/** The sandbox stopped the command; the question is one run outside it, so no standing answers are offered. */
const escalating = (req: ConfirmRequest): boolean => req.detail.kind === "command" && req.detail.escalation !== undefined;

function choicesFor(req: ConfirmRequest): Choice[] {
  // The sandbox stopped the call: the only question is whether to run it once outside (slot 6; no rule, no yolo).
  if (escalating(req))
    return [
      { slot: 6, label: "Yes, run it once outside the sandbox", key: "y", decision: { kind: "yes" } },
      { slot: 5, label: "No, and tell the model why", key: "n", decision: "reason" },
    ];
  const out: Choice[] = [{ slot: 1, label: "Yes", key: "y", decision: { kind: "yes" } }];
  if (req.scope !== null) {
    const { rules, label } = req.scope;
    const shown = sanitize(label);
    out.push(
      { slot: 2, label: `Yes, and don't ask again this session for ${shown}`, decision: { kind: "yes_rule", rules, always: false } },
      { slot: 3, label: `Yes, and always allow ${shown} in this project`, decision: { kind: "yes_rule", rules, always: true } },
    );
  }
  out.push(
    { slot: 4, label: "Yes to everything this session (yolo)", key: "a", decision: { kind: "yes_all" } },
    { slot: 5, label: "No, and tell the model why", key: "n", decision: "reason" },
  );
  return out;
}

function summary(d: ApprovalDetail): string {
  switch (d.kind) {
    case "command": {
      const n = d.command.split("\n").length;
      return n > 1 ? `${n} lines` : "";
    }
    case "diff":
      return `edit ${sanitize(d.path)}`;
    case "content":
      return `write ${sanitize(d.path)}`;
    case "json":
      return "arguments";
  }
}

function detailLines(d: ApprovalDetail, width: number, style: Style): string[] {
  const mark = (e: string) => style.inverse(style.fg("warning", e));
  const note = "note" in d && d.note ? wrap(sanitize(d.note), width - 2).map((l) => style.fg("warning", "  " + l)) : [];
  switch (d.kind) {
    case "command": {
      const lines = d.command === "" ? [""] : d.command.replace(/\n$/, "").split("\n");
      const blocked = d.escalation ? wrap(sanitize(d.escalation), width - 2).map((l) => style.fg("warning", "  " + l)) : [];
      return [
        ...blocked,
        ...lines.flatMap((line, i) =>
          wrap(revealControls(line, mark), width - 4).map((part, j) => (i === 0 && j === 0 ? style.fg("accent", "  $ ") : "    ") + part),
        ),
      ];
    }
    case "diff":
      return [...note, ...indent(renderDiff(d.diff, width - 2, style))];
    case "content":
      return [...note, ...indent(d.content === "" ? [style.fg("muted", "(empty file)")] : renderNumbered(d.content, width - 2, style))];
    case "json":
      return [...note, ...d.json.split("\n").flatMap((line) => wrap(revealControls(line, mark), width - 2).map((l) => "  " + l))];
  }
}

const indent = (lines: string[]): string[] => lines.map((l) => "  " + l);
