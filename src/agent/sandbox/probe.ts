// Whether this machine enforces the sandbox, found out once per process as zot starts, beside the
// extensions' start. Where the session's command server will run anyway (Linux, bash among the
// tools, a policy without network, so its confinement makes the mount and network namespaces a
// trial makes), that server is the trial: it confines itself exactly as a confined `exit 0` would,
// and its first frame says whether it could. It then starts ~15 ms earlier than it would after a
// separate trial, so the first command no longer waits for it, and the trial's own processes
// (unshare and a shell) are not spent (bench/RESULTS.md, "The command server as the probe").
import { commandServerWith } from "./command-server.ts";
import type { SandboxPolicy } from "./policy.ts";
import { sandboxTrial, serveArgv, settleSupport, verdict } from "./status.ts";
import { rmSync } from "node:fs";

/** `serve`: the session's policy, when its command server is to run; otherwise a confined `exit 0` is the trial. */
export async function prepareSandbox(serve: SandboxPolicy | null): Promise<void> {
  const s = sandboxTrial();
  if (s === null || "ok" in s) return;
  if (serve && serve.mode !== "off" && !serve.network && process.platform === "linux") {
    const server = commandServerWith(serveArgv(serve));
    const r = await server.confined();
    if (r.ok) return settleSupport({ ok: true, how: s.how });
    // As a trial that exited before it ran anything (the namespaces come first).
    settleSupport({
      ok: false,
      why: "refused" in r ? r.refused : `this system does not let zot make namespaces (a trial ${r.died})`,
    });
    // Not enforced: commands start directly, and this server would only refuse them.
    server.retire();
    return;
  }
  const trial = s.trial();
  try {
    const p = Bun.spawn(trial.argv, { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const [code, out] = await Promise.all([p.exited, new Response(p.stdout).text()]);
    settleSupport(verdict(trial.how, code, out));
  } finally {
    if (trial.dir !== null) rmSync(trial.dir, { recursive: true, force: true });
  }
}
