// The stdio transport: the extension is a child process zot starts (through the sandbox when it
// declares permissions); frames are NDJSON lines on its stdin and stdout, its stderr is read by zot
// and appended, masked, to its log.
import { describePermissions, permissionsJson } from "../sandbox/scope.ts";
import { LineReader } from "./lines.ts";
import type { ExtensionLog } from "./log.ts";
import { describeExit, extensionEnv, spawnExtension, type ExitInfo } from "./process.ts";
import { pumpStderr, type StderrPump } from "./stderr-log.ts";
import { killTree, type TreeSignal } from "../../platform/process-tree.ts";
import { WriteQueue } from "./write-queue.ts";
import { planLaunch } from "../sandbox/plan.ts";
import { describeGrants } from "../sandbox/confinement.ts";
import type { Opened, StdioTarget, Transport, TransportHooks, TransportTerms } from "./transport.ts";

export type StdioOptions = {
  target: StdioTarget;
  dir: string;
  cwd: string;
  home: string;
  env: Record<string, string | undefined>;
  log: ExtensionLog;
  maxQueueBytes: number;
  maxLineBytes: number;
  hooks: TransportHooks;
};

/** Extension output is parsed in slices of this size, with other I/O let in every READ_BUDGET_MS. */
const READ_SLICE_BYTES = 16 * 1024;
const READ_BUDGET_MS = 4;
const encoder = new TextEncoder();

export const STDIO_TERMS: TransportTerms = {
  who: "process",
  unit: "stdout line",
  unitFrom: "line from stdout",
  input: "stdin",
  firstHint: "(write logs to stderr)",
};

export function openStdio(o: StdioOptions): Opened {
  const t = o.target;
  const plan = planLaunch({
    exec: t.exec,
    args: t.args,
    extensionDir: o.dir,
    cwd: o.cwd,
    home: o.home,
    env: extensionEnv(o.env, { home: o.home, dir: o.dir, cwd: o.cwd }),
    permissions: t.permissions,
    ...(t.embedded ? { embedded: true } : {}),
  });
  if (!plan.ok) return { ok: false, error: plan.error };
  if (t.embedded) o.log.line(`runtime: zot's own Bun (${t.exec}), as ${t.embedded} is not on PATH`);
  if (t.permissions) {
    o.log.line(`permissions (${plan.enforcement}): ${describePermissions(permissionsJson(t.permissions))}`);
    if (plan.grants) o.log.line(`sandbox grants: ${describeGrants(plan.grants)}`);
  }
  const [exec, ...args] = plan.argv;
  const spawned = spawnExtension({ exec: exec!, args, cwd: o.dir, env: plan.env });
  if (!spawned.ok) {
    // posix_spawn does not fall back to sh the way a shell does: a script without "#!" cannot start.
    const hint = /ENOEXEC/.test(spawned.error) ? `; it is not a program this system can run (a script needs a "#!" line, e.g. #!/bin/sh)` : "";
    return { ok: false, error: `could not start ${t.exec}: ${spawned.error}${hint}` };
  }
  const child = spawned.child;
  const queue = new WriteQueue(child.stdin, o.maxQueueBytes, o.hooks.onHung);
  const stderr = pumpStderr(child.stderr, o.log);
  void child.exited.then((exit) => reportExit(exit, stderr, o.hooks));
  void readLoop(child.stdout, o.maxLineBytes, o.hooks);
  const transport: Transport = {
    send: (text) => queue.write(encoder.encode(text + "\n")),
    end: () => queue.end(),
    drop: () => queue.drop(),
    signal: (sig: TreeSignal) => void killTree(child.pid, sig),
    helloHint: () => "it must write a hello frame to stdout first",
    ended: (exit, when) =>
      when === "before hello" ? `exited before hello with ${describeExit(exit)}` : `exited with ${describeExit(exit)}${when ? ` ${when}` : ""}`,
  };
  return { ok: true, transport, sandbox: plan.grants ? { grants: plan.grants, missing: plan.missing } : null };
}

/** The exit is reported once all the extension wrote to stderr is in the log, so its last words are there. */
async function reportExit(exit: ExitInfo, stderr: StderrPump, hooks: TransportHooks): Promise<void> {
  await stderr.finish();
  hooks.onExit(exit);
}

async function readLoop(stdout: ReadableStream<Uint8Array>, maxLineBytes: number, hooks: TransportHooks): Promise<void> {
  const lines = new LineReader({ maxLineBytes, onLine: hooks.onLine, onOversize: hooks.onOversize });
  const reader = stdout.getReader();
  // A read that is already buffered resolves as a microtask, so a flooding extension would never
  // let the event loop reach the user's keys: after a few ms of parsing, other I/O gets a turn.
  let since = performance.now();
  const breathe = async () => {
    if (performance.now() - since < READ_BUDGET_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    since = performance.now();
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (let at = 0; at < value.length; at += READ_SLICE_BYTES) {
        lines.push(value.length <= READ_SLICE_BYTES ? value : value.subarray(at, at + READ_SLICE_BYTES));
        await breathe();
      }
    }
    lines.end();
  } catch {
    // A read error means the pipe is gone; treated like end of output.
  }
  hooks.onInputClosed();
}
