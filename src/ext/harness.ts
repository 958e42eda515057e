// `zot ext test`: spawns one extension exactly as the host does (same process, environment, log and
// line reader), checks the handshake rules, plays a script against it, and shuts it down the host's
// way. The result is a list of steps with pass/warn/fail and timings; nothing here prints.
import { join, resolve } from "node:path";
import { matches, prepareSend, substitute, type ScriptStep } from "./harness-script.ts";
import { LineReader } from "./lines.ts";
import { ExtensionLog, extensionLogPath } from "./log.ts";
import { MANIFEST_FILE, readManifest } from "./manifest.ts";
import { planLaunch } from "./sandbox/plan.ts";
import { describeExit, extensionEnv, signalGroup, spawnExtension, type ChildProcess, type ExitInfo } from "./process.ts";
import { HOST_CAPABILITIES, NAME_PATTERN, PROTOCOL_VERSION, decodeExtensionFrame, isObject, type JsonObject } from "./protocol.ts";

export type StepStatus = "pass" | "warn" | "fail" | "skip";
export type StepResult = {
  kind: "handshake" | "send" | "expect" | "expect_none" | "sleep" | "conformance" | "shutdown";
  name: string;
  status: StepStatus;
  ms: number | null;
  /** Script line, for script steps. */
  line: number | null;
  detail: string | null;
};

export type HarnessReport = {
  ok: boolean;
  extension: string;
  dir: string;
  log: string;
  registrations: { commands: string[]; tools: { name: string; deferred: boolean }[]; events: string[]; intercept: string[] };
  steps: StepResult[];
};

export type HarnessOptions = {
  dir: string;
  steps: ScriptStep[];
  home: string;
  /** The project directory sent as `hello_ack.cwd` and `ZOT_CWD`. */
  cwd: string;
  env?: Record<string, string | undefined>;
  zotVersion: string;
  provider?: string;
  model?: string;
  helloMs?: number;
  readyGraceMs?: number;
  readyMaxMs?: number;
  shutdownMs?: number;
};

type Received = { at: number; raw: string; value: unknown; used: boolean };

const QUOTE = 120;
const LINGER_MS = 200;

/** One extension under test: its process and everything it has written to stdout. */
class Subject {
  readonly frames: Received[] = [];
  readonly junk: string[] = [];
  readonly oddities: string[] = [];
  exit: ExitInfo | null = null;
  private exitAt = 0;
  private ended = false;
  private waiters = new Set<() => void>();
  private encoder = new TextEncoder();

  constructor(readonly child: ChildProcess) {
    void child.exited.then((info) => {
      this.exit = info;
      this.exitAt = performance.now();
      this.wake();
      setTimeout(() => this.wake(), LINGER_MS);
    });
    void this.read();
  }

  private async read(): Promise<void> {
    const reader = new LineReader({
      onLine: (line) => this.onLine(line),
      onOversize: (n) => this.oddities.push(`a ${n}-byte line exceeded the 64 MiB limit and was dropped`),
    });
    try {
      for await (const chunk of this.child.stdout) reader.push(chunk);
    } catch {
      // stdout closed under us: the exit handler reports it.
    }
    reader.end();
    this.ended = true;
    this.wake();
  }

  /**
   * Exited and its output read: the exit can be reported before the last lines of stdout, so wait for
   * end of output (or a short linger, when a grandchild keeps the pipe open).
   */
  get gone(): boolean {
    return this.exit !== null && (this.ended || performance.now() - this.exitAt >= LINGER_MS);
  }

  private onLine(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.junk.push(line);
      value = undefined;
    }
    if (value !== undefined) {
      if (!isObject(value) || typeof value.type !== "string") this.junk.push(line);
      else {
        const decoded = decodeExtensionFrame(value);
        if (!decoded.ok) this.oddities.push(decoded.error);
      }
    }
    this.frames.push({ at: performance.now(), raw: line, value, used: false });
    this.wake();
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }

  /** Resolves with the first non-undefined `check()`, re-checking on every frame, exit, and at `wakeAt()`. */
  async until<T>(check: () => T | undefined, wakeAt: () => number): Promise<T> {
    for (;;) {
      const r = check();
      if (r !== undefined) return r;
      await new Promise<void>((res) => {
        const done = () => {
          clearTimeout(timer);
          this.waiters.delete(done);
          res();
        };
        const timer = setTimeout(done, Math.max(0, wakeAt() - performance.now()));
        this.waiters.add(done);
      });
    }
  }

  send(frame: JsonObject): boolean {
    if (this.exit) return false;
    try {
      this.child.stdin.write(this.encoder.encode(JSON.stringify(frame) + "\n"));
      void this.child.stdin.flush();
      return true;
    } catch {
      return false;
    }
  }

  closeStdin(): void {
    try {
      void this.child.stdin.end();
    } catch {
      // Already closed.
    }
  }
}

export async function runHarness(opts: HarnessOptions): Promise<HarnessReport> {
  const dir = resolve(opts.dir);
  const steps: StepResult[] = [];
  const regs: HarnessReport["registrations"] = { commands: [], tools: [], events: [], intercept: [] };
  const manifestPath = join(dir, MANIFEST_FILE);
  const report = (extension: string, log: string): HarnessReport => ({
    ok: steps.every((s) => s.status !== "fail"),
    extension,
    dir,
    log,
    registrations: regs,
    steps,
  });
  const skipScript = () => {
    for (const s of opts.steps) steps.push({ kind: s.kind, name: label(s), status: "skip", ms: null, line: s.line, detail: null });
  };

  const parsed = readManifest(manifestPath, { env: opts.env });
  if (!parsed.ok || parsed.manifest.exec === null) {
    const detail = parsed.ok ? `${manifestPath} has no "exec"; a theme-only extension has no process to test.` : parsed.error;
    steps.push({ kind: "handshake", name: "manifest is valid", status: "fail", ms: null, line: null, detail });
    skipScript();
    const name = parsed.ok ? parsed.manifest.name : (parsed.name ?? dir);
    return report(name, extensionLogPath(opts.home, name));
  }
  const m = parsed.manifest;
  steps.push({ kind: "handshake", name: "manifest is valid", status: "pass", ms: null, line: null, detail: null });

  const opened = ExtensionLog.open(opts.home, m.name);
  const logPath = extensionLogPath(opts.home, m.name);
  if (!opened.ok) {
    steps.push({ kind: "handshake", name: "extension starts", status: "fail", ms: null, line: null, detail: opened.error });
    skipScript();
    return report(m.name, logPath);
  }
  const log = opened.log;
  log.line(`starting ${m.name} ${m.version ?? "(no version)"} at ${new Date().toISOString()} (zot ext test)`);
  const plan = planLaunch({
    exec: m.exec!,
    args: m.args,
    extensionDir: dir,
    cwd: opts.cwd,
    home: opts.home,
    env: extensionEnv(opts.env ?? process.env, { home: opts.home, dir, cwd: opts.cwd }),
    permissions: m.permissions,
  });
  const [exec, ...args] = plan.argv;

  const t0 = performance.now();
  const spawned = spawnExtension({ exec: exec!, args, cwd: dir, env: plan.env, stderrFd: log.fd });
  if (!spawned.ok) {
    log.close();
    steps.push({ kind: "handshake", name: "extension starts", status: "fail", ms: null, line: null, detail: `could not start ${m.exec}: ${spawned.error}` });
    skipScript();
    return report(m.name, logPath);
  }
  const subject = new Subject(spawned.child);
  // A failed step that names the exit reports it; the shutdown step then does not report it again.
  let exitReported = false;
  const exitNote = (): string => {
    if (!subject.exit) return "";
    exitReported = true;
    const words = log.lastWords();
    return `it exited with ${describeExit(subject.exit)}${words ? `: ${JSON.stringify(words)}` : ""}; see ${logPath}`;
  };

  try {
    const handshake = await handshakeSteps(subject, opts, m.name, t0, exitNote, regs);
    steps.push(...handshake.steps);
    if (!handshake.ok) skipScript();
    else await scriptSteps(subject, opts.steps, steps, exitNote);

    const junk = subject.junk[0];
    steps.push({
      kind: "conformance",
      name: "stdout carries only frames",
      status: junk !== undefined ? "fail" : subject.oddities.length ? "warn" : "pass",
      ms: null,
      line: null,
      detail:
        junk !== undefined
          ? `${subject.junk.length} stdout line(s) were not JSON frames, first: ${quote(junk)}; write logs to stderr.`
          : subject.oddities.length
            ? `${subject.oddities.length} frame(s) the host would ignore, first: ${subject.oddities[0]}`
            : null,
    });
    if (exitReported)
      steps.push({ kind: "shutdown", name: "exits on shutdown", status: "skip", ms: null, line: null, detail: "it had already exited (reported above)" });
    else steps.push(await shutdownStep(subject, opts, exitNote, scriptSentShutdown(opts.steps)));
  } finally {
    if (!subject.exit) {
      signalGroup(spawned.child.pid, "SIGTERM");
      await Promise.race([spawned.child.exited, Bun.sleep(1000)]);
    }
    // The group may still hold grandchildren after the leader exited.
    signalGroup(spawned.child.pid, "SIGKILL");
    const exit = await Promise.race([spawned.child.exited, Bun.sleep(1000).then(() => null)]);
    if (exit) log.line(`process exited with ${describeExit(exit)} (zot ext test)`);
    log.close();
  }
  return report(m.name, logPath);
}

async function handshakeSteps(
  subject: Subject,
  opts: HarnessOptions,
  name: string,
  t0: number,
  exitNote: () => string,
  regs: HarnessReport["registrations"],
): Promise<{ ok: boolean; steps: StepResult[] }> {
  const steps: StepResult[] = [];
  const helloMs = opts.helloMs ?? 10_000;
  const first = await subject.until(
    () => subject.frames[0] ?? (subject.gone ? null : performance.now() - t0 >= helloMs ? null : undefined),
    () => t0 + helloMs,
  );
  const fail = (stepName: string, detail: string) => {
    steps.push({ kind: "handshake", name: stepName, status: "fail", ms: null, line: null, detail });
    return { ok: false, steps };
  };
  if (!first) return fail("hello is the first line", subject.exit ? `exited before hello: ${exitNote()}` : `no hello within ${helloMs / 1000}s`);
  first.used = true;
  const hello = decodeExtensionFrame(first.value);
  if (!hello.ok || hello.value.type !== "hello") return fail("hello is the first line", `the first stdout line was not a hello frame: ${quote(first.raw)}`);
  const helloAt = first.at;
  steps.push({ kind: "handshake", name: "hello is the first line", status: "pass", ms: round(helloAt - t0), line: null, detail: null });
  if (hello.value.name !== name)
    return fail("hello.name matches the manifest", `hello.name ${JSON.stringify(hello.value.name)} differs from the manifest name ${JSON.stringify(name)}`);
  steps.push({ kind: "handshake", name: "hello.name matches the manifest", status: "pass", ms: null, line: null, detail: null });

  subject.send({
    type: "hello_ack",
    protocol_version: PROTOCOL_VERSION,
    zot_version: opts.zotVersion,
    provider: opts.provider ?? "mock",
    model: opts.model ?? "mock",
    cwd: resolve(opts.cwd),
    extension_dir: resolve(opts.dir),
    data_dir: resolve(opts.dir),
    capabilities: [...HOST_CAPABILITIES],
  });

  // Registration completes on `ready`, after 250 ms of silence following a registration frame, or
  // 3 s after hello, as in the host.
  const grace = opts.readyGraceMs ?? 250;
  const max = opts.readyMaxMs ?? 3000;
  const isReg = (f: Received) => isObject(f.value) && ["register_command", "register_tool", "subscribe", "ready"].includes(String(f.value.type));
  const outcome = await subject.until<"ready" | "silence" | "max" | "exit">(
    () => {
      if (subject.frames.some((f) => isObject(f.value) && f.value.type === "ready")) return "ready";
      if (subject.gone) return "exit";
      const now = performance.now();
      const last = subject.frames[subject.frames.length - 1];
      if (subject.frames.some((f) => f !== first && isReg(f)) && now - last.at >= grace) return "silence";
      if (now - helloAt >= max) return "max";
      return undefined;
    },
    () => {
      const last = subject.frames[subject.frames.length - 1];
      const sawReg = subject.frames.some((f) => f !== first && isReg(f));
      return Math.min(helloAt + max, sawReg ? last.at + grace : Infinity);
    },
  );
  const regWarnings = collectRegistrations(subject, regs);
  const took = round(performance.now() - helloAt);
  if (outcome === "exit") return fail("registration completes", `exited during registration: ${exitNote()}`);
  steps.push({
    kind: "handshake",
    name: "registration completes with ready",
    status: outcome === "ready" ? "pass" : "warn",
    ms: took,
    line: null,
    detail:
      outcome === "ready"
        ? null
        : outcome === "silence"
          ? `no ready frame; the host would auto-ready after ${grace} ms of silence. Send {"type":"ready"} after your registrations.`
          : `no ready frame within ${max / 1000}s of hello; the host would auto-ready. Send {"type":"ready"} after your registrations.`,
  });
  steps.push({
    kind: "conformance",
    name: "registrations are valid",
    status: regWarnings.length ? "warn" : "pass",
    ms: null,
    line: null,
    detail: regWarnings.length ? regWarnings.join("; ") : null,
  });
  return { ok: true, steps };
}

/** Reads the registration frames received so far into `regs`; returns what the host would reject. */
function collectRegistrations(subject: Subject, regs: HarnessReport["registrations"]): string[] {
  const warnings: string[] = [];
  for (const f of subject.frames) {
    const d = decodeExtensionFrame(f.value);
    if (!d.ok) continue;
    const frame = d.value;
    if (frame.type === "register_command") {
      if (!NAME_PATTERN.test(frame.name)) warnings.push(`command name ${JSON.stringify(frame.name)} does not match ${NAME_PATTERN.source}`);
      else regs.commands.push(frame.name);
    } else if (frame.type === "register_tool") {
      const schema = frame.schema;
      if (!NAME_PATTERN.test(frame.name)) warnings.push(`tool name ${JSON.stringify(frame.name)} does not match ${NAME_PATTERN.source}`);
      else if (schema !== undefined && schema !== null && (!isObject(schema) || (schema.type !== undefined && schema.type !== "object")))
        warnings.push(`tool ${frame.name}: schema must be a JSON object with "type":"object"`);
      else {
        if (schema === undefined || schema === null) warnings.push(`tool ${frame.name} has no schema; the host substitutes an empty object schema`);
        regs.tools.push({ name: frame.name, deferred: frame.deferred });
      }
    } else if (frame.type === "subscribe") {
      if (frame.unknown) warnings.push(`subscribe: zot ignores unknown ${frame.unknown.join(", ")}`);
      regs.events.push(...frame.events);
      regs.intercept.push(...frame.intercept.map((i) => i.event));
    }
  }
  return warnings;
}

async function scriptSteps(subject: Subject, script: ScriptStep[], steps: StepResult[], exitNote: () => string): Promise<void> {
  let lastId: string | null = null;
  let counter = 0;
  for (let i = 0; i < script.length; i++) {
    const s = script[i];
    const start = performance.now();
    let status: StepStatus = "pass";
    let detail: string | null = null;
    let ms: number | null = null;

    if (s.kind === "send") {
      const { frame, id } = prepareSend(s.frame, lastId, () => `t${++counter}`);
      if (id !== null) lastId = id;
      if (!subject.send(frame)) {
        status = "fail";
        detail = `cannot send: the extension is gone${subject.exit ? ` (${exitNote()})` : ""}`;
      }
    } else if (s.kind === "sleep") {
      await Bun.sleep(s.ms);
      ms = round(performance.now() - start);
    } else {
      const want = substitute(s.match, lastId) as JsonObject;
      const deadline = start + s.withinMs;
      const hit = await subject.until<Received | null>(
        () => subject.frames.find((f) => !f.used && matches(want, f.value)) ?? (performance.now() >= deadline || (s.kind === "expect" && subject.gone) ? null : undefined),
        () => deadline,
      );
      if (s.kind === "expect") {
        if (hit) {
          hit.used = true;
          ms = round(Math.max(0, hit.at - start));
        } else {
          status = "fail";
          ms = round(performance.now() - start);
          const pending = subject.frames.filter((f) => !f.used).slice(-3).map((f) => quote(f.raw));
          detail =
            `no frame matching ${quote(JSON.stringify(want))} within ${s.withinMs} ms` +
            (subject.exit ? `; ${exitNote()}` : "") +
            (pending.length ? `; unmatched frames: ${pending.join(", ")}` : "; no unmatched frames");
        }
      } else if (hit) {
        status = "fail";
        ms = round(hit.at - start);
        detail = `a frame matching ${quote(JSON.stringify(want))} arrived: ${quote(hit.raw)}`;
      } else {
        ms = round(performance.now() - start);
      }
    }
    steps.push({ kind: s.kind, name: label(s), status, ms, line: s.line, detail });
    if (status === "fail") {
      for (const rest of script.slice(i + 1)) steps.push({ kind: rest.kind, name: label(rest), status: "skip", ms: null, line: rest.line, detail: null });
      return;
    }
  }
}

async function shutdownStep(subject: Subject, opts: HarnessOptions, exitNote: () => string, expected: boolean): Promise<StepResult> {
  const step = (status: StepStatus, ms: number | null, detail: string | null): StepResult => ({
    kind: "shutdown",
    name: "exits on shutdown",
    status,
    ms,
    line: null,
    detail,
  });
  if (subject.exit) return expected ? step("pass", null, null) : step("fail", null, `the extension exited on its own before shutdown: ${exitNote()}`);
  const start = performance.now();
  const limit = opts.shutdownMs ?? 2000;
  subject.send({ type: "shutdown" });
  subject.closeStdin();
  await subject.until(() => (subject.gone || performance.now() - start >= limit ? true : undefined), () => start + limit);
  const ms = round(performance.now() - start);
  if (!subject.exit) return step("fail", ms, `still running ${limit / 1000}s after shutdown; the host would SIGTERM it. Exit after sending shutdown_ack.`);
  const acked = subject.frames.some((f) => isObject(f.value) && f.value.type === "shutdown_ack");
  return acked ? step("pass", ms, null) : step("warn", ms, "exited without sending shutdown_ack");
}

function scriptSentShutdown(script: ScriptStep[]): boolean {
  return script.some((s) => s.kind === "send" && s.frame.type === "shutdown");
}

function label(s: ScriptStep): string {
  if (s.name) return s.name;
  if (s.kind === "send") return `send ${String(s.frame.type)}`;
  if (s.kind === "sleep") return `sleep ${s.ms} ms`;
  const type = typeof s.match.type === "string" ? s.match.type : "frame";
  return `${s.kind === "expect" ? "expect" : "expect no"} ${type}`;
}

function quote(s: string): string {
  return JSON.stringify(s.length > QUOTE ? s.slice(0, QUOTE) + "…" : s);
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
