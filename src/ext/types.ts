// The host's public surface: what modes and the agent loop see of the extension host. The host knows
// nothing of the TUI or providers; it takes facts (provider/model/cwd) in and emits typed UI intents.
import type { Failure, Result } from "../result.ts";
import type { Permissions } from "./sandbox/scope.ts";
import type { ImplicitGrants } from "./sandbox/confinement.ts";
import type { SettingSpec } from "./install/settings.ts";
import type { ExtensionPolicy } from "./sandbox/scope-policy.ts";
import type { Enforcement } from "./sandbox/confinement.ts";
import type {
  CommandResponseFrame,
  ContentBlock,
  EventName,
  InterceptName,
  InterceptSpec,
  JsonObject,
  NotifyLevel,
  PanelContent,
  PanelKeyName,
  RegisterAgentFrame,
} from "../protocol.ts";
import type { TrustMode, Unapproved } from "./install/trust.ts";
import type { WebSocketTarget } from "./connection/websocket-target.ts";
import type { ActiveTool, CallToolOptions, EmitPayload, InterceptPayload, InterceptResult, InterceptStep, LoopHooks, ToolCallResult } from "../agent/hooks.ts";

export type ExtensionSource = "flag" | "project" | "global";

export type ExtensionStatus =
  | "ready"
  | "auto_ready"
  | "failed"
  | "invalid"
  | "disabled"
  | "shadowed"
  | "theme_only"
  /** A project extension in a folder the user has not trusted (or changed since it was trusted). */
  | "untrusted"
  /** A required setting has no value; `zot ext config` sets it. */
  | "needs_config"
  /** Transient: spawned, registration not complete yet. */
  | "starting"
  /** Was ready, then exited or crashed at runtime. */
  | "exited";

export type Theme = { name: string; colors: Record<string, string | number>; extension: string; path: string };

/** One extension as discovery and the host see it (the data behind `zot ext list` and `doctor`). */
export type ExtensionState = {
  name: string;
  dir: string;
  manifestPath: string;
  source: ExtensionSource;
  status: ExtensionStatus;
  error: string | null;
  version: string | null;
  language: string | null;
  description: string | null;
  commands: string[];
  tools: { name: string; deferred: boolean }[];
  events: EventName[];
  intercept: InterceptSpec[];
  conflicts: string[];
  warnings: string[];
  log: string;
  startupMs: number | null;
  /** The scope it runs with (the manifest's, or the user's override); null: the user's full privileges. */
  permissions: Permissions | null;
  /** How much of that scope this platform enforces. */
  enforcement: Enforcement;
  /** What the sandbox granted on its own to start it (null: no scope, or not started). */
  granted: ImplicitGrants | null;
  /** Where zot connects to a WebSocket extension; null for one it starts. */
  url: string | null;
  /** For shadowed extensions: the directory of the winner. */
  shadowedBy?: string;
  /** For untrusted project extensions: why they did not start. */
  untrusted?: Unapproved["why"];
};

export type DiscoveryInput = {
  /** `--ext` paths in argument order (relative to the process cwd). */
  extPaths: string[];
  /** `--no-ext`: skip the project and global roots, keep `extPaths`. */
  noExt: boolean;
  /** Project directory (`--cwd` or process cwd), absolute. */
  cwd: string;
  /** $ZOT_HOME, absolute. */
  home: string;
  /** The user's permission policy (config.json "extensions"); default: every extension may run. */
  policy?: ExtensionPolicy;
  /** How project extensions are gated (trust.ts); default "store": only a trusted folder's run. */
  trust?: TrustMode | undefined;
};

export type HostInfo = {
  zotVersion: string;
  provider: string;
  model: string;
  cwd: string;
  /** /jail: the directory the built-in file tools are confined to; absent when not jailed. */
  jail?: string | undefined;
};

export type LoadOptions = DiscoveryInput & {
  info: HostInfo;
  /** `--ext-trace FILE`: every frame both ways as JSONL. */
  traceFile?: string | undefined;
  /**
   * Masks secrets (API keys, tokens) in text the host writes down: trace lines, `[zot]` log lines,
   * warnings and load errors. The host knows nothing of where secrets come from; the caller does.
   * Called once per frame while tracing, so it should be cheap. Default: text unchanged.
   */
  mask?: ((text: string) => string) | undefined;
  /**
   * Hears of a credential the host read for an extension (a WebSocket extension's token), before it
   * is used, so the caller masks it like its own secrets. Default: nobody.
   */
  onSecret?: (value: string) => void;
};

export type ActiveCommand = { name: string; description: string; extension: string };

/** Typed UI intents from extensions. Modes subscribe; the host never knows which mode runs. */
export type UiIntent =
  | { kind: "notify"; extension: string; level: NotifyLevel; message: string }
  | { kind: "display"; extension: string; text: string }
  | { kind: "clear_notes"; extension: string }
  | { kind: "submit"; extension: string; text: string }
  | { kind: "insert"; extension: string; text: string }
  | { kind: "prompt"; extension: string; text: string }
  | { kind: "command_error"; extension: string; message: string }
  | { kind: "panel_open"; extension: string; panel: PanelContent }
  | { kind: "panel_render"; extension: string; panelId: string; title?: string | undefined; lines?: string[] | undefined; footer?: string | undefined }
  | { kind: "panel_close"; extension: string; panelId: string }
  | { kind: "tool_progress"; extension: string; callId: string; text: string }
  /** An extension exited at runtime (its commands/tools are gone already). */
  | { kind: "extension_exited"; extension: string; message: string }
  /** The active command/tool sets changed (late registration, exit, reload, activation). */
  | { kind: "registry_changed" };

export type LoadReport = {
  extensions: ExtensionState[];
  /** `source: "mcp"`: an MCP server (named by `extension`) or one of its server lists failed. */
  errors: { extension: string; message: string; log: string; source?: "mcp" }[];
  /**
   * `traceFile` could not be written: "cannot write the extension trace to <path>: <reason>".
   * Nothing was started or stopped then (`extensions` is empty); the caller should give up.
   */
  traceError?: string;
};

/** `gone`: the extension exited while it held the command; that exit is reported on its own (a note naming the log). */
export type InvokeResult = Result<{ response: CommandResponseFrame; extension: string }> | (Failure & { gone: true });

/** An extension's agent for the `task` tool, with its owner. */
export type ActiveAgent = Omit<RegisterAgentFrame, "type"> & { extension: string };

/** Re-exported so users of the host import from one place. */
export type { InterceptName, PanelKeyName, ContentBlock };
export type { ActiveTool, CallToolOptions, EmitPayload, InterceptPayload, InterceptResult, InterceptStep, ToolCallResult };

/**
 * The extension host as modes and the runtime use it; the agent loop sees only its `LoopHooks`.
 * Implemented by `Host` in `host.ts` (and `McpHost`, which wraps one). Nothing here throws for
 * extension misbehaviour: failures come back as values or intents.
 */
export interface ExtensionHost extends LoopHooks {
  /** Discover, spawn all in parallel, handshake; resolves when every extension is ready/auto_ready/failed. */
  load(opts: LoadOptions): Promise<LoadReport>;
  /** Shut down and respawn all (no name) or one extension; remembered `--ext`/`--no-ext` are kept; re-sends session_start. */
  reload(name?: string): Promise<LoadReport>;
  /** `shutdown` to all, 2 s shared grace, SIGTERM the groups, SIGKILL 1 s later. Idempotent. */
  shutdown(): Promise<void>;
  /** Provider/model/cwd changes: later `hello_ack`s carry the new values. */
  setInfo(info: Partial<HostInfo>): void;
  states(): ExtensionState[];
  commands(): ActiveCommand[];
  /** Agents the running extensions registered (`register_agent`), in load order. */
  agents(): ActiveAgent[];
  /** Themes from theme-only extensions. */
  themes(): Theme[];
  /** Case-insensitive lookup; sends the canonical name and trimmed args; 30 s timeout. */
  invokeCommand(name: string, args: string): Promise<InvokeResult>;
  panelKey(panelId: string, key: PanelKeyName, text?: string): void;
  panelClose(panelId: string): void;
  panelResize(panelId: string, width: number, height: number): void;
  /** Subscribe to UI intents; returns the unsubscribe function. */
  onIntent(listener: (intent: UiIntent) => void): () => void;
  /** Resources mentioned in a prompt (`@server:uri`, MCP) appended to it; absent when no source offers any. */
  attach?(text: string): Promise<{ text: string; errors: string[] }>;
  /** An extension's declared settings with their stored values (secrets included: callers mask them). */
  settings(name: string): Result<{ extension: string; specs: SettingSpec[]; values: JsonObject }>;
  /**
   * Sets (key → text as typed) and unsets settings, stores them, and sends `settings_changed` to the
   * running extension; one that waited for a required setting is started.
   */
  configure(name: string, set: [string, string][], unset: string[]): Promise<Result<{ path: string }>>;
}

/** A parsed, validated `extension.json`. `exec` is resolved to an absolute path. */
export type Manifest = {
  name: string;
  version: string | null;
  exec: string | null;
  args: string[];
  /** `"transport": {"type": "websocket", …}`: zot connects to it instead of starting it (then `exec` is null). */
  transport: WebSocketTarget | null;
  language: string | null;
  description: string | null;
  enabled: boolean;
  /** The declared permission scope; null when the manifest declares none (full user privileges). */
  permissions: Permissions | null;
  /** Settings the host stores and hands over in hello_ack (manifest `settings`). */
  settings: SettingSpec[];
  /**
   * `exec` was `bun` or `node`, which is not on PATH: `exec` is zot's own binary, which runs the
   * script as the Bun it is built on (platform/launcher-command.ts EMBEDDED_RUNTIME_ENV).
   */
  embeddedRuntime?: "bun" | "node";
};

/** One directory found by discovery, before anything is spawned (written by `discovery.ts`). */
export type DiscoveredExtension = {
  /** Manifest name, or the directory name when the manifest is unreadable. */
  name: string;
  dir: string;
  manifestPath: string;
  source: ExtensionSource;
  /** "spawn": valid, enabled, winner — the host starts it. */
  status: "spawn" | "invalid" | "disabled" | "shadowed" | "theme_only" | "untrusted" | "needs_config";
  /** For extensions that declare settings: the values hello_ack carries. */
  settings?: JsonObject;
  error: string | null;
  manifest: Manifest | null;
  theme: Theme | null;
  shadowedBy?: string;
  /** For untrusted project extensions: why (the folder is untrusted, or the extension is new or changed). */
  untrusted?: Unapproved["why"];
  /** Non-fatal problems found while reading (e.g. unknown theme roles). */
  warnings: string[];
};

/** Colour roles a theme maps (docs/decisions.md "Themes"). Unknown roles in a theme file are ignored with a warning. */
export const THEME_ROLES = [
  "text",
  "muted",
  "accent",
  "user",
  "assistant",
  "thinking",
  "tool",
  "success",
  "warning",
  "error",
  "border",
  "panel_title",
  "panel_border",
  "status",
  "selection",
  "code",
] as const;
export type ThemeRole = (typeof THEME_ROLES)[number];
