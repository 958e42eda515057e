// zot's side of the command server (src/platform/command-server.ts): one per confinement, started
// lazily (or as the session starts, when it is also the sandbox probe: probe.ts), reused by every
// command, replaced when the policy changes (the old one ends once its last command has) and
// restarted after it dies. It holds the event loop only while a command runs or its readiness is
// awaited. If it dies, its running commands end with a clear error and their groups are killed,
// each checked by its start time so a recycled pid is never signalled.
import { encodeRequest, eventFrames, type Confined, type Event, type Request } from "../../platform/command-protocol.ts";
import { LAUNCHER_PREFIX } from "../../platform/confine.ts";
import { killTree, processStart } from "../../platform/process-tree.ts";
import { registerGroup, unregisterGroup } from "../../platform/reaper.ts";
import { commandServerStart, type ServerStart } from "./status.ts";
import { releaseStarted, spawnServer, takeStarted, type ServerProcess } from "./server-process.ts";
import type { SandboxPolicy } from "./policy.ts";
import { Chunks, type Command, type CommandExit } from "./command.ts";

/** What the server's first frame said (platform/command-protocol.ts), or `died`: how it ended before it said. */
export type Readiness = Confined | { ok: false; died: string };

type Served = {
  pid: number | null;
  /**
   * The group leader's start time once started; null for a refusal answered by the server itself,
   * and for a leader that had already exited when its start arrived (a fast command).
   */
  start: string | null;
  output: Chunks;
  started: (r: Command | string) => void;
  exited: (e: CommandExit) => void;
  settled: Promise<CommandExit>;
};

export class CommandServer {
  private readonly proc: ServerProcess;
  private readonly frames = eventFrames();
  private readonly commands = new Map<number, Served>();
  private nextId = 1;
  private pumping = false;
  private retired = false;
  private readonly readiness: Promise<Readiness>;
  private settleReady: ((r: Readiness) => void) | null = null;
  private awaitingReady = false;
  dead = false;

  constructor(
    s: ServerStart,
    readonly key: string,
  ) {
    this.proc = takeStarted(s.argv) ?? spawnServer(s.argv);
    this.readiness = new Promise((res) => (this.settleReady = res));
    // Its first frame: it confines itself before it reads any other.
    this.send({ kind: "confine", id: 0, spec: s.spec });
    // Not listed with the reaper: zot's death, even by kill -9, reaches the server as PR_SET_PDEATHSIG
    // and the end of its stdin, and it kills every command's group before it exits. A SIGKILL from
    // the reaper raced that and won under load, leaving a command zot had not yet read the start
    // of, so not yet listed (the commands' groups are listed as their starts arrive).
    this.idle();
    void this.proc.exited.then((code) => this.died(this.proc.signalCode ? `killed by ${this.proc.signalCode}` : `exited with status ${code}`));
    servers.add(this);
    installExitHook();
  }

  get pid(): number {
    return this.proc.pid;
  }

  /** Resolves once its first frame says whether it confined itself, or it died before it. */
  confined(): Promise<Readiness> {
    if (this.settleReady !== null && !this.dead) {
      this.awaitingReady = true;
      this.proc.ref();
      void this.pump();
    }
    return this.readiness;
  }

  private ready(r: Readiness): void {
    this.settleReady?.(r);
    this.settleReady = null;
    this.awaitingReady = false;
  }

  start(argv: string[], cwd: string, env: Record<string, string>): Promise<Command | string> {
    const id = this.nextId++;
    let exited!: (e: CommandExit) => void;
    const settled = new Promise<CommandExit>((res) => (exited = res));
    return new Promise<Command | string>((started) => {
      this.commands.set(id, { pid: null, start: null, output: new Chunks(), started, exited, settled });
      if (!this.send({ kind: "start", id, argv, cwd, env })) return;
      this.proc.ref();
      void this.pump();
    });
  }

  /** Ends the server once its last command has ended (its stdin closing makes it exit). */
  retire(): void {
    this.retired = true;
    if (this.commands.size === 0) this.close();
  }

  /** Synchronous, for the exit hook: every command's group, then the server. */
  killNow(): void {
    for (const c of this.commands.values()) if (c.pid !== null && c.start !== null && processStart(c.pid) === c.start) killTree(c.pid, "SIGKILL");
    this.proc.kill("SIGKILL");
  }

  private close(): void {
    servers.delete(this);
    try {
      this.proc.stdin.end();
    } catch {
      // Already closed: the server is gone.
    }
  }

  private send(r: Request): boolean {
    if (this.dead) return false;
    try {
      this.proc.stdin.write(encodeRequest(r));
      this.proc.stdin.flush();
      return true;
    } catch {
      return false;
    }
  }

  /** Reads events only while a command is waiting, so an idle server never holds the event loop. */
  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    // A reader holds the event loop for as long as it is locked to the pipe, so one exists only while commands run.
    const reader = this.proc.stdout.getReader();
    try {
      while ((this.commands.size > 0 || this.awaitingReady) && !this.dead) {
        const { done, value } = await reader.read();
        if (done) break;
        const got = this.frames.push(value);
        if (!got.ok) {
          this.died(got.error);
          this.proc.kill("SIGKILL");
          break;
        }
        for (const e of got.values) this.dispatch(e);
      }
    } catch {
      // The pipe broke: the exit handler reports the server's end.
    } finally {
      reader.releaseLock();
      this.pumping = false;
      // A server that closed its output before it said it was ready is ending: held until its exit says how.
      if (this.commands.size === 0 && !this.awaitingReady) this.idle();
    }
  }

  private idle(): void {
    this.proc.unref();
    this.proc.stdin.unref();
    if (this.retired) this.close();
  }

  /** Its group is on the reaper's list: every started command but a refusal the server answered itself. */
  private listed(c: Served): c is Served & { pid: number } {
    return c.pid !== null && c.pid !== this.proc.pid;
  }

  private dispatch(e: Event): void {
    if (e.kind === "ready") return this.ready(e.outcome);
    const c = this.commands.get(e.id);
    if (!c) return;
    if (e.kind === "output") c.output.push(e.bytes);
    else if (e.kind === "failed") {
      this.commands.delete(e.id);
      c.started(e.message);
    } else if (e.kind === "started") {
      c.pid = e.pid;
      if (e.pid !== this.proc.pid) {
        c.start = processStart(e.pid);
        // The exit hook covers exits that run code; the reaper covers kill -9.
        registerGroup(e.pid);
      }
      const id = e.id;
      c.started({
        pid: e.pid,
        output: c.output,
        exited: c.settled,
        kill: (signal) => {
          if (this.commands.has(id)) this.send({ kind: "kill", id, signal });
        },
      });
    } else {
      this.commands.delete(e.id);
      // The server killed the group before it said so. Whatever `start` says: a command that had
      // exited before its start arrived stayed on the list, and a reaper reaching for it later
      // could hit whatever group reused its number.
      if (this.listed(c)) unregisterGroup(c.pid);
      c.output.end();
      c.exited({ code: e.code, signal: e.signal, drained: e.drained });
    }
  }

  private died(why: string): void {
    if (this.dead) return;
    this.dead = true;
    servers.delete(this);
    this.ready({ ok: false, died: why });
    const error = `${LAUNCHER_PREFIX} the sandbox's command server stopped (${why}); the command's result is lost and what it started was killed. The next command starts a new server.`;
    for (const c of this.commands.values()) {
      if (c.pid !== null && c.start !== null && processStart(c.pid) === c.start) killTree(c.pid, "SIGKILL");
      else if (this.listed(c)) unregisterGroup(c.pid);
      c.started(error);
      c.output.end();
      c.exited({ code: null, signal: null, drained: true, error });
    }
    this.commands.clear();
  }
}

const servers = new Set<CommandServer>();
let current: CommandServer | null = null;
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const s of servers) s.killNow();
  });
}

/**
 * As the session starts: the server for `p` (null: none) is started before the first command needs
 * it, so that command does not wait for zot's start-up and the confinement, and one started with
 * the command line that the session does not take ends.
 */
export function warmCommandServer(p: SandboxPolicy | null): void {
  if (p) commandServerFor(p);
  releaseStarted();
}

/** The running server for `p`'s confinement, started if needed; null where commands start without one. */
export function commandServerFor(p: SandboxPolicy | undefined): CommandServer | null {
  const s = commandServerStart(p);
  return s ? commandServerWith(s) : null;
}

/** The running server started so, started if needed. */
export function commandServerWith(s: ServerStart): CommandServer {
  const key = `${s.argv.join("\0")}\0${s.spec}`;
  if (current && current.key === key && !current.dead) return current;
  current?.retire();
  current = new CommandServer(s, key);
  return current;
}
