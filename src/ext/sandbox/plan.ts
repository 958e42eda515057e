// How one extension is started: straight, or through the sandbox that enforces its declared
// permissions. The connection and `zot ext test` both call `planLaunch`, so they start an extension
// the same way.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { expandPermissions, type Permissions } from "../permissions.ts";
import { execChain } from "./exec-chain.ts";
import { landlockAbi } from "./landlock.ts";
import { LAUNCHER_ARG } from "./launch.ts";
import { encodeRuleset, enforcement, landlockRules, scopedEnv, seatbeltProfile, type Enforcement, type Support } from "./policy.ts";

export type LaunchInput = {
  exec: string;
  args: string[];
  extensionDir: string;
  cwd: string;
  home: string;
  /** The environment an unrestricted extension would get. */
  env: Record<string, string>;
  permissions: Permissions | null;
};

export type LaunchPlan = { argv: string[]; env: Record<string, string>; enforcement: Enforcement };

const SANDBOX_EXEC = "/usr/bin/sandbox-exec";
let support: Support | null = null;

/** What this machine can enforce; probed once per process, and only when a scope needs it. */
export function sandboxSupport(): Support {
  support ??= {
    platform: process.platform,
    landlockAbi: process.platform === "linux" ? landlockAbi() : 0,
    seatbelt: process.platform === "darwin" && existsSync(SANDBOX_EXEC),
  };
  return support;
}

/** How much of `p` this machine enforces; probes the platform only for an extension that declares a scope. */
export function enforcementOf(p: Permissions | null): Enforcement {
  return p ? enforcement(p, sandboxSupport()) : "unrestricted";
}

/** How zot starts its own launcher: the compiled binary re-executes itself; from source, Bun runs the file. */
export function launcherCommand(): string[] {
  const compiled = Bun.main.startsWith("/$bunfs/") || Bun.main.includes("~BUN");
  return compiled ? [process.execPath, LAUNCHER_ARG] : [process.execPath, join(import.meta.dir, "launch.ts")];
}

export function planLaunch(input: LaunchInput): LaunchPlan {
  if (!input.permissions) return { argv: [input.exec, ...input.args], env: input.env, enforcement: "unrestricted" };
  const tmp = process.getBuiltinModule("node:os").tmpdir();
  const p = expandPermissions(input.permissions, { extensionDir: input.extensionDir, cwd: input.cwd, home: input.home, tmp });
  const env = scopedEnv(input.env, p.env);
  const s = sandboxSupport();
  const level = enforcement(p, s);
  const at = { extensionDir: input.extensionDir, chain: execChain(input.exec, env) };
  if (s.platform === "linux" && s.landlockAbi > 0) {
    const rules = encodeRuleset(landlockRules(p, at, s.landlockAbi));
    return { argv: [...launcherCommand(), rules, input.exec, ...input.args], env, enforcement: level };
  }
  if (s.seatbelt) return { argv: [SANDBOX_EXEC, "-p", seatbeltProfile(p, at), input.exec, ...input.args], env, enforcement: level };
  return { argv: [input.exec, ...input.args], env, enforcement: level };
}
