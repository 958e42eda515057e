// The session's sandbox from config.json and the flags: the policy, whether this machine enforces
// it, and what the user must be told at start when it does not.
import { homedir } from "node:os";
import type { Json } from "../../json.ts";
import { sandboxPolicy, type SandboxPolicy } from "./policy.ts";
import { sandboxSettings, type SandboxFlags } from "./settings.ts";
import { sandboxStatus, type SandboxStatus } from "./status.ts";

export type SandboxSetup = { policy: SandboxPolicy; status: SandboxStatus; notices: string[] };

export function setUpSandbox(raw: Json | undefined, configFile: string, o: SandboxFlags & { cwd: string; home: string; env: Record<string, string | undefined>; interactive: boolean }): SandboxSetup {
  const { settings, warnings } = sandboxSettings(raw, configFile, o);
  const policy = sandboxPolicy(settings, { cwd: o.cwd, zotHome: o.home, userHome: o.env.HOME ?? homedir() });
  const status = sandboxStatus(policy);
  const notices = [...warnings];
  if (!status.enforced && status.mode !== "off") notices.push(unenforcedNotice(status, o.interactive));
  return { policy, status, notices };
}

/** Never silent full access: where the sandbox cannot hold, the user hears it and what zot does instead. */
export function unenforcedNotice(s: SandboxStatus, interactive: boolean): string {
  const then = interactive
    ? "commands run with your full rights, so zot asks before each one"
    : "commands run with your full rights (nobody can be asked in this mode; pass --sandbox off to silence this)";
  return `The ${s.mode} sandbox cannot be enforced here (${s.reason}): ${then}.`;
}
