// Where a bare program name is looked for on PATH. On Windows the name gets each PATHEXT extension
// (`npx` → `npx.CMD`, `python` → `python.EXE`) unless it already ends in one, the list separator
// is `;`, and the variable may be spelled `Path`. The rules are pure, so every platform's are tested
// here; `lookPath` checks the candidates on this machine's file system.
import { accessSync, constants, statSync } from "node:fs";
import { posix, win32 } from "node:path";

const DEFAULT_PATHEXT = ".COM;.EXE;.BAT;.CMD";

/** The PATH variable, whatever its case on Windows (`Path` is the usual spelling there). */
function pathVariable(env: Record<string, string | undefined>, platform: string): string {
  if (platform !== "win32") return env.PATH ?? "";
  const key = Object.keys(env).find((k) => k.toUpperCase() === "PATH");
  return (key && env[key]) || "";
}

/** The extensions a bare name is tried with, in order: `[""]` on POSIX. */
export function executableExtensions(name: string, env: Record<string, string | undefined>, platform: string): string[] {
  if (platform !== "win32") return [""];
  const exts = (env.PATHEXT || DEFAULT_PATHEXT)
    .split(";")
    .map((e) => e.trim())
    .filter((e) => e.startsWith("."));
  const lower = name.toLowerCase();
  return exts.some((e) => lower.endsWith(e.toLowerCase())) ? [""] : exts;
}

/** Every path a bare `name` may resolve to, in lookup order. */
export function pathCandidates(name: string, env: Record<string, string | undefined>, platform: string): string[] {
  const path = platform === "win32" ? win32 : posix;
  const value = pathVariable(env, platform);
  const dirs = (platform === "win32" ? splitWindowsPath(value) : value.split(":")).filter((d) => d !== "");
  const exts = executableExtensions(name, env, platform);
  return dirs.flatMap((dir) => exts.map((ext) => path.resolve(dir, name + ext)));
}

/** `;`-separated, where a quoted entry may itself contain `;` (the quotes are not part of the folder). */
function splitWindowsPath(value: string): string[] {
  const dirs: string[] = [];
  let current = "";
  let quoted = false;
  for (const c of value) {
    if (c === '"') quoted = !quoted;
    else if (c === ";" && !quoted) {
      dirs.push(current);
      current = "";
    } else current += c;
  }
  dirs.push(current);
  return dirs;
}

/** Why `path` cannot be run ("does not exist", "is not a file", "is not executable …"), or null. */
export function executableProblem(path: string, platform: string): string | null {
  try {
    const st = statSync(path);
    if (!st.isFile()) return "is not a file";
  } catch {
    return "does not exist";
  }
  if (platform === "win32") return null;
  try {
    accessSync(path, constants.X_OK);
  } catch {
    return "is not executable (run chmod +x on it)";
  }
  return null;
}

/** First executable named `name` on PATH (with PATHEXT on Windows), as an absolute path. */
export function lookPath(name: string, env: Record<string, string | undefined> = process.env, platform: string = process.platform): string | null {
  return pathCandidates(name, env, platform).find((candidate) => executableProblem(candidate, platform) === null) ?? null;
}
