// zot's command line: argv → mode. Wiring only. Everything beyond --version and --help is loaded on
// demand so the quick answers stay quick.
import { parseArgv } from "./args.ts";
import { io } from "./output.ts";
import { buildInfo, versionText } from "../version.ts";

/** Runs zot as argv asks; its exit status. */
export async function runCli(argv: string[]): Promise<number> {
  const parsed = parseArgv(argv);
  if (parsed.kind === "error") {
    io.err(`zot: ${parsed.message}\n`);
    return 2;
  }
  if (parsed.kind === "ext") {
    const { runExtCli } = await import("./ext.ts");
    return runExtCli(parsed.argv, { stdout: { write: io.out }, stderr: { write: io.err } });
  }
  if (parsed.kind === "update") {
    const { runUpdate } = await import("../update/update.ts");
    return runUpdate(parsed.check, process.env, io);
  }
  // The server needs the runtime, which the host-side `zot mcp` commands must not import.
  if (parsed.kind === "mcp" && parsed.argv[0] === "serve") {
    const { runMcpServe } = await import("./mcp-serve.ts");
    return runMcpServe(parsed.argv.slice(1), { out: io.out, err: io.err, input: Bun.stdin.stream(), env: process.env });
  }
  if (parsed.kind === "mcp") {
    const { runMcpCli } = await import("./mcp.ts");
    return runMcpCli(parsed.argv, { stdout: { write: io.out }, stderr: { write: io.err } });
  }
  if (parsed.kind === "export") {
    const { runExport } = await import("./export.ts");
    return runExport(parsed.argv, process.env, process.cwd(), io);
  }
  const args = parsed.args;
  if (args.version) {
    io.out(versionText(buildInfo(), args.mode === "json"));
    return 0;
  }
  if (args.help) {
    const { helpText } = await import("./help.ts");
    io.out(helpText());
    return 0;
  }
  // Before the agent's modules load: the sandbox's command server starts while they do. Not for
  // ACP, whose sessions start when the editor asks.
  if (!args.listModels && args.mode !== "acp") (await import("../agent/sandbox/server-process.ts")).prestartServer(args);
  const { runAgent } = await import("./run.ts");
  return runAgent(args);
}
