// The agent's sandbox policy, defined once: what the agent's commands and its built-in file tools
// may read and write in each mode. The launcher's kernel rules (linux.ts, seatbelt.ts) and the
// in-process checks of `read`, `write` and `edit` are all built from this one object.
import { realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { projectRoot } from "../../platform/project-root.ts";

export type SandboxMode = "read-only" | "workspace-write" | "off";
export const SANDBOX_MODES: readonly SandboxMode[] = ["read-only", "workspace-write", "off"];
export const DEFAULT_SANDBOX_MODE: SandboxMode = "workspace-write";

export function isSandboxMode(s: string): s is SandboxMode {
  return (SANDBOX_MODES as readonly string[]).includes(s);
}

/** What the user chose (flags over config.json), before paths are resolved. */
export type SandboxSettings = {
  mode: SandboxMode;
  network: boolean;
  /** `--add-dir` and config.json `writable`: more directories commands may write. */
  writable: string[];
  /** config.json `hidden`: more paths commands and tools may not read. */
  hidden: string[];
};

export type SandboxPolicy = {
  mode: SandboxMode;
  network: boolean;
  /** The project root (git repository root, else the cwd); writable in workspace-write mode. */
  workspace: string;
  /** Every directory writes may go to (real paths): the workspace (workspace-write), temp, --add-dir. */
  writable: string[];
  /** Secret locations nobody in the sandbox reads (real paths where they exist). */
  hidden: string[];
  /** Paths under a hidden one that stay readable (read-only): zot's spill files and global skills, which the model is told to read. */
  reveal: string[];
  /** The user's home, for showing paths as `~/…`. */
  userHome: string;
};

export type PolicyPlace = { cwd: string; zotHome: string; userHome: string };

/** The secret locations hidden in every mode but `off`, besides $ZOT_HOME and the `hidden` list. */
export const HIDDEN_IN_HOME = [
  ".ssh",
  ".gnupg",
  ".aws",
  ".azure",
  ".config/gcloud",
  ".docker/config.json",
  ".netrc",
  ".npmrc",
  ".pypirc",
  ".git-credentials",
  ".config/gh/hosts.yml",
  ".kube/config",
  ".cargo/credentials.toml",
  ".vault-token",
  ".password-store",
  ".local/share/keyrings",
  ".mozilla",
  ".config/google-chrome",
  ".config/chromium",
  ".config/BraveSoftware",
  ".config/microsoft-edge",
  "snap/firefox",
  "Library/Keychains",
  "Library/Cookies",
  "Library/Safari",
  "Library/Application Support/Google/Chrome",
  "Library/Application Support/Firefox",
];

/** Writable in every confined mode: the temp directories programs expect to use. */
function tempDirs(): string[] {
  return [...new Set([tmpdir(), "/tmp", "/var/tmp", "/dev/shm"].map(real))];
}

export function sandboxPolicy(s: SandboxSettings, at: PolicyPlace): SandboxPolicy {
  const workspace = real(projectRoot(at.cwd));
  // Off, nothing reads the lists (every check returns at the mode) and the mode never changes within
  // a run: resolving the ~30 paths, most of them missing, cost every `--sandbox off` start ~1 ms.
  if (s.mode === "off") return { mode: "off", network: s.network, workspace, writable: [], hidden: [], reveal: [], userHome: at.userHome };
  const expand = (p: string, base: string): string => real(p === "~" ? at.userHome : p.startsWith("~/") ? join(at.userHome, p.slice(2)) : resolve(base, p));
  const writable = [...(s.mode === "workspace-write" ? [workspace] : []), ...tempDirs(), ...s.writable.map((p) => expand(p, at.cwd))];
  const hidden = [at.zotHome, ...HIDDEN_IN_HOME.map((p) => join(at.userHome, p)), ...s.hidden.map((p) => expand(p, workspace))].map(real);
  return {
    mode: s.mode,
    network: s.network,
    workspace,
    writable: [...new Set(writable)],
    // Working inside a secret location (zot in $ZOT_HOME) is the user's choice: that one is not hidden.
    hidden: [...new Set(hidden)].filter((h) => !within(workspace, h)),
    // The model is told to read these: the bash tool's spill files, and global skills' directories.
    reveal: [real(join(at.zotHome, "spill")), real(join(at.zotHome, "skills"))],
    userHome: at.userHome,
  };
}

/** The real path of `path`, or of its nearest existing parent joined with the rest (for a file not yet written). */
export function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(real(parent), basename(path));
  }
}

export function within(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

function shown(p: SandboxPolicy, path: string): string {
  return within(path, p.userHome) && p.userHome !== "/" ? "~" + path.slice(p.userHome.length) : path;
}

/** What hides `path` ("~/.ssh/id_rsa is hidden (a secret location)"), or null when it may be read. */
export function readBlock(p: SandboxPolicy, path: string): string | null {
  if (p.mode === "off") return null;
  const target = real(path);
  const secret = p.hidden.find((h) => within(target, h));
  if (secret === undefined || p.reveal.some((r) => within(target, r))) return null;
  return `${shown(p, target)} is hidden (a secret location)`;
}

/** What forbids writing `path` ("write outside the workspace to /etc/x"), or null when it may be written. */
export function writeBlock(p: SandboxPolicy, path: string): string | null {
  if (p.mode === "off") return null;
  const target = real(path);
  const hidden = readBlock(p, target);
  if (hidden !== null) return hidden;
  if (p.writable.some((w) => within(target, w))) return null;
  return p.mode === "read-only" ? `write to ${shown(p, target)} in the read-only sandbox` : `write outside the workspace to ${shown(p, target)}`;
}

export const NO_NETWORK = "no network access";

/** The result's sentence for what was blocked, and what the mode allows, so the model can adapt. */
export function blockedSentence(p: SandboxPolicy, blocks: string[]): string {
  const writes =
    p.mode === "read-only" ? "only the temp directory" : `only the workspace (${shown(p, p.workspace)}), the temp directory and --add-dir directories`;
  const net = p.network ? "" : "; there is no network (the user can allow it with --sandbox-network)";
  return `blocked by the sandbox: ${blocks.join("; ")}. In ${p.mode} mode commands may write ${writes}, secret locations are hidden${net}.`;
}

/** Why a built-in tool may not read `path`, as its result says it, or null. */
export function readDenial(p: SandboxPolicy, path: string): string | null {
  const b = readBlock(p, path);
  return b === null ? null : blockedSentence(p, [b]);
}

/** Why a built-in tool may not write `path`, as its result says it, or null. */
export function writeDenial(p: SandboxPolicy, path: string): string | null {
  const b = writeBlock(p, path);
  return b === null ? null : blockedSentence(p, [b]);
}
