// Linux Landlock through Bun's FFI: the raw syscalls, the access-right bits, and applying a
// ruleset to the calling process. No dependency: libc's `syscall`, `prctl`, `open` and `close`
// (platform/libc.ts).
// Rules restrict this process and everything it execs afterwards; nothing can lift them.
import type { Result } from "../result.ts";
import { ptr } from "./ffi.ts";
import { cString, errno, libc as loadLibc } from "./libc.ts";

// The Landlock syscalls have the same numbers on every architecture (they postdate the split tables).
const SYSCALLS = { create: 444, add: 445, restrict: 446 };
const ARCHES = ["x64", "arm64"];

export const FS = {
  EXECUTE: 1n << 0n,
  WRITE_FILE: 1n << 1n,
  READ_FILE: 1n << 2n,
  READ_DIR: 1n << 3n,
  REMOVE_DIR: 1n << 4n,
  REMOVE_FILE: 1n << 5n,
  MAKE_CHAR: 1n << 6n,
  MAKE_DIR: 1n << 7n,
  MAKE_REG: 1n << 8n,
  MAKE_SOCK: 1n << 9n,
  MAKE_FIFO: 1n << 10n,
  MAKE_BLOCK: 1n << 11n,
  MAKE_SYM: 1n << 12n,
  REFER: 1n << 13n,
  TRUNCATE: 1n << 14n,
  IOCTL_DEV: 1n << 15n,
} as const;

export const NET = { BIND_TCP: 1n << 0n, CONNECT_TCP: 1n << 1n } as const;
export const SCOPE = { ABSTRACT_UNIX_SOCKET: 1n << 0n, SIGNAL: 1n << 1n } as const;

/** The file-system rights each ABI version knows; asking for more makes the kernel refuse the ruleset. */
export function fsRightsForAbi(abi: number): bigint {
  let rights = (1n << 13n) - 1n;
  if (abi >= 2) rights |= FS.REFER;
  if (abi >= 3) rights |= FS.TRUNCATE;
  if (abi >= 5) rights |= FS.IOCTL_DEV;
  return rights;
}

/**
 * Every file-system right zot knows. A plan made in zot's own process asks for these, and
 * applyRuleset keeps those the running kernel's ABI has, so the plan does not depend on the ABI.
 */
export const KNOWN_FS_RIGHTS = fsRightsForAbi(Number.MAX_SAFE_INTEGER);

/** Rights that make sense on a regular file (the kernel rejects directory rights on a file rule). */
export const FILE_RIGHTS = FS.EXECUTE | FS.WRITE_FILE | FS.READ_FILE | FS.TRUNCATE | FS.IOCTL_DEV;
export const READ_RIGHTS = FS.READ_FILE | FS.READ_DIR;
export const WRITE_RIGHTS =
  FS.WRITE_FILE | FS.REMOVE_DIR | FS.REMOVE_FILE | FS.MAKE_DIR | FS.MAKE_REG | FS.MAKE_SOCK | FS.MAKE_FIFO | FS.MAKE_SYM | FS.REFER | FS.TRUNCATE;

export type PathRule = { path: string; access: bigint };

/** A concrete ruleset: what is handled (denied unless allowed) and what is allowed. */
export type Ruleset = {
  handledFs: bigint;
  handledNet: bigint;
  scoped: bigint;
  paths: PathRule[];
  /** Ports allowed for outgoing TCP (only meaningful when CONNECT_TCP is handled). */
  connectPorts: number[];
};

export type ApplyResult = Result<{ abi: number; skipped: string[] }>;

const O_PATH = 0o10000000;
const O_CLOEXEC = 0o2000000;
const PR_SET_NO_NEW_PRIVS = 38;

function syscalls(): { create: number; add: number; restrict: number } | null {
  return process.platform === "linux" && ARCHES.includes(process.arch) ? SYSCALLS : null;
}

/** The running kernel's, asked once: every sandboxed command's start plans with it. */
let abi: number | null = null;

/** The kernel's Landlock ABI version; 0 when Landlock is unavailable (not Linux, disabled, too old). */
export function landlockAbi(): number {
  abi ??= askAbi();
  return abi;
}

function askAbi(): number {
  const nr = syscalls();
  if (!nr) return 0;
  const c = loadLibc();
  if ("error" in c) return 0;
  // LANDLOCK_CREATE_RULESET_VERSION = 1: returns the ABI version instead of a ruleset.
  const v = Number(c.syscall(nr.create, 0, 0, 1, 0));
  return Math.max(v, 0);
}

/**
 * What a kernel of Landlock ABI `abi` is asked to handle of `rules` (each path rule then allows its
 * rights within `handledFs`), and the size of the attribute that says so: asking for a right the
 * ABI does not know makes the kernel refuse the whole ruleset.
 */
export function narrowedTo(rules: Ruleset, abi: number): { handledFs: bigint; handledNet: bigint; scoped: bigint; attrSize: number } {
  return {
    handledFs: rules.handledFs & fsRightsForAbi(abi),
    handledNet: abi >= 4 ? rules.handledNet : 0n,
    scoped: abi >= 6 ? rules.scoped : 0n,
    attrSize: abi >= 6 ? 24 : abi >= 4 ? 16 : 8,
  };
}

/**
 * Builds and enforces `rules` on the calling process (and its future children). Paths that do not
 * exist are skipped and reported; everything else failing is an error and nothing is enforced.
 */
export function applyRuleset(rules: Ruleset): ApplyResult {
  const nr = syscalls();
  if (!nr) return { ok: false, error: `Landlock is not available on ${process.platform}/${process.arch}` };
  const c = loadLibc();
  if ("error" in c) return { ok: false, error: c.error };
  const abi = landlockAbi();
  if (abi === 0) return { ok: false, error: "the kernel does not offer Landlock (it is disabled or older than Linux 5.13)" };

  const { handledFs, handledNet, scoped, attrSize } = narrowedTo(rules, abi);
  // struct landlock_ruleset_attr { u64 handled_access_fs; u64 handled_access_net; u64 scoped; }
  const attr = new BigUint64Array([handledFs, handledNet, scoped]);
  const rulesetFd = Number(c.syscall(nr.create, ptr(attr), attrSize, 0, 0));
  if (rulesetFd < 0) return { ok: false, error: "the kernel refused the Landlock ruleset" };

  const skipped: string[] = [];
  // struct landlock_path_beneath_attr { u64 allowed_access; s32 parent_fd; } __attribute__((packed))
  const pathAttr = new Uint8Array(12);
  const pathView = new DataView(pathAttr.buffer);
  for (const rule of rules.paths) {
    const fd = c.open(cString(rule.path), O_PATH | O_CLOEXEC);
    if (fd < 0) {
      skipped.push(rule.path);
      continue;
    }
    const allowed = rule.access & handledFs;
    const tryAdd = (access: bigint): number => {
      pathView.setBigUint64(0, access, true);
      pathView.setInt32(8, fd, true);
      return Number(c.syscall(nr.add, rulesetFd, 1, ptr(pathAttr), 0));
    };
    // A file accepts only file rights; the kernel says EINVAL otherwise, so narrow and retry.
    if (allowed !== 0n && tryAdd(allowed) < 0 && tryAdd(allowed & FILE_RIGHTS) < 0) skipped.push(rule.path);
    c.close(fd);
  }
  if (handledNet & NET.CONNECT_TCP) {
    // struct landlock_net_port_attr { u64 allowed_access; u64 port; }
    for (const port of rules.connectPorts) {
      const netAttr = new BigUint64Array([NET.CONNECT_TCP, BigInt(port)]);
      if (Number(c.syscall(nr.add, rulesetFd, 2, ptr(netAttr), 0)) < 0) {
        c.close(rulesetFd);
        return { ok: false, error: `the kernel refused the Landlock rule for TCP port ${port}` };
      }
    }
  }
  if (c.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) !== 0) {
    c.close(rulesetFd);
    return { ok: false, error: "prctl(PR_SET_NO_NEW_PRIVS) failed, so Landlock cannot be enforced" };
  }
  const restricted = Number(c.syscall(nr.restrict, rulesetFd, 0, 0, 0));
  c.close(rulesetFd);
  if (restricted < 0) return { ok: false, error: "landlock_restrict_self failed" };
  return { ok: true, abi, skipped };
}

/**
 * Replaces the calling process with `argv[0]` (an absolute path), keeping the restrictions applied
 * above. Returns only on failure, with the system's reason.
 */
export function execve(argv: string[], env: Record<string, string>): string {
  const c = loadLibc();
  if ("error" in c) return c.error;
  const strings = argv.map(cString);
  const envStrings = Object.entries(env).map(([k, v]) => cString(`${k}=${v}`));
  const argvArr = new BigUint64Array(strings.length + 1);
  strings.forEach((s, i) => (argvArr[i] = BigInt(ptr(s))));
  const envArr = new BigUint64Array(envStrings.length + 1);
  envStrings.forEach((s, i) => (envArr[i] = BigInt(ptr(s))));
  c.execve(strings[0]!, ptr(argvArr), ptr(envArr));
  return errnoText(errno(c));
}

function errnoText(errno: number): string {
  const names: Record<number, string> = { 1: "EPERM", 2: "ENOENT", 8: "ENOEXEC", 13: "EACCES (denied by the sandbox or the file mode)", 20: "ENOTDIR" };
  return `errno ${errno} ${names[errno] ?? ""}`.trim();
}

/** A Ruleset as JSON for the launcher's command line (bigints as decimal strings). */
export function encodeRuleset(r: Ruleset): string {
  return JSON.stringify({
    handledFs: r.handledFs.toString(),
    handledNet: r.handledNet.toString(),
    scoped: r.scoped.toString(),
    paths: r.paths.map((p) => [p.path, p.access.toString()]),
    connectPorts: r.connectPorts,
  });
}

export function decodeRuleset(text: string): Ruleset | null {
  try {
    const raw = JSON.parse(text) as { handledFs: string; handledNet: string; scoped: string; paths: [string, string][]; connectPorts: number[] };
    if (!Array.isArray(raw.paths) || !Array.isArray(raw.connectPorts)) return null;
    return {
      handledFs: BigInt(raw.handledFs),
      handledNet: BigInt(raw.handledNet),
      scoped: BigInt(raw.scoped),
      paths: raw.paths.map(([path, access]) => ({ path: String(path), access: BigInt(access) })),
      connectPorts: raw.connectPorts.map(Number),
    };
  } catch {
    return null;
  }
}
