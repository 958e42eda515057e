// Kimi's rules for tools on its Chat Completions routes: function names must match
// ^[a-zA-Z_][a-zA-Z0-9-_]{0,127}$, and K3's dynamic tool loading declares deferred tools inside the
// conversation, as a `{"role":"system","tools":[…]}` message with no `content` key at all.
import type { JsonObject, Message, ToolDeclaration } from "../messages.ts";
import type { ToolSpec } from "../provider.ts";

const MAX_NAME = 128;

function validChar(c: number, first: boolean): boolean {
  const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
  return first ? letter : letter || (c >= 48 && c <= 57) || c === 45;
}

/** The name under Kimi's rule: invalid characters become `_`, a bad first character gets a `_` before it. */
function kimiName(name: string): string {
  let out = "";
  for (let i = 0; i < name.length; i++) out += validChar(name.charCodeAt(i), false) ? name[i] : "_";
  if (out === "" || !validChar(out.charCodeAt(0), true)) out = `_${out}`;
  return out.slice(0, MAX_NAME);
}

/**
 * zot's tool names ↔ the names Kimi accepts, for one request. Valid names are kept; others are
 * rewritten, with a numeric suffix when two would collide, and calls are mapped back on the way in.
 */
export class ToolNames {
  private readonly toWire = new Map<string, string>();
  private readonly fromWire = new Map<string, string>();

  constructor(names: Iterable<string>) {
    const all = [...new Set(names)];
    // Valid names first, so a rewritten name can never take one a tool already has.
    for (const n of all) if (kimiName(n) === n) this.bind(n, n);
    for (const n of all) {
      if (this.toWire.has(n)) continue;
      const base = kimiName(n);
      let wire = base;
      for (let i = 2; this.fromWire.has(wire); i++) wire = `${base.slice(0, MAX_NAME - String(i).length - 1)}_${i}`;
      this.bind(n, wire);
    }
  }

  private bind(name: string, wire: string): void {
    this.toWire.set(name, wire);
    this.fromWire.set(wire, name);
  }

  wire(name: string): string {
    return this.toWire.get(name) ?? kimiName(name);
  }

  local(wire: string): string {
    return this.fromWire.get(wire) ?? wire;
  }
}

/** Every tool name a request mentions: its tools, the calls in its history and the tools declared there. */
export function namesIn(tools: readonly ToolSpec[], messages: readonly Message[]): string[] {
  const names = tools.map((t) => t.name);
  for (const m of messages) {
    if (m.role === "assistant") for (const p of m.content) if (p.type === "toolCall") names.push(p.name);
    if (m.role === "toolResult") for (const t of m.activatedTools ?? []) names.push(t.name);
  }
  return names;
}

export function functionTool(t: ToolDeclaration, names?: ToolNames): JsonObject {
  return { type: "function", function: { name: names ? names.wire(t.name) : t.name, description: t.description, parameters: t.schema } };
}

/** The dynamic declaration message: exactly `role` and `tools`, as Kimi's schema demands. */
export function declarationMessage(tools: readonly ToolDeclaration[], names: ToolNames): JsonObject {
  return { role: "system", tools: tools.map((t) => functionTool(t, names)) };
}

/**
 * The top-level tools when deferred tools are declared in the conversation: everything not
 * deferred, plus any deferred tool no declaration in the history covers (after a compaction, say),
 * so every active tool stays callable.
 */
export function topLevelTools(tools: readonly ToolSpec[], messages: readonly Message[]): ToolSpec[] {
  const declared = new Set<string>();
  for (const m of messages) if (m.role === "toolResult") for (const t of m.activatedTools ?? []) declared.add(t.name);
  return tools.filter((t) => !t.deferred || !declared.has(t.name));
}
