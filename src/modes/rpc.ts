// RPC mode (`zot rpc`): NDJSON commands on stdin; responses (correlated by `id`) and events (as in
// JSON mode, without `id`) on stdout. The Go zot's protocol plus `command`, `reload_extensions`
// and `get_extensions`. A bad line never ends the process: it gets an error response.
import { RESTORE_CHOICES, type AgentRuntime, type RewindPlan, type TreeNode } from "../runtime/api.ts";
import type { ImagePart } from "../agent/messages.ts";
import { messagesJson, wireMessageCount } from "../agent/message-json.ts";
import type { Json, JsonObject } from "../json.ts";
import { isObject } from "../json.ts";
import { LineReader } from "../ext/connection/lines.ts";
import { commandOutcome } from "../ext/command-outcome.ts";
import type { ExtensionHost } from "../ext/types.ts";
import { eventLine, goEventStream, sandboxJson } from "./json.ts";
import { markdownPrompt } from "./slash.ts";
import type { ModeOutput } from "./output.ts";
import { redactingEvents, redactingOutput } from "./redacting.ts";
import { doctorEntry, type ExtensionsReport } from "../ext/doctor-entry.ts";
import { ZOT_VERSION } from "../version.ts";
import { dailyCommand } from "./rpc-daily.ts";

const RPC_PROTOCOL_VERSION = 1;
/** Past this much prompt text waiting its turn, no further command is read until a turn starts. */
export const MAX_QUEUED_PROMPT_BYTES = 64 * 1024 * 1024;

export type RpcOptions = ModeOutput & {
  input: AsyncIterable<Uint8Array>;
  /** `ZOTCORE_RPC_TOKEN`: when set, the first command must be a matching `hello`. */
  token?: string;
  home: string;
  /** Prompt text that may wait its turn before commands stop being read (default MAX_QUEUED_PROMPT_BYTES). */
  maxQueuedPromptBytes?: number;
};

/** `next` runs after the response is written, so a turn's events always follow its response. */
type Reply = { data?: Json; next?: () => void } | { error: string };
type Request = { id?: Json | undefined; type: string; body: JsonObject };

const COMMANDS = [
  "hello",
  "prompt",
  "abort",
  "compact",
  "get_state",
  "get_messages",
  "clear",
  "set_model",
  "get_models",
  "ping",
  "command",
  "reload_extensions",
  "get_extensions",
  "session_export",
  "session_import",
  "session_fork",
  "get_session_tree",
  "rewind",
  "get_cost",
  "get_context",
  "export",
  "rename",
  "add_dir",
  "doctor",
] as const;

export async function runRpc(runtime: AgentRuntime, host: ExtensionHost, opts: RpcOptions): Promise<number> {
  const server = new RpcServer(runtime, host, opts);
  return server.serve();
}

class RpcServer {
  private authed: boolean;
  /** Prompts and compactions run one at a time, in arrival order (the Go zot queues them too). */
  private queue: Promise<void> = Promise.resolve();
  private pending = 0;
  /** Text of the prompts waiting in `queue`. */
  private queuedBytes = 0;
  private wake: (() => void)[] = [];
  private exitCode: number | null = null;

  private readonly opts: RpcOptions;

  constructor(
    private readonly runtime: AgentRuntime,
    private readonly host: ExtensionHost,
    opts: RpcOptions,
  ) {
    this.opts = { ...opts, ...redactingOutput(runtime.secrets, opts) };
    this.authed = !opts.token;
    runtime.subscribe(
      redactingEvents(
        runtime.secrets,
        goEventStream((event) => this.opts.out(eventLine(event))),
      ),
    );
  }

  async serve(): Promise<number> {
    // Each command is handled as it arrives. Quick ones answer before the next line is read, so
    // their responses keep the command order; slow ones (an extension command, a reload) answer
    // when done, so `abort` is never stuck behind them. Replies carry ids.
    // Backpressure: while the client is not reading what zot writes, or too much prompt text
    // waits its turn, the next command is not read; stdin then fills and the client's writes block.
    const inflight = new Set<Promise<void>>();
    const lines: string[] = [];
    const reader = new LineReader({
      onLine: (line) => void lines.push(line),
      onOversize: (bytes) => this.respond({ type: "" }, { error: `a command line of ${bytes} bytes is longer than the 64 MiB limit; it was dropped` }),
    });
    const handleLines = async (): Promise<void> => {
      for (let line = lines.shift(); line !== undefined; line = lines.shift()) {
        await this.ready();
        if (this.exitCode !== null) return;
        const slow = this.handle(line);
        if (!slow) continue;
        const handled = slow.catch((err: unknown) => {
          this.opts.out(eventLine({ type: "error", message: err instanceof Error ? err.message : String(err) }));
        });
        inflight.add(handled);
        void handled.finally(() => inflight.delete(handled));
      }
    };
    for await (const chunk of this.opts.input) {
      reader.push(chunk);
      await handleLines();
      if (this.exitCode !== null) break;
    }
    reader.end();
    await handleLines();
    // stdin closed (or auth failed): answer what is in flight, let queued turns finish, then exit.
    await Promise.all(inflight);
    if (this.exitCode === null) await this.queue;
    return this.exitCode ?? 0;
  }

  /** `type: ""` answers a line that names no command, as the Go zot does. */
  private respond(req: { id?: Json | undefined; type: string }, reply: Reply): void {
    const frame: JsonObject = { type: "response" };
    if (req.id !== undefined) frame.id = req.id;
    frame.command = req.type;
    if ("error" in reply) {
      frame.success = false;
      frame.error = reply.error;
    } else {
      frame.success = true;
      if (reply.data !== undefined) frame.data = reply.data;
    }
    this.opts.out(JSON.stringify(frame) + "\n");
  }

  /** Answers one line; returns a promise only for a command that answers later. */
  private handle(line: string): Promise<void> | null {
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (err) {
      this.respond({ type: "" }, { error: `invalid JSON: ${(err as Error).message}` });
      return null;
    }
    if (!isObject(raw) || typeof raw.type !== "string") {
      const id = isObject(raw) ? raw.id : undefined;
      this.respond({ id, type: "" }, { error: `a command must be a JSON object with a string "type"` });
      return null;
    }
    const req: Request = { id: raw.id, type: raw.type, body: raw };
    if (!this.authed) {
      // The Go zot's rule: other commands wait for the hello; a hello with the wrong token ends the process.
      if (req.type !== "hello") {
        this.respond(req, { error: "auth required: send hello with token first" });
        return null;
      }
      if (req.body.token !== this.opts.token) {
        this.respond(req, { error: "authentication failed: hello must carry the token from ZOTCORE_RPC_TOKEN" });
        this.exitCode = 1;
        return null;
      }
      this.authed = true;
    }
    let reply: Reply | Promise<Reply>;
    try {
      reply = this.dispatch(req);
    } catch (err) {
      reply = { error: `${req.type} failed: ${err instanceof Error ? err.message : String(err)}` };
    }
    if (reply instanceof Promise) return reply.then((r) => this.finish(req, r));
    this.finish(req, reply);
    return null;
  }

  private finish(req: Request, reply: Reply): void {
    this.respond(req, reply);
    if ("next" in reply && reply.next) reply.next();
  }

  private dispatch(req: Request): Reply | Promise<Reply> {
    const rt = this.runtime;
    const b = req.body;
    switch (req.type) {
      case "hello":
        return {
          data: {
            protocol_version: RPC_PROTOCOL_VERSION,
            version: ZOT_VERSION,
            provider: rt.provider,
            model: rt.model,
            permission_mode: rt.mode,
            sandbox: sandboxJson(rt),
          },
        };
      case "ping":
        return { data: { pong: true } };
      case "prompt": {
        const message = b.message ?? b.text;
        if (typeof message !== "string" || message.trim() === "") return { error: `prompt needs a non-empty string "message"` };
        const images = decodeImages(b.images);
        if (typeof images === "string") return { error: images };
        return { data: { started: true }, next: () => this.enqueue(() => rt.prompt(message, images), message.length) };
      }
      case "compact":
        return { data: { started: true }, next: () => this.enqueue(() => this.compact()) };
      case "abort":
        rt.abort();
        return {};
      case "get_state": {
        const u = rt.usage();
        const ctx = rt.context();
        return {
          data: {
            provider: rt.provider,
            model: rt.model,
            cwd: rt.cwd,
            session: rt.sessionPath,
            message_count: wireMessageCount(rt.messages()),
            busy: rt.busy || this.pending > 0,
            yolo: rt.yolo,
            permission_mode: rt.mode,
            jail: rt.jail,
            sandbox: sandboxJson(rt),
            usage: { input: u.input, output: u.output, cache_read: u.cacheRead, cache_write: u.cacheWrite, cost_usd: u.cost },
            context: { used: ctx.used, window: ctx.window },
            todos: rt.todos(),
            background_jobs: rt
              .backgroundJobs()
              .map((j) => ({ id: j.id, command: j.command, pid: j.pid, state: j.state, exit_code: j.exitCode, signal: j.signal })),
          },
        };
      }
      case "get_messages":
        return { data: { messages: messagesJson(rt.messages()) } };
      case "clear":
        if (this.busy()) return { error: "agent is busy; send abort and wait for done, then retry" };
        rt.clear();
        return { data: { session: rt.sessionPath } };
      case "set_model": {
        if (this.busy()) return { error: "agent is busy; send abort and wait for done, then retry" };
        const model = b.model;
        const provider = b.provider ?? rt.provider;
        if (typeof model !== "string" || model === "") return { error: `set_model needs a string "model"` };
        if (typeof provider !== "string") return { error: `set_model: "provider" must be a string` };
        const r = rt.setModel(provider, model);
        if (!r.ok) return { error: r.error };
        return { data: { provider: rt.provider, model: rt.model, reasoning: rt.reasoning, ...(r.notice ? { notice: r.notice } : {}) } };
      }
      case "get_models":
        return {
          data: {
            models: rt
              .models()
              .filter((m) => m.provider === rt.provider)
              .map((m) => ({
                id: m.id,
                name: m.name,
                provider: m.provider,
                context_window: m.contextWindow,
                max_output: m.maxTokens,
                reasoning: m.reasoning,
                source: m.source,
              })),
          },
        };
      case "command":
        return this.command(b);
      case "reload_extensions": {
        const name = b.name;
        if (name !== undefined && name !== null && typeof name !== "string") return { error: `reload_extensions: "name" must be a string` };
        return this.reload(typeof name === "string" && name !== "" ? name : undefined);
      }
      case "get_extensions": {
        const extensions = this.host.states().map((s) => doctorEntry(s, this.opts.home));
        const report: ExtensionsReport = {
          zot_version: ZOT_VERSION,
          home: this.opts.home,
          cwd: rt.cwd,
          ok: extensions.every((e) => e.status !== "failed" && e.status !== "invalid"),
          extensions,
        };
        return { data: report };
      }
      case "session_export": {
        if (b.path !== undefined && typeof b.path !== "string") return { error: `session_export: "path" must be a string` };
        const r = rt.exportSession(typeof b.path === "string" ? b.path : undefined);
        return r.ok ? { data: { path: r.path } } : { error: r.error };
      }
      case "session_import": {
        if (this.busy()) return { error: "agent is busy; send abort and wait for done, then retry" };
        if (typeof b.path !== "string" || b.path.trim() === "") return { error: `session_import needs a string "path"` };
        const r = rt.importSession(b.path);
        return r.ok ? { data: { session: r.path } } : { error: r.error };
      }
      case "session_fork": {
        if (this.busy()) return { error: "agent is busy; send abort and wait for done, then retry" };
        if (typeof b.message !== "number" || !Number.isInteger(b.message) || b.message < 0)
          return { error: `session_fork needs "message": the index (from 0) of a user message to fork before` };
        const r = rt.forkSession(b.message);
        return r.ok ? { data: { session: r.path, text: r.text } } : { error: r.error };
      }
      case "get_session_tree":
        return { data: { sessions: rt.sessionTree().map(treeJson) } };
      case "rewind":
        if (this.busy()) return { error: "agent is busy; send abort and wait for done, then retry" };
        return rewind(rt, b);
      case "get_cost":
      case "get_context":
      case "export":
      case "rename":
      case "add_dir":
      case "doctor":
        return dailyCommand(rt, req.type, b);
      default:
        return { error: `unknown command "${req.type}" (known: ${COMMANDS.join(", ")})` };
    }
  }

  private async reload(name: string | undefined): Promise<Reply> {
    const report = await this.host.reload(name);
    // A named reload that found nothing to reload failed; a full reload reports per-extension errors in its data.
    if (name !== undefined && report.extensions.length === 0 && report.errors.length > 0) return { error: report.errors.map((e) => e.message).join("; ") };
    return {
      data: {
        extensions: report.extensions.map((s) => doctorEntry(s, this.opts.home)),
        errors: report.errors.map((e) => ({ extension: e.extension, message: e.message, log: e.log })),
      },
    };
  }

  private async command(b: JsonObject): Promise<Reply> {
    const raw = typeof b.name === "string" ? b.name : "";
    const name = raw.startsWith("/") ? raw.slice(1) : raw;
    if (name === "") return { error: `command needs a string "name"` };
    const args = b.args ?? "";
    if (typeof args !== "string") return { error: `command: "args" must be a string` };
    const md = this.host.commands().some((c) => c.name.toLowerCase() === name.toLowerCase()) ? null : markdownPrompt(this.runtime, this.host, name, args);
    if (md) return { data: { markdown: true, prompt: md.text, started: true }, next: () => this.enqueue(() => this.runtime.prompt(md.text, [], md.options)) };
    const r = await this.host.invokeCommand(name, args);
    if (!r.ok) return { error: r.error };
    const res = r.response;
    const { action, error } = commandOutcome(res);
    if (error !== null) return { error: `/${name} (${r.extension}): ${error}` };
    const data: JsonObject = { extension: r.extension, action: res.action };
    if (res.display !== undefined) data.display = res.display;
    if (res.insert !== undefined) data.insert = res.insert;
    if (res.prompt !== undefined) data.prompt = res.prompt;
    if (res.open_panel !== undefined) data.open_panel = { ...res.open_panel };
    switch (action?.kind) {
      // A `prompt` action runs the turn, as typing the command in the TUI would; events follow.
      case "prompt":
        data.started = true;
        return { data, next: () => this.enqueue(() => this.runtime.prompt(action.text)) };
      // A display note is also an event, so clients that render events show it like the TUI would.
      case "display": {
        const event = eventLine({ type: "ext_display", extension: r.extension, text: action.text });
        return { data, next: () => this.opts.out(event) };
      }
      // The client gets the panel's content; no one can send it keys, so it is closed, as in the other headless modes.
      case "panel":
        this.host.panelClose(action.panel.id);
        return { data };
      default:
        return { data };
    }
  }

  private async compact(): Promise<void> {
    const r = await this.runtime.compact();
    if (r.ok) this.opts.out(JSON.stringify({ type: "compact_done", summary: r.summary ?? "" }) + "\n");
    else this.opts.out(eventLine({ type: "error", message: `compaction failed: ${r.error ?? "unknown error"}` }));
    this.opts.out(
      eventLine(
        r.ok
          ? { type: "done", stop: "end_turn", text: "", steps: 0 }
          : { type: "done", stop: "error", text: "", steps: 0, error: `compaction failed: ${r.error ?? "unknown error"}` },
      ),
    );
  }

  private busy(): boolean {
    return this.runtime.busy || this.pending > 0;
  }

  /** Until the output is below its high-water mark and the waiting prompts below theirs. */
  private async ready(): Promise<void> {
    await this.opts.writable?.();
    while (this.queuedBytes > (this.opts.maxQueuedPromptBytes ?? MAX_QUEUED_PROMPT_BYTES)) await new Promise<void>((r) => this.wake.push(r));
  }

  /** A turn starts only while the client reads what the turns before it wrote. */
  private enqueue(job: () => Promise<unknown>, bytes = 0): void {
    this.pending++;
    this.queuedBytes += bytes;
    const start = async (): Promise<unknown> => {
      await this.opts.writable?.();
      this.queuedBytes -= bytes;
      for (const w of this.wake.splice(0)) w();
      return job();
    };
    this.queue = this.queue
      .then(start)
      .then(() => undefined)
      .catch((err: unknown) => {
        this.opts.out(eventLine({ type: "error", message: err instanceof Error ? err.message : String(err) }));
      })
      .finally(() => {
        this.pending--;
      });
  }
}

function decodeImages(v: Json | undefined): ImagePart[] | string {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) return `prompt: "images" must be an array of {"mime_type","data"} objects`;
  const out: ImagePart[] = [];
  for (let i = 0; i < v.length; i++) {
    const img = v[i];
    if (!isObject(img)) return `prompt: images[${i}] must be an object`;
    const mime = img.mime_type ?? img.mimeType;
    if (typeof mime !== "string" || !/^image\/(png|jpeg|gif|webp)$/.test(mime))
      return `prompt: images[${i}].mime_type must be image/png, image/jpeg, image/gif or image/webp`;
    if (typeof img.data !== "string" || img.data === "") return `prompt: images[${i}].data must be a non-empty base64 string`;
    // Checked here: a provider would reject the whole request later, with a far less clear message.
    if (img.data.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(img.data))
      return `prompt: images[${i}].data is not valid base64 (send the raw base64 of the image, without a "data:" prefix or line breaks)`;
    out.push({ type: "image", mimeType: mime, data: img.data });
  }
  return out;
}

function treeJson(n: TreeNode): JsonObject {
  const s = n.session;
  return {
    id: s.id,
    path: s.path,
    parent: s.parent,
    fork_point: s.forkPoint,
    preview: s.preview,
    title: s.title,
    messages: s.messages,
    model: s.model,
    current: n.current,
    children: n.children.map(treeJson),
  };
}

/**
 * `rewind {prompt, restore: "code"|"conversation"|"both", dry_run?}`: `prompt` is a user message's
 * index from 0, as `session_fork` takes it; `dry_run` lists what would change and changes nothing.
 * `rewind {undo: true}` undoes the workspace's last rewind.
 */
function rewind(rt: AgentRuntime, b: JsonObject): Reply {
  const dry = b.dry_run === true;
  if (b.undo === true) {
    if (dry) {
      const p = rt.undoRewindPlan();
      return p.ok ? { data: { ...planJson(p.plan), session: p.session } } : { error: p.error };
    }
    const r = rt.undoRewind();
    return r.ok ? { data: { ...planJson(r.plan), failed: r.failed, session: rt.sessionPath } } : { error: r.error };
  }
  const restore = RESTORE_CHOICES.find((c) => c === (b.restore ?? "both"));
  if (!restore) return { error: `rewind: "restore" must be one of ${RESTORE_CHOICES.join(", ")}` };
  if (typeof b.prompt !== "number" || !Number.isInteger(b.prompt) || b.prompt < 0)
    return { error: `rewind needs "prompt": the index (from 0) of a user message to rewind to before` };
  if (dry) {
    if (restore === "conversation") return { data: planJson({ changes: [], kept: [] }) };
    const p = rt.rewindPlan(b.prompt);
    return p.ok ? { data: planJson(p.plan) } : { error: p.error };
  }
  const r = rt.rewind(b.prompt, restore);
  return r.ok ? { data: { ...planJson(r.plan), failed: r.failed, session: rt.sessionPath, text: r.text } } : { error: r.error };
}

function planJson(plan: RewindPlan): JsonObject {
  return { changes: plan.changes.map((c) => ({ path: c.path, action: c.action })), kept: plan.kept.map((k) => ({ path: k.path, why: k.why })) };
}
