// The session's sandbox from config.json and the flags: the policy, whether this machine enforces
// it, and what the user must be told at start when it does not.
import { homedir } from "node:os";
import type { Json } from "../../json.ts";
import type { PermissionMode } from "../choices.ts";
import { sandboxPolicy, type SandboxPolicy } from "./policy.ts";
import { sandboxSettings, type SandboxFlags } from "./settings.ts";
import { sandboxStatus, type SandboxStatus } from "./status.ts";

/** `notices`: the settings' warnings; the unenforced sandbox's notice depends on the permission mode, see unenforcedNotice. */
export type SandboxSetup = { policy: SandboxPolicy; status: SandboxStatus; notices: string[] };

type SandboxInputs = SandboxFlags & { cwd: string; home: string; env: Record<string, string | undefined> };

export function setUpSandbox(raw: Json | undefined, configFile: string, o: SandboxInputs): SandboxSetup {
  const planned = planSandbox(raw, configFile, o);
  return { ...planned, status: sandboxStatus(planned.policy) };
}

/** The policy alone, which needs no probe (zot's start-up knows it before the probe, which may start the policy's command server). */
export function planSandbox(raw: Json | undefined, configFile: string, o: SandboxInputs): Omit<SandboxSetup, "status"> {
  const { settings, warnings } = sandboxSettings(raw, configFile, o);
  const policy = sandboxPolicy(settings, { cwd: o.cwd, zotHome: o.home, userHome: o.env.HOME ?? homedir() });
  return { policy, notices: [...warnings] };
}

/**
 * Never silent full access: where the sandbox cannot hold, the user hears it at start and what
 * happens instead in the mode the run is in; null where it holds or was turned off.
 */
export function unenforcedNotice(s: SandboxStatus, mode: PermissionMode, interactive: boolean): string | null {
  if (s.enforced || s.mode === "off") return null;
  let then: string;
  if (mode === "yolo") then = "commands run with your full rights, unasked, as --permission-mode yolo says";
  else if (mode === "plan") then = "plan mode runs only read-only commands, with your full rights";
  else if (interactive) then = `commands run with your full rights, so the ${mode} mode asks before each one that is not read-only`;
  else
    then = `commands run with your full rights, so in the ${mode} mode every one that is not read-only is refused (nobody can be asked here); pass --permission-mode yolo to run them anyway`;
  return `The ${s.mode} sandbox cannot be enforced here (${s.reason}): ${then}. Pass --sandbox off to silence this.`;
}
