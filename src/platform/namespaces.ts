// What Landlock cannot express, done with Linux namespaces in the calling process before it execs:
// hiding paths inside readable directories (a private mount namespace with an empty tmpfs over a
// hidden directory and a device-less /dev/null over a hidden file) and cutting the network (a new
// network namespace holding only loopback). Not root: a user namespace first, mapping the user to
// itself, so this needs no privileges. Through Bun's FFI; no dependency.
// Landlock, applied after this, forbids unmounting what is mounted here, even to root.
import { nodeFs } from "./node-fs.ts";
import { bunFfi, ptr } from "./ffi.ts";

export type Isolation = {
  /** Directories that must look empty (and unreadable to anyone but root). */
  hideDirs: string[];
  /** Files whose every open must fail (EACCES). */
  hideFiles: string[];
  /** Paths under a hidden directory shown again, read-only (zot's spill files under $ZOT_HOME). */
  reveal: string[];
  /** False: a network namespace with only loopback. */
  network: boolean;
  /**
   * The namespaces exist already (made by util-linux `unshare` for a user who is not root: a
   * multi-threaded process such as this one cannot make a user namespace itself); only mount.
   */
  entered: boolean;
};

const CLONE_NEWNS = 0x20000;
const CLONE_NEWUSER = 0x10000000;
const CLONE_NEWNET = 0x40000000;
const MS_RDONLY = 1;
const MS_NOSUID = 2;
const MS_NODEV = 4;
const MS_NOEXEC = 8;
const MS_REMOUNT = 32;
const MS_BIND = 4096;
const MS_REC = 16384;
const MS_PRIVATE = 1 << 18;
const O_CLOEXEC = 0o2000000;
// The new mount API's system calls have the same numbers on every architecture.
const SYS_OPEN_TREE = 428;
const SYS_MOVE_MOUNT = 429;
const OPEN_TREE_CLONE = 1;
const AT_FDCWD = -100;
const MOVE_MOUNT_F_EMPTY_PATH = 4;
const SIOCGIFFLAGS = 0x8913;
const SIOCSIFFLAGS = 0x8914;
const IFF_UP = 1;

type Libc = {
  unshare: (flags: number) => number;
  mount: (source: Uint8Array | null, target: Uint8Array, fstype: Uint8Array | null, flags: number, data: Uint8Array | null) => number;
  syscall: (n: number, a: number, b: number, c: number, d: number, e: number) => number;
  socket: (domain: number, type: number, protocol: number) => number;
  ioctl: (fd: number, request: number, arg: number) => number;
  close: (fd: number) => number;
  fcntl: (fd: number, cmd: number, arg: number) => number;
  __errno_location: () => number;
};

let libc: Libc | null = null;

function loadLibc(): Libc | null {
  if (libc) return libc;
  const { dlopen, FFIType } = bunFfi();
  for (const name of ["libc.so.6", "libc.musl-x86_64.so.1", "libc.musl-aarch64.so.1", "libc.so"]) {
    try {
      libc = dlopen(name, {
        unshare: { args: [FFIType.i32], returns: FFIType.i32 },
        mount: { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr, FFIType.u64, FFIType.ptr], returns: FFIType.i32 },
        syscall: { args: [FFIType.i64, FFIType.i64, FFIType.i64, FFIType.i64, FFIType.i64, FFIType.i64], returns: FFIType.i32 },
        socket: { args: [FFIType.i32, FFIType.i32, FFIType.i32], returns: FFIType.i32 },
        ioctl: { args: [FFIType.i32, FFIType.u64, FFIType.ptr], returns: FFIType.i32 },
        close: { args: [FFIType.i32], returns: FFIType.i32 },
        fcntl: { args: [FFIType.i32, FFIType.i32, FFIType.i32], returns: FFIType.i32 },
        __errno_location: { args: [], returns: FFIType.ptr },
      }).symbols as unknown as Libc;
      return libc;
    } catch {
      // glibc and musl name their libc differently; try the next.
    }
  }
  return null;
}

const cString = (s: string): Uint8Array => new TextEncoder().encode(s + "\0");

const ERRNO: Record<number, string> = { 1: "EPERM", 2: "ENOENT", 13: "EACCES", 22: "EINVAL", 28: "ENOSPC" };

/** Whether an isolation needs namespaces at all (nothing hidden and the network allowed: it does not). */
export function needsNamespaces(i: Isolation): boolean {
  return i.hideDirs.length > 0 || i.hideFiles.length > 0 || !i.network;
}

/**
 * Moves the calling process into new namespaces as `i` says. Call it single-threaded, right before
 * exec: namespaces are per thread until exec makes them the program's.
 */
export function isolate(i: Isolation): { ok: true } | { ok: false; error: string } {
  if (!needsNamespaces(i)) return { ok: true };
  if (process.platform !== "linux") return { ok: false, error: `namespaces exist only on Linux, not ${process.platform}` };
  const c = loadLibc();
  if (!c) return { ok: false, error: "no C library could be loaded for the namespace system calls" };
  const fail = (what: string): { ok: false; error: string } => {
    const errno = bunFfi().read.i32(c.__errno_location(), 0);
    return { ok: false, error: `${what} failed (errno ${errno}${ERRNO[errno] ? " " + ERRNO[errno] : ""})` };
  };
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  const user = uid !== 0;
  if (!i.entered && c.unshare(CLONE_NEWNS | (i.network ? 0 : CLONE_NEWNET) | (user ? CLONE_NEWUSER : 0)) !== 0) return fail("unshare");
  if (user && !i.entered) {
    try {
      const { writeFileSync } = nodeFs();
      writeFileSync("/proc/self/setgroups", "deny");
      writeFileSync("/proc/self/uid_map", `${uid} ${uid} 1`);
      writeFileSync("/proc/self/gid_map", `${gid} ${gid} 1`);
    } catch (err) {
      return { ok: false, error: `mapping the user into its namespace failed (${err instanceof Error ? err.message : String(err)})` };
    }
  }
  // Private first, so nothing mounted below reaches the rest of the system.
  if (c.mount(cString("none"), cString("/"), null, MS_REC | MS_PRIVATE, null) !== 0) return fail("making the mounts private");
  // Detached copies taken before anything is mounted over them: a revealed path is moved back from these.
  const revealFds = i.reveal
    .map((p) => ({ path: p, fd: c.syscall(SYS_OPEN_TREE, AT_FDCWD, Number(ptr(cString(p))), OPEN_TREE_CLONE | O_CLOEXEC, 0, 0) }))
    .filter((r) => r.fd >= 0);
  const tmpfs = cString("tmpfs");
  for (const dir of i.hideDirs) {
    const inside = revealFds.filter((r) => r.path.startsWith(dir + "/"));
    const flags = MS_NOSUID | MS_NODEV | MS_NOEXEC;
    if (inside.length === 0) {
      if (c.mount(tmpfs, cString(dir), tmpfs, flags | MS_RDONLY, cString("size=4k,mode=000")) !== 0) return fail(`hiding ${dir}`);
      continue;
    }
    if (c.mount(tmpfs, cString(dir), tmpfs, flags, cString("size=64k,mode=700")) !== 0) return fail(`hiding ${dir}`);
    for (const r of inside) {
      try {
        nodeFs().mkdirSync(r.path, { recursive: true, mode: 0o700 });
      } catch {
        return { ok: false, error: `could not prepare ${r.path} inside the hidden ${dir}` };
      }
      if (c.syscall(SYS_MOVE_MOUNT, r.fd, Number(ptr(cString(""))), AT_FDCWD, Number(ptr(cString(r.path))), MOVE_MOUNT_F_EMPTY_PATH) !== 0)
        return fail(`showing ${r.path}`);
      if (c.mount(null, cString(r.path), null, MS_BIND | MS_REMOUNT | MS_RDONLY | flags, null) !== 0) return fail(`making ${r.path} read-only`);
    }
    if (c.mount(null, cString(dir), null, MS_REMOUNT | MS_RDONLY | flags, null) !== 0) return fail(`making the hidden ${dir} read-only`);
  }
  const devNull = cString("/dev/null");
  for (const file of i.hideFiles) {
    const target = cString(file);
    // A device on a nodev mount cannot be opened at all, root included: every open fails with EACCES.
    if (c.mount(devNull, target, null, MS_BIND, null) !== 0) return fail(`hiding ${file}`);
    if (c.mount(null, target, null, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, null) !== 0) return fail(`hiding ${file}`);
  }
  for (const r of revealFds) c.close(r.fd);
  if (!i.network) {
    const up = loopbackUp(c);
    if (!up.ok) return up;
  }
  return { ok: true };
}

/** A new network namespace's loopback starts down; up, local servers and tests on 127.0.0.1 work. */
function loopbackUp(c: Libc): { ok: true } | { ok: false; error: string } {
  const fd = c.socket(2, 2, 0); // AF_INET, SOCK_DGRAM
  if (fd < 0) return { ok: false, error: "no socket for bringing up loopback" };
  // struct ifreq: char ifr_name[16]; short ifr_flags; (padded to 40 bytes)
  const ifr = new Uint8Array(40);
  ifr.set(new TextEncoder().encode("lo"));
  const view = new DataView(ifr.buffer);
  let ok = c.ioctl(fd, SIOCGIFFLAGS, ptr(ifr)) === 0;
  if (ok) {
    view.setInt16(16, view.getInt16(16, true) | IFF_UP, true);
    ok = c.ioctl(fd, SIOCSIFFLAGS, ptr(ifr)) === 0;
  }
  c.close(fd);
  return ok ? { ok: true } : { ok: false, error: "bringing up loopback in the new network namespace failed" };
}

const F_GETFL = 3;
const F_SETFL = 4;
const O_NONBLOCK = 0o4000;

/**
 * Makes stdin, stdout and stderr blocking again before exec. Bun's start-up sets them non-blocking,
 * and the flag lives on the shared pipe: a program writing fast (`seq 1 200000`) would get EAGAIN
 * and fail with a write error once the pipe filled.
 */
export function blockingStdio(): void {
  const c = loadLibc();
  if (!c) return;
  for (const fd of [0, 1, 2]) {
    const flags = c.fcntl(fd, F_GETFL, 0);
    if (flags >= 0 && (flags & O_NONBLOCK) !== 0) c.fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  }
}
