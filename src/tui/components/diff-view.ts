// Unified diffs and file contents as the user reads them: removed lines red, added lines green,
// hunk headers in the accent colour, each line numbered (the old number for a removed line, the new
// one otherwise), long lines wrapped under their text, control characters shown as escapes.
import { revealControls } from "../terminal/ansi.ts";
import type { Style } from "../terminal/theme.ts";
import { wrap } from "../terminal/wrap.ts";

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** `text` made visible (controls as escapes) and wrapped after a gutter; continuation lines get a blank gutter. */
function gutterLines(gutter: string, blank: string, text: string, width: number, style: Style, colour: (s: string) => string): string[] {
  // Tabs in code are indentation, not a trick: they become spaces; every other control is shown.
  const shown = revealControls(text.replace(/\t/g, "    "), (e) => style.inverse(e));
  return wrap(shown, Math.max(1, width - blank.length)).map((part, i) => (i === 0 ? gutter : blank) + colour(part));
}

export function renderDiff(diff: string, width: number, style: Style): string[] {
  const lines = diff.replace(/\n$/, "").split("\n");
  let highest = 1;
  for (const l of lines) {
    const m = HUNK.exec(l);
    if (m) highest = Math.max(highest, Number(m[1]) + lines.length, Number(m[2]) + lines.length);
  }
  const digits = String(highest).length;
  const blank = " ".repeat(digits + 3);
  const out: string[] = [];
  let oldNo = 0;
  let newNo = 0;
  for (const line of lines) {
    const hunk = HUNK.exec(line);
    if (hunk) {
      oldNo = Number(hunk[1]);
      newNo = Number(hunk[2]);
      out.push(...gutterLines("", "", line, width, style, (s) => style.fg("accent", s)));
      continue;
    }
    if (line.startsWith("--- ") || line.startsWith("+++ ")) {
      out.push(...gutterLines("", "", line, width, style, (s) => style.bold(style.fg("muted", s))));
      continue;
    }
    const sign = line[0] ?? " ";
    const body = line.slice(1);
    if (sign === "-") {
      out.push(
        ...gutterLines(style.fg("muted", String(oldNo).padStart(digits)) + style.fg("error", " - "), blank, body, width, style, (s) => style.fg("error", s)),
      );
      oldNo++;
    } else if (sign === "+") {
      out.push(
        ...gutterLines(style.fg("muted", String(newNo).padStart(digits)) + style.fg("success", " + "), blank, body, width, style, (s) =>
          style.fg("success", s),
        ),
      );
      newNo++;
    } else {
      out.push(...gutterLines(style.fg("muted", String(newNo).padStart(digits) + "   "), blank, body, width, style, (s) => s));
      oldNo++;
      newNo++;
    }
  }
  return out;
}

/** A whole file's text, numbered from 1, as it will be written. */
export function renderNumbered(text: string, width: number, style: Style): string[] {
  const lines = text.replace(/\n$/, "").split("\n");
  const digits = String(lines.length).length;
  const blank = " ".repeat(digits + 3);
  return lines.flatMap((line, i) =>
    gutterLines(style.fg("muted", String(i + 1).padStart(digits)) + style.fg("success", " + "), blank, line, width, style, (s) => s),
  );
}
