// Finds extension directories and decides, before anything is spawned, which ones run. Order:
// every --ext path, then <cwd>/.zot/extensions, then $ZOT_HOME/extensions (directories sorted by
// name in each root). The first manifest name (case-insensitive) wins; later copies are shadowed.
// Project extensions take part only when workspace trust approves them (trust.ts): an untrusted one
// runs nothing and shadows, disables or replaces nothing.
import { globalRoot } from "../platform/home.ts";
import { readdirSync, realpathSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { isManifestName } from "./name-rules.ts";
import { MANIFEST_FILE, readManifest, themeManifest } from "./install/manifest.ts";
import { effectiveScope, type ExtensionPolicy } from "./sandbox/scope-policy.ts";
import { effectiveSettings, needsConfigError, readStored } from "./install/settings.ts";
import { findThemeFile, loadTheme } from "./install/theme-file.ts";
import { codeFiles, realDir, reviewProject, type ExtensionPrint } from "./install/trust.ts";
import type { DiscoveredExtension, DiscoveryInput, ExtensionSource } from "./types.ts";

type Candidate = { dir: string; source: ExtensionSource };

/** `<cwd>/.zot/extensions`: where a project keeps its extensions (not the git root, which is platform/project-root.ts). */
export function projectExtensionsDir(cwd: string): string {
  return join(cwd, ".zot", "extensions");
}

export async function discover(input: DiscoveryInput): Promise<DiscoveredExtension[]> {
  const candidates: Candidate[] = input.extPaths.map((p) => ({ dir: flagDir(resolve(process.cwd(), p)), source: "flag" }));
  if (!input.noExt) {
    // A project root that is the global root (cwd is the parent of $ZOT_HOME) holds global extensions.
    const project = projectExtensionsDir(input.cwd);
    if (realDir(project) !== realDir(globalRoot(input.home))) candidates.push(...rootDirs(project, "project"));
    candidates.push(...rootDirs(globalRoot(input.home), "global"));
  }

  const entries: DiscoveredExtension[] = [];
  const seenDirs = new Set<string>();
  // A project entry that is a link to one of the user's global extensions is that global
  // extension: it must not take its place (and so its trust) by coming first.
  const globalDirs = new Set(candidates.filter((c) => c.source === "global").map((c) => realOrSelf(c.dir)));
  for (const c of candidates) {
    // The same directory reached twice (an --ext path inside a root) is one extension, not a
    // shadowing pair.
    const real = realOrSelf(c.dir);
    if (seenDirs.has(real) || (c.source === "project" && globalDirs.has(real))) continue;
    seenDirs.add(real);
    entries.push(inspect(c));
  }
  gateProject(input, entries);

  const winners = new Map<string, string>();
  for (const entry of entries) {
    if (entry.status === "invalid" || entry.status === "untrusted") continue;
    const key = entry.name.toLowerCase();
    const winner = winners.get(key);
    if (winner !== undefined) {
      entry.status = "shadowed";
      entry.theme = null;
      entry.shadowedBy = winner;
    } else {
      winners.set(key, entry.dir);
    }
  }
  return entries.map((e) => applySettings(applyPolicy(e, input.policy), input.home));
}

/** The project extensions whose manifests can be read: the set workspace trust approves or not. */
export function projectPrints(entries: DiscoveredExtension[]): { entry: DiscoveredExtension; print: ExtensionPrint }[] {
  return entries.flatMap((entry) =>
    // The whole directory counts, manifest included (a WebSocket extension's URL and token_env are in it).
    entry.source === "project" && entry.manifest ? [{ entry, print: { name: entry.name, files: codeFiles(entry.dir) } }] : [],
  );
}

/** Marks the project extensions workspace trust does not approve as `untrusted`, in place. */
function gateProject(input: DiscoveryInput, entries: DiscoveredExtension[]): void {
  const found = projectPrints(entries);
  if (found.length === 0) return;
  const gated = found.map((f) => f.entry);
  const prints = found.map((f) => f.print);
  const review = reviewProject(input.home, input.cwd, prints, input.trust ?? "store");
  if (review.warning) gated[0]?.warnings.push(review.warning);
  const why = new Map(review.unapproved.map((u) => [u.name.toLowerCase(), u.why]));
  for (const e of gated) {
    const reason = why.get(e.name.toLowerCase());
    if (reason === undefined) continue;
    e.status = "untrusted";
    e.untrusted = reason;
    e.theme = null;
    e.error =
      reason === "untrusted"
        ? `not started: ${input.cwd} is not a trusted folder; run zot ext trust ${input.cwd} to let its extensions run.`
        : `not started: it is ${reason === "new" ? "new" : "changed (its manifest or files)"} since ${review.trustedBy ?? input.cwd} was trusted; review it, then run zot ext trust ${input.cwd}.`;
  }
}

/** `--ext path/to/extension.json` names the directory holding it. */
function flagDir(path: string): string {
  if (basename(path) === MANIFEST_FILE) {
    try {
      if (statSync(path).isFile()) return resolve(path, "..");
    } catch {
      // A missing path is reported by inspect().
    }
  }
  return path;
}

/** Subdirectories of `root` (symlinks followed), sorted by name; a missing root has none. */
function rootDirs(root: string, source: ExtensionSource): Candidate[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  return names
    .filter((n) => !n.startsWith("."))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((n) => join(root, n))
    .filter((dir) => {
      try {
        return statSync(dir).isDirectory();
      } catch {
        return false;
      }
    })
    .map((dir) => ({ dir, source }));
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function inspect({ dir, source }: Candidate): DiscoveredExtension {
  const manifestPath = join(dir, MANIFEST_FILE);
  const base: DiscoveredExtension = {
    name: basename(dir),
    dir,
    manifestPath,
    source,
    status: "invalid",
    error: null,
    manifest: null,
    theme: null,
    warnings: [],
  };

  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    return { ...base, error: `extension directory ${dir} does not exist; check the path.` };
  }
  if (!isDir) return { ...base, error: `${dir} is not a directory; point at the extension's directory.` };

  const themeFile = findThemeFile(dir);
  let manifestExists = true;
  try {
    statSync(manifestPath);
  } catch {
    manifestExists = false;
  }

  if (!manifestExists) {
    if (!themeFile) return { ...base, error: `${dir} has no ${MANIFEST_FILE}; add one with "name" and "exec", or remove the directory.` };
    // A bare theme directory: named after the directory, like an extension.json with no exec.
    if (!isManifestName(base.name))
      return {
        ...base,
        error: `theme directory ${dir} has no ${MANIFEST_FILE} and its name is not a valid extension name; add an ${MANIFEST_FILE} with a "name".`,
      };
    return themeEntry(base, themeFile, themeManifest(base.name));
  }

  const parsed = readManifest(manifestPath, { allowMissingExec: themeFile !== null });
  if (!parsed.ok) return { ...base, name: parsed.name ?? base.name, error: parsed.error };
  const manifest = parsed.manifest;
  const entry: DiscoveredExtension = { ...base, name: manifest.name, manifest };
  if (manifest.exec === null && themeFile) return themeEntry(entry, themeFile, manifest);
  return { ...entry, status: manifest.enabled ? "spawn" : "disabled" };
}

function themeEntry(entry: DiscoveredExtension, themeFile: string, manifest: NonNullable<DiscoveredExtension["manifest"]>): DiscoveredExtension {
  const withManifest = { ...entry, name: manifest.name, manifest };
  if (!manifest.enabled) return { ...withManifest, status: "disabled" };
  const { theme, warnings } = loadTheme(themeFile, manifest.name);
  return { ...withManifest, status: "theme_only", theme, warnings };
}

/** Discovery's verdict under the policy: the effective scope in the manifest, or a refusal. */
function applyPolicy(entry: DiscoveredExtension, policy: ExtensionPolicy | undefined): DiscoveredExtension {
  if (!policy || entry.status !== "spawn" || !entry.manifest) return entry;
  const scope = effectiveScope(entry.manifest, policy);
  if (!scope.ok) return { ...entry, status: "invalid", error: scope.error };
  const warnings = scope.warning ? [...entry.warnings, scope.warning] : entry.warnings;
  return { ...entry, manifest: { ...entry.manifest, permissions: scope.permissions }, warnings };
}

/** Discovery's verdict on settings: the values for hello_ack, or `needs_config` when a required one is missing. */
function applySettings(entry: DiscoveredExtension, home: string): DiscoveredExtension {
  const m = entry.manifest;
  if (entry.status !== "spawn" || !m || m.settings.length === 0) return entry;
  const read = readStored(home, m.name);
  if (!read.ok) return { ...entry, status: "invalid", error: read.error };
  const { values, missing } = effectiveSettings(m.settings, read.stored);
  if (missing.length > 0) return { ...entry, status: "needs_config", error: needsConfigError(m.name, missing) };
  return { ...entry, settings: values };
}
