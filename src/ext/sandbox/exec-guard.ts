// `exec: false` as the kernel's word: once the extension's program has started, no execve or
// execveat succeeds in it or in anything it forks — not `python3 -c`, not `ld-linux … /bin/sh`, not
// a memfd copy of a shell run through /proc/self/fd/N.
//
// Why it holds. A seccomp filter cannot count, and everything a filter can test (the call's
// arguments, the instruction pointer) the extension can reproduce once it runs code of its own, so
// no filter alone can tell the launcher's one exec from a later one. The count is therefore kept
// outside the sandbox, by a supervisor process:
//   1. the launcher starts the supervisor (`zot __sandbox --exec-guard PID`) before any restriction;
//   2. it installs a filter on itself that hands every execve/execveat to a listener (seccomp user
//      notification) and refuses calls of another ABI, so the rule cannot be dodged by i386/x32;
//   3. the supervisor takes the listener from the launcher (pidfd_getfd) and the launcher closes its
//      copy, so nothing in the sandbox holds it;
//   4. the launcher applies Landlock and makes its one execve; the supervisor lets the first call,
//      which can only be that one (nothing else runs in the launcher's thread, and the filter was
//      installed on that thread only), continue, and answers every later call with EACCES.
// The filter survives execve and is inherited by every child; it cannot be removed. The supervisor
// is outside the Landlock domain, so the extension can neither signal nor trace it; if it dies
// anyway, the kernel fails every held call (ENOSYS): the guard fails closed.
import { errno as lastErrno, libc } from "../../platform/libc.ts";
import { answer, installFilter, nextNotification, seccompAvailable, takeFd, type SeccompRule } from "../../platform/seccomp.ts";
import { launcherCommand } from "../../platform/launcher-command.ts";

export const EXEC_GUARD_ARG = "--exec-guard";
const EACCES = 13;
const ENOSYS = 38;
const PR_SET_PTRACER = 0x59616d61;
const HANDOVER_TIMEOUT_MS = 10_000;
/** Denials written to the log one by one; after that only counted, so a loop cannot flood it. */
const LOGGED_DENIALS = 10;

const RULES: SeccompRule[] = [
  { syscall: "execve", action: "notify" },
  { syscall: "execveat", action: "notify" },
];

/** Whether this kernel can run the guard: seccomp user notification and pidfd_getfd (Linux 5.6). */
export function execGuardAvailable(): boolean {
  if (!seccompAvailable()) return false;
  const c = libc();
  if ("error" in c) return false;
  // pidfd_getfd on a bad descriptor: EBADF where the call exists, ENOSYS where it does not.
  const r = Number(c.syscall(438, -1, 0, 0, 0));
  return r < 0 && lastErrno(c) !== ENOSYS;
}

/**
 * In the launcher, before Landlock and the final execve: starts the supervisor, installs the
 * filter and hands the listener over. Only after this succeeds may the extension start.
 */
export async function armExecGuard(): Promise<{ ok: true } | { ok: false; error: string }> {
  const c = libc();
  if ("error" in c) return { ok: false, error: c.error };
  const guard = Bun.spawn([...launcherCommand(), EXEC_GUARD_ARG, String(process.pid)], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
  const stop = (error: string) => {
    guard.kill("SIGKILL");
    return { ok: false as const, error };
  };
  const installed = installFilter(RULES);
  if (!installed.ok) return stop(installed.error);
  const listener = installed.listener!;
  // Yama (ptrace_scope 1) lets a process take descriptors only from its descendants unless named.
  c.prctl(PR_SET_PTRACER, guard.pid, 0, 0, 0);
  guard.stdin.write(`${listener}\n`);
  await guard.stdin.flush();
  const reader = guard.stdout.getReader();
  const first = await Promise.race([reader.read(), Bun.sleep(HANDOVER_TIMEOUT_MS).then(() => null)]);
  reader.releaseLock();
  c.close(listener);
  const said = first && !first.done ? new TextDecoder().decode(first.value).trim() : "";
  if (said !== "ok") return stop(said || "the exec guard did not take over within 10s");
  return { ok: true };
}

/** The supervisor: `zot __sandbox --exec-guard LAUNCHER_PID`; lets the launcher's one exec through, refuses the rest. */
export async function runExecGuard(argv: string[]): Promise<number> {
  const launcher = Number(argv[0]);
  const line = (await readFirstLine()).trim();
  const taken = takeFd(launcher, Number(line));
  if (!taken.ok) {
    process.stdout.write(`could not take the seccomp listener: ${taken.error}\n`);
    return 1;
  }
  process.stdout.write("ok\n");
  let allowed = false;
  let denied = 0;
  for (;;) {
    const n = nextNotification(taken.fd);
    if (!n) break;
    if (!allowed && n.pid === launcher) {
      allowed = true;
      answer(taken.fd, n, "continue");
      continue;
    }
    // Said before the refusal is delivered, so the extension's own complaint about it comes after
    // and is the last line of its log.
    if (++denied <= LOGGED_DENIALS)
      process.stderr.write(`[zot] sandbox: denied starting a program (process ${n.pid}); the scope does not allow it ("permissions.exec" is false)\n`);
    answer(taken.fd, n, { errno: EACCES });
  }
  if (denied > LOGGED_DENIALS) process.stderr.write(`[zot] sandbox: denied starting a program ${denied} times in all\n`);
  return 0;
}

async function readFirstLine(): Promise<string> {
  let text = "";
  for await (const chunk of Bun.stdin.stream()) {
    text += new TextDecoder().decode(chunk);
    if (text.includes("\n")) break;
  }
  return text;
}
