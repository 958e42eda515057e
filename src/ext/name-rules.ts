// Host policy: which names an extension may register and which names belong to zot itself. The
// one owner of these rules; the registry, discovery, the CLI, the modes and the TUI import them.
// zot's own command and tool names live in names.ts (every layer needs them); they are re-exported here.
export { BUILTIN_COMMANDS, BUILTIN_TOOLS, NAME_PATTERN, SLASH_NAME_PATTERN, type BuiltinCommand, type BuiltinTool } from "../names.ts";

/** Extension (manifest) names; shown in errors. `isManifestName` is the check itself. */
export const MANIFEST_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/i;

export function isManifestName(name: string): boolean {
  return MANIFEST_NAME_PATTERN.test(name);
}

/** The manifest's file name in an extension directory. */
export const MANIFEST_FILE = "extension.json";
