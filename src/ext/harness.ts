// `zot ext test`: runs one extension through the host's own `Connection` (same process, environment,
// log, line reader, handshake, registration window and shutdown sequence), reports what the host
// decided as steps, plays a script against it, and stops it the host's way. The result is a list of
// steps with pass/warn/fail and timings; nothing here prints.
import { extensionLogPath } from "../platform/home.ts";
import { join, resolve } from "node:path";
import { Connection, stopConnections } from "./connection/connection.ts";
import { matches, prepareSend, substitute, type ScriptStep } from "./harness-script.ts";
import { MANIFEST_FILE, readManifest } from "./install/manifest.ts";
import { targetOf } from "./connection/transport.ts";
import type { Mask } from "./mask.ts";
import { effectiveSettings, readStored } from "./install/settings.ts";
import type { Manifest } from "./types.ts";
import { decodeExtensionFrame, decodeHostFrame } from "../protocol.ts";
import { isObject, type JsonObject } from "../json.ts";
import { DEFAULT_TIMINGS, type HostTimings } from "./connection/timings.ts";

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
  /** For tests; `zot ext test` uses the host's own deadlines. */
  timings?: Partial<HostTimings>;
  /** Masks the secrets the caller knows in what the connection writes (its log, its errors). */
  mask?: Mask;
};

type Received = { at: number; raw: string; value: unknown; used: boolean };

const QUOTE = 120;

/** Everything the extension sent (stdout lines or WebSocket messages), as the connection read it, for the script's expectations. */
class Observed {
  readonly frames: Received[] = [];
  readonly junk: string[] = [];
  readonly oddities: string[] = [];
  private waiters = new Set<() => void>();

  /** The connection's line recorder: lines the host sent are not the extension's output. */
  record(_ext: string, dir: "in" | "out", json: string, valid = true): void {
    if (dir === "out") return;
    let value: unknown;
    if (valid) value = JSON.parse(json);
    if (!isObject(value) || typeof value.type !== "string") this.junk.push(json);
    else {
      const decoded = decodeExtensionFrame(value);
      if (!decoded.ok) this.oddities.push(decoded.error);
    }
    this.frames.push({ at: performance.now(), raw: json, value, used: false });
    this.wake();
  }

  wake(): void {
    for (const w of [...this.waiters]) w();
  }

  /** Resolves with the first non-undefined `check()`, re-checking on every frame, on `wake()`, and at `wakeAt()`. */
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
}

export async function runHarness(opts: HarnessOptions): Promise<HarnessReport> {
  const dir = resolve(opts.dir);
  const timings: HostTimings = { ...DEFAULT_TIMINGS, ...opts.timings };
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
  const target = parsed.ok ? targetOf(parsed.manifest) : null;
  if (!parsed.ok || target === null) {
    const detail = parsed.ok ? `${manifestPath} has no "exec"; a theme-only extension has no process to test.` : parsed.error;
    steps.push({ kind: "handshake", name: "manifest is valid", status: "fail", ms: null, line: null, detail });
    skipScript();
    const name = parsed.ok ? parsed.manifest.name : (parsed.name ?? dir);
    return report(name, extensionLogPath(opts.home, name));
  }
  const m = parsed.manifest;
  steps.push({ kind: "handshake", name: "manifest is valid", status: "pass", ms: null, line: null, detail: null });

  const observed = new Observed();
  const conn = new Connection({
    name: m.name,
    version: m.version,
    dir,
    target,
    settings: testSettings(m, opts.home),
    home: opts.home,
    env: opts.env,
    ...(opts.mask ? { mask: opts.mask } : {}),
    info: () => ({ zotVersion: opts.zotVersion, provider: opts.provider ?? "mock", model: opts.model ?? "mock", cwd: opts.cwd }),
    trace: observed,
    timings,
    onRegistration: () => {},
    onIntent: () => {},
    onExit: () => {},
  });
  conn.start();
  const logPath = conn.logPath || extensionLogPath(opts.home, m.name);
  if (conn.gone) {
    steps.push({ kind: "handshake", name: "extension starts", status: "fail", ms: null, line: null, detail: conn.error });
    skipScript();
    return report(m.name, logPath);
  }
  void conn.finished.then(() => observed.wake());
  // A failed step that names the exit reports it; the shutdown step then does not report it again.
  let exitReported = false;
  const exitNote = (): string => {
    const ended = conn.ended();
    if (!ended) return "";
    exitReported = true;
    const words = conn.lastStderrLine();
    return `it ${ended}${words ? `: ${JSON.stringify(words)}` : ""}; see ${logPath}`;
  };

  try {
    const handshake = await handshakeSteps(conn, observed, m.name, timings, exitNote, regs);
    steps.push(...handshake.steps);
    if (!handshake.ok) skipScript();
    else await scriptSteps(conn, observed, opts.steps, steps, exitNote);

    const junk = observed.junk[0];
    steps.push({
      kind: "conformance",
      name: target.kind === "websocket" ? "WebSocket messages carry only frames" : "stdout carries only frames",
      status: junk !== undefined ? "fail" : observed.oddities.length ? "warn" : "pass",
      ms: null,
      line: null,
      detail:
        junk !== undefined
          ? `${observed.junk.length} ${conn.terms.unit}(s) were not JSON frames, first: ${quote(junk)}; ${target.kind === "websocket" ? "send one JSON frame per text message." : "write logs to stderr."}`
          : observed.oddities.length
            ? `${observed.oddities.length} frame(s) the host would ignore, first: ${observed.oddities[0]}`
            : null,
    });
    if (exitReported)
      steps.push({ kind: "shutdown", name: "exits on shutdown", status: "skip", ms: null, line: null, detail: "it had already exited (reported above)" });
    else if (!handshake.ok)
      steps.push({
        kind: "shutdown",
        name: "exits on shutdown",
        status: "skip",
        ms: null,
        line: null,
        detail: "the host stopped it after the failed handshake",
      });
    else steps.push(await shutdownStep(conn, observed, timings, exitNote, scriptSentShutdown(opts.steps)));
  } finally {
    await stopConnections([conn], timings);
  }
  return report(m.name, logPath);
}

async function handshakeSteps(
  conn: Connection,
  observed: Observed,
  name: string,
  timings: HostTimings,
  exitNote: () => string,
  regs: HarnessReport["registrations"],
): Promise<{ ok: boolean; steps: StepResult[] }> {
  const steps: StepResult[] = [];
  await conn.settled;
  const fail = (stepName: string, detail: string) => {
    steps.push({ kind: "handshake", name: stepName, status: "fail", ms: null, line: null, detail });
    return { ok: false, steps };
  };
  if (conn.helloName === null) {
    const first = observed.frames[0];
    if (first) return fail("hello is the first line", `the first ${conn.terms.unit} was not a hello frame: ${quote(first.raw)}`);
    if (!conn.exit) await Promise.race([conn.exited, Bun.sleep(timings.lingerMs)]);
    if (conn.exit) return fail("hello is the first line", `exited before hello: ${exitNote()}`);
    return fail("hello is the first line", conn.error ?? `no hello within ${timings.helloMs / 1000}s`);
  }
  const helloAt = observed.frames[0]?.at ?? conn.spawnedAt;
  steps.push({ kind: "handshake", name: "hello is the first line", status: "pass", ms: round(helloAt - conn.spawnedAt), line: null, detail: null });
  if (conn.helloName !== name)
    return fail("hello.name matches the manifest", `hello.name ${JSON.stringify(conn.helloName)} differs from the manifest name ${JSON.stringify(name)}`);
  steps.push({ kind: "handshake", name: "hello.name matches the manifest", status: "pass", ms: null, line: null, detail: null });

  regs.commands.push(...conn.commands.map((c) => c.name));
  regs.tools.push(...conn.tools.map((t) => ({ name: t.name, deferred: t.deferred })));
  regs.events.push(...conn.events);
  regs.intercept.push(...conn.intercept.map((i) => i.event));
  if (conn.completedBy === null) {
    if (!conn.exit) await Promise.race([conn.exited, Bun.sleep(timings.lingerMs)]);
    return fail("registration completes", conn.exit ? `exited during registration: ${exitNote()}` : (conn.error ?? "registration did not complete"));
  }
  steps.push({
    kind: "handshake",
    name: "registration completes with ready",
    status: conn.completedBy === "ready" ? "pass" : "warn",
    ms: round(conn.spawnedAt + (conn.startupMs ?? 0) - (conn.helloAt ?? helloAt)),
    line: null,
    detail:
      conn.completedBy === "ready"
        ? null
        : conn.completedBy === "silence"
          ? `no ready frame; the host would auto-ready after ${timings.readyGraceMs} ms of silence. Send {"type":"ready"} after your registrations.`
          : `no ready frame within ${timings.readyMaxMs / 1000}s of hello; the host would auto-ready. Send {"type":"ready"} after your registrations.`,
  });
  steps.push({
    kind: "conformance",
    name: "registrations are valid",
    status: conn.registrationWarnings.length ? "warn" : "pass",
    ms: null,
    line: null,
    detail: conn.registrationWarnings.length ? conn.registrationWarnings.join("; ") : null,
  });
  return { ok: true, steps };
}

async function scriptSteps(conn: Connection, observed: Observed, script: ScriptStep[], steps: StepResult[], exitNote: () => string): Promise<void> {
  let lastId: string | null = null;
  let counter = 0;
  for (const [i, s] of script.entries()) {
    const start = performance.now();
    let status: StepStatus = "pass";
    let detail: string | null = null;
    let ms: number | null = null;

    if (s.kind === "send") {
      const { frame, id } = prepareSend(s.frame, lastId, () => `t${++counter}`);
      if (id !== null) lastId = id;
      // The script sends what the host could send, decoded by the same decoder the SDK uses.
      const decoded = decodeHostFrame(frame);
      if (!decoded.ok) {
        status = "fail";
        detail = `not a frame the host sends: ${decoded.error}; fix the script line.`;
      } else if (conn.gone || conn.exit) {
        status = "fail";
        detail = `cannot send: the extension is gone${conn.exit ? ` (${exitNote()})` : ""}`;
      } else {
        conn.send(decoded.value);
      }
    } else if (s.kind === "sleep") {
      await Bun.sleep(s.ms);
      ms = round(performance.now() - start);
    } else {
      const want = substitute(s.match, lastId) as JsonObject;
      const deadline = start + s.withinMs;
      const hit = await observed.until<Received | null>(
        () =>
          observed.frames.find((f) => !f.used && matches(want, f.value)) ??
          (performance.now() >= deadline || (s.kind === "expect" && conn.gone) ? null : undefined),
        () => deadline,
      );
      if (s.kind === "expect") {
        if (hit) {
          hit.used = true;
          ms = round(Math.max(0, hit.at - start));
        } else {
          status = "fail";
          ms = round(performance.now() - start);
          const pending = observed.frames
            .filter((f) => !f.used)
            .slice(-3)
            .map((f) => quote(f.raw));
          detail =
            `no frame matching ${quote(JSON.stringify(want))} within ${s.withinMs} ms` +
            (conn.exit ? `; ${exitNote()}` : "") +
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

async function shutdownStep(conn: Connection, observed: Observed, timings: HostTimings, exitNote: () => string, expected: boolean): Promise<StepResult> {
  const step = (status: StepStatus, ms: number | null, detail: string | null): StepResult => ({
    kind: "shutdown",
    name: "exits on shutdown",
    status,
    ms,
    line: null,
    detail,
  });
  if (conn.exit) return expected ? step("pass", null, null) : step("fail", null, `the extension exited on its own before shutdown: ${exitNote()}`);
  const start = performance.now();
  const exitedAt = conn.exited.then(() => performance.now());
  const terminated = await stopConnections([conn], timings);
  await conn.finished;
  const ms = round((await exitedAt) - start);
  if (terminated.length)
    return step("fail", ms, `still running ${timings.shutdownGraceMs / 1000}s after shutdown; the host sent SIGTERM. Exit after sending shutdown_ack.`);
  const acked = observed.frames.some((f) => isObject(f.value) && f.value.type === "shutdown_ack");
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

/** The settings `zot ext test` hands over: what the user stored, with defaults, as the host would. */
function testSettings(m: Manifest, home: string): JsonObject | null {
  if (m.settings.length === 0) return null;
  const read = readStored(home, m.name);
  return effectiveSettings(m.settings, read.ok ? read.stored : { values: {}, secrets: [] }).values;
}
