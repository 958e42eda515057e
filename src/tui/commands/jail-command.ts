// /jail and /unjail: confine the built-in file tools to the working directory and refuse the
// obvious shell escapes (src/agent/jail.ts). The status line shows "jailed" while it is on.
import type { CommandContext } from "./command-context.ts";

export function jailCommand(ctx: CommandContext, on: boolean): void {
  const was = ctx.runtime.jail;
  const root = ctx.runtime.setJail(on);
  if (root !== null) {
    ctx.status(
      [
        { text: `${was ? "Still jailed" : "Jailed"}: read, write and edit stay inside ${root}; bash refuses cd out of it, sudo and similar.`, level: "warn" },
        { text: "A guardrail, not a sandbox: a shell command can still reach anything you can. /unjail lifts it.", level: "info" },
      ],
      8000,
    );
  } else
    ctx.status(
      [{ text: was ? "Unjailed: the tools may use any path again." : "Not jailed; /jail confines the file tools to this directory.", level: "info" }],
      4000,
    );
}
