// The shell the bash tool runs commands with: /bin/sh on POSIX. Windows has none of its own, so
// Git for Windows' sh.exe is used, found on PATH or in its install folders.
import type { Result } from "../result.ts";
import { existsSync, statSync } from "node:fs";
import { win32 } from "node:path";
import { pathCandidates } from "./exec-path.ts";

export function shellCandidates(env: Record<string, string | undefined>, platform: string): string[] {
  if (platform !== "win32") return ["/bin/sh"];
  const installs = [env.ProgramFiles, env["ProgramFiles(x86)"], env.LOCALAPPDATA && win32.join(env.LOCALAPPDATA, "Programs")]
    .filter((d): d is string => !!d)
    .flatMap((d) => [win32.join(d, "Git", "bin", "sh.exe"), win32.join(d, "Git", "usr", "bin", "sh.exe")]);
  return [...pathCandidates("sh", env, platform), ...installs];
}

export function shellPath(env: Record<string, string | undefined>, platform: string): Result<{ path: string }> {
  const found = shellCandidates(env, platform).find((p) => existsSync(p) && statSync(p).isFile());
  if (found) return { ok: true, path: found };
  if (platform !== "win32") return { ok: false, error: "The bash tool needs /bin/sh, which is missing on this system." };
  return {
    ok: false,
    error:
      "The bash tool needs a POSIX shell, and no sh.exe was found on PATH or in Git for Windows' folders; install Git for Windows or put its bin folder on PATH.",
  };
}
