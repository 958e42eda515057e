// Whether this machine enforces the sandbox, found out once per process as zot starts, beside the
// extensions' start. Where the session's command server will run anyway (Linux, bash among the
// tools, a policy without network, so its confinement makes the mount and network namespaces a
// trial makes), that server is the trial: it confines itself exactly as a confined `exit 0` would,
// and its first frame says whether it could, so the trial's own processes (unshare and a shell)
// are not spent (bench/RESULTS.md, "The command server as the probe"). Elsewhere the confined
// `exit 0` runs (status.ts).
import { commandServerWith } from "./command-server.ts";
import type { SandboxPolicy } from "./policy.ts";
import { namespacesRefused, runTrial, sandboxTrial, serveArgv, settleSupport } from "./status.ts";

/** `serve`: the session's policy, when its command server is to run; otherwise a confined `exit 0` is the trial. */
export async function prepareSandbox(serve: SandboxPolicy | null): Promise<void> {
  const s = sandboxTrial();
  if (s === null || "ok" in s) return;
  if (!serve || serve.mode === "off" || serve.network || process.platform !== "linux") return runTrial(s);
  const server = commandServerWith(serveArgv(serve));
  const r = await server.confined();
  if (r.ok) return settleSupport({ ok: true, how: s.how });
  // A server that ended before its first frame is a trial that exited before it ran anything (the namespaces come first).
  settleSupport({ ok: false, why: "refused" in r ? r.refused : namespacesRefused(`a trial ${r.died}`) });
  // Not enforced: commands start directly, and this server would only refuse them.
  server.retire();
}
