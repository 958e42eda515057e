// The --no-yolo tool confirmation dialog: which tool (and owning extension) wants to run with what,
// and four answers. "No" takes an optional reason that is sent to the model.
import type { ConfirmDecision, ConfirmRequest } from "../agent/events.ts";
import { sanitize } from "./ansi.ts";
import type { Style } from "./theme.ts";
import { highlight } from "./list.ts";
import { truncate } from "./wrap.ts";

const CHOICES = ["yes", "yes_tool", "yes_all", "no"] as const;

export class ConfirmDialog {
  selected = 0;
  /** Non-null while the user types the reason for "no". */
  reason: string | null = null;

  constructor(
    readonly req: ConfirmRequest,
    private readonly resolve: (decision: ConfirmDecision) => void,
  ) {}

  /** Handles a key; true once the dialog is answered. */
  handle(label: string, text: string | null): boolean {
    if (this.reason !== null) return this.handleReason(label, text);
    switch (text ?? label) {
      case "up":
      case "shift+tab":
        this.selected = (this.selected + CHOICES.length - 1) % CHOICES.length;
        return false;
      case "down":
      case "tab":
        this.selected = (this.selected + 1) % CHOICES.length;
        return false;
      case "1":
      case "y":
        return this.choose(0);
      case "2":
        return this.choose(1);
      case "3":
      case "a":
        return this.choose(2);
      case "4":
      case "n":
        return this.choose(3);
      case "enter":
        return this.choose(this.selected);
      case "esc":
      case "ctrl+c":
        this.resolve({ kind: "no" });
        return true;
      default:
        return false;
    }
  }

  /** Answers "no" without a reason (the turn was cancelled under the dialog). */
  cancel(): void {
    this.resolve({ kind: "no" });
  }

  render(width: number, style: Style): string[] {
    const w = Math.max(10, width);
    const tool = sanitize(this.req.name);
    const owner = this.req.extension ? ` [${sanitize(this.req.extension)}]` : "";
    const out = [
      style.fg("border", "─".repeat(w)),
      truncate(style.bold(style.fg("warning", "Allow tool call? ")) + style.bold(style.fg("tool", tool)) + style.fg("muted", owner), w),
      truncate("  " + style.fg("muted", sanitize(this.req.preview).replace(/\s*\n\s*/g, " ⏎ ")), w),
    ];
    const labels = ["Yes", `Yes, and don't ask again for ${tool} this session`, "Yes to everything this session (yolo)", "No, and tell the model why"];
    labels.forEach((label, i) => {
      const line = `${i === this.selected ? "›" : " "} ${i + 1}. ${label}`;
      out.push(i === this.selected ? highlight(style, truncate(line, w)) : truncate(line, w));
    });
    if (this.reason !== null) out.push(truncate(style.fg("accent", "  reason (optional, enter to send): ") + this.reason, w));
    return out;
  }

  private choose(i: number): boolean {
    const choice = CHOICES[i]!;
    if (choice === "no") {
      this.selected = 3;
      this.reason = "";
      return false;
    }
    this.resolve({ kind: choice });
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
        this.resolve({ kind: "no" });
        return true;
      default:
        return false;
    }
  }
}
