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

/** The shell found last, and the candidates it was found among. */
let last: { candidates: string; path: string } | null = null;

/**
 * The first candidate that is a file. A found shell is not looked for again while the candidates
 * are the same: two file checks a command were ~1.4 % of a tool loop's CPU, and a shell that has
 * gone since fails its spawn with a sentence of its own.
 */
export function shellPath(env: Record<string, string | undefined>, platform: string): Result<{ path: string }> {
  const candidates = shellCandidates(env, platform);
  const key = candidates.join("\0");
  if (last?.candidates === key) return { ok: true, path: last.path };
  const found = candidates.find((p) => existsSync(p) && statSync(p).isFile());
  if (found) {
    last = { candidates: key, path: found };
    return { ok: true, path: found };
  }
  if (platform !== "win32") return { ok: false, error: "The bash tool needs /bin/sh, which is missing on this system." };
  return {
    ok: false,
    error:
      "The bash tool needs a POSIX shell, and no sh.exe was found on PATH or in Git for Windows' folders; install Git for Windows or put its bin folder on PATH.",
  };
}
