// The one way the agent's commands start (the bash tool, foreground and background): inside the
// session's command server where the sandbox is enforced on Linux (command-server.ts: confined once,
// each command its child), else spawned directly, wrapped by confinedArgv where that is how the
// sandbox holds (macOS). Either way a command leads its own process group, what it leaves in the
// group when its shell exits is killed, and zot's exit hook and the reaper end it if zot goes.
import { childEnv } from "../../platform/env.ts";
import { killTree, ownsProcessGroup } from "../../platform/process-tree.ts";
import { registerGroup } from "../../platform/reaper.ts";
import { Chunks, type Command, type CommandExit } from "./command.ts";
import { commandServerFor } from "./command-server.ts";
import { confinedArgv } from "./status.ts";
import type { SandboxPolicy } from "./policy.ts";

/** After the shell exits, how long a pipe kept open by an escaped (setsid) process may delay the result. */
const DRAIN_MS = 500;

/** `argv`: the shell and its arguments, absolute; the error sentence when the command could not start. */
export async function spawnCommand(argv: string[], cwd: string, sandbox: SandboxPolicy | undefined): Promise<Command | string> {
  const env = childEnv(process.env);
  const server = commandServerFor(sandbox);
  if (server) return server.start(argv, cwd, env);
  try {
    return direct(confinedArgv(sandbox, argv), cwd, env);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** Process groups of directly spawned commands still running, killed if zot exits while they run. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function direct(argv: string[], cwd: string, env: Record<string, string>): Command {
  const proc = Bun.spawn(argv, { cwd, stdin: "ignore", stdout: "pipe", stderr: "ignore", detached: ownsProcessGroup(), env });
  const pid = proc.pid;
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", () => {
      for (const g of liveGroups) killTree(g, "SIGKILL");
    });
  }
  liveGroups.add(pid);
  // The exit hook covers exits that run code; the reaper covers kill -9.
  registerGroup(pid);
  const output = new Chunks();
  const reader = proc.stdout.getReader();
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      output.push(value);
    }
  })().catch(() => undefined);
  let running = true;
  const exited = (async (): Promise<CommandExit> => {
    await proc.exited;
    running = false;
    // The shell is gone; whatever it left running in its group goes too, so nothing outlives the
    // command and no background child can hold the pipe open forever.
    killTree(pid, "SIGKILL");
    liveGroups.delete(pid);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const drained = await Promise.race([reading.then(() => true), new Promise<boolean>((res) => (timer = setTimeout(() => res(false), DRAIN_MS)))]);
    clearTimeout(timer);
    if (!drained) await reader.cancel().catch(() => undefined);
    output.end();
    return { code: proc.exitCode, signal: proc.signalCode === null ? null : String(proc.signalCode), drained };
  })();
  return {
    pid,
    output,
    exited,
    kill: (signal) => {
      if (running) killTree(pid, signal);
    },
  };
}
