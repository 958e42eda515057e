// zot's entry point: argv → mode. Wiring only. Everything beyond --version and --help is loaded on
// demand so the quick answers stay quick.
import { parseArgv } from "./cli/args.ts";
import { drain, io } from "./cli/output.ts";
import { buildInfo, versionText } from "./version.ts";

async function main(argv: string[]): Promise<number> {
  // zot re-executed as the sandbox launcher of a permission-scoped extension (src/ext/sandbox).
  if (argv[0] === "__sandbox") {
    const { runLauncher } = await import("./ext/sandbox/launch.ts");
    return runLauncher(argv.slice(1));
  }
  const parsed = parseArgv(argv);
  if (parsed.kind === "error") {
    io.err(`zot: ${parsed.message}\n`);
    return 2;
  }
  if (parsed.kind === "ext") {
    const { runExtCli } = await import("./cli/ext.ts");
    return runExtCli(parsed.argv, { stdout: { write: io.out }, stderr: { write: io.err } });
  }
  if (parsed.kind === "update") {
    const { runUpdate } = await import("./update/update.ts");
    return runUpdate(parsed.check, process.env, io);
  }
  // The server needs the runtime, which the host-side `zot mcp` commands must not import.
  if (parsed.kind === "mcp" && parsed.argv[0] === "serve") {
    const { runMcpServe } = await import("./cli/mcp-serve.ts");
    return runMcpServe(parsed.argv.slice(1), { out: io.out, err: io.err, input: Bun.stdin.stream(), env: process.env });
  }
  if (parsed.kind === "mcp") {
    const { runMcpCli } = await import("./cli/mcp.ts");
    return runMcpCli(parsed.argv, { stdout: { write: io.out }, stderr: { write: io.err } });
  }
  if (parsed.kind === "export") {
    const { runExport } = await import("./cli/export.ts");
    return runExport(parsed.argv, process.env, process.cwd(), io);
  }
  const args = parsed.args;
  if (args.version) {
    io.out(versionText(buildInfo(), args.mode === "json"));
    return 0;
  }
  if (args.help) {
    const { helpText } = await import("./cli/help.ts");
    io.out(helpText());
    return 0;
  }
  const { runAgent } = await import("./cli/run.ts");
  return runAgent(args);
}

// Exit explicitly (leftover handles must not keep zot alive), but only once all output is written.
main(process.argv.slice(2)).then(
  async (code) => {
    await drain();
    process.exit(code);
  },
  async (err: unknown) => {
    io.err(`zot: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    await drain();
    process.exit(1);
  },
);
