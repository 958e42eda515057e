// What every `zot ext` subcommand runs against: the environment, directories and output streams.
// Tests pass their own (ZOT_HOME in a temp dir, captured output); zot itself uses the process's.
import type { Result } from "../../result.ts";
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { zotHome } from "../../platform/home.ts";

export type Output = { write(text: string): unknown };

export type CliIo = {
  env?: Record<string, string | undefined>;
  /** The process working directory: default for `--cwd`, base for relative paths. */
  cwd?: string;
  stdout?: Output;
  stderr?: Output;
  /** Where `remove` reads its confirmation from. */
  stdin?: ReadableStream<Uint8Array> | null;
  /** Whether stdin and stdout are a terminal (confirmation prompts are only offered then). */
  isTTY?: boolean;
  /** Ends `logs -f` (zot itself stops it with Ctrl-C). */
  signal?: AbortSignal;
};

export type Ctx = {
  env: Record<string, string | undefined>;
  processCwd: string;
  /** `--cwd` (absolute) or the process cwd: the project whose `.zot/extensions` is the project root. */
  cwd: string;
  home: string;
  out: Output;
  err: Output;
  /** Opened only when a prompt is shown, so other subcommands never touch stdin. */
  stdin: () => ReadableStream<Uint8Array> | null;
  isTTY: boolean;
  signal: AbortSignal | undefined;
};

export function makeCtx(io: CliIo, cwdFlag: string | undefined): Result<{ ctx: Ctx }> {
  const env = io.env ?? process.env;
  const processCwd = io.cwd ?? process.cwd();
  const cwd = cwdFlag === undefined ? processCwd : resolve(processCwd, cwdFlag);
  if (cwdFlag !== undefined) {
    let isDir = false;
    try {
      isDir = statSync(cwd).isDirectory();
    } catch {
      isDir = false;
    }
    if (!isDir) return { ok: false, error: `--cwd ${cwdFlag} is not a directory; pass an existing project directory.` };
  }
  return {
    ok: true,
    ctx: {
      env,
      processCwd,
      cwd,
      home: resolve(processCwd, zotHome(env)),
      out: io.stdout ?? process.stdout,
      err: io.stderr ?? process.stderr,
      stdin: () => (io.stdin === undefined ? (Bun.stdin.stream() as ReadableStream<Uint8Array>) : io.stdin),
      isTTY: io.isTTY ?? Boolean(process.stdin.isTTY && process.stdout.isTTY),
      signal: io.signal,
    },
  };
}

/** Prints `zot: <sentence>` on stderr; returns the exit code 1. */
export function fail(ctx: Pick<Ctx, "err">, sentence: string): 1 {
  ctx.err.write(`zot: ${sentence}\n`);
  return 1;
}

/** The first line the user types (without its newline); empty at end of input. */
export async function readLine(stream: ReadableStream<Uint8Array> | null): Promise<string> {
  if (!stream) return "";
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    reader.releaseLock();
  }
  return text.split("\n", 1)[0] ?? "";
}
