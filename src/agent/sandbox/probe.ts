// Whether this machine enforces the sandbox, found out once per process as zot starts, beside the
// extensions' start. Where the session's command server will run anyway (Linux, bash among the
// tools, a policy without network, so its confinement makes the mount and network namespaces a
// trial makes), that server is the trial: it confines itself exactly as a confined `exit 0` would,
// and its first frame says whether it could, so the trial's own processes (unshare and a shell)
// are not spent (bench/RESULTS.md, "The command server as the probe"). Elsewhere the confined
// `exit 0` runs (status.ts). A verdict of "enforced" is remembered for the boot (verdict-memory.ts):
// the next start takes it at once and lets its command server confirm it while the session starts.
import { commandServerWith, type CommandServer } from "./command-server.ts";
import type { SandboxPolicy } from "./policy.ts";
import { confirmSupport, linuxHow, namespacesRefused, runTrial, sandboxTrial, serverStart, settleSupport, supportKnown, type Support } from "./status.ts";
import { forgetVerdict, rememberedAbi, rememberVerdict } from "./verdict-memory.ts";

/**
 * `serve`: the session's policy, when its command server is to run; otherwise a confined `exit 0`
 * is the trial. `home`: where this boot's earlier verdict is remembered; with one, nothing is
 * awaited, and the server started here confirms it.
 */
export async function prepareSandbox(serve: SandboxPolicy | null, home: string): Promise<void> {
  if (supportKnown()) return;
  const linux = serve && serve.mode !== "off" && process.platform === "linux" ? serve : null;
  // Before the trial is planned: planning it asks the kernel its Landlock ABI, which a remembered verdict names.
  const abi = process.platform === "linux" ? rememberedAbi(home) : null;
  if (abi !== null) {
    settleSupport({ ok: true, how: linuxHow(abi) });
    if (linux) confirmSupport(confirmation(commandServerWith(serverStart(linux)), home, abi));
    return;
  }
  const s = sandboxTrial();
  if (s === null || "ok" in s) return;
  const found = !linux || linux.network ? await runTrial(s) : await serverTrial(linux, s.how);
  if (found.ok) rememberVerdict(home, s.abi);
}

/** The session's command server as the trial: it confines itself as a confined `exit 0` would. */
async function serverTrial(p: SandboxPolicy, how: string): Promise<Support> {
  const server = commandServerWith(serverStart(p));
  const r = await server.confined();
  // A server that ended before its first frame is a trial that exited before it ran anything (the namespaces come first).
  const found: Support = r.ok ? { ok: true, how } : { ok: false, why: "refusal" in r ? r.refusal : namespacesRefused(`a trial ${r.died}`) };
  settleSupport(found);
  // Not enforced: commands start directly, and this server would only refuse them.
  if (!r.ok) server.retire();
  return found;
}

/**
 * What the session was told wrongly, as a clause, if `server` contradicts the verdict remembered
 * with `abi`; null once it confined itself under that ABI. A contradicted verdict is forgotten.
 */
async function confirmation(server: CommandServer, home: string, abi: number): Promise<string | null> {
  const r = await server.confined();
  if (r.ok && r.abi === abi) return null;
  forgetVerdict(home);
  if (r.ok)
    return `the sandbox's command server is confined by Landlock ABI ${r.abi}, not the ABI ${abi} this session was told at its start (from a verdict remembered earlier in this boot)`;
  const why = "refusal" in r ? r.refusal : namespacesRefused(`its command server ${r.died}`);
  return `the sandbox cannot be set up now (${why}), although it could earlier in this boot, which is what this session started from`;
}
