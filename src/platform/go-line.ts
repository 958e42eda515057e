// A command's start, held until zot can end it whatever happens. Its shell reads one line from
// stdin, the go, before it runs anything; zot writes it once the command's process group is listed
// with the reaper (platform/reaper.ts). Without it, a kill -9 of zot right after a spawn, before
// the listing, left the command running with nobody to end it (seen under load); now such a
// command reads the end of the pipe instead, exits with status 125 and has run nothing. The command
// server's commands have no go: each is the server's child from its spawn on, and the server kills
// its children itself when zot goes.
import type { FileSink } from "bun";

/** The start of a command's shell script: wait for the go, then read nothing more from zot. */
export const AWAIT_GO = "read -r _ || exit 125; exec </dev/null; ";

/** Sends the go and closes the command's stdin. */
export function go(stdin: FileSink): void {
  try {
    stdin.write("\n");
    stdin.end();
  } catch {
    // The command is gone already: there is nothing to let go.
  }
}
