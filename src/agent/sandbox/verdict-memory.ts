// That this boot's kernel enforced the agent's sandbox, in $ZOT_HOME/sandbox-verdict.json, so a
// session's start need not wait for the probe: on Linux the probe is the session's command server,
// a second start of the zot binary, and the first model request waited for it (bench/RESULTS.md,
// "The sandbox's verdict remembered for the boot").
//
// Only a hint, and one that cannot weaken the sandbox: only "enforced" is remembered, and with it
// every command still goes through the confined command server, which runs nothing it could not
// confine. The server's first frame confirms the remembered verdict; if it contradicts it, the
// session's commands are refused (status.ts `revocation`) and the file is removed, so the next
// start probes again. A new boot, another user or another zot build probe again. The kernel's
// Landlock ABI is remembered too: it cannot change within a boot, and taking it from here spares
// zot's own process the call that asks the kernel, which loads bun:ffi (~1.8 ms of CPU and ~2 MiB);
// the server's first frame names the ABI it confined itself with, and one other than this
// contradicts the verdict as well.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { ensurePrivateDir, sandboxVerdictPath } from "../../platform/home.ts";
import { isObject } from "../../json.ts";
import { buildInfo } from "../../version.ts";

/** What a verdict holds for: this boot, this user, this build of zot. */
type Key = { boot: string; uid: number; zot: string };

/** This process's key; null where there is no boot id to tell boots apart. */
function here(): Key | null {
  let boot: string;
  try {
    boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return null;
  }
  const b = buildInfo();
  return { boot, uid: process.getuid?.() ?? -1, zot: `${b.version} ${b.commit}` };
}

/** The Landlock ABI under which the sandbox was found enforced earlier in this boot, for this user and build of zot; null if it was not. */
export function rememberedAbi(home: string): number | null {
  const now = here();
  if (!now) return null;
  try {
    const r: unknown = JSON.parse(readFileSync(sandboxVerdictPath(home), "utf8"));
    const ok = isObject(r) && r.boot === now.boot && r.uid === now.uid && r.zot === now.zot && Number.isSafeInteger(r.abi) && Number(r.abi) > 0;
    return ok ? Number(r.abi) : null;
  } catch {
    // Missing or unreadable: probe, as without it.
    return null;
  }
}

export function rememberVerdict(home: string, abi: number): void {
  const now = here();
  if (!now) return;
  try {
    ensurePrivateDir(home);
    // Not atomicWrite: its fsync cost the first start of a boot 1-3 ms, and a file cut short by a crash reads as no verdict.
    writeFileSync(sandboxVerdictPath(home), `${JSON.stringify({ ...now, abi })}\n`, { mode: 0o600 });
  } catch {
    // Not worth an error: the next start probes again.
  }
}

export function forgetVerdict(home: string): void {
  try {
    rmSync(sandboxVerdictPath(home), { force: true });
  } catch {
    // A home zot cannot change: the next start trusts the file again, and its commands are refused again.
  }
}
