// The names a user picks from on the command line, in config.json and in models.json: providers, wire formats,
// reasoning effort levels and permission modes. A leaf module (no imports), so parsing argv does not load the catalog.

export const PROVIDERS = ["anthropic", "openai", "kimi", "kimi-code", "ollama", "mock"] as const;
export type ProviderName = (typeof PROVIDERS)[number];

export function isProviderName(v: string): v is ProviderName {
  return (PROVIDERS as readonly string[]).includes(v);
}

/**
 * How requests are encoded: Anthropic Messages, OpenAI Chat Completions or the OpenAI Responses
 * API. `--wire` and models.json may choose between the two OpenAI wires; Anthropic's is implied by
 * the provider.
 */
export const WIRES = ["anthropic", "chat", "responses"] as const;
export type Wire = (typeof WIRES)[number];
/** The wires `--wire` and a models.json `wire` can choose. */
export const CHOOSABLE_WIRES = ["chat", "responses"] as const;
export type ChoosableWire = (typeof CHOOSABLE_WIRES)[number];

export function isChoosableWire(v: string): v is ChoosableWire {
  return (CHOOSABLE_WIRES as readonly string[]).includes(v);
}

/** `--reasoning` levels, lowest first; each model accepts a subset (see the catalog). */
export const EFFORTS = ["low", "medium", "high", "xhigh", "max"] as const;
export type Effort = (typeof EFFORTS)[number];

export function isEffort(v: string): v is Effort {
  return (EFFORTS as readonly string[]).includes(v);
}

/** "low, medium or high" */
export function orList(items: readonly string[]): string {
  return items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}

/**
 * `--permission-mode` and config.json's `"permissionMode"`, in the shift+tab cycle order. ask: reads
 * run, the rest asks; auto-edit: reads and edits inside the project run, the rest asks; yolo: all
 * run; plan: only reads run.
 */
export const PERMISSION_MODES = ["ask", "auto-edit", "yolo", "plan"] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

export function isPermissionMode(v: string): v is PermissionMode {
  return (PERMISSION_MODES as readonly string[]).includes(v);
}
