// Host policy: which names an extension may register and which names belong to zot itself. The
// one owner of these rules; the registry, discovery, the CLI, the modes and the TUI import them.

/** Command and tool names an extension may register. */
export const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** A slash command's name: an extension's, or a Markdown command's, whose folders join with ":" (`/git:commit`). */
export const SLASH_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}(?::[A-Za-z0-9_-]{1,64}){0,4}$/;

/** Extension (manifest) names; shown in errors. `isManifestName` is the check itself. */
export const MANIFEST_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/i;

export function isManifestName(name: string): boolean {
  return MANIFEST_NAME_PATTERN.test(name);
}

/** zot's own slash commands; an extension command of the same name is rejected. */
export const BUILTIN_COMMANDS = ["help", "clear", "exit", "model", "reload-ext", "ext-config", "login", "logout", "sessions", "compact", "yolo", "theme", "session", "study", "btw", "jump", "skills", "jail", "unjail", "permissions", "init", "reasoning", "trust", "ps"] as const;
export type BuiltinCommand = (typeof BUILTIN_COMMANDS)[number];

/** zot's own tools, in the order they are offered to the model; an extension tool of the same name is rejected. */
export const BUILTIN_TOOLS = ["read", "write", "edit", "bash", "bash_output", "bash_kill", "todo", "web_fetch", "skill"] as const;
export type BuiltinTool = (typeof BUILTIN_TOOLS)[number];
