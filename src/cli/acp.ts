// `zot acp`: the wiring behind the ACP agent (modes/acp). Each session the editor opens is a zot
// runtime built as any run's is — config, keys, extensions, MCP servers (the editor's own among
// them, started by zot's MCP client under the same rules), sandbox, session file — in the cwd the
// editor names. The command line's flags apply to every session.
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Host } from "../ext/host.ts";
import { trustMode } from "../ext/install/trust.ts";
import { isObject } from "../json.ts";
import { withMcp } from "../runtime/mcp-wiring.ts";
import { createRuntime } from "../runtime/setup.ts";
import { sessionDir } from "../platform/home.ts";
import { listSessions } from "../agent/session-list.ts";
import { authPath } from "../platform/home.ts";
import { KEYED_PROVIDERS, PROVIDER_ENV_KEYS, resolveCredentials } from "../agent/config.ts";
import { isProviderName } from "../agent/catalog.ts";
import type { SessionInfo } from "../runtime/api.ts";
import { runAcp, type AcpBackend } from "../modes/acp/agent.ts";
import type { McpServerSpec } from "../modes/acp/wire.ts";
import type { CliArgs } from "./args.ts";
import { io } from "./output.ts";

/** The transcript names zot and the Go zot write; anything else is not looked up (no paths through an id). */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The editor's servers in the format of an `--mcp` file (`{"mcpServers": {…}}`). */
function mcpFile(servers: McpServerSpec[]): string {
  const entries: Record<string, unknown> = {};
  for (const s of servers) {
    entries[s.name] =
      s.type === "stdio"
        ? { command: s.command, args: s.args, env: Object.fromEntries(s.env.map((e) => [e.name, e.value])) }
        : { type: "http", url: s.url, headers: Object.fromEntries(s.headers.map((h) => [h.name, h.value])) };
  }
  return JSON.stringify({ mcpServers: entries });
}

/** The first line of a transcript: its meta row, which names the directory it belongs to. */
function transcriptCwd(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return null;
  }
  try {
    const buf = Buffer.alloc(8192);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const line = buf.subarray(0, n).toString("utf8").split("\n")[0] ?? "";
    const row: unknown = JSON.parse(line);
    return isObject(row) && isObject(row.meta) && typeof row.meta.cwd === "string" && row.meta.cwd !== "" ? row.meta.cwd : null;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

function everyCwd(home: string): string[] {
  const root = join(home, "sessions");
  if (!existsSync(root)) return [];
  const dirs: string[] = [];
  for (const d of readdirSync(root)) {
    const folder = join(root, d);
    let first: string | undefined;
    try {
      first = statSync(folder).isDirectory() ? readdirSync(folder).find((f) => f.endsWith(".jsonl")) : undefined;
    } catch {
      // Unreadable or removed meanwhile: no sessions to list from it.
    }
    const cwd = first ? transcriptCwd(join(folder, first)) : null;
    if (cwd !== null && !dirs.includes(cwd)) dirs.push(cwd);
  }
  return dirs;
}

export async function runAcpCli(args: CliArgs, home: string): Promise<number> {
  const env = process.env;
  const trust = trustMode(args.trust, env);
  // `authenticate` picks the provider of the sessions opened after it.
  let provider = args.provider;
  const backend: AcpBackend = {
    async open({ cwd, mcpServers, resume }) {
      try {
        if (!statSync(cwd).isDirectory()) return { ok: false, error: `${cwd} is not a directory.`, auth: false };
      } catch {
        return { ok: false, error: `the session's cwd ${cwd} does not exist.`, auth: false };
      }
      // The editor's servers join the run as an `--mcp` file would: a private file, gone once they are read.
      const dir = mcpServers.length > 0 ? mkdtempSync(join(tmpdir(), "zot-acp-mcp-")) : null;
      const files = [...args.mcp];
      if (dir) {
        const file = join(dir, "mcp.json");
        writeFileSync(file, mcpFile(mcpServers), { mode: 0o600 });
        files.push(file);
      }
      try {
        const host = await withMcp(new Host(), { home, cwd, files, none: args.noMcp, trust, interactive: false });
        const created = await createRuntime({
          ...args,
          ...(provider ? { provider } : {}),
          continue: false,
          ...(resume !== null ? { session: resume } : {}),
          home,
          cwd,
          env,
          trust,
          interactive: false,
          ...(args.mockScript !== undefined ? { mockScript: resolve(args.mockScript) } : {}),
          host,
        });
        if (!created.ok) {
          await host.shutdown();
          const why = [...(created.notices ?? []), created.error].join(" ");
          return { ok: false, error: why, auth: /^No API key/.test(created.error) };
        }
        return { ok: true, runtime: created.runtime, host, notices: created.notices };
      } finally {
        if (dir) rmSync(dir, { recursive: true, force: true });
      }
    },
    sessions(cwd) {
      const dirs = cwd === null ? everyCwd(home) : [cwd];
      const all: { cwd: string; info: SessionInfo }[] = dirs.flatMap((d) => listSessions(home, d).map((info) => ({ cwd: d, info })));
      return all.sort((a, b) => b.info.modified - a.info.modified);
    },
    transcript(cwd, id) {
      if (!SESSION_ID.test(id)) return null;
      const path = join(sessionDir(home, cwd), `${id}.jsonl`);
      return existsSync(path) ? path : null;
    },
    authMethods() {
      return KEYED_PROVIDERS.map((p) => ({
        id: p,
        name: p,
        description: `An API key from ${(PROVIDER_ENV_KEYS[p] ?? []).join(" or ")} or ${authPath(home)} (zot, then /login ${p}).`,
      }));
    },
    authenticate(methodId) {
      if (!KEYED_PROVIDERS.includes(methodId) || !isProviderName(methodId))
        return { ok: false, error: `authenticate: unknown method "${methodId}" (zot's methods are its providers: ${KEYED_PROVIDERS.join(", ")}).` };
      const { credential, warnings } = resolveCredentials({ provider: methodId, home, env });
      if (!credential) {
        const vars = (PROVIDER_ENV_KEYS[methodId] ?? []).join(" or ");
        return {
          ok: false,
          error: `No API key for ${methodId}: set ${vars} in the environment the editor starts zot in, or run zot in a terminal and /login ${methodId} (the key goes to ${authPath(home)}).${warnings.length ? ` ${warnings.join(" ")}` : ""}`,
        };
      }
      provider = methodId;
      return { ok: true };
    },
  };
  return runAcp(backend, { input: Bun.stdin.stream(), out: io.out, err: io.err });
}
