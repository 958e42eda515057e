// Runs zot for parsed arguments: checks the values that need the file system, answers the
// one-shot queries (--list-models, headless --resume), builds the runtime and hands it to a mode.
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { projectExtensionsDir } from "../ext/discovery.ts";
import { zotHome } from "../platform/home.ts";
import { Host } from "../ext/host.ts";
import { shutdownOnSignals } from "../ext/signals.ts";
import { trustMode } from "../ext/install/trust.ts";
import { hasProjectLists } from "../mcp/config.ts";
import { withMcp } from "../runtime/mcp-wiring.ts";
import { isDumbTerminal, isTerminal } from "../platform/terminal.ts";
import type { CliArgs } from "./args.ts";
import { drain, io } from "./output.ts";
import { hasPipedInput, readPipedPrompt } from "./stdin.ts";
// Loaded with this module, not at their point of use: every run of the agent builds a runtime, and
// the one-shot modes are small; each dynamic import would be one more chunk to load (see
// runtime/agent-parts.ts).
import { createRuntime } from "../runtime/setup.ts";
import { runPrint } from "../modes/print.ts";
import { runJson } from "../modes/json.ts";

/** How long a signalled one-shot run may take to end its turn before zot exits anyway. */
const SETTLE_MS = 2000;

function notice(text: string): string {
  return `${text.startsWith("zot: ") ? text : `zot: ${text}`}\n`;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Returns the exit status. Usage errors are 2, failures 1. */
export async function runAgent(args: CliArgs): Promise<number> {
  const home = resolve(zotHome());
  const cwd = resolve(args.cwd ?? process.cwd());
  if (!isDirectory(cwd)) {
    io.err(`zot: --cwd ${args.cwd} is not a directory.\n`);
    return 2;
  }
  if (args.mockScript !== undefined && !isFile(resolve(args.mockScript))) {
    io.err(`zot: --mock-script ${args.mockScript} is not a readable file.\n`);
    return 2;
  }

  if (args.listModels) {
    const { listModels } = await import("./list-models.ts");
    return listModels(
      {
        home,
        env: process.env,
        json: args.mode === "json",
        provider: args.provider,
        apiKey: args.apiKey,
        baseUrl: args.baseUrl,
      },
      io.out,
      io.err,
    );
  }

  let mode = args.mode;
  const tty = mode === "interactive" && isTerminal(1) && isTerminal(0);
  if (args.resume && !(mode === "interactive" && tty)) {
    const { sessionSummary } = await import("../agent/session.ts");
    const { listSessions } = await import("../agent/session-list.ts");
    const sessions = listSessions(home, cwd);
    if (sessions.length === 0) io.out(`No sessions for ${cwd}.\n`);
    for (const s of sessions) io.out(`${s.created.slice(0, 19).replace("T", " ")}  ${sessionSummary(s).slice(0, 100)}\n  ${s.path}\n`);
    return 0;
  }

  if (mode === "acp") {
    if (args.prompt !== undefined) {
      io.err(`zot: zot acp takes no prompt argument ("${args.prompt.slice(0, 40)}"); the editor sends prompts over ACP.\n`);
      return 2;
    }
    const { runAcpCli } = await import("./acp.ts");
    Bun.unsafe.setJITPolicy(1);
    return runAcpCli(args, home);
  }
  if (mode === "rpc" && args.prompt !== undefined) {
    io.err(`zot: zot rpc takes no prompt argument ("${args.prompt.slice(0, 40)}"); send {"type":"prompt","message":…} on stdin.\n`);
    return 2;
  }
  let prompt = args.prompt;
  if (mode === "print" || mode === "json" || (mode === "interactive" && !tty)) {
    if (hasPipedInput()) {
      const read = await readPipedPrompt({ hint: () => io.err("zot: reading the prompt from stdin… (end it with Ctrl-D, or pass </dev/null to give none)\n") });
      if (!read.ok) {
        io.err(notice(read.error));
        return 2;
      }
      const piped = read.text.replace(/\s+$/, "");
      if (piped !== "") prompt = prompt === undefined ? piped : `${prompt}\n\n${piped}`;
    }
    if (prompt === undefined || prompt.trim() === "") {
      io.err(
        mode === "interactive"
          ? `zot: no terminal for the interactive mode and no prompt; pass a prompt (zot -p "…"), pipe one on stdin, or use --json or zot rpc.\n`
          : `zot: no prompt; pass it as an argument or pipe it on stdin.\n`,
      );
      return 2;
    }
    if (mode === "interactive") mode = "print";
  }

  const trust = trustMode(args.trust, process.env);
  // Only a terminal can be asked; headless modes skip unapproved project extensions and MCP servers
  // with a warning, and so does the TUI when the user chose to run without them.
  const scope = { extensions: !args.noExt && isDirectory(projectExtensionsDir(cwd)), servers: !args.noMcp && hasProjectLists(cwd) };
  if (mode === "interactive" && tty && trust === "store" && (scope.extensions || scope.servers)) {
    const { askTrust } = await import("../tui/trust-prompt.ts");
    if ((await askTrust(home, cwd, scope)) === "quit") return 0;
  }

  // MCP forms, /mcp-login and /trust need the full screen; line mode (TERM=dumb) is asked nothing.
  const host = await withMcp(new Host(), {
    home,
    cwd,
    files: args.mcp,
    none: args.noMcp,
    trust,
    interactive: mode === "interactive" && !isDumbTerminal(process.env),
  });
  // Installed before any extension starts, so a signal at any point still shuts them down. Once a
  // one-shot turn runs, a signal first aborts it (the partial answer is saved, JSON gets its
  // turn_end and done) and waits for that, within a deadline.
  let settle = (): Promise<void> => Promise.resolve();
  const unhook = shutdownOnSignals(host, undefined, () => settle());
  const created = await createRuntime({
    ...args,
    home,
    cwd,
    env: process.env,
    trust,
    interactive: mode === "interactive",
    mockScript: args.mockScript === undefined ? undefined : resolve(args.mockScript),
    host,
  });
  if (!created.ok) {
    for (const n of created.notices ?? []) io.err(notice(n));
    io.err(notice(created.error));
    await host.shutdown();
    unhook();
    return created.usage ? 2 : 1;
  }
  const { runtime, notices } = created;
  let code: number;
  try {
    if (mode === "interactive") {
      const { runTui } = await import("../tui/app.ts");
      // The build starts zot with raised JIT thresholds (one-shot start-up code is not worth
      // compiling); a session that stays open gets the normal policy back: measured in RPC mode,
      // an 800-step loop takes 12 % less CPU with it (a 200-step one 15 % more, +10 MiB).
      Bun.unsafe.setJITPolicy(1);
      code = await runTui(runtime, host, { home, resume: args.resume, initialPrompt: prompt, notices });
    } else {
      for (const n of notices) io.err(notice(n));
      if (mode === "rpc") {
        const { runRpc } = await import("../modes/rpc.ts");
        Bun.unsafe.setJITPolicy(1);
        const token = process.env.ZOTCORE_RPC_TOKEN;
        code = await runRpc(runtime, host, { ...io, input: Bun.stdin.stream(), home, ...(token ? { token } : {}) });
      } else {
        const run = mode === "json" ? runJson(runtime, host, prompt ?? "", io) : runPrint(runtime, host, prompt ?? "", io);
        settle = async () => {
          runtime.abort();
          await Promise.race([run.catch(() => undefined), Bun.sleep(SETTLE_MS)]);
          await drain();
        };
        code = await run;
      }
    }
  } finally {
    await runtime.close();
    unhook();
  }
  return code;
}
