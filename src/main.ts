// zot's entry point. It imports nothing before it knows what it is: re-executed as the sandbox
// launcher (the agent's command server at every sandboxed session's start, a scoped extension's
// start), zot loads none of the command line, whose modules import node:fs — ~2 ms of CPU at every
// start that has it (bench/RESULTS.md, "The launcher without node:fs").

const argv = process.argv.slice(2);
const launcher = argv[0] === "__sandbox";

async function main(): Promise<number> {
  if (launcher) {
    const { runLauncher } = await import("./ext/sandbox/launch.ts");
    return runLauncher(argv.slice(1));
  }
  const { runCli } = await import("./cli/dispatch.ts");
  return runCli(argv);
}

const internalError = (err: unknown): string => `zot: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`;

// Exit explicitly (leftover handles must not keep zot alive), but only once all output is written.
main().then(
  async (code) => {
    if (!launcher) await (await import("./cli/output.ts")).drain();
    process.exit(code);
  },
  async (err: unknown) => {
    if (launcher) process.stderr.write(internalError(err));
    else {
      const { drain, io } = await import("./cli/output.ts");
      io.err(internalError(err));
      await drain();
    }
    process.exit(1);
  },
);
