// The launcher's third form, for the agent's commands: `zot __sandbox --serve`, one confined process
// per session and confinement. Its first frame from zot is the confinement (so it can be started
// before zot knows the policy: src/agent/sandbox/server-process.ts); it runs nothing before it has
// applied it. It isolates itself and applies the Landlock ruleset once,
// exactly as runConfined does before its exec, then spawns every command zot asks for as its own
// child: a child inherits the namespaces and the Landlock domain of the thread that spawns it (this
// one), so every rule holds for the command and all it starts, as with the one-shot launcher.
// Its first frame says whether it confined itself (zot's start-up takes that as the sandbox probe's
// verdict, src/agent/sandbox/probe.ts). Where confinement failed, every command is answered with
// the `[zot] sandbox:` line and status 126, and nothing is ever run.
//
// It is a process of its own, not a thread of zot, although a thread would start sooner and hand
// each command over for less (bench/RESULTS.md, "The command server as a thread of zot"): the
// thread that spawns a command shares its Landlock domain, so a command could signal that thread
// (`kill`, `tgkill`, a thread pidfd), and a SIGSTOP or SIGKILL to one thread is one to all of zot.
// The other threads of this process stay outside the domain, so a command must not reach into the
// server's memory: the server is made non-dumpable and CAP_SYS_PTRACE leaves the bounding set its
// children get, so no command may ptrace it (and Landlock refuses writes to /proc/PID/mem). It dies
// with zot: PR_SET_PDEATHSIG, and its stdin closing; either way it kills every command's group first.
import type { Subprocess } from "bun";
import { CANNOT_CONFINE, decodeConfinement, LAUNCHER_PREFIX } from "./confine.ts";
import { encodeEvent, requestFrames, type Confined, type Event, type Request } from "./command-protocol.ts";
import { applyRuleset } from "./landlock.ts";
import { libc, type Libc } from "./libc.ts";
import { isolate } from "./namespaces.ts";
import { readToExit } from "./shell-exit.ts";
import { signallable } from "./signallable.ts";

export const SERVE_ARG = "--serve";

const PR_SET_PDEATHSIG = 1;
const PR_SET_DUMPABLE = 4;
const PR_CAPBSET_DROP = 24;
const CAP_SYS_PTRACE = 19;
const SIGTERM = 15;

/** Confines this process as SPEC says: under which Landlock ABI, or why it could not, as a clause (each refused command's line adds what that means). */
function confineSelf(c: Libc | { error: string }, specText: string): Confined {
  const refused = (refusal: string): Confined => ({ ok: false, refusal });
  const spec = decodeConfinement(specText);
  if (!spec) return refused("the command server was sent no valid confinement (a zot bug)");
  if ("error" in c) return refused(`could not set up the sandbox (${c.error})`);
  const isolated = isolate(spec.isolation);
  if (!isolated.ok) return refused(`this system does not let zot make namespaces (${isolated.error})`);
  if (c.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) !== 0) return refused("could not set up the sandbox (prctl(PR_SET_DUMPABLE) failed)");
  // Root (or root of its user namespace) has CAP_SETPCAP to drop it; anyone else has no CAP_SYS_PTRACE to give.
  if (c.prctl(PR_CAPBSET_DROP, CAP_SYS_PTRACE, 0, 0, 0) !== 0 && process.getuid?.() === 0)
    return refused("could not set up the sandbox (dropping CAP_SYS_PTRACE failed)");
  const applied = applyRuleset(spec.ruleset);
  return applied.ok ? { ok: true, abi: applied.abi } : refused(`could not set up the sandbox (${applied.error})`);
}

export async function runCommandServer(): Promise<number> {
  const c = libc();
  // Before anything else, also while it waits for its confinement: zot gone means this server and its commands go too.
  if (!("error" in c)) c.prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
  if (process.ppid === 1) return 0;
  /** Null until zot's first frame has said how to confine this server; nothing runs before. */
  let refusal: string | null | undefined;
  const out = Bun.stdout.writer();
  const send = async (e: Event): Promise<void> => {
    out.write(encodeEvent(e));
    await out.flush();
  };
  const running = new Map<number, Subprocess<"ignore", "pipe", "ignore">>();
  const killAll = (): void => {
    for (const p of running.values()) signalGroup(p.pid, "SIGKILL");
  };
  process.on("SIGTERM", () => {
    killAll();
    process.exit(0);
  });

  const start = async (r: Extract<Request, { kind: "start" }>): Promise<void> => {
    if (refusal !== null) {
      await send({ kind: "started", id: r.id, pid: process.pid });
      await send({ kind: "output", id: r.id, bytes: new TextEncoder().encode(`${LAUNCHER_PREFIX} ${refusal}; the command was not run.\n`) });
      await send({ kind: "exit", id: r.id, code: CANNOT_CONFINE, signal: null, drained: true });
      return;
    }
    let proc: Subprocess<"ignore", "pipe", "ignore">;
    try {
      // Its own child from the spawn on, killed by this server whenever zot goes: it needs no go line.
      proc = Bun.spawn(r.argv, { cwd: r.cwd, env: r.env, stdin: "ignore", stdout: "pipe", stderr: "ignore", detached: true });
    } catch (err) {
      await send({ kind: "failed", id: r.id, message: err instanceof Error ? err.message : String(err) });
      return;
    }
    running.set(r.id, proc);
    await send({ kind: "started", id: r.id, pid: proc.pid });
    const exit = await readToExit(
      proc,
      (bytes) => send({ kind: "output", id: r.id, bytes }),
      () => {
        signalGroup(proc.pid, "SIGKILL");
        running.delete(r.id);
      },
    );
    await send({ kind: "exit", id: r.id, ...exit });
  };

  const frames = requestFrames();
  /** Commands still being answered: each ends with its exit frame, also once zot closed the channel. */
  const answers = new Set<Promise<void>>();
  const broken = (what: string): void => {
    process.stderr.write(`${LAUNCHER_PREFIX} ${what}\n`);
  };
  reading: for await (const chunk of Bun.stdin.stream()) {
    const got = frames.push(chunk);
    if (!got.ok) {
      broken(got.error);
      break;
    }
    for (const r of got.values) {
      if (refusal === undefined) {
        if (r.kind !== "confine") {
          broken(`malformed command-server frame: a ${r.kind} came before the confinement`);
          break reading;
        }
        const outcome = confineSelf(c, r.spec);
        refusal = outcome.ok ? null : outcome.refusal;
        await send({ kind: "ready", id: 0, outcome });
      } else if (r.kind === "confine") {
        broken("malformed command-server frame: a second confinement");
        break reading;
      } else if (r.kind === "start") {
        const answering = start(r).finally(() => answers.delete(answering));
        answers.add(answering);
      } else {
        const p = running.get(r.id);
        if (p) signalGroup(p.pid, r.signal);
      }
    }
  }
  // zot closed the channel (it exited, or retired this server): nothing it started may remain, and
  // each command's frames are finished (its exit says it was killed) before the server goes.
  killAll();
  await Promise.allSettled(answers);
  return 0;
}

function signalGroup(pid: number, signal: "SIGTERM" | "SIGKILL"): void {
  if (!signallable(pid)) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}
