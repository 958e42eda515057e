// `zot acp`: zot as an Agent Client Protocol agent on stdin/stdout. The editor initializes, opens
// sessions (each a zot runtime in its cwd, on zot's own session files) and prompts them; this
// module answers the connection-level methods and routes the rest to the session they name.
// Nothing but protocol frames is written to stdout; notes go to stderr, which editors log.
import type { Json, JsonObject } from "../../json.ts";
import type { ExtensionHost } from "../../ext/types.ts";
import { LineReader } from "../../ext/connection/lines.ts";
import { redactSecrets } from "../../redact.ts";
import type { AgentRuntime, SessionInfo } from "../../runtime/api.ts";
import { ZOT_VERSION } from "../../version.ts";
import { decodeFrame, ErrorCode, Peer, RpcError, type Frame } from "./jsonrpc.ts";
import { AcpSession, modeState } from "./session.ts";
import {
  decodeAuthenticate,
  decodeInitialize,
  decodeList,
  decodeNewSession,
  decodeOpenSession,
  decodePrompt,
  decodeSessionId,
  decodeSetMode,
  paramsOf,
  PROTOCOL_VERSION,
  type ClientCapabilities,
  type McpServerSpec,
} from "./wire.ts";

/** What `zot acp` needs from the command line's wiring: runtimes for sessions, the session files, the keys. */
export type AcpBackend = {
  /** A runtime in `cwd` with the editor's MCP servers: a new session, or the transcript `resume`. */
  open(o: {
    cwd: string;
    mcpServers: McpServerSpec[];
    resume: string | null;
  }): Promise<{ ok: true; runtime: AgentRuntime; host: ExtensionHost; notices: string[] } | { ok: false; error: string; auth: boolean }>;
  /** The sessions of `cwd`, or of every directory, newest first. */
  sessions(cwd: string | null): { cwd: string; info: SessionInfo }[];
  /** The transcript of session `id` in `cwd`, or null when there is none. */
  transcript(cwd: string, id: string): string | null;
  /** One ACP auth method per provider that takes an API key. */
  authMethods(): { id: string; name: string; description: string }[];
  /** Picks `methodId`'s provider for the sessions opened from now on, if zot has its key. */
  authenticate(methodId: string): { ok: true } | { ok: false; error: string };
};

export type AcpOptions = {
  input: AsyncIterable<Uint8Array>;
  out(text: string): void;
  err(text: string): void;
};

/** Sessions listed per page of session/list. */
const PAGE = 50;

/** The id the editor knows a session by: its transcript's name (`<UTC time>-<id>`), which `zot -c` continues too. */
export function sessionIdOf(path: string | null): string | null {
  if (path === null) return null;
  const name = path.slice(path.lastIndexOf("/") + 1);
  return name.endsWith(".jsonl") ? name.slice(0, -".jsonl".length) : name;
}

export class AcpAgent {
  private readonly peer: Peer;
  private initialized = false;
  private caps: ClientCapabilities = { readTextFile: false, writeTextFile: false, terminal: false };
  private sessions = new Map<string, AcpSession>();
  private inflight = new Set<Promise<void>>();
  /** The sessions' secret lists, live: a secret learnt later (a token) is masked from then on. */
  private secrets = new Set<readonly string[]>();

  constructor(
    private readonly backend: AcpBackend,
    private readonly opts: AcpOptions,
  ) {
    this.peer = new Peer((line) => opts.out(this.secrets.size > 0 ? redactSecrets(line, [...this.secrets].flat()) : line));
  }

  /** Serves until stdin closes; then every session ends (turns cancelled, processes stopped). */
  async serve(): Promise<number> {
    const reader = new LineReader({
      onLine: (line) => this.onLine(line),
      onOversize: (bytes) =>
        this.peer.fail(null, new RpcError(ErrorCode.invalidRequest, `A message of ${bytes} bytes is longer than the 64 MiB limit; it was dropped.`)),
    });
    for await (const chunk of this.opts.input) reader.push(chunk);
    reader.end();
    this.peer.close();
    await this.closeAll();
    await Promise.all(this.inflight);
    // A session still being opened when stdin closed is closed once it exists.
    await this.closeAll();
    return 0;
  }

  private async closeAll(): Promise<void> {
    const open = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(open.map((s) => s.close()));
  }

  private onLine(line: string): void {
    const frame = decodeFrame(line);
    switch (frame.kind) {
      case "invalid":
        this.peer.fail(frame.id, new RpcError(frame.code, frame.message));
        return;
      case "result":
      case "error":
        if (!this.peer.settle(frame))
          this.opts.err(`zot acp: the editor answered request ${JSON.stringify(frame.id)}, which zot did not send or no longer waits for.\n`);
        return;
      case "notification":
        this.notification(frame);
        return;
      case "request": {
        const handled = this.request(frame).then(
          (result) => this.peer.respond(frame.id, result),
          (err: unknown) =>
            this.peer.fail(
              frame.id,
              err instanceof RpcError ? err : new RpcError(ErrorCode.internal, `${frame.method} failed: ${err instanceof Error ? err.message : String(err)}`),
            ),
        );
        this.inflight.add(handled);
        void handled.finally(() => this.inflight.delete(handled));
        return;
      }
    }
  }

  private notification(frame: Extract<Frame, { kind: "notification" }>): void {
    if (frame.method === "session/cancel") {
      // A cancel for a session that is gone or idle is harmless: there is nothing left to stop.
      const id =
        frame.params !== undefined && frame.params !== null && typeof frame.params === "object" && !Array.isArray(frame.params)
          ? frame.params.sessionId
          : undefined;
      if (typeof id === "string") this.sessions.get(id)?.cancel();
      else this.opts.err(`zot acp: session/cancel without a string "sessionId" was ignored.\n`);
      return;
    }
    if (frame.method === "$/cancel_request") return;
    this.opts.err(`zot acp: unknown notification ${frame.method} was ignored.\n`);
  }

  private session(method: string, id: string): AcpSession {
    const s = this.sessions.get(id);
    if (!s) throw new RpcError(ErrorCode.notFound, `${method}: there is no open session "${id}" (open it with session/new, session/load or session/resume).`);
    return s;
  }

  private async request(frame: Extract<Frame, { kind: "request" }>): Promise<Json> {
    const method = frame.method;
    const p = paramsOf(method, frame.params);
    if (method === "initialize") return this.initialize(p);
    if (!this.initialized) throw new RpcError(ErrorCode.invalidRequest, `${method} before initialize: send initialize first.`);
    switch (method) {
      case "authenticate": {
        const r = this.backend.authenticate(decodeAuthenticate(p));
        if (!r.ok) throw new RpcError(ErrorCode.authRequired, r.error);
        return {};
      }
      case "session/new": {
        const { cwd, mcpServers } = decodeNewSession(p);
        const s = await this.open(method, cwd, mcpServers, null);
        return { sessionId: s.id, modes: modeState(s.runtime.mode) };
      }
      case "session/load":
      case "session/resume": {
        const { sessionId, cwd, mcpServers } = decodeOpenSession(method, p);
        let s = this.sessions.get(sessionId);
        if (!s) {
          const path = this.backend.transcript(cwd, sessionId);
          if (path === null)
            throw new RpcError(ErrorCode.notFound, `${method}: zot has no session "${sessionId}" in ${cwd} (session/list names those it has).`);
          s = await this.open(method, cwd, mcpServers, path);
        }
        if (method === "session/load") s.replay();
        return { modes: modeState(s.runtime.mode) };
      }
      case "session/list": {
        const { cwd, cursor } = decodeList(p);
        const all = this.backend.sessions(cwd);
        const start = cursor === null ? 0 : Number.parseInt(cursor, 10);
        if (!Number.isInteger(start) || start < 0 || start > all.length)
          throw new RpcError(ErrorCode.invalidParams, `session/list: "cursor" ${JSON.stringify(cursor)} is not one zot gave out.`);
        const page = all.slice(start, start + PAGE);
        return {
          sessions: page.map(({ cwd: dir, info }) => ({
            sessionId: sessionIdOf(info.path) ?? info.id,
            cwd: dir,
            title: info.title || info.preview || null,
            updatedAt: new Date(info.modified).toISOString(),
          })),
          ...(start + PAGE < all.length ? { nextCursor: String(start + PAGE) } : {}),
        };
      }
      case "session/close": {
        const id = decodeSessionId(method, p);
        const s = this.session(method, id);
        this.sessions.delete(id);
        await s.close();
        return {};
      }
      case "session/set_mode": {
        const { sessionId, modeId } = decodeSetMode(p);
        this.session(method, sessionId).setMode(modeId);
        return {};
      }
      case "session/prompt": {
        const { sessionId, prompt } = decodePrompt(p);
        const stopReason = await this.session(method, sessionId).prompt(prompt);
        return { stopReason };
      }
      default:
        throw new RpcError(
          ErrorCode.methodNotFound,
          `zot does not offer the method "${method}" (ACP v1: initialize, authenticate, session/new, session/load, session/resume, session/list, session/close, session/prompt, session/set_mode, session/cancel).`,
        );
    }
  }

  private initialize(p: JsonObject): JsonObject {
    const req = decodeInitialize(p);
    this.caps = req.capabilities;
    this.initialized = true;
    return {
      // An editor asking for another version gets the one zot speaks; it decides whether to go on.
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image: true, audio: false, embeddedContext: true },
        mcpCapabilities: { http: true, sse: false },
        sessionCapabilities: { list: {}, resume: {}, close: {} },
      },
      authMethods: this.backend.authMethods(),
      agentInfo: { name: "zot", title: "zot", version: ZOT_VERSION },
    };
  }

  private async open(method: string, cwd: string, mcpServers: McpServerSpec[], resume: string | null): Promise<AcpSession> {
    const r = await this.backend.open({ cwd, mcpServers, resume });
    if (!r.ok) throw new RpcError(r.auth ? ErrorCode.authRequired : ErrorCode.internal, `${method}: ${r.error}`);
    for (const n of r.notices) this.opts.err(`zot: ${n}\n`);
    this.secrets.add(r.runtime.secrets);
    const id = sessionIdOf(r.runtime.sessionPath) ?? crypto.randomUUID();
    const session = new AcpSession(id, r.runtime, r.host, this.peer, this.caps);
    this.sessions.set(id, session);
    // After the response: the editor knows the session id before its first update arrives.
    setTimeout(() => {
      session.announceCommands();
      if (resume === null) session.announcePlan();
    }, 0);
    return session;
  }
}

export function runAcp(backend: AcpBackend, opts: AcpOptions): Promise<number> {
  return new AcpAgent(backend, opts).serve();
}
