// `zot --help`: every flag, grouped the way the Go zot groups them.
import { ZOT_VERSION } from "../version.ts";
import { BUILTIN_TOOLS } from "../ext/name-rules.ts";

const SECTIONS: [string, [string, string][]][] = [
  [
    "modes",
    [
      ["zot", "interactive TUI (when stdin and stdout are terminals)"],
      ['zot "prompt"', "interactive, prompt submitted at start"],
      ["-p, --print", "print the final answer and exit (prompt from args and/or piped stdin)"],
      ["--json", "print one JSON event per line, then exit"],
      ["zot rpc", "NDJSON commands on stdin, responses and events on stdout"],
      ["zot acp", "an Agent Client Protocol agent for editors (Zed, JetBrains, Neovim, Emacs)"],
      ["--mode MODE", "interactive, print, json or rpc (--mode rpc and --rpc are zot rpc)"],
      ["zot ext <command>", "manage extensions (zot ext --help)"],
      ["zot update [--check]", "replace this binary with the latest release (--check: only report)"],
      ["zot mcp <command>", "manage MCP servers (zot mcp --help)"],
      ["zot mcp serve", "be an MCP server: zot's tools for Claude Code, Codex, Cursor … (zot mcp serve --help)"],
      ["zot export SESSION --html FILE", "a transcript as one self-contained page (--md FILE: Markdown)"],
    ],
  ],
  [
    "provider and model",
    [
      ["--provider NAME", "anthropic, openai, kimi, kimi-code, ollama or mock (offline; -p, --json and rpc use it only when asked)"],
      ["--model ID", "model id for this run; any id is sent as given (see --list-models)"],
      ["--api-key KEY", "API key for this run (else env, else $ZOT_HOME/auth.json)"],
      ["--base-url URL", "provider base URL (Anthropic: without /v1; OpenAI-compatible: with /v1)"],
      ["--reasoning LEVEL", "low, medium, high, xhigh or max; each model takes its own set"],
      ["--wire WIRE", "chat or responses: the OpenAI wire, instead of the model's own"],
      ["--list-models", "print the models (built-in, models.json, live) and exit; with --json one JSON line each"],
      ["--mock-script FILE", "mock provider (implied): JSONL file, one scripted model response per line"],
    ],
  ],
  [
    "prompt and session",
    [
      ["--system-prompt TEXT", "replace the system prompt"],
      ["--append-system-prompt TEXT", "append to the system prompt (repeatable)"],
      ["-c, --continue", "continue the latest session for this directory"],
      ["-r, --resume", "pick a session to resume (headless: list the sessions and exit)"],
      ["--session PATH", "resume the given session file"],
      ["--no-session", "read and write no session file"],
    ],
  ],
  [
    "workspace, tools, extensions",
    [
      ["--cwd DIR", "work in DIR instead of the current directory"],
      ["--no-tools", "disable all tools, built-in and extension"],
      ["--no-skill", "no skills: no skill tool and no skills list in the system prompt"],
      ["--with-skills", "accepted for the Go zot (zot loads user skills by default)"],
      ["--tools a,b", `only these built-in tools (${BUILTIN_TOOLS.join(", ")})`],
      ["--max-steps N", "model calls per prompt before stopping (default 50)"],
      ["--permission-mode MODE", "ask, auto-edit, yolo or plan (default: ask; a resumed session keeps its own)"],
      ["--no-yolo", "the same as --permission-mode ask"],
      ["--sandbox MODE", "confine commands: workspace-write (default), read-only or off (docs/SECURITY.md)"],
      ["--add-dir DIR", "let sandboxed commands also write DIR (repeatable)"],
      ["--sandbox-network", "let sandboxed commands use the network"],
      ["-e, --ext PATH", "load the extension in PATH for this run (repeatable)"],
      ["--no-ext", "skip discovered extensions (--ext paths still load); also --no-extensions"],
      ["--trust", "trust this project for this run: its .zot/extensions load (also ZOT_TRUST_PROJECT=1)"],
      ["--ext-trace FILE", "write every extension frame, both ways, to FILE as JSONL (replaced each run)"],
      ["--mcp FILE", "use the MCP servers listed in FILE for this run, before the configured ones (repeatable)"],
      ["--no-mcp", "skip the configured MCP server lists (--mcp files still load)"],
    ],
  ],
  [
    "environment",
    [
      ["ZOT_HOME", "config, auth.json, models.json, SYSTEM.md, sessions, logs (default ~/.local/state/zot)"],
      ["ANTHROPIC_API_KEY", "key for anthropic (checked after --api-key, before auth.json)"],
      ["OPENAI_API_KEY", "key for openai"],
      ["KIMI_CODE_API_KEY", "key for kimi-code (also KIMI_API_KEY)"],
      ["KIMI_API_KEY", "key for kimi (also MOONSHOT_API_KEY)"],
      ["ZOT_TRUST_PROJECT", "1: trust the project for this run, like --trust (for CI and scripts)"],
      ["ZOTCORE_RPC_TOKEN", "zot rpc: commands wait for a hello with this token"],
      ["ZOT_INSTALL_BASE", "zot update: release mirror URL (default: the latest GitHub release)"],
    ],
  ],
  [
    "misc",
    [
      ["-h, --help", "show this help"],
      ["-v, --version", "print the version, commit and build date (with --json: as JSON, with the target)"],
    ],
  ],
];

export function helpText(): string {
  const width = Math.max(...SECTIONS.flatMap(([, rows]) => rows.map(([left]) => left.length))) + 4;
  const out = [`zot ${ZOT_VERSION}: a terminal coding agent with language-agnostic extensions`, "", "usage: zot [flags] [prompt]"];
  for (const [title, rows] of SECTIONS) {
    out.push("", `${title}:`);
    for (const [left, right] of rows) out.push(`  ${left.padEnd(width)}${right}`);
  }
  out.push(
    "",
    "Flag values may be given as --flag value or --flag=value. Use -- to end flags.",
    "Exit status: 0 done, 1 failed (model error, blocked turn, --max-steps, abort), 2 usage error.",
    "",
  );
  return out.join("\n");
}
