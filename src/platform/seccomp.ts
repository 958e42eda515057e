// Linux seccomp without a dependency: a classic-BPF program built from a few rules ("deny these
// system calls with EPERM", "deny socket() for these address families", "ask a supervisor about
// these"), installed on the calling thread with PR_SET_NO_NEW_PRIVS and seccomp(SET_MODE_FILTER),
// and the user-notification calls a supervisor answers with. A filter holds for the thread and
// everything it execs or forks afterwards; nothing can lift it.
import { ptr } from "./ffi.ts";
import { errno, libc } from "./libc.ts";

type Arch = { audit: number; seccomp: number; pidfdOpen: number; pidfdGetfd: number; syscalls: Record<SyscallName, number>; x32: boolean };

export type SyscallName = "execve" | "execveat" | "socket" | "memfd_create" | "ptrace" | "bpf" | "io_uring_setup" | "userfaultfd";

// Numbers from the kernel's syscall tables (arch/x86/entry/syscalls/syscall_64.tbl, include/uapi/asm-generic/unistd.h).
const ARCHES: Record<string, Arch> = {
  x64: {
    audit: 0xc000003e,
    seccomp: 317,
    pidfdOpen: 434,
    pidfdGetfd: 438,
    x32: true,
    syscalls: { execve: 59, execveat: 322, socket: 41, memfd_create: 319, ptrace: 101, bpf: 321, io_uring_setup: 425, userfaultfd: 323 },
  },
  arm64: {
    audit: 0xc00000b7,
    seccomp: 277,
    pidfdOpen: 434,
    pidfdGetfd: 438,
    x32: false,
    syscalls: { execve: 221, execveat: 281, socket: 198, memfd_create: 279, ptrace: 117, bpf: 280, io_uring_setup: 425, userfaultfd: 282 },
  },
};

export type SeccompAction = { errno: number } | "notify" | "kill";
/** One rule: `syscall` gets `action`; with `arg0In`, only when its first argument is one of those (socket's address family). */
export type SeccompRule = { syscall: SyscallName; action: SeccompAction; arg0In?: number[] };

const RET = { KILL_PROCESS: 0x80000000, ERRNO: 0x00050000, USER_NOTIF: 0x7fc00000, ALLOW: 0x7fff0000 };
const OP = { LD_W_ABS: 0x20, JA: 0x05, JEQ_K: 0x15, JGE_K: 0x35, RET_K: 0x06 };
const DATA = { nr: 0, arch: 4, arg0: 16 };
const X32_SYSCALL_BIT = 0x40000000;
const EPERM = 1;

type Insn = { code: number; jt: number; jf: number; k: number };

function arch(): Arch | null {
  return process.platform === "linux" ? (ARCHES[process.arch] ?? null) : null;
}

/** Whether this machine can run seccomp filters built here (Linux on x86-64 or arm64). */
export function seccompAvailable(): boolean {
  return arch() !== null && !("error" in libc());
}

function ret(action: SeccompAction): number {
  if (action === "notify") return RET.USER_NOTIF;
  if (action === "kill") return RET.KILL_PROCESS;
  return RET.ERRNO | (action.errno & 0xffff);
}

/**
 * The BPF program for `rules`: a system call of another ABI than this process's (i386 or x32
 * calls on x86-64, whose numbers differ) is refused outright, so no rule can be dodged by
 * switching ABI; every other call not named is allowed.
 */
export function buildFilter(rules: SeccompRule[], a: Arch | null = arch()): Uint8Array | null {
  if (!a) return null;
  const p: Insn[] = [];
  const op = (code: number, k: number, jt = 0, jf = 0) => p.push({ code, jt, jf, k });
  op(OP.LD_W_ABS, DATA.arch);
  op(OP.JEQ_K, a.audit, 1, 0);
  op(OP.RET_K, RET.ERRNO | EPERM);
  op(OP.LD_W_ABS, DATA.nr);
  if (a.x32) {
    op(OP.JGE_K, X32_SYSCALL_BIT, 0, 1);
    op(OP.RET_K, RET.ERRNO | EPERM);
  }
  for (const rule of rules) {
    const nr = a.syscalls[rule.syscall];
    if (!rule.arg0In || rule.arg0In.length === 0) {
      op(OP.JEQ_K, nr, 0, 1);
      op(OP.RET_K, ret(rule.action));
      continue;
    }
    // This call: load arg0 and test each value (a hit jumps to the return); no hit reloads nr and
    // jumps over the return to the next rule. Jump offsets count from the next instruction.
    const n = rule.arg0In.length;
    op(OP.JEQ_K, nr, 0, n + 4);
    op(OP.LD_W_ABS, DATA.arg0);
    rule.arg0In.forEach((value, i) => op(OP.JEQ_K, value >>> 0, n + 1 - i, 0));
    op(OP.LD_W_ABS, DATA.nr);
    op(OP.JA, 1);
    op(OP.RET_K, ret(rule.action));
  }
  op(OP.RET_K, RET.ALLOW);
  const out = new Uint8Array(p.length * 8);
  const v = new DataView(out.buffer);
  p.forEach((insn, i) => {
    v.setUint16(i * 8, insn.code, true);
    v.setUint8(i * 8 + 2, insn.jt);
    v.setUint8(i * 8 + 3, insn.jf);
    v.setUint32(i * 8 + 4, insn.k, true);
  });
  return out;
}

const PR_SET_NO_NEW_PRIVS = 38;
const SECCOMP_SET_MODE_FILTER = 1;
const SECCOMP_GET_NOTIF_SIZES = 3;
const SECCOMP_FILTER_FLAG_NEW_LISTENER = 1 << 3;

export type InstallResult = { ok: true; listener: number | null } | { ok: false; error: string };

/**
 * Installs `rules` on the calling thread. With a "notify" rule the kernel returns a listener file
 * descriptor; whoever holds it answers those calls (`answerNext`), and once no one holds it they fail.
 */
export function installFilter(rules: SeccompRule[]): InstallResult {
  const a = arch();
  if (!a) return { ok: false, error: `seccomp filters are not built for ${process.platform}/${process.arch}` };
  const c = libc();
  if ("error" in c) return { ok: false, error: c.error };
  const program = buildFilter(rules, a)!;
  // struct sock_fprog { unsigned short len; struct sock_filter *filter; } (the pointer at offset 8)
  const fprog = new BigUint64Array(2);
  new DataView(fprog.buffer).setUint16(0, program.length / 8, true);
  fprog[1] = BigInt(ptr(program));
  if (c.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) !== 0) return { ok: false, error: "prctl(PR_SET_NO_NEW_PRIVS) failed" };
  const notify = rules.some((r) => r.action === "notify");
  const r = Number(c.syscall(a.seccomp, SECCOMP_SET_MODE_FILTER, notify ? SECCOMP_FILTER_FLAG_NEW_LISTENER : 0, ptr(fprog), 0));
  if (r < 0) return { ok: false, error: `the kernel refused the seccomp filter (errno ${errno(c)})` };
  return { ok: true, listener: notify ? r : null };
}

/** A copy of `fd` from process `pid` (pidfd_getfd, Linux 5.6): how a supervisor takes a listener. */
export function takeFd(pid: number, fd: number): { ok: true; fd: number } | { ok: false; error: string } {
  const a = arch();
  const c = libc();
  if (!a || "error" in c) return { ok: false, error: "seccomp is not available here" };
  const pidfd = Number(c.syscall(a.pidfdOpen, pid, 0, 0, 0));
  if (pidfd < 0) return { ok: false, error: `pidfd_open(${pid}) failed (errno ${errno(c)})` };
  const got = Number(c.syscall(a.pidfdGetfd, pidfd, fd, 0, 0));
  const why = errno(c);
  c.close(pidfd);
  return got < 0 ? { ok: false, error: `pidfd_getfd failed (errno ${why})` } : { ok: true, fd: got };
}

export type Notification = { id: bigint; pid: number; nr: number };

type Sizes = { notif: number; resp: number };
let sizes: Sizes | null = null;

function notifSizes(): Sizes | null {
  if (sizes) return sizes;
  const a = arch();
  const c = libc();
  if (!a || "error" in c) return null;
  // struct seccomp_notif_sizes { __u16 seccomp_notif; __u16 seccomp_notif_resp; __u16 seccomp_data; }
  const buf = new Uint16Array(3);
  if (Number(c.syscall(a.seccomp, SECCOMP_GET_NOTIF_SIZES, 0, ptr(buf), 0)) < 0) return null;
  sizes = { notif: buf[0]!, resp: buf[1]! };
  return sizes;
}

// _IOWR('!', 0, struct seccomp_notif) and _IOWR('!', 1, struct seccomp_notif_resp) for the sizes of 5.0+.
const IOCTL_NOTIF_RECV = 0xc0502100;
const IOCTL_NOTIF_SEND = 0xc0182101;
const USER_NOTIF_FLAG_CONTINUE = 1;

/** Waits for the next call held for the listener; null once no filtered process is left (or on error). */
export function nextNotification(listener: number): Notification | null {
  const c = libc();
  const s = notifSizes();
  if ("error" in c || !s) return null;
  const buf = new Uint8Array(Math.max(s.notif, 80));
  for (;;) {
    buf.fill(0);
    if (c.ioctl(listener, IOCTL_NOTIF_RECV, ptr(buf)) === 0) {
      const v = new DataView(buf.buffer);
      return { id: v.getBigUint64(0, true), pid: v.getUint32(8, true), nr: v.getInt32(16, true) };
    }
    // EINTR: a signal; anything else (ENOENT: the last filtered process is gone) ends the watch.
    if (errno(c) !== 4) return null;
  }
}

/** Answers a held call: let it run as asked, or fail it with `err`. */
export function answer(listener: number, n: Notification, verdict: "continue" | { errno: number }): boolean {
  const c = libc();
  const s = notifSizes();
  if ("error" in c || !s) return false;
  // struct seccomp_notif_resp { __u64 id; __s64 val; __s32 error; __u32 flags; }
  const buf = new Uint8Array(Math.max(s.resp, 24));
  const v = new DataView(buf.buffer);
  v.setBigUint64(0, n.id, true);
  if (verdict === "continue") v.setUint32(20, USER_NOTIF_FLAG_CONTINUE, true);
  else v.setInt32(16, -verdict.errno, true);
  return c.ioctl(listener, IOCTL_NOTIF_SEND, ptr(buf)) === 0;
}

/** The number of a system call on this machine (for matching a notification), or null. */
export function syscallNumber(name: SyscallName): number | null {
  return arch()?.syscalls[name] ?? null;
}
