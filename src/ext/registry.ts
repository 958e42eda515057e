// Who owns a command or tool name. The answer depends only on load order, never on when frames
// arrived, so every run resolves the same way:
//   1. built-in names win (commands compared case-insensitively, tools exactly);
//   2. between extensions, the one earlier in discovery order wins — even if it registers the name
//      late (a late registration can therefore take a name over from a later extension);
//   3. within one extension, its own first registration of a name wins.
// Extensions that are not running take part in nothing, so a name frees up when its owner exits.
import { BUILTIN_COMMANDS, BUILTIN_TOOLS, NAME_PATTERN } from "./name-rules.ts";
import { isObject, kind } from "../json.ts";
import type { JsonObject, RegisterAgentFrame, RegisterCommandFrame, RegisterToolFrame } from "../protocol.ts";
import { schemaLimitProblem } from "./schema-limits.ts";
import type { ActiveCommand } from "./types.ts";

export type CommandReg = { name: string; description: string };
export type ToolReg = { name: string; description: string; schema: JsonObject; deferred: boolean };
/** An agent as registered; the runtime checks the rest of it beside the agents from files (agent/agents.ts). */
export type AgentReg = Omit<RegisterAgentFrame, "type">;
export type ExtensionRegs = { extension: string; commands: CommandReg[]; tools: ToolReg[] };

export type OwnedTool = ToolReg & { extension: string };

export type Resolution = {
  /** Keyed by lower-cased name. */
  commands: Map<string, ActiveCommand>;
  tools: Map<string, OwnedTool>;
  /** Lost registrations per extension, as sentences. */
  conflicts: Map<string, string[]>;
};

const builtinCommands = new Set<string>(BUILTIN_COMMANDS.map((c) => c.name));
const builtinTools = new Set<string>(BUILTIN_TOOLS);

/** A warning when the command must be rejected, else null. */
export function checkCommand(frame: RegisterCommandFrame): string | null {
  if (!NAME_PATTERN.test(frame.name)) return `command name ${JSON.stringify(frame.name)} rejected: names must match ${NAME_PATTERN.source}`;
  return null;
}

/** A warning when the agent must be rejected, else null. */
export function checkAgent(frame: RegisterAgentFrame): string | null {
  if (!NAME_PATTERN.test(frame.name)) return `agent name ${JSON.stringify(frame.name)} rejected: names must match ${NAME_PATTERN.source}`;
  if (frame.description.trim() === "") return `agent "${frame.name}" rejected: its description is empty (the model picks agents by it)`;
  if (frame.prompt.trim() === "") return `agent "${frame.name}" rejected: its prompt (the agent's system prompt) is empty`;
  return null;
}

/**
 * Validates the name and normalises the schema (docs/decisions.md "Tool schemas"); `extension` names the
 * sender in the warning for a schema past the limits (schema-limits.ts).
 */
export function checkTool(frame: RegisterToolFrame, extension: string): { ok: true; tool: ToolReg; warning: string | null } | { ok: false; warning: string } {
  if (!NAME_PATTERN.test(frame.name))
    return { ok: false, warning: `tool name ${JSON.stringify(frame.name)} rejected: names must match ${NAME_PATTERN.source}` };
  const tool = (schema: JsonObject, warning: string | null) => ({
    ok: true as const,
    tool: { name: frame.name, description: frame.description, schema, deferred: frame.deferred },
    warning,
  });
  const s = frame.schema;
  if (s === undefined || s === null) return tool({ type: "object", properties: {} }, `tool "${frame.name}" has no schema; using an empty object schema`);
  if (!isObject(s)) return { ok: false, warning: `tool "${frame.name}" rejected: schema must be a JSON object, got ${kind(s)}` };
  const tooBig = schemaLimitProblem(s);
  if (tooBig) return { ok: false, warning: `tool "${frame.name}" of extension "${extension}" rejected: its schema ${tooBig}; simplify the schema` };
  if (s.type === undefined) return tool({ type: "object", ...s }, null);
  if (s.type !== "object") return { ok: false, warning: `tool "${frame.name}" rejected: schema type must be "object", got ${JSON.stringify(s.type)}` };
  return tool(s, null);
}

/** `exts` must be in discovery order and hold only running extensions. */
export function resolve(exts: ExtensionRegs[]): Resolution {
  const commands = new Map<string, ActiveCommand>();
  const tools = new Map<string, OwnedTool>();
  const conflicts = new Map<string, string[]>();
  const lose = (ext: string, why: string) => {
    let list = conflicts.get(ext);
    if (!list) conflicts.set(ext, (list = []));
    list.push(why);
  };
  for (const ext of exts) {
    for (const c of ext.commands) {
      const key = c.name.toLowerCase();
      const owner = commands.get(key);
      if (builtinCommands.has(key)) lose(ext.extension, `command "/${c.name}" is shadowed by the built-in command "/${key}"`);
      else if (!owner) commands.set(key, { name: c.name, description: c.description, extension: ext.extension });
      else if (owner.extension === ext.extension)
        lose(ext.extension, `command "/${c.name}" is registered again; its first registration "/${owner.name}" stays active`);
      else lose(ext.extension, `command "/${c.name}" is shadowed by "/${owner.name}" from extension "${owner.extension}" (loaded earlier)`);
    }
    for (const t of ext.tools) {
      const owner = tools.get(t.name);
      if (builtinTools.has(t.name)) lose(ext.extension, `tool "${t.name}" is shadowed by the built-in tool "${t.name}"`);
      else if (!owner) tools.set(t.name, { ...t, extension: ext.extension });
      else if (owner.extension === ext.extension) lose(ext.extension, `tool "${t.name}" is registered again; its first registration stays active`);
      else lose(ext.extension, `tool "${t.name}" is shadowed by the tool from extension "${owner.extension}" (loaded earlier)`);
    }
  }
  return { commands, tools, conflicts };
}
