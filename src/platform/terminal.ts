// What the terminal zot runs in can do, told by the environment.

/**
 * TERM=dumb: no cursor movement, colours or attributes. The interactive mode runs as line mode
 * there: prompts and answers as plain lines, no full screen, no panels or dialogs.
 */
export function isDumbTerminal(env: Record<string, string | undefined>): boolean {
  return env.TERM === "dumb";
}
