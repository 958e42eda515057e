// Whether the sandbox the user chose is actually enforced here, and how a command is started
// inside it. `sandboxStatus` is what the permission modes ask ("yolo inside an enforced sandbox,
// else ask"); `confinedArgv` is the one place a command's argv is wrapped, so every way of running
// a shell (the bash tool, background commands, the user's `!cmd`) is confined alike.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeConfinement, CONFINE_ARG, LAUNCHER_PREFIX, type Confinement } from "../../platform/confine.ts";
import { landlockAbi } from "../../platform/landlock.ts";
import { needsNamespaces } from "../../platform/namespaces.ts";
import { confinement } from "./linux.ts";
import { isRoot, launcherArgv, serverArgv, UNSHARE, unshareMissing } from "./launcher-argv.ts";
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

export type Support = { ok: true; how: string } | { ok: false; why: string };
let support: Support | null = null;

/** A confined `exit 0` that tells whether this machine enforces the sandbox; `dir`: its scratch directory, removed after it. */
type Trial = { argv: string[]; dir: string | null };

/** Not known yet (Linux): the kernel's Landlock ABI, what it would be called if enforced, and the trial that finds out. */
export type Unprobed = { abi: number; how: string; trial: () => Trial };

/** How the Linux sandbox is enforced, under the kernel's Landlock ABI. */
export const linuxHow = (abi: number): string => `Landlock ABI ${abi} and namespaces`;

/** Whether this process has found out already what the machine enforces. */
export const supportKnown = (): boolean => support !== null;

/** What this machine can enforce (null: found out already), or how to find out by confining `exit 0` for real (Linux). */
export function sandboxTrial(): Support | Unprobed | null {
  if (support) return null;
  const s = supportOrTrial();
  if ("ok" in s) support = s;
  return s;
}

/** The verdict of a trial run elsewhere (probe.ts: the session's command server, which confines itself as the trial would). */
export function settleSupport(s: Support): void {
  support ??= s;
}

/**
 * Where the verdict came from this boot's earlier start (verdict-memory.ts): settles once the
 * session's command server has said whether it confined itself as remembered, with what the
 * session was told wrongly if it did not (a clause).
 */
let confirming: Promise<string | null> = Promise.resolve(null);

/** probe.ts: the remembered verdict stands unless `check` resolves with what it got wrong. */
export function confirmSupport(check: Promise<string | null>): void {
  confirming = check;
}

/**
 * Why a command under `p` is refused although the session was told the sandbox is enforced: the
 * remembered verdict turned out wrong, and nothing may then run unconfined under a mode chosen for
 * a sandbox. Waits for the confirmation while it is pending (the first command may arrive before
 * it). Every way zot starts a command asks it first (spawn.ts, and the editor's terminal).
 */
export async function revocation(p: SandboxPolicy | undefined): Promise<string | null> {
  if (!p || p.mode === "off") return null;
  const wrong = await confirming;
  return wrong === null ? null : `${LAUNCHER_PREFIX} ${wrong}; the command was not run. Restart zot: it checks the sandbox again and says what it can enforce.`;
}

/** Why the sandbox is not enforced when a trial could not make the namespaces; `detail` says how it ended. */
export function namespacesRefused(detail: string): string {
  return `this system does not let zot make namespaces (${detail})`;
}

function supportOrTrial(): Support | Unprobed {
  if (process.platform === "darwin") return existsSync(SANDBOX_EXEC) ? { ok: true, how: "sandbox-exec" } : { ok: false, why: `${SANDBOX_EXEC} is missing` };
  if (process.platform !== "linux") return { ok: false, why: `zot has no sandbox for ${process.platform}` };
  const abi = landlockAbi();
  if (abi === 0) return { ok: false, why: "the kernel does not offer Landlock (disabled, or older than Linux 5.13)" };
  if (unshareMissing())
    return { ok: false, why: `zot runs as a user other than root and needs ${UNSHARE} (util-linux) to make a user namespace, which is missing` };
  // Namespaces can be forbidden (a container's seccomp profile, user namespaces turned off): try
  // them, with util-linux `unshare` where it exists (a few ms), else with the launcher itself.
  const how = linuxHow(abi);
  if (existsSync(UNSHARE))
    return {
      abi,
      how,
      trial: () => ({ argv: [UNSHARE, ...(isRoot() ? [] : ["--user", "--map-root-user"]), "--mount", "--net", "--", "/bin/sh", "-c", "exit 0"], dir: null }),
    };
  return {
    abi,
    how,
    trial: () => {
      const dir = mkdtempSync(join(tmpdir(), "zot-sandbox-probe-"));
      const secret = join(dir, "secret");
      writeFileSync(secret, "");
      const trialPolicy: SandboxPolicy = {
        mode: "read-only",
        network: false,
        workspace: dir,
        writable: [],
        hidden: [join(dir, "none"), secret],
        reveal: [],
        userHome: dir,
      };
      return { argv: linuxArgv(trialPolicy, ["/bin/sh", "-c", "exit 0"]), dir };
    },
  };
}

/** The verdict of a trial that exited with `code`, its launcher's line (if any) on `stdout`; its scratch directory goes. */
function settleTrial(s: Unprobed, trial: Trial, code: number | null, stdout: string): Support {
  if (trial.dir !== null) rmSync(trial.dir, { recursive: true, force: true });
  const said = stdout.trim().replace(LAUNCHER_PREFIX, "").trim();
  settleSupport(code === 0 ? { ok: true, how: s.how } : { ok: false, why: said || namespacesRefused(`a trial exited with status ${code}`) });
  return support!;
}

/** The trial in the background (zot's start-up runs it beside loading extensions, probe.ts); its verdict. */
export async function runTrial(s: Unprobed): Promise<Support> {
  const trial = s.trial();
  const p = Bun.spawn(trial.argv, { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [code, out] = await Promise.all([p.exited, new Response(p.stdout).text()]);
  return settleTrial(s, trial, code, out);
}

/** Probed once per process; probe.ts's `prepareSandbox` does it in the background, else the first use waits for it. */
function probe(): Support {
  const s = sandboxTrial();
  if (s === null) return support!;
  if ("ok" in s) return s;
  const trial = s.trial();
  const r = Bun.spawnSync(trial.argv, { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  return settleTrial(s, trial, r.exitCode, r.stdout.toString());
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
  return linuxArgv(p, argv);
}

/** How a command server is started: its argv, then its confinement as its first frame (src/platform/command-server.ts). */
export type ServerStart = { argv: string[]; spec: string };

/**
 * How a command server confined by `p` is started (src/platform/command-server.ts), or null where
 * commands start directly (nothing enforced) or one-shot (macOS: sandbox-exec per command).
 */
export function commandServerStart(p: SandboxPolicy | undefined): ServerStart | null {
  if (!p || p.mode === "off" || process.platform !== "linux" || !probe().ok) return null;
  return serverStart(p);
}

/** How the command server for `p` is started on Linux, whatever the probe says (probe.ts: the server may be the probe). */
export function serverStart(p: SandboxPolicy): ServerStart {
  const c = confinement(p, !isRoot());
  return { argv: serverArgv(direct(c), p.network), spec: encodeConfinement(c) };
}

/** The launcher's `--confine` form: it runs `argv` (an absolute program and its arguments) confined by `p`. */
function linuxArgv(p: SandboxPolicy, argv: string[]): string[] {
  const c = confinement(p, !isRoot());
  return [...launcherArgv(direct(c), p.network), CONFINE_ARG, encodeConfinement(c), ...argv];
}

/** Whether the launcher makes the namespaces `c` needs itself (root), or needs none, rather than entering them through `unshare`. */
const direct = (c: Confinement): boolean => isRoot() || !needsNamespaces(c.isolation);

/** How the status bar and the welcome line name the sandbox: `sandbox: workspace-write`, `sandbox off`, `… (not enforced)`. */
export function sandboxLabel(s: SandboxStatus): string {
  if (s.mode === "off") return "sandbox off";
  return `sandbox: ${s.mode}${s.network ? " + network" : ""}${s.enforced ? "" : " (not enforced)"}`;
}
