// Where zot keeps its state ($ZOT_HOME), and every file and folder in it: the one module that
// spells out the layout (the Go zot's, so a user's home carries over). Resolution is pure so it can
// be tested for every platform; directories are created only when something is about to be
// written, never at import time.
import { mkdirSync } from "node:fs";
import { join, resolve, win32 } from "node:path";
import type { Env } from "./env.ts";

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

/** The first 16 hex digits of the sha256 of `text`: how a project's folder or file is named in the home. */
function key(text: string): string {
  return new Bun.CryptoHasher("sha256").update(text).digest("hex").slice(0, 16);
}

/** `config.json`: the user's settings (the agent's config module and the extension policy read it). */
export function configFile(home: string): string {
  return join(home, "config.json");
}

/** `auth.json` (mode 0600): the stored API keys. */
export const authPath = (home: string): string => join(home, "auth.json");
/** `SYSTEM.md`: the user's replacement for the system prompt. */
export const systemMdPath = (home: string): string => join(home, "SYSTEM.md");
/** `permissions.json`: the remembered "don't ask again" rules, by project. */
export const permissionsPath = (home: string): string => join(home, "permissions.json");
/** `AGENTS.md`: the user's own instructions for every project. */
export const globalInstructionsPath = (home: string): string => join(home, "AGENTS.md");
/** `models.json`: the user's models and providers beside the catalog. */
export const modelsPath = (home: string): string => join(home, "models.json");
/** `models-cache.json`: the model lists the providers reported. */
export const modelsCachePath = (home: string): string => join(home, "models-cache.json");
/** `wire-fallbacks.json`: the OpenAI-compatible base URLs that have no Responses API, so their requests go over Chat Completions. */
export const wireFallbacksPath = (home: string): string => join(home, "wire-fallbacks.json");
/** `skills/`: the user's skills. */
export const skillsDir = (home: string): string => join(home, "skills");
/** `spill/`: a bash command's output past what the model is shown. */
export const spillPath = (home: string): string => join(home, "spill");

/** `history/<key of cwd>.jsonl`: the prompts typed in project `cwd` (the TUI's up-arrow and ctrl+r recall). */
export function historyPath(home: string, cwd: string): string {
  return join(home, "history", `${key(cwd)}.jsonl`);
}

/** `sessions/<key of the absolute cwd>/`: the transcripts of one project. */
export function sessionDir(home: string, cwd: string): string {
  return join(home, "sessions", key(resolve(cwd)));
}

/** `extensions/`: the global extensions root. */
export function globalRoot(home: string): string {
  return join(home, "extensions");
}

/** `extension-settings/`: the extensions' stored settings, one file each. */
export function settingsDir(home: string): string {
  return join(home, "extension-settings");
}

/** `trust.json`: the folders whose project code the user trusts, with what it was when trusted. */
export function trustPath(home: string): string {
  return join(home, "trust.json");
}

/** `logs/`: the extensions' and MCP servers' logs. */
export const logsDir = (home: string): string => join(home, "logs");

export function extensionLogPath(home: string, name: string): string {
  return join(logsDir(home), `ext-${name}.log`);
}

export function mcpLogPath(home: string, name: string): string {
  return join(logsDir(home), `mcp-${name}.log`);
}

/** `mcp.json`: the user's MCP servers. */
export function userConfigPath(home: string): string {
  return join(home, "mcp.json");
}

/** `mcp-auth.json` (mode 0600): the MCP servers' OAuth tokens. */
export function authStorePath(home: string): string {
  return join(home, "mcp-auth.json");
}

/** `mcp-eras.json`: which protocol era each MCP server spoke last. */
export const erasPath = (home: string): string => join(home, "mcp-eras.json");

/** `sandbox-verdict.json`: that this boot's kernel enforced the agent's sandbox, so the next session's start need not wait to find out. */
export const sandboxVerdictPath = (home: string): string => join(home, "sandbox-verdict.json");

/** `$ZOT_HOME/checkpoints`: snapshots of each workspace's files taken before every prompt, which /rewind restores. */
export function checkpointsDir(home: string): string {
  return join(home, "checkpoints");
}
