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
import { confirmSupport, namespacesRefused, runTrial, sandboxTrial, serveArgv, settleSupport, type Support } from "./status.ts";
import { forgetVerdict, rememberedVerdict, rememberVerdict } from "./verdict-memory.ts";

/**
 * `serve`: the session's policy, when its command server is to run; otherwise a confined `exit 0`
 * is the trial. `home`: where this boot's earlier verdict is remembered; with one, nothing is
 * awaited, and the server started here confirms it.
 */
export async function prepareSandbox(serve: SandboxPolicy | null, home: string): Promise<void> {
  const s = sandboxTrial();
  if (s === null || "ok" in s) return;
  const linux = serve && serve.mode !== "off" && process.platform === "linux" ? serve : null;
  if (rememberedVerdict(home, s.how)) {
    settleSupport({ ok: true, how: s.how });
    if (linux) confirmSupport(confirmation(commandServerWith(serveArgv(linux)), home));
    return;
  }
  const found = !linux || linux.network ? await runTrial(s) : await serverTrial(linux, s.how);
  if (found.ok) rememberVerdict(home, found.how);
}

/** The session's command server as the trial: it confines itself as a confined `exit 0` would. */
async function serverTrial(p: SandboxPolicy, how: string): Promise<Support> {
  const server = commandServerWith(serveArgv(p));
  const r = await server.confined();
  // A server that ended before its first frame is a trial that exited before it ran anything (the namespaces come first).
  const found: Support = r.ok ? { ok: true, how } : { ok: false, why: "refused" in r ? r.refused : namespacesRefused(`a trial ${r.died}`) };
  settleSupport(found);
  // Not enforced: commands start directly, and this server would only refuse them.
  if (!r.ok) server.retire();
  return found;
}

/** Why `server` contradicts the remembered verdict, or null once it confined itself; a contradicted verdict is forgotten. */
async function confirmation(server: CommandServer, home: string): Promise<string | null> {
  const r = await server.confined();
  if (r.ok) return null;
  forgetVerdict(home);
  return "refused" in r ? r.refused : namespacesRefused(`its command server ${r.died}`);
}
