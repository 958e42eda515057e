// What stays in the terminal after zot exits: the alternate screen is gone, so the conversation's
// last lines are printed on the main screen (into the terminal's own scrollback), with how to
// continue. Printing once at exit keeps the live screen's diffed, flicker-free rendering untouched.

/** At most this many transcript lines are printed; more would only bury the shell. */
export const EXIT_LINES = 2000;

export function exitText(lines: readonly string[], sessionPath: string | null, hint: (s: string) => string): string {
  const shown = lines.slice(-EXIT_LINES);
  const out = shown.length > 0 ? shown.join("\n") + "\n\n" : "";
  return out + (sessionPath ? hint("Continue this conversation with: zot -c") + "\n" : "");
}
