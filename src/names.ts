// zot's own names and the rule for names: the built-in slash commands and tools, which no extension may
// take, and the patterns a command or tool name must match. A leaf: the agent core, the hosts and the
// modes all need them.

/** Command and tool names an extension may register. */
export const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** A slash command's name: an extension's, or a Markdown command's, whose folders join with ":" (`/git:commit`). */
export const SLASH_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}(?::[A-Za-z0-9_-]{1,64}){0,4}$/;

/**
 * zot's own slash commands, in the order the TUI offers them, with what each does; an extension
 * command of the same name is rejected. What each runs is keyed by these names (tui/commands/commands.ts),
 * so a command cannot be listed without behaviour or run without being listed.
 */
export const BUILTIN_COMMANDS = [
  { name: "help", description: "keys and commands" },
  { name: "model", description: "switch provider/model" },
  { name: "sessions", description: "resume a session of this directory" },
  { name: "session", description: "export [path] · import <path> · fork · tree" },
  { name: "resume", description: "resume a session of this directory (as /sessions)" },
  { name: "export", description: "md|html [path]: the conversation as a readable file (default html to ~/Downloads)" },
  { name: "rename", description: "give this session a title" },
  { name: "rewind", description: "restore code and/or conversation to before a prompt · undo" },
  { name: "study", description: "read and understand everything in this directory" },
  { name: "btw", description: "side question about the chat, not saved" },
  { name: "jump", description: "scroll to an earlier turn (filter by text)" },
  { name: "skills", description: "list the skills found here and preview them" },
  { name: "agents", description: "list the agents the task tool can run, with their source files" },
  { name: "jail", description: "confine read/write/edit to this directory (a guardrail, not a sandbox)" },
  { name: "unjail", description: "lift /jail" },
  { name: "clear", description: "start a fresh session" },
  { name: "init", description: "have the model study the project and write AGENTS.md" },
  { name: "compact", description: "summarise the conversation into one message" },
  { name: "cost", description: "what this session cost, tokens by model" },
  { name: "context", description: "what fills the context window, part by part" },
  { name: "status", description: "session, model, modes, sandbox and extensions at a glance" },
  { name: "doctor", description: "check zot, the provider, extensions, MCP servers and the sandbox" },
  { name: "copy", description: "copy the last answer to the clipboard" },
  { name: "add-dir", description: "let commands and file tools write one more directory this session" },
  { name: "reload-ext", description: "reload extensions (all, or one by name)" },
  { name: "ext-config", description: "an extension's settings (all with settings, or one by name)" },
  { name: "trust", description: "review this folder's pending project code, then trust it and reload" },
  { name: "yolo", description: "stop asking before tool calls this session" },
  { name: "permissions", description: "list and revoke standing tool approvals" },
  { name: "ps", description: "background commands: their state, and stop one" },
  { name: "reasoning", description: "thinking level (those the model takes), or off" },
  { name: "theme", description: "pick a colour theme" },
  { name: "login", description: "store an API key for a provider" },
  { name: "logout", description: "remove a stored API key" },
  { name: "exit", description: "quit zot" },
  { name: "quit", description: "quit zot (as /exit)" },
] as const;
export type BuiltinCommand = (typeof BUILTIN_COMMANDS)[number]["name"];

/** zot's own tools, in the order they are offered to the model; an extension tool of the same name is rejected. */
export const BUILTIN_TOOLS = ["read", "write", "edit", "bash", "bash_output", "bash_kill", "todo", "web_fetch", "skill", "task"] as const;
export type BuiltinTool = (typeof BUILTIN_TOOLS)[number];

/** Whether `--no-tools` and `--tools` leave the model bash (what selectTools will say of it, known before its module loads). */
export function offersShell(f: { noTools: boolean; tools?: string[] | undefined }): boolean {
  return !f.noTools && (f.tools == null || f.tools.some((n) => n.trim() === "bash"));
}
