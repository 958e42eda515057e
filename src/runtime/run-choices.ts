// What the user chose for a run (the command line's flags), in one place: the CLI's arguments
// extend it, createRuntime takes it, and the runtime keeps the choices it applies as given.
import type { TrustMode } from "../ext/trust.ts";
import type { ProviderName } from "../agent/catalog.ts";
import type { ChoosableWire, Effort, PermissionMode } from "../agent/choices.ts";
import type { SandboxMode } from "../agent/sandbox/policy.ts";

/** The flags' choices, before config.json, the environment and the catalog fill in the rest. */
export type RunChoices = {
  provider?: ProviderName | undefined;
  model?: string | undefined;
  apiKey?: string | undefined;
  baseUrl?: string | undefined;
  systemPrompt?: string | undefined;
  appendSystemPrompt: string[];
  reasoning?: Effort | undefined;
  wire?: ChoosableWire | undefined;
  maxSteps: number;
  noTools: boolean;
  /** --no-skill: the skill tool is not offered, so no skills reach the system prompt. */
  noSkill?: boolean | undefined;
  /** `--tools a,b`: the built-in tools to keep; undefined keeps all. */
  tools?: string[] | undefined;
  ext: string[];
  noExt: boolean;
  /** How project extensions are gated by workspace trust (default "store"). */
  trust?: TrustMode | undefined;
  /** `--permission-mode` (or `--no-yolo`, which is `ask`); undefined lets the session, config.json or the default decide. */
  permissionMode?: PermissionMode | undefined;
  /** `--sandbox MODE`; undefined: config.json's, else workspace-write. */
  sandbox?: SandboxMode | undefined;
  /** `--add-dir DIR` (repeatable): more directories sandboxed commands may write. */
  addDirs?: string[] | undefined;
  /** `--sandbox-network`: sandboxed commands may use the network. */
  sandboxNetwork?: boolean | undefined;
  continue: boolean;
  session?: string | undefined;
  noSession: boolean;
  mockScript?: string | undefined;
  extTrace?: string | undefined;
};
