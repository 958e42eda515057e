// `zot acp` driven by the official ACP client library (@agentclientprotocol/sdk), with every frame
// zot writes checked against the JSON schema that library ships: as a message of the agent, and
// by its method as the request, notification or response it claims to be.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import * as acp from "@agentclientprotocol/sdk";
import { ROOT, ZOT, zotEnv } from "./zot.ts";
import { signal } from "../helpers/processes.ts";

type Schema = { $defs: Record<string, unknown> };
const schema = JSON.parse(readFileSync(join(ROOT, "node_modules/@agentclientprotocol/sdk/schema/v1/schema.json"), "utf8")) as Schema & {
  anyOf: { title: string }[];
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
// The schema's integer widths (Rust's) as formats, so a line number or a size out of range fails too.
const WIDTHS: Record<string, [number, number]> = {
  uint16: [0, 65535],
  uint32: [0, 2 ** 32 - 1],
  uint64: [0, Number.MAX_SAFE_INTEGER],
  int32: [-(2 ** 31), 2 ** 31 - 1],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};
for (const [name, [min, max]] of Object.entries(WIDTHS))
  ajv.addFormat(name, { type: "number", validate: (n: number) => Number.isInteger(n) && n >= min && n <= max });
ajv.addFormat("double", { type: "number", validate: (n: number) => Number.isFinite(n) });
const compiled = new Map<string, ReturnType<typeof ajv.compile>>();

function validator(def: string): ReturnType<typeof ajv.compile> {
  let v = compiled.get(def);
  if (!v) {
    v =
      def === "Agent"
        ? ajv.compile({ ...schema.anyOf.find((a) => a.title === "Agent"), $defs: schema.$defs })
        : ajv.compile({ $ref: `#/$defs/${def}`, $defs: schema.$defs });
    compiled.set(def, v);
  }
  return v;
}

const RESPONSES: Record<string, string> = {
  initialize: "InitializeResponse",
  authenticate: "AuthenticateResponse",
  "session/new": "NewSessionResponse",
  "session/load": "LoadSessionResponse",
  "session/list": "ListSessionsResponse",
  "session/resume": "ResumeSessionResponse",
  "session/close": "CloseSessionResponse",
  "session/set_mode": "SetSessionModeResponse",
  "session/prompt": "PromptResponse",
};
const REQUESTS: Record<string, string> = {
  "session/request_permission": "RequestPermissionRequest",
  "fs/read_text_file": "ReadTextFileRequest",
  "fs/write_text_file": "WriteTextFileRequest",
  "terminal/create": "CreateTerminalRequest",
  "terminal/output": "TerminalOutputRequest",
  "terminal/wait_for_exit": "WaitForTerminalExitRequest",
  "terminal/kill": "KillTerminalRequest",
  "terminal/release": "ReleaseTerminalRequest",
};

type Raw = { id?: string | number | null; method?: string; params?: unknown; result?: unknown; error?: unknown };

/** Every problem with one line zot wrote, as sentences; `sent` maps our request ids to their methods. */
function check(line: string, sent: Map<string | number, string>): string[] {
  let msg: Raw;
  try {
    msg = JSON.parse(line) as Raw;
  } catch {
    return [`not JSON: ${line.slice(0, 200)}`];
  }
  const problems: string[] = [];
  const test = (def: string, value: unknown, what: string) => {
    const v = validator(def);
    if (!v(value)) problems.push(`${what} is not a valid ${def}: ${ajv.errorsText(v.errors)} in ${line.slice(0, 400)}`);
  };
  test("Agent", msg, "the frame");
  if (msg.method === "session/update") test("SessionNotification", msg.params, "session/update params");
  else if (msg.method !== undefined && msg.id !== undefined) {
    const def = REQUESTS[msg.method];
    if (def) test(def, msg.params, `${msg.method} params`);
    else problems.push(`zot sent a request of a method the client does not have: ${msg.method}`);
  } else if (msg.method !== undefined) problems.push(`zot sent an unknown notification ${msg.method}`);
  else if (msg.error !== undefined) test("Error", msg.error, "the error");
  else if (msg.id !== undefined && msg.id !== null) {
    const method = sent.get(msg.id);
    const def = method ? RESPONSES[method] : undefined;
    if (def) test(def, msg.result, `the result of ${method}`);
  }
  return problems;
}

export type Handlers = {
  permission?: (req: acp.RequestPermissionRequest) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>;
  readTextFile?: (req: acp.ReadTextFileRequest) => acp.ReadTextFileResponse | Promise<acp.ReadTextFileResponse>;
  writeTextFile?: (req: acp.WriteTextFileRequest) => acp.WriteTextFileResponse | Promise<acp.WriteTextFileResponse>;
  /** Serve terminal/* by running the commands here, as an editor's terminal would. */
  terminals?: Terminals;
};

/** An editor's terminals for the test: each command a real process, its output kept. */
export class Terminals {
  readonly created: acp.CreateTerminalRequest[] = [];
  private procs = new Map<string, { proc: ReturnType<typeof Bun.spawn>; output: string; done: Promise<void> }>();
  readonly pids: number[] = [];

  create(req: acp.CreateTerminalRequest): acp.CreateTerminalResponse {
    this.created.push(req);
    // In a process group of its own, so a kill reaches everything the command started, as an editor's terminal does.
    const proc = Bun.spawn([req.command, ...(req.args ?? [])], {
      ...(req.cwd ? { cwd: req.cwd } : {}),
      stdout: "pipe",
      stderr: "pipe",
      stdin: "ignore",
      detached: true,
    });
    this.pids.push(proc.pid);
    const id = `term-${this.created.length}`;
    const entry = { proc, output: "", done: Promise.resolve() };
    const read = async (stream: ReadableStream<Uint8Array>) => {
      const decoder = new TextDecoder();
      for await (const chunk of stream) entry.output += decoder.decode(chunk, { stream: true });
    };
    entry.done = Promise.all([read(proc.stdout as ReadableStream<Uint8Array>), read(proc.stderr as ReadableStream<Uint8Array>)]).then(() => undefined);
    this.procs.set(id, entry);
    return { terminalId: id };
  }

  private get(id: string) {
    const t = this.procs.get(id);
    if (!t) throw new Error(`no terminal ${id}`);
    return t;
  }

  async waitForExit(id: string): Promise<acp.WaitForTerminalExitResponse> {
    const t = this.get(id);
    await t.proc.exited;
    await t.done;
    return { exitCode: t.proc.signalCode ? null : t.proc.exitCode, signal: t.proc.signalCode === null ? null : String(t.proc.signalCode) };
  }

  output(id: string): acp.TerminalOutputResponse {
    const t = this.get(id);
    const exited = t.proc.exitCode !== null || t.proc.signalCode !== null;
    return {
      output: t.output,
      truncated: false,
      ...(exited
        ? { exitStatus: { exitCode: t.proc.signalCode ? null : t.proc.exitCode, signal: t.proc.signalCode === null ? null : String(t.proc.signalCode) } }
        : {}),
    };
  }

  private killGroup(pid: number): void {
    try {
      signal(pid, "SIGKILL", { group: true });
    } catch {
      // The group is gone already.
    }
  }

  kill(id: string): acp.KillTerminalResponse {
    this.killGroup(this.get(id).proc.pid);
    return {};
  }

  release(id: string): acp.ReleaseTerminalResponse {
    this.killGroup(this.get(id).proc.pid);
    return {};
  }
}

/** A `zot acp` process and the SDK client connected to it. */
export class AcpClient {
  readonly proc: ReturnType<typeof Bun.spawn>;
  readonly agent: acp.ClientContext;
  readonly connection: acp.ClientConnection;
  /** session/update notifications, in arrival order. */
  readonly updates: acp.SessionNotification[] = [];
  /** Schema problems found in anything zot wrote; a test ends by expecting it empty. */
  readonly problems: string[] = [];
  /** Every line zot wrote to stdout. */
  readonly lines: string[] = [];
  readonly stderr: Promise<string>;
  private waiters: { match: (u: acp.SessionNotification) => boolean; resolve: (u: acp.SessionNotification) => void }[] = [];

  constructor(args: string[], opts: { home: string; cwd: string; env?: Record<string, string> }, handlers: Handlers = {}) {
    this.proc = Bun.spawn([ZOT, "acp", ...args], { cwd: opts.cwd, env: zotEnv(opts.home, opts.env), stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    this.stderr = new Response(this.proc.stderr as ReadableStream<Uint8Array>).text();
    const sent = new Map<string | number, string>();
    const sink = this.proc.stdin as import("bun").FileSink;
    const encoder = new TextDecoder();
    const toZot = new WritableStream<Uint8Array>({
      write(chunk) {
        for (const l of encoder.decode(chunk).split("\n")) {
          if (l.trim() === "") continue;
          const m = JSON.parse(l) as Raw;
          if (m.method !== undefined && m.id !== undefined && m.id !== null) sent.set(m.id, m.method);
        }
        sink.write(chunk);
        sink.flush();
      },
      close() {
        sink.end();
      },
    });
    const [forClient, forCheck] = (this.proc.stdout as ReadableStream<Uint8Array>).tee();
    void (async () => {
      const decoder = new TextDecoder();
      let buf = "";
      for await (const chunk of forCheck) {
        buf += decoder.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = buf.indexOf("\n")) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          if (line.trim() === "") continue;
          this.lines.push(line);
          this.problems.push(...check(line, sent));
        }
      }
      if (buf.trim() !== "") this.problems.push(`zot's output ended inside a line: ${buf.slice(0, 200)}`);
    })();
    const app = acp
      .client({ name: "zot-test" })
      .onNotification("session/update", ({ params }) => {
        this.updates.push(params);
        this.waiters = this.waiters.filter((w) => {
          if (!w.match(params)) return true;
          w.resolve(params);
          return false;
        });
      })
      .onRequest("session/request_permission", ({ params }) => (handlers.permission ? handlers.permission(params) : { outcome: { outcome: "cancelled" } }));
    if (handlers.readTextFile) {
      const read = handlers.readTextFile;
      app.onRequest("fs/read_text_file", ({ params }) => read(params));
    }
    if (handlers.writeTextFile) {
      const write = handlers.writeTextFile;
      app.onRequest("fs/write_text_file", ({ params }) => write(params));
    }
    const terms = handlers.terminals;
    if (terms) {
      app.onRequest("terminal/create", ({ params }) => terms.create(params));
      app.onRequest("terminal/wait_for_exit", ({ params }) => terms.waitForExit(params.terminalId));
      app.onRequest("terminal/output", ({ params }) => terms.output(params.terminalId));
      app.onRequest("terminal/kill", ({ params }) => terms.kill(params.terminalId));
      app.onRequest("terminal/release", ({ params }) => terms.release(params.terminalId));
    }
    this.connection = app.connect(acp.ndJsonStream(toZot, forClient));
    this.agent = this.connection.agent;
  }

  initialize(caps: acp.ClientCapabilities = {}): Promise<acp.InitializeResponse> {
    return this.agent.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: caps });
  }

  /** Resolves with the first update (seen or to come) that matches. */
  waitFor(match: (u: acp.SessionNotification) => boolean): Promise<acp.SessionNotification> {
    const seen = this.updates.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  /** The updates of one kind, for one session. */
  of<K extends acp.SessionUpdate["sessionUpdate"]>(sessionId: string, kind: K): Extract<acp.SessionUpdate, { sessionUpdate: K }>[] {
    return this.updates
      .filter((u) => u.sessionId === sessionId && u.update.sessionUpdate === kind)
      .map((u) => u.update as Extract<acp.SessionUpdate, { sessionUpdate: K }>);
  }

  /** The agent's message text of a session, chunks joined. */
  said(sessionId: string): string {
    return this.of(sessionId, "agent_message_chunk")
      .map((u) => (u.content.type === "text" ? u.content.text : ""))
      .join("");
  }

  /** Closes stdin (the editor went away) and waits for zot to exit. */
  async close(): Promise<{ code: number; stderr: string }> {
    this.connection.close();
    try {
      (this.proc.stdin as import("bun").FileSink).end();
    } catch {
      // Already ended by the library's close.
    }
    const code = await this.proc.exited;
    return { code, stderr: await this.stderr };
  }
}
