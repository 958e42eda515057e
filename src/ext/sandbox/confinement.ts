// From a declared (and expanded) permission scope to what actually runs: the environment the
// extension gets, the Landlock ruleset or the macOS profile, the command line through zot's
// launcher, and an honest word on how much of the declaration the platform can enforce.
import { existsSync } from "node:fs";
import type { Permissions } from "./scope.ts";
import { EXTENSION_ZOT_VARS } from "../connection/process.ts";
import type { ExecChain } from "./exec-chain.ts";
import { FS, NET, READ_RIGHTS, SCOPE, WRITE_RIGHTS, fsRightsForAbi, type PathRule, type Ruleset } from "../../platform/landlock.ts";
import { isWithin } from "../../platform/real-path.ts";
import { secretReach, type SecretPlaces } from "./secret-paths.ts";

/**
 * What every permission-declaring extension may see of the environment, besides its `env` list and
 * the `ZOT_*` variables zot sets for it (any other `ZOT_*` of the user's environment is theirs, not the extension's).
 */
export const BASE_ENV_NAMES = ["PATH", "HOME", "LANG", "TERM", "TZ", "TMPDIR"];

export function scopedEnv(full: Record<string, string>, allowed: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(full)) {
    if (BASE_ENV_NAMES.includes(k) || k.startsWith("LC_") || EXTENSION_ZOT_VARS.includes(k) || allowed.includes(k)) out[k] = v;
  }
  // zot's own RPC credential never reaches an extension, even when named.
  delete out.ZOTCORE_RPC_TOKEN;
  return out;
}

/** Trees every program needs to read: libraries, locale and time zone data, certificates, name service. */
export const SYSTEM_READ_PATHS = [
  "/usr",
  "/lib",
  "/lib32",
  "/lib64",
  "/bin",
  "/sbin",
  "/opt/homebrew",
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/alternatives",
  "/etc/localtime",
  "/etc/timezone",
  "/etc/ssl",
  "/etc/ca-certificates",
  "/etc/pki",
  "/etc/resolv.conf",
  "/etc/hosts",
  "/etc/nsswitch.conf",
  "/etc/gai.conf",
  "/etc/host.conf",
  "/etc/passwd",
  "/etc/group",
  "/etc/mime.types",
  "/etc/python3",
  "/etc/python3.11",
  // Not /proc itself: /proc/<pid>/environ of zot would hand over every key. "/proc/self" is opened by
  // the launcher, whose process becomes the extension, so it names the extension's own entry.
  "/proc/self",
  "/proc/thread-self",
  "/proc/cpuinfo",
  "/proc/meminfo",
  "/proc/stat",
  "/proc/loadavg",
  "/proc/uptime",
  "/proc/version",
  "/proc/filesystems",
  "/proc/sys/kernel/random",
  "/proc/sys/vm/overcommit_memory",
  "/sys/devices/system/cpu",
  "/sys/fs/cgroup",
];
/** Devices a program may use as files. */
export const DEVICE_PATHS = ["/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty"];

export type Enforcement = "enforced" | `partial: ${string}` | "advisory" | "unrestricted" | typeof OUTSIDE_ZOT;
/** A WebSocket extension's process was not started by zot, which therefore cannot sandbox it. */
export const OUTSIDE_ZOT = "unrestricted (runs outside zot)";
/** `execGuard`: seccomp user notification and pidfd_getfd (Linux 5.6+), which make `exec: false` hold after start. */
export type Support = { platform: string; landlockAbi: number; seatbelt: boolean; execGuard: boolean };

/** How much of `p` this platform enforces; null permissions means the extension declared nothing. */
export function enforcement(p: Permissions | null, s: Support): Enforcement {
  if (!p) return "unrestricted";
  if (s.platform === "darwin") return s.seatbelt ? "enforced" : "advisory";
  if (s.platform !== "linux" || s.landlockAbi === 0) return "advisory";
  const gaps: string[] = [];
  if (!p.exec && !s.execGuard)
    gaps.push("exec: false holds only for programs outside the exec chain (the kernel lacks seccomp user notification or pidfd_getfd, Linux 5.6)");
  if (p.net !== true && s.landlockAbi < 4) gaps.push(`network rules need Landlock ABI 4, the kernel has ${s.landlockAbi}`);
  if (typeof p.net === "object" && p.net.connect.some((t) => t.host !== null))
    gaps.push("host names in net.connect are not enforced (Landlock filters by port)");
  return gaps.length === 0 ? "enforced" : `partial: ${gaps.join("; ")}`;
}

/** What the sandbox grants on its own to start an extension, beyond the system trees and its directory. */
export type ImplicitGrants = {
  /** Read and execute: the one program executed and its loader. */
  programs: string[];
  /** Read: scripts on the way and shared libraries. */
  files: string[];
  /** Read: interpreter install trees. */
  trees: string[];
  /** Left out, with why: `/home/u/.local (holds /home/u/.local/state)`. */
  refused: string[];
  /** Resolutions worth showing (a version-manager shim and what it stands for). */
  notes: string[];
};

export type GrantsResult = { ok: true; grants: ImplicitGrants } | { ok: false; error: string };

/**
 * The exec chain's files, each checked against the user's secrets: a tree that reaches one is left
 * out (and said), a program that lies in one stops the launch. The extension's own folder is its own.
 */
export function implicitGrants(chain: ExecChain, places: SecretPlaces): GrantsResult {
  const own = (p: string) => isWithin(p, places.extensionDir);
  const grants: ImplicitGrants = { programs: [], files: [], trees: [], refused: [], notes: [...chain.notes] };
  for (const program of chain.programs) {
    const why = own(program) ? null : secretReach(program, places);
    if (why)
      return { ok: false, error: `it would run ${program}, which ${why}, and the sandbox never grants such a place on its own; move the program elsewhere` };
    grants.programs.push(program);
  }
  // What the system trees already grant is no news; what is left is what this extension adds.
  const system = (p: string) => SYSTEM_READ_PATHS.some((s) => isWithin(p, s));
  // Trees first, so a library inside a granted tree is not listed again.
  for (const [list, paths] of [
    [grants.trees, chain.trees],
    [grants.files, chain.files],
  ] as const) {
    for (const path of paths) {
      if (own(path) || system(path) || grants.programs.includes(path) || grants.trees.some((t) => isWithin(path, t))) continue;
      const why = secretReach(path, places);
      if (why) grants.refused.push(`${path} (it ${why})`);
      else list.push(path);
    }
  }
  return { ok: true, grants };
}

/** One line for the log and doctor: `run …; read …; not granted: …; <notes>`. */
export function describeGrants(g: ImplicitGrants): string {
  const parts = [`run ${g.programs.join(", ")}`];
  if (g.files.length + g.trees.length > 0) parts.push(`read ${[...g.files, ...g.trees].join(", ")}`);
  if (g.refused.length > 0) parts.push(`not granted: ${g.refused.join(", ")}`);
  return [...parts, ...g.notes].join("; ");
}

/** The Landlock rules for an expanded declaration and what starting the extension needs. */
export function landlockRules(p: Permissions, at: { extensionDir: string; grants: ImplicitGrants }, abi: number): Ruleset {
  const all = fsRightsForAbi(abi);
  const handledFs = p.exec ? all & ~FS.EXECUTE : all;
  const paths: PathRule[] = [];
  const push = (path: string, access: bigint) => {
    if (existsSync(path)) paths.push({ path, access });
  };
  for (const path of SYSTEM_READ_PATHS) push(path, READ_RIGHTS);
  for (const path of DEVICE_PATHS) push(path, READ_RIGHTS | FS.WRITE_FILE | FS.IOCTL_DEV);
  push(at.extensionDir, READ_RIGHTS);
  for (const file of at.grants.programs) push(file, FS.READ_FILE | FS.EXECUTE);
  for (const file of at.grants.files) push(file, FS.READ_FILE);
  for (const tree of at.grants.trees) push(tree, READ_RIGHTS);
  for (const path of p.fs.read) paths.push({ path, access: READ_RIGHTS });
  for (const path of p.fs.write) paths.push({ path, access: READ_RIGHTS | WRITE_RIGHTS });
  const net = p.net;
  return {
    handledFs,
    handledNet: net === true ? 0n : NET.BIND_TCP | NET.CONNECT_TCP,
    scoped: SCOPE.ABSTRACT_UNIX_SOCKET | SCOPE.SIGNAL,
    paths,
    connectPorts: typeof net === "object" ? [...new Set(net.connect.map((t) => t.port))] : [],
  };
}

/** The sandbox profile for macOS `sandbox-exec`, from the same declaration. */
export function seatbeltProfile(p: Permissions, at: { extensionDir: string; grants: ImplicitGrants }): string {
  const q = (s: string) => JSON.stringify(s);
  const lines = [
    "(version 1)",
    "(deny default)",
    "(allow process-fork)",
    "(allow signal (target same-sandbox))",
    "(allow sysctl-read)",
    "(allow mach-lookup)",
    "(allow ipc-posix-shm)",
    "(allow file-read-metadata)",
  ];
  const reads = [
    "/usr",
    "/System",
    "/Library",
    "/bin",
    "/sbin",
    "/private/etc",
    "/private/var/db/timezone",
    "/opt/homebrew",
    "/dev",
    at.extensionDir,
    ...at.grants.programs,
    ...at.grants.files,
    ...at.grants.trees,
    ...p.fs.read,
    ...p.fs.write,
  ];
  lines.push(`(allow file-read* ${reads.map((r) => `(subpath ${q(r)})`).join(" ")})`);
  const writes = ["/dev/null", "/dev/tty", ...p.fs.write];
  lines.push(`(allow file-write* ${writes.map((w) => `(subpath ${q(w)})`).join(" ")})`);
  if (p.exec) lines.push("(allow process-exec)");
  else lines.push(`(allow process-exec ${at.grants.programs.map((c) => `(literal ${q(c)})`).join(" ")})`);
  if (p.net === true) lines.push("(allow network*)");
  else if (typeof p.net === "object" && p.net.connect.length > 0)
    lines.push(`(allow network-outbound ${p.net.connect.map((t) => `(remote tcp ${q(`${t.host ?? "*"}:${t.port}`)})`).join(" ")})`);
  return lines.join("\n") + "\n";
}
