// How an exec and its arguments become a process on each platform. POSIX and Windows .exe files are
// spawned directly. A Windows .cmd or .bat file (npm's `npx.cmd`, pyenv's `python.bat`) cannot be:
// it runs under `cmd.exe /d /s /c "…"`, with every argument quoted for the C runtime and its cmd
// metacharacters escaped (twice for npm's node_modules\.bin shims, which pass `%*` through cmd
// again). The rules are cross-spawn's, which Node's own tooling has long relied on.
export type SpawnCommand = { argv: string[]; windowsVerbatimArguments: boolean };

const CMD_META = /([()\][%!^"`<>&|;, *?])/g;

export function isCmdScript(exec: string, platform: string): boolean {
  return platform === "win32" && /\.(cmd|bat)$/i.test(exec);
}

/** One argument quoted for CommandLineToArgvW / the C runtime, then escaped for cmd.exe. */
export function quoteCmdArgument(arg: string, doubleEscape: boolean): string {
  let quoted = arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, "$1$1");
  quoted = `"${quoted}"`.replace(CMD_META, "^$1");
  return doubleEscape ? quoted.replace(CMD_META, "^$1") : quoted;
}

export function spawnCommand(exec: string, args: readonly string[], platform: string, comspec = "cmd.exe"): SpawnCommand {
  if (!isCmdScript(exec, platform)) return { argv: [exec, ...args], windowsVerbatimArguments: false };
  const npmShim = /node_modules[\\/]\.bin[\\/][^\\/]+\.cmd$/i.test(exec);
  const line = [exec.replace(CMD_META, "^$1"), ...args.map((a) => quoteCmdArgument(a, npmShim))].join(" ");
  return { argv: [comspec, "/d", "/s", "/c", `"${line}"`], windowsVerbatimArguments: true };
}
