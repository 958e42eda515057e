// Where zot keeps its state ($ZOT_HOME). Resolution is pure so it can be tested for every platform;
// directories are created only when something is about to be written, never at import time.
import { mkdirSync } from "node:fs";
import { join, win32 } from "node:path";

export type Env = Record<string, string | undefined>;

/**
 * `$ZOT_HOME`; else `$XDG_STATE_HOME/zot` on any platform; else the platform default:
 * `~/Library/Application Support/zot` (darwin), `%LOCALAPPDATA%\zot` (win32), `~/.local/state/zot`.
 */
export function zotHome(env: Env = process.env, platform: string = process.platform, home?: string): string {
  const explicit = env.ZOT_HOME;
  if (explicit) return explicit;
  // node:os is loaded only when the home directory is needed: loading it costs ~0.3 MiB of peak RSS.
  const homedir = home ?? process.getBuiltinModule("node:os").homedir();
  const pathJoin = platform === "win32" ? win32.join : join;
  const xdg = env.XDG_STATE_HOME;
  if (xdg) return pathJoin(xdg, "zot");
  if (platform === "darwin") return join(homedir, "Library", "Application Support", "zot");
  if (platform === "win32") return win32.join(env.LOCALAPPDATA || win32.join(homedir, "AppData", "Local"), "zot");
  return join(homedir, ".local", "state", "zot");
}

/**
 * Creates `path` (and any missing parents) private to the user (0700), whatever the umask: what
 * zot keeps (sessions, history, logs, keys, extensions) is nobody else's to list or read.
 */
export function ensurePrivateDir(path: string): string {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  return path;
}

/** `$ZOT_HOME/config.json`: the user's settings (the agent's config module and the extension policy read it). */
export function configFile(home: string): string {
  return join(home, "config.json");
}

/** `$ZOT_HOME/checkpoints`: snapshots of each workspace's files taken before every prompt, which /rewind restores. */
export function checkpointsDir(home: string): string {
  return join(home, "checkpoints");
}
