// That this boot's kernel enforced the agent's sandbox, in $ZOT_HOME/sandbox-verdict.json, so a
// session's start need not wait for the probe: on Linux the probe is the session's command server,
// a second start of the zot binary, and the first model request waited for it (bench/RESULTS.md,
// "The sandbox's verdict remembered for the boot").
//
// Only a hint, and one that cannot weaken the sandbox: only "enforced" is remembered, and with it
// every command still goes through the confined command server, which runs nothing it could not
// confine. The server's first frame confirms the remembered verdict; if it contradicts it, the
// session's commands are refused (status.ts `revocation`) and the file is removed, so the next
// start probes again. A new boot, another user, another zot build or another Landlock ABI probe again.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { ensurePrivateDir, sandboxVerdictPath } from "../../platform/home.ts";
import { isObject } from "../../json.ts";
import { buildInfo } from "../../version.ts";

type Remembered = { boot: string; uid: number; zot: string; how: string };

/** What the verdict holds for: this boot, this user, this build of zot; null where there is no boot id to tell boots apart. */
function here(how: string): Remembered | null {
  let boot: string;
  try {
    boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return null;
  }
  const b = buildInfo();
  return { boot, uid: process.getuid?.() ?? -1, zot: `${b.version} ${b.commit}`, how };
}

/** Whether `how` (the enforcement a trial would confirm, naming the Landlock ABI) was found enforced earlier in this boot. */
export function rememberedVerdict(home: string, how: string): boolean {
  const now = here(how);
  if (!now) return false;
  try {
    const r: unknown = JSON.parse(readFileSync(sandboxVerdictPath(home), "utf8"));
    return isObject(r) && r.boot === now.boot && r.uid === now.uid && r.zot === now.zot && r.how === now.how;
  } catch {
    // Missing or unreadable: probe, as without it.
    return false;
  }
}

export function rememberVerdict(home: string, how: string): void {
  const now = here(how);
  if (!now) return;
  try {
    ensurePrivateDir(home);
    // Not atomicWrite: its fsync cost the first start of a boot 1-3 ms, and a file cut short by a crash reads as no verdict.
    writeFileSync(sandboxVerdictPath(home), `${JSON.stringify(now)}\n`, { mode: 0o600 });
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
