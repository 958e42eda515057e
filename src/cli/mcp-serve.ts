// `zot mcp serve`: zot as an MCP server, over stdio or Streamable HTTP. Its own options are
// --http and --token-env; the rest are zot's (--cwd, --ext, --no-ext, --mcp, --no-mcp, --tools,
// --no-tools, --permission-mode, --sandbox, --add-dir, --trust …), parsed by zot's own parser so
// they mean exactly what they mean for a run. The server itself is runtime/mcp-serve/.
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgv } from "./args.ts";
import { zotHome } from "../platform/home.ts";
import { Host } from "../ext/host.ts";
import { shutdownOnSignals } from "../ext/signals.ts";
import { trustMode } from "../ext/install/trust.ts";
import { withMcp } from "../runtime/mcp-wiring.ts";
import { createRuntime } from "../runtime/setup.ts";
import { defaultProvider } from "../agent/config.ts";
import { SERVED_BUILTINS, ServedTools } from "../runtime/mcp-serve/tools.ts";

export type ServeIo = { out: (text: string) => void; err: (text: string) => void; input: AsyncIterable<Uint8Array>; env: Record<string, string | undefined> };

export const SERVE_USAGE =
  "serve [--http [HOST:]PORT --token-env VAR] [zot options: --cwd DIR --ext PATH --no-ext --mcp FILE --no-mcp --tools LIST --no-tools --permission-mode MODE --sandbox MODE --trust …]";

export const SERVE_HELP = `usage: zot mcp ${SERVE_USAGE}

zot as an MCP server for any MCP host (Claude Code, Codex, Cursor, the MCP Inspector): it serves
zot's built-in read, write, edit and bash (--tools chooses others), the tools of its extensions and
of the MCP servers in zot's own configuration (--no-ext, --no-mcp, --no-tools leave them out), and
zot_agent ({"prompt"}: zot runs the whole task with its model and answers) when a provider key is set.
Every call passes zot's extension interceptors, permission mode and rules, /jail and sandbox, as the
model's calls do; a call that needs approval asks through MCP elicitation, and is refused when the
client cannot be asked. Protocol 2025-11-25 (initialize) and 2026-07-28 (server/discover).

  (no --http)            stdio: one JSON-RPC message per line on stdin and stdout
  --http [HOST:]PORT     Streamable HTTP on http://HOST:PORT/mcp (HOST defaults to 127.0.0.1;
                         PORT 0 picks a free one; the URL is printed on stderr)
  --token-env VAR        with --http, required: clients must send Authorization: Bearer $VAR

add it to Claude Code:  claude mcp add zot -- zot mcp serve
`;

/** Returns the exit status: 2 for usage errors, 1 for failures to start. */
export async function runMcpServe(argv: string[], io: ServeIo): Promise<number> {
  const own = splitOwn(argv);
  if (!own.ok) return usage(io, own.error);
  if (own.help) {
    io.out(SERVE_HELP);
    return 0;
  }
  const parsed = parseArgv(own.rest);
  if (parsed.kind === "error") return usage(io, parsed.message);
  if (parsed.kind !== "run") return usage(io, `unexpected "${own.rest[0]}" after zot mcp serve`);
  const args = parsed.args;
  if (args.prompt !== undefined) return usage(io, `zot mcp serve takes no prompt ("${args.prompt.slice(0, 40)}"); MCP clients call its tools`);
  if (args.mode !== "interactive" || args.listModels || args.help || args.version || args.resume || args.continue || args.session !== undefined)
    return usage(io, "zot mcp serve takes no mode or session options (-p, --json, rpc, -c, -r, --session, --list-models)");
  let http: { hostname: string; port: number; token: string } | null = null;
  if (own.http !== undefined) {
    const addr = parseAddress(own.http);
    if (!addr.ok) return usage(io, addr.error);
    if (own.tokenEnv === undefined)
      return usage(
        io,
        "--http needs --token-env VAR: the variable holding the bearer token clients must send (e.g. export ZOT_MCP_TOKEN=$(openssl rand -hex 32))",
      );
    const token = io.env[own.tokenEnv];
    if (token === undefined || token.trim() === "")
      return usage(io, `--token-env ${own.tokenEnv}: the variable ${own.tokenEnv} is not set or empty; set it to the token clients must send`);
    http = { ...addr, token: token.trim() };
  } else if (own.tokenEnv !== undefined)
    return usage(io, "--token-env applies to --http only; over stdio the client that started zot is the only one that can talk to it");

  const home = resolve(zotHome());
  const cwd = resolve(args.cwd ?? process.cwd());
  if (!isDirectory(cwd)) return usage(io, `--cwd ${args.cwd} is not a directory`);
  const trust = trustMode(args.trust, io.env);
  const host = await withMcp(new Host(), { home, cwd, files: args.mcp, none: args.noMcp, trust, interactive: false });
  let stop = (): Promise<void> => Promise.resolve();
  const unhook = shutdownOnSignals(host, undefined, () => stop());
  // Served tools call no model: without a key the runtime stands on the offline mock provider, quietly.
  const keyless =
    args.provider === undefined &&
    args.mockScript === undefined &&
    defaultProvider({ home, env: io.env, ...(args.apiKey !== undefined ? { apiKey: args.apiKey } : {}) }).provider === "mock";
  // Served calls join no conversation, so there is no transcript to write.
  const created = await createRuntime({
    ...args,
    ...(keyless ? { provider: "mock" as const } : {}),
    tools: args.tools ?? [...SERVED_BUILTINS],
    noSession: true,
    home,
    cwd,
    env: io.env,
    trust,
    interactive: false,
    host,
  });
  if (!created.ok) {
    for (const n of created.notices ?? []) io.err(`zot: ${n}\n`);
    io.err(`zot: ${created.error}\n`);
    await host.shutdown();
    unhook();
    return created.usage ? 2 : 1;
  }
  const { runtime, notices } = created;
  for (const n of notices) io.err(`zot: ${n}\n`);
  const tools = new ServedTools(runtime, !args.noTools, !keyless);
  // A server stays up like an RPC session: the normal JIT policy back (see cli/run.ts).
  Bun.unsafe.setJITPolicy(1);
  try {
    if (http) {
      const { serveHttp } = await import("../runtime/mcp-serve/http.ts");
      let server: ReturnType<typeof serveHttp>;
      try {
        server = serveHttp(runtime, tools, http);
      } catch (err) {
        io.err(`zot: cannot listen on ${own.http}: ${err instanceof Error ? err.message : String(err)}\n`);
        return 1;
      }
      io.err(`zot mcp serve: listening on ${server.url}\n`);
      stop = () => server.stop();
      // Runs until a signal: shutdownOnSignals stops the server (stop), the extensions, then exits.
      await new Promise(() => {});
    } else {
      const { serveStdio } = await import("../runtime/mcp-serve/stdio.ts");
      const served = serveStdio(runtime, tools, { input: io.input, write: io.out, warn: io.err });
      stop = () => served.stop();
      await served.done;
    }
  } finally {
    await runtime.close();
    unhook();
  }
  return 0;
}

type Own = { ok: true; help: boolean; http?: string; tokenEnv?: string; rest: string[] } | { ok: false; error: string };

/** Takes out the options only `serve` has; the rest are zot's. */
function splitOwn(argv: string[]): Own {
  const rest: string[] = [];
  let help = false;
  let http: string | undefined;
  let tokenEnv: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? "";
    const [flag, inline] = a.startsWith("--") && a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, undefined];
    if (flag === "--help" || flag === "-h") help = true;
    else if (flag === "--http" || flag === "--token-env") {
      const v = inline ?? argv[++i];
      if (v === undefined || v === "") return { ok: false, error: `${flag} needs a value` };
      if (flag === "--http") http = v;
      else tokenEnv = v;
    } else rest.push(a);
  }
  return { ok: true, help, ...(http !== undefined ? { http } : {}), ...(tokenEnv !== undefined ? { tokenEnv } : {}), rest };
}

/** `PORT`, `:PORT`, `HOST:PORT` or `[IPv6]:PORT`; the host defaults to loopback. */
export function parseAddress(text: string): { ok: true; hostname: string; port: number } | { ok: false; error: string } {
  const m = /^(?:(\[[0-9a-fA-F:.]+\]|[^:[\]]+)?:)?(\d+)$/.exec(text.trim());
  const port = m ? Number(m[2]) : Number.NaN;
  if (!m || !Number.isInteger(port) || port > 65535)
    return { ok: false, error: `--http ${JSON.stringify(text)} is not [HOST:]PORT (e.g. --http 127.0.0.1:8765, or --http 0 for a free port on 127.0.0.1)` };
  const host = m[1] ?? "127.0.0.1";
  return { ok: true, hostname: host.startsWith("[") ? host.slice(1, -1) : host, port };
}

function usage(io: ServeIo, error: string): number {
  io.err(`zot: ${error}; usage: zot mcp ${SERVE_USAGE.split(" [zot options")[0]} [zot options] (zot mcp serve --help)\n`);
  return 2;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
