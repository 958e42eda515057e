// Runs zot for parsed arguments: checks the values that need the file system, answers the
// one-shot queries (--list-models, headless --resume), builds the runtime and hands it to a mode.
import { fstatSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { zotHome } from "../ext/home.ts";
import { Host } from "../ext/host.ts";
import { shutdownOnSignals } from "../ext/signals.ts";
import type { CliArgs } from "./args.ts";
import { io } from "./output.ts";

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

// process.stdin.isTTY builds Node's stream objects for stdin and stdout (~3 ms and ~4 MiB in a
// run that never uses them). A pipe or a file is told apart by one fstat; only a character device
// needs the real terminal check.
async function isTerminal(fd: 0 | 1): Promise<boolean> {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  const { isatty } = await import("node:tty");
  return isatty(fd);
}

/** A prompt can come down a pipe or from a file; /dev/null and terminals carry none. */
function hasPipedInput(): boolean {
  try {
    const st = fstatSync(0);
    return st.isFIFO() || st.isFile() || st.isSocket();
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
    const { loadModels } = await import("../agent/catalog.ts");
    const { models, warnings } = loadModels(home);
    for (const w of warnings) io.err(notice(w));
    const rows = models.map((m) => [m.provider, m.id, m.name, String(m.contextWindow), String(m.maxTokens), m.reasoning ? "yes" : "no", m.source]);
    const head = ["PROVIDER", "MODEL", "NAME", "CONTEXT", "MAX_OUT", "REASONING", "SOURCE"];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    for (const r of [head, ...rows]) io.out(r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join("  ") + "\n");
    return 0;
  }

  let mode = args.mode;
  const tty = mode === "interactive" && (await isTerminal(1)) && (await isTerminal(0));
  if (args.resume && !(mode === "interactive" && tty)) {
    const { listSessions } = await import("../agent/session.ts");
    const sessions = listSessions(home, cwd);
    if (sessions.length === 0) io.out(`No sessions for ${cwd}.\n`);
    for (const s of sessions) io.out(`${s.created}  ${String(s.messages).padStart(4)} messages  ${s.preview.replace(/\s+/g, " ").slice(0, 60)}\n  ${s.path}\n`);
    return 0;
  }

  if (mode === "rpc" && args.prompt !== undefined) {
    io.err(`zot: zot rpc takes no prompt argument ("${args.prompt.slice(0, 40)}"); send {"type":"prompt","message":…} on stdin.\n`);
    return 2;
  }
  let prompt = args.prompt;
  if (mode === "print" || mode === "json" || (mode === "interactive" && !tty)) {
    if (hasPipedInput()) {
      const piped = (await Bun.stdin.text()).replace(/\s+$/, "");
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

  const host = new Host();
  // Installed before any extension starts, so a signal at any point still shuts them down.
  const unhook = shutdownOnSignals(host);
  const { createRuntime } = await import("../agent/setup.ts");
  const created = await createRuntime({
    home,
    cwd,
    env: process.env,
    ...(args.provider ? { provider: args.provider } : {}),
    ...(args.model !== undefined ? { model: args.model } : {}),
    ...(args.apiKey !== undefined ? { apiKey: args.apiKey } : {}),
    ...(args.baseUrl !== undefined ? { baseUrl: args.baseUrl } : {}),
    ...(args.systemPrompt !== undefined ? { systemPrompt: args.systemPrompt } : {}),
    appendSystemPrompt: args.appendSystemPrompt,
    ...(args.reasoning ? { reasoning: args.reasoning } : {}),
    maxSteps: args.maxSteps,
    noTools: args.noTools,
    ...(args.tools ? { tools: args.tools } : {}),
    ext: args.ext,
    noExt: args.noExt,
    noYolo: args.noYolo,
    interactive: mode === "interactive",
    continue: args.continue,
    ...(args.session !== undefined ? { session: args.session } : {}),
    noSession: args.noSession,
    ...(args.mockScript !== undefined ? { mockScript: resolve(args.mockScript) } : {}),
    ...(args.extTrace !== undefined ? { extTrace: args.extTrace } : {}),
    host,
  });
  if (!created.ok) {
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
      // compiling); a session that stays open gets the normal policy back.
      Bun.unsafe.setJITPolicy(1);
      code = await runTui(runtime, { home, resume: args.resume, ...(prompt !== undefined ? { initialPrompt: prompt } : {}), notices });
    } else {
      for (const n of notices) io.err(notice(n));
      if (mode === "rpc") {
        const { runRpc } = await import("../modes/rpc.ts");
        Bun.unsafe.setJITPolicy(1);
        const token = process.env.ZOTCORE_RPC_TOKEN;
        code = await runRpc(runtime, { ...io, input: Bun.stdin.stream(), home, ...(token ? { token } : {}) });
      } else if (mode === "json") {
        const { runJson } = await import("../modes/json.ts");
        code = await runJson(runtime, prompt ?? "", io);
      } else {
        const { runPrint } = await import("../modes/print.ts");
        code = await runPrint(runtime, prompt ?? "", io);
      }
    }
  } finally {
    await runtime.close();
    unhook();
  }
  return code;
}
