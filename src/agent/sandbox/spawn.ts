// The one way the agent's commands start (the bash tool, foreground and background): inside the
// session's command server where the sandbox is enforced on Linux (command-server.ts: confined once,
// each command its child), else spawned directly, wrapped by confinedArgv where that is how the
// sandbox holds (macOS). Either way a command leads its own process group, what it leaves in the
// group when its shell exits is killed, and zot's exit hook and the reaper end it if zot goes.
import { childEnv } from "../../platform/env.ts";
import { killTree, ownsProcessGroup } from "../../platform/process-tree.ts";
import { registerGroup } from "../../platform/reaper.ts";
import { AWAIT_GO, go } from "../../platform/go-line.ts";
import { readToExit } from "../../platform/shell-exit.ts";
import { Chunks, type Command, type CommandExit } from "./command.ts";
import { commandServerFor } from "./command-server.ts";
import { confinedArgv, revocation } from "./status.ts";
import type { SandboxPolicy } from "./policy.ts";

/**
 * `shell -c script args…` (the shell absolute); the error sentence when the command could not
 * start. A command zot spawns itself runs once zot's go has come (platform/go-line.ts): not before
 * zot can end it, however zot ends. The command server needs no go: a command is its child, ended
 * by it when zot goes, from the spawn on.
 */
export async function spawnCommand(shell: string, script: string, args: string[], cwd: string, sandbox: SandboxPolicy | undefined): Promise<Command | string> {
  const refused = await revocation(sandbox);
  if (refused) return refused;
  const env = childEnv(process.env);
  const server = commandServerFor(sandbox);
  if (server) return server.start([shell, "-c", script, ...args], cwd, env);
  try {
    return direct(confinedArgv(sandbox, [shell, "-c", `${AWAIT_GO}${script}`, ...args]), cwd, env);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** Process groups of directly spawned commands still running, killed if zot exits while they run. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function direct(argv: string[], cwd: string, env: Record<string, string>): Command {
  const proc = Bun.spawn(argv, { cwd, stdin: "pipe", stdout: "pipe", stderr: "ignore", detached: ownsProcessGroup(), env });
  const pid = proc.pid;
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", () => {
      for (const g of liveGroups) killTree(g, "SIGKILL");
    });
  }
  liveGroups.add(pid);
  // The exit hook covers exits that run code; the reaper covers kill -9, from the go on.
  registerGroup(pid);
  go(proc.stdin);
  const output = new Chunks();
  let running = true;
  const exited = readToExit(
    proc,
    (bytes) => output.push(bytes),
    () => {
      running = false;
      killTree(pid, "SIGKILL");
      liveGroups.delete(pid);
    },
  ).then((exit): CommandExit => {
    output.end();
    return exit;
  });
  return {
    pid,
    output,
    exited,
    kill: (signal) => {
      if (running) killTree(pid, signal);
    },
  };
}
