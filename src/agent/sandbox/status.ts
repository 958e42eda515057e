// Whether the sandbox the user chose is actually enforced here, and how a command is started
// inside it. `sandboxStatus` is what the permission modes ask ("yolo inside an enforced sandbox,
// else ask"); `confinedArgv` is the one place a command's argv is wrapped, so every way of running
// a shell (the bash tool, background commands, the user's `!cmd`) is confined alike.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeConfinement, CONFINE_ARG, LAUNCHER_PREFIX } from "../../ext/sandbox/confine.ts";
import { landlockAbi } from "../../ext/sandbox/landlock.ts";
import { launcherCommand } from "../../ext/sandbox/plan.ts";
import { needsNamespaces } from "../../platform/namespaces.ts";
import { confinement } from "./linux.ts";
import { seatbeltProfile } from "./seatbelt.ts";
import type { SandboxMode, SandboxPolicy } from "./policy.ts";

export type SandboxStatus = {
  mode: SandboxMode;
  /** True when the kernel enforces the mode (always false for `off`). */
  enforced: boolean;
  network: boolean;
  /** How it is enforced, or why it is not, in a few words. */
  reason: string;
};

const SANDBOX_EXEC = "/usr/bin/sandbox-exec";

type Support = { ok: true; how: string } | { ok: false; why: string };
let support: Support | null = null;

/** What this machine can enforce; probed once per process (on Linux by confining `true` for real). */
function probe(): Support {
  if (support) return support;
  if (process.platform === "darwin") return (support = existsSync(SANDBOX_EXEC) ? { ok: true, how: "sandbox-exec" } : { ok: false, why: `${SANDBOX_EXEC} is missing` });
  if (process.platform !== "linux") return (support = { ok: false, why: `zot has no sandbox for ${process.platform}` });
  const abi = landlockAbi();
  if (abi === 0) return (support = { ok: false, why: "the kernel does not offer Landlock (disabled, or older than Linux 5.13)" });
  // Namespaces can be forbidden (a container's seccomp profile, user namespaces turned off): try them.
  const dir = mkdtempSync(join(tmpdir(), "zot-sandbox-probe-"));
  try {
    const secret = join(dir, "secret");
    writeFileSync(secret, "");
    if (!isRoot() && !existsSync(UNSHARE))
      return (support = { ok: false, why: `zot runs as a user other than root and needs ${UNSHARE} (util-linux) to make a user namespace, which is missing` });
    const probePolicy: SandboxPolicy = { mode: "read-only", network: false, workspace: dir, writable: [], hidden: [dir + "/none", secret], reveal: [], userHome: dir };
    const r = Bun.spawnSync(linuxArgv(probePolicy, abi, ["/bin/sh", "-c", "exit 0"]), { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    if (r.exitCode === 0) return (support = { ok: true, how: `Landlock ABI ${abi} and namespaces` });
    const said = r.stdout.toString().trim().replace(LAUNCHER_PREFIX, "").trim();
    return (support = { ok: false, why: said || `the sandbox launcher exited with status ${r.exitCode}` });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function sandboxStatus(p: SandboxPolicy): SandboxStatus {
  if (p.mode === "off") return { mode: "off", enforced: false, network: true, reason: "turned off (--sandbox off)" };
  const s = probe();
  return s.ok ? { mode: p.mode, enforced: true, network: p.network, reason: s.how } : { mode: p.mode, enforced: false, network: p.network, reason: s.why };
}

/** The argv that runs `argv` (an absolute program and its arguments) inside `p`, or `argv` itself when nothing is enforced. */
export function confinedArgv(p: SandboxPolicy | undefined, argv: string[]): string[] {
  if (!p || p.mode === "off" || !probe().ok) return argv;
  if (process.platform === "darwin") return [SANDBOX_EXEC, "-p", seatbeltProfile(p), ...argv];
  return linuxArgv(p, landlockAbi(), argv);
}

const UNSHARE = "/usr/bin/unshare";
const isRoot = (): boolean => (process.getuid?.() ?? 0) === 0;

function linuxArgv(p: SandboxPolicy, abi: number, argv: string[]): string[] {
  const c = confinement(p, abi, !isRoot());
  const launcher = [...launcherCommand(), CONFINE_ARG, encodeConfinement(c), ...argv];
  if (isRoot() || !needsNamespaces(c.isolation)) return launcher;
  // Mapped to root inside, the launcher may mount; Landlock then keeps the command from unmounting.
  return [UNSHARE, "--user", "--map-root-user", "--mount", ...(p.network ? [] : ["--net"]), "--", ...launcher];
}

/** How the status bar and the welcome line name the sandbox: `sandbox: workspace-write`, `sandbox off`, `… (not enforced)`. */
export function sandboxLabel(s: SandboxStatus): string {
  if (s.mode === "off") return "sandbox off";
  return `sandbox: ${s.mode}${s.network ? " + network" : ""}${s.enforced ? "" : " (not enforced)"}`;
}
