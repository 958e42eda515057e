// Which tools `zot mcp serve` offers: the built-ins the run kept (`--tools`; read, write, edit and
// bash unless told otherwise), and the tools of the loaded extensions and of zot's own MCP servers
// (none with --no-tools), and `zot_agent` when the run has a model; read afresh on every list so reloads and late registrations show.
import type { JsonObject } from "../../protocol.ts";
import type { Tool } from "../../agent/tool.ts";
import type { ActiveTool } from "../../agent/hooks.ts";
import { SEARCH_TOOL } from "../../mcp/defer.ts";
import type { Runtime } from "../runtime.ts";
import { AGENT_DECLARATION, AGENT_TOOL } from "./agent-tool.ts";
import { READ_ONLY_TOOLS } from "../../agent/permission-modes.ts";

/** The built-ins served when `--tools` does not choose: the file tools and the shell. */
export const SERVED_BUILTINS: readonly string[] = ["read", "write", "edit", "bash"];

type ServedTool = { name: string; declaration: JsonObject };

export class ServedTools {
  constructor(
    private readonly runtime: Runtime,
    private readonly extensionTools: boolean,
    /** `zot_agent` is offered: the run has a model to run it with (not the keyless mock). */
    readonly agent: boolean,
  ) {}

  builtins(): readonly Tool[] {
    return this.runtime.builtins;
  }

  /**
   * Every tool of the hooks, deferred ones included: deferral saves the model's context, and an MCP
   * client lists tools for its own model. The deferral search tool is zot's model's, not theirs.
   */
  hookTools(): ActiveTool[] {
    if (!this.extensionTools) return [];
    const builtin = new Set(this.builtins().map((t) => t.name));
    return this.runtime.host.tools().filter((t) => t.name !== SEARCH_TOOL && !builtin.has(t.name) && !(this.agent && t.name === AGENT_TOOL));
  }

  list(): ServedTool[] {
    const out: ServedTool[] = this.builtins().map((t) => ({
      name: t.name,
      declaration: { name: t.name, description: t.description, inputSchema: t.schema, annotations: builtinAnnotations(t.name) },
    }));
    if (this.agent) out.push({ name: AGENT_TOOL, declaration: AGENT_DECLARATION });
    for (const t of this.hookTools()) out.push({ name: t.name, declaration: { name: t.name, description: t.description, inputSchema: t.schema } });
    return out;
  }

  /** Whether `name` is served now; without building the declarations (this runs on every call). */
  has(name: string): boolean {
    if (this.builtins().some((t) => t.name === name) || (this.agent && name === AGENT_TOOL)) return true;
    return this.hookTools().some((t) => t.name === name);
  }
}

/** MCP's hints for a built-in tool (clients never trust them, but they show them). */
function builtinAnnotations(name: string): JsonObject {
  return READ_ONLY_TOOLS.has(name) ? { readOnlyHint: true } : { readOnlyHint: false, destructiveHint: name === "bash" || name === "write" };
}
