// /context: what fills the context window, part by part: the system prompt, the instruction files,
// the tools (zot's own, then each extension's and each MCP server's), and the conversation. Counted
// from what the next request would send, at about four characters a token (providers tokenize
// differently); the last request's measured total is given beside it.
import type { ActiveTool } from "../agent/hooks.ts";
import type { Message } from "../agent/messages.ts";
import type { ToolDeclaration } from "../agent/messages.ts";

export type ContextPartKind = "system" | "instructions" | "tools" | "extension" | "mcp" | "messages";
export type ContextPart = { kind: ContextPartKind; label: string; tokens: number };
export type ContextReport = {
  parts: ContextPart[];
  /** Sum of the parts (estimated). */
  total: number;
  /** Tokens the last request used, as the provider measured them; 0 before the first. */
  measured: number;
  /** The model's context window; 0 when the catalog does not know it. */
  window: number;
};

/** What an image costs a model in tokens, roughly (a 1000×1000 picture on the big providers). */
const IMAGE_TOKENS = 1_500;

export const estimateTokens = (chars: number): number => Math.ceil(chars / 4);

const declared = (t: Pick<ToolDeclaration, "name" | "description" | "schema">): number =>
  t.name.length + t.description.length + JSON.stringify(t.schema).length;

export type ContextInput = {
  /** The system prompt without the instruction files, and each file's text. */
  system: string;
  instructions: readonly { path: string; text: string }[];
  builtins: readonly ToolDeclaration[];
  /** The extension and MCP tools sent with the next request. */
  tools: readonly ActiveTool[];
  messages: readonly Message[];
  measured: number;
  window: number;
};

export function contextReport(i: ContextInput): ContextReport {
  const parts: ContextPart[] = [{ kind: "system", label: "system prompt", tokens: estimateTokens(i.system.length) }];
  for (const f of i.instructions) parts.push({ kind: "instructions", label: f.path, tokens: estimateTokens(f.text.length) });
  parts.push({ kind: "tools", label: `zot's tools (${i.builtins.length})`, tokens: estimateTokens(i.builtins.reduce((n, t) => n + declared(t), 0)) });
  const owners = new Map<string, ActiveTool[]>();
  for (const t of i.tools) owners.set(t.extension, [...(owners.get(t.extension) ?? []), t]);
  for (const [owner, list] of owners) {
    const mcp = owner.startsWith("mcp:");
    const name = mcp ? owner.slice(4) : owner;
    parts.push({
      kind: mcp ? "mcp" : "extension",
      label: `${mcp ? "MCP server" : "extension"} ${name} (${list.length} tool${list.length === 1 ? "" : "s"})`,
      tokens: estimateTokens(list.reduce((n, t) => n + declared(t), 0)),
    });
  }
  let chars = 0;
  let images = 0;
  for (const m of i.messages) {
    for (const p of m.content) {
      if (p.type === "image") images++;
      else if (p.type === "text") chars += p.text.length;
      else if (p.type === "thinking") chars += p.thinking.length;
      else chars += p.name.length + JSON.stringify(p.args).length;
    }
  }
  parts.push({
    kind: "messages",
    label: `messages (${i.messages.length}${images ? `, ${images} image${images === 1 ? "" : "s"}` : ""})`,
    tokens: estimateTokens(chars) + images * IMAGE_TOKENS,
  });
  return { parts, total: parts.reduce((n, p) => n + p.tokens, 0), measured: i.measured, window: i.window };
}
