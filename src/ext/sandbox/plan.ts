// How one extension is started: straight, or through the sandbox that enforces its declared
// permissions. The connection and `zot ext test` both call `planLaunch`, so they start an extension
// the same way.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { expandPermissions, PLACEHOLDERS, type Permissions, type PlaceholderValues } from "./scope.ts";
import { execChain } from "./exec-chain.ts";
import { execGuardAvailable } from "./exec-guard.ts";
import { encodeRuleset, landlockAbi } from "../../platform/landlock.ts";
import { compiled, EMBEDDED_RUNTIME_ENV, launcherCommand } from "../../platform/launcher-command.ts";
import { enforcement, implicitGrants, landlockRules, scopedEnv, seatbeltProfile, type Enforcement, type ImplicitGrants, type Support } from "./confinement.ts";
import { isWithin, realPath } from "../../platform/real-path.ts";

export type LaunchInput = {
  exec: string;
  args: string[];
  extensionDir: string;
  cwd: string;
  home: string;
  /** The environment an unrestricted extension would get. */
  env: Record<string, string>;
  permissions: Permissions | null;
  /** `exec` is zot's own binary standing in for a missing `bun` or `node`: it runs as Bun. */
  embedded?: boolean;
};

export type LaunchPlan = {
  argv: string[];
  env: Record<string, string>;
  enforcement: Enforcement;
  /** For a scope: what the sandbox granted on its own, and the declared paths that do not exist. */
  grants: ImplicitGrants | null;
  missing: string[];
};

export type PlanResult = ({ ok: true } & LaunchPlan) | { ok: false; error: string };

const SANDBOX_EXEC = "/usr/bin/sandbox-exec";
let support: Support | null = null;

/** What this machine can enforce; probed once per process, and only when a scope needs it. */
export function sandboxSupport(): Support {
  support ??= {
    platform: process.platform,
    landlockAbi: process.platform === "linux" ? landlockAbi() : 0,
    execGuard: process.platform === "linux" && execGuardAvailable(),
    seatbelt: process.platform === "darwin" && existsSync(SANDBOX_EXEC),
  };
  return support;
}

/** How much of `p` this machine enforces; probes the platform only for an extension that declares a scope. */
export function enforcementOf(p: Permissions | null): Enforcement {
  return p ? enforcement(p, sandboxSupport()) : "unrestricted";
}

/**
 * A declared `$PLACEHOLDER/…` path that a symlink leads out of its placeholder grants what the
 * declaration does not say (`$EXTENSION_DIR/data` → `$ZOT_HOME`); named with its field, or null.
 */
function symlinkEscape(declared: Permissions, expanded: Permissions, values: PlaceholderValues): string | null {
  const byName: Record<(typeof PLACEHOLDERS)[number], string> = {
    $EXTENSION_DIR: values.extensionDir,
    $CWD: values.cwd,
    $ZOT_HOME: values.home,
    $TMP: values.tmp,
  };
  for (const mode of ["read", "write"] as const) {
    for (const [i, path] of declared.fs[mode].entries()) {
      const ph = PLACEHOLDERS.find((p) => path === p || path.startsWith(p + "/"));
      if (!ph) continue;
      const base = realPath(byName[ph]);
      const target = realPath(expanded.fs[mode][i]!);
      if (!isWithin(target, base))
        return `"permissions.fs.${mode}[${i}]" is ${JSON.stringify(path)}, which a symlink leads to ${target}, outside ${ph}; declare ${target} itself if it is meant`;
    }
  }
  return null;
}

export function planLaunch(input: LaunchInput): PlanResult {
  const asBun = (env: Record<string, string>) => (input.embedded ? { ...env, [EMBEDDED_RUNTIME_ENV]: "1" } : env);
  if (!input.permissions) return { ok: true, argv: [input.exec, ...input.args], env: asBun(input.env), enforcement: "unrestricted", grants: null, missing: [] };
  const tmp = process.getBuiltinModule("node:os").tmpdir();
  const values = { extensionDir: input.extensionDir, cwd: input.cwd, home: input.home, tmp };
  const p = expandPermissions(input.permissions, values);
  const leak = symlinkEscape(input.permissions, p, values);
  if (leak) return { ok: false, error: leak };
  const env = scopedEnv(input.env, p.env);
  const s = sandboxSupport();
  const level = enforcement(p, s);
  const traced = execChain(input.exec, input.args, env, { env: input.env, cwd: input.extensionDir, untrusted: [input.extensionDir, input.cwd] });
  if (!traced.ok) return traced;
  const chain = traced.chain;
  // zot's own binary is its launcher: as an extension's program it would only be a way around the scope.
  // Standing in for bun or node it runs as Bun, which has no launcher (the variable makes it Bun from its first instruction).
  const self = compiled() ? realPath(process.execPath) : null;
  if (self && !input.embedded && chain.programs.includes(self))
    return { ok: false, error: `its exec runs zot itself (${input.exec}), which an extension with "permissions" may not do` };
  const places = { home: input.env.HOME || homedir(), zotHome: input.home, extensionDir: input.extensionDir, cwd: input.cwd };
  const granted = implicitGrants(chain, places);
  if (!granted.ok) return granted;
  const grants = granted.grants;
  const missing = [...p.fs.read, ...p.fs.write].filter((path) => !existsSync(path));
  const at = { extensionDir: input.extensionDir, grants };
  const plan = { env, enforcement: level, grants, missing };
  if (s.platform === "linux" && s.landlockAbi > 0) {
    // The launcher is zot's binary too, so the variable would make it Bun: it sets the variable itself, for the exec of its own binary.
    const rules = encodeRuleset(landlockRules(p, at, s.landlockAbi));
    return { ok: true, argv: [...launcherCommand(), rules, ...chain.command], ...plan };
  }
  if (s.seatbelt) return { ok: true, argv: [SANDBOX_EXEC, "-p", seatbeltProfile(p, at), ...chain.command], ...plan, env: asBun(env) };
  return { ok: true, argv: [input.exec, ...input.args], ...plan, env: asBun(env) };
}
