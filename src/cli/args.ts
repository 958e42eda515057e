// argv → a typed run request. Flags follow the Go zot so users' scripts carry over; anything the
// parser does not understand is an error (exit 2), never silently ignored.
import type { RunFlags } from "../runtime/run-flags.ts";
import { BUILTIN_TOOLS } from "../ext/name-rules.ts";
import { isSandboxMode, SANDBOX_MODES } from "../agent/sandbox/policy.ts";
import {
  CHOOSABLE_WIRES,
  EFFORTS,
  isChoosableWire,
  isEffort,
  isPermissionMode,
  isProviderName,
  orList,
  PERMISSION_MODES,
  PROVIDERS,
  type PermissionMode,
} from "../agent/choices.ts";

export type Mode = "interactive" | "print" | "json" | "rpc" | "acp";

/** The run choices the agent takes (`RunFlags`), plus what only the command line decides. */
export type CliArgs = Omit<RunFlags, "trust"> & {
  mode: Mode;
  resume: boolean;
  /** As given; the runtime gets it resolved. */
  cwd?: string;
  /** `--mcp FILE`: MCP server lists for this run (repeatable); cli/run.ts wires them around the host. */
  mcp: string[];
  noMcp: boolean;
  /** `--trust`: trust the project for this run; cli/run.ts resolves it with the environment into the runtime's trust mode. */
  trust: boolean;
  listModels: boolean;
  help: boolean;
  version: boolean;
  /** Positional words joined with single spaces; undefined when there were none. */
  prompt?: string;
};

export type ParsedArgv =
  | { kind: "run"; args: CliArgs }
  /** `zot ext …`: everything after `ext`, for the extension CLI. */
  | { kind: "ext"; argv: string[] }
  /** `zot update [--check]`: replace this binary with the latest release (or only report it). */
  | { kind: "update"; check: boolean }
  /** `zot mcp …`: everything after `mcp`, for the MCP server CLI. */
  | { kind: "mcp"; argv: string[] }
  /** `zot export SESSION --html FILE | --md FILE`: a transcript as a readable page (cli/export.ts). */
  | { kind: "export"; argv: string[] }
  | { kind: "error"; message: string };

export const DEFAULT_MAX_STEPS = 50;

type ValueFlag =
  | "--provider"
  | "--model"
  | "--api-key"
  | "--base-url"
  | "--system-prompt"
  | "--append-system-prompt"
  | "--reasoning"
  | "--wire"
  | "--session"
  | "--cwd"
  | "--tools"
  | "--max-steps"
  | "--ext"
  | "--mcp"
  | "--mode"
  | "--permission-mode"
  | "--mock-script"
  | "--ext-trace"
  | "--sandbox"
  | "--add-dir";

const VALUE_FLAGS: Record<string, ValueFlag> = {
  "--provider": "--provider",
  "--model": "--model",
  "--api-key": "--api-key",
  "--base-url": "--base-url",
  "--system-prompt": "--system-prompt",
  "--append-system-prompt": "--append-system-prompt",
  "--reasoning": "--reasoning",
  "--wire": "--wire",
  "--session": "--session",
  "--cwd": "--cwd",
  "--tools": "--tools",
  "--max-steps": "--max-steps",
  "--ext": "--ext",
  "-e": "--ext",
  "--mcp": "--mcp",
  "--mode": "--mode",
  "--permission-mode": "--permission-mode",
  "--mock-script": "--mock-script",
  "--ext-trace": "--ext-trace",
  "--sandbox": "--sandbox",
  "--add-dir": "--add-dir",
};

type SwitchFlag =
  | "--print"
  | "--json"
  | "--rpc"
  | "--continue"
  | "--resume"
  | "--no-session"
  | "--no-tools"
  | "--no-skill"
  | "--with-skills"
  | "--no-ext"
  | "--no-mcp"
  | "--trust"
  | "--no-yolo"
  | "--sandbox-network"
  | "--list-models"
  | "--help"
  | "--version";

const SWITCH_FLAGS: Record<string, SwitchFlag> = {
  "-p": "--print",
  "--print": "--print",
  "--json": "--json",
  // The Go zot's spellings, kept so existing scripts carry over.
  "--rpc": "--rpc",
  "--no-extensions": "--no-ext",
  "-c": "--continue",
  "--continue": "--continue",
  "-r": "--resume",
  "--resume": "--resume",
  "--no-session": "--no-session",
  "--no-tools": "--no-tools",
  "--no-skill": "--no-skill",
  "--no-skills": "--no-skill",
  "--with-skills": "--with-skills",
  "--no-ext": "--no-ext",
  "--no-mcp": "--no-mcp",
  "--trust": "--trust",
  "--no-yolo": "--no-yolo",
  "--sandbox-network": "--sandbox-network",
  "--list-models": "--list-models",
  "-h": "--help",
  "--help": "--help",
  "-v": "--version",
  "--version": "--version",
};

/** Every spelling of every flag the parser accepts, for the documentation check. */
export const FLAG_SPELLINGS: readonly string[] = [...Object.keys(VALUE_FLAGS), ...Object.keys(SWITCH_FLAGS)];

const MODE_NAMES: readonly Mode[] = ["interactive", "print", "json", "rpc"];

/** Parses the process arguments (without the executable). Pure: no I/O, no environment. */
export function parseArgv(argv: readonly string[]): ParsedArgv {
  if (argv[0] === "ext") return { kind: "ext", argv: argv.slice(1) };
  if (argv[0] === "update") return parseUpdate(argv.slice(1));
  if (argv[0] === "mcp") return { kind: "mcp", argv: argv.slice(1) };
  if (argv[0] === "export") return { kind: "export", argv: argv.slice(1) };
  const args: CliArgs = {
    mode: "interactive",
    appendSystemPrompt: [],
    continue: false,
    resume: false,
    noSession: false,
    noTools: false,
    noSkill: false,
    maxSteps: DEFAULT_MAX_STEPS,
    ext: [],
    noExt: false,
    mcp: [],
    noMcp: false,
    trust: false,
    listModels: false,
    help: false,
    version: false,
  };
  // Each way of choosing a mode is remembered by its spelling so a conflict names both.
  let modeSource: string | null = null;
  const setMode = (mode: Mode, source: string): string | null => {
    if (modeSource !== null && args.mode !== mode) return `${source} conflicts with ${modeSource}; choose one mode.`;
    args.mode = mode;
    modeSource = source;
    return null;
  };
  // The same for the permission mode: `--no-yolo` is `--permission-mode ask`.
  let permissionSource: string | null = null;
  const setPermission = (mode: PermissionMode, source: string): string | null => {
    if (permissionSource !== null && args.permissionMode !== mode) return `${source} conflicts with ${permissionSource}; choose one permission mode.`;
    args.permissionMode = mode;
    permissionSource = source;
    return null;
  };
  const positional: string[] = [];
  let start = 0;
  if (argv[0] === "rpc") {
    setMode("rpc", "zot rpc");
    start = 1;
  }
  if (argv[0] === "acp") {
    setMode("acp", "zot acp");
    start = 1;
  }
  for (let i = start; i < argv.length; i++) {
    const raw = argv[i] ?? "";
    if (raw === "--") {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!raw.startsWith("-") || raw === "-") {
      positional.push(raw);
      continue;
    }
    const eq = raw.startsWith("--") ? raw.indexOf("=") : -1;
    const name = eq === -1 ? raw : raw.slice(0, eq);
    const inline = eq === -1 ? undefined : raw.slice(eq + 1);
    const sw = SWITCH_FLAGS[name];
    if (sw) {
      if (inline !== undefined) return fail(`${name} takes no value (got "${name}=${inline}").`);
      const err = applySwitch(args, sw, name, setMode, setPermission);
      if (err) return fail(err);
      continue;
    }
    const vf = VALUE_FLAGS[name];
    if (!vf) return fail(`unknown flag "${name}"; run "zot --help" for the list of flags.`);
    let value = inline;
    if (value === undefined) {
      value = argv[++i];
      if (value === undefined) return fail(`${name} needs a value.`);
    }
    const err = applyValue(args, vf, name, value, setMode, setPermission);
    if (err) return fail(err);
  }
  if (positional.length > 0) args.prompt = positional.join(" ");
  if (args.session !== undefined && args.noSession) return fail(`--session conflicts with --no-session; choose one.`);
  if (args.continue && args.session !== undefined) return fail(`--continue conflicts with --session; choose one.`);
  if (args.continue && args.noSession) return fail(`--continue conflicts with --no-session; choose one.`);
  if (args.mockScript !== undefined && args.provider !== undefined && args.provider !== "mock")
    return fail(`--mock-script only works with the mock provider, not --provider ${args.provider}.`);
  return { kind: "run", args };
}

function parseUpdate(rest: readonly string[]): ParsedArgv {
  const unknown = rest.find((a) => a !== "--check");
  if (unknown !== undefined) return fail(`zot update takes only --check (got "${unknown}").`);
  return { kind: "update", check: rest.length > 0 };
}

function fail(message: string): ParsedArgv {
  return { kind: "error", message };
}

function applySwitch(
  args: CliArgs,
  flag: SwitchFlag,
  spelled: string,
  setMode: (m: Mode, s: string) => string | null,
  setPermission: (m: PermissionMode, s: string) => string | null,
): string | null {
  switch (flag) {
    case "--print":
      return setMode("print", spelled);
    case "--json":
      return setMode("json", spelled);
    case "--rpc":
      return setMode("rpc", spelled);
    case "--continue":
      args.continue = true;
      return null;
    case "--resume":
      args.resume = true;
      return null;
    case "--no-session":
      args.noSession = true;
      return null;
    case "--no-tools":
      args.noTools = true;
      return null;
    case "--no-skill":
      args.noSkill = true;
      return null;
    case "--with-skills":
      // The Go zot loads only its built-in skills without this flag; zot always loads the user's.
      return null;
    case "--no-ext":
      args.noExt = true;
      return null;
    case "--no-mcp":
      args.noMcp = true;
      return null;
    case "--trust":
      args.trust = true;
      return null;
    case "--no-yolo":
      return setPermission("ask", spelled);
    case "--sandbox-network":
      args.sandboxNetwork = true;
      return null;
    case "--list-models":
      args.listModels = true;
      return null;
    case "--help":
      args.help = true;
      return null;
    case "--version":
      args.version = true;
      return null;
  }
}

function applyValue(
  args: CliArgs,
  flag: ValueFlag,
  spelled: string,
  value: string,
  setMode: (m: Mode, s: string) => string | null,
  setPermission: (m: PermissionMode, s: string) => string | null,
): string | null {
  switch (flag) {
    case "--provider": {
      const v = value.toLowerCase();
      if (!isProviderName(v)) return `${spelled} must be one of ${PROVIDERS.join(", ")} (got "${value}").`;
      args.provider = v;
      return null;
    }
    case "--reasoning": {
      const v = value.toLowerCase();
      if (!isEffort(v)) return `${spelled} must be ${orList(EFFORTS)} (got "${value}").`;
      args.reasoning = v;
      return null;
    }
    case "--wire": {
      const v = value.toLowerCase();
      if (!isChoosableWire(v)) return `${spelled} must be ${orList(CHOOSABLE_WIRES)} (got "${value}").`;
      args.wire = v;
      return null;
    }
    case "--max-steps": {
      if (!/^[0-9]+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value)))
        return `${spelled} must be a positive whole number (got "${value}").`;
      args.maxSteps = Number(value);
      return null;
    }
    case "--tools": {
      const names = value
        .split(",")
        .map((t) => t.trim())
        .filter((t) => t !== "");
      if (names.length === 0) return `${spelled} needs at least one tool name (${BUILTIN_TOOLS.join(", ")}); use --no-tools for none.`;
      const unknown = names.filter((n) => !(BUILTIN_TOOLS as readonly string[]).includes(n));
      if (unknown.length > 0) return `${spelled}: unknown tool ${unknown.map((n) => `"${n}"`).join(", ")} (built-in tools: ${BUILTIN_TOOLS.join(", ")}).`;
      args.tools = names;
      return null;
    }
    case "--permission-mode": {
      const v = value.toLowerCase();
      if (!isPermissionMode(v)) return `${spelled} must be ${orList(PERMISSION_MODES)} (got "${value}").`;
      return setPermission(v, `${spelled} ${v}`);
    }
    case "--mode": {
      const v = value.toLowerCase();
      if (!(MODE_NAMES as readonly string[]).includes(v)) return `${spelled} must be one of ${MODE_NAMES.join(", ")} (got "${value}").`;
      return setMode(v as Mode, `${spelled} ${v}`);
    }
    case "--append-system-prompt":
      args.appendSystemPrompt.push(value);
      return null;
    case "--system-prompt":
      args.systemPrompt = value;
      return null;
    case "--sandbox": {
      const v = value.toLowerCase();
      if (!isSandboxMode(v)) return `${spelled} must be ${orList(SANDBOX_MODES)} (got "${value}").`;
      args.sandbox = v;
      return null;
    }
    case "--add-dir":
      if (value === "") return `${spelled} needs a directory path.`;
      (args.addDirs ??= []).push(value);
      return null;
    case "--ext":
      if (value === "") return `${spelled} needs a directory path.`;
      args.ext.push(value);
      return null;
    case "--mcp":
      if (value === "") return `${spelled} needs the path of an MCP server list (a JSON file with "mcpServers").`;
      args.mcp.push(value);
      return null;
    case "--base-url":
      if (!/^https?:\/\/\S+$/i.test(value)) return `${spelled} must be an http:// or https:// URL (got "${value}").`;
      args.baseUrl = value;
      return null;
    case "--model":
    case "--api-key":
    case "--session":
    case "--cwd":
    case "--mock-script":
    case "--ext-trace":
      if (value === "") return `${spelled} needs a non-empty value.`;
      args[STRING_FIELDS[flag]] = value;
      return null;
  }
}

const STRING_FIELDS = {
  "--model": "model",
  "--api-key": "apiKey",
  "--session": "session",
  "--cwd": "cwd",
  "--mock-script": "mockScript",
  "--ext-trace": "extTrace",
} as const;
