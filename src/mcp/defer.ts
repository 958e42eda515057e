// Deferral of servers with many tools: when a server's tool definitions would take more than a share
// of the context window, its tools are registered deferred and the model gets one search tool that
// lists them and activates the chosen ones, as an extension's loader tool does with `activate_tools`.
import type { JsonObject } from "../protocol.ts";
import type { McpTool } from "./tools.ts";

export const SEARCH_TOOL = "mcp_tool_search";
/** Used when the model's context window is unknown. */
export const FALLBACK_WINDOW = 128_000;
const MAX_HITS = 25;

export const SEARCH_DESCRIPTION =
  "Find and load tools of MCP servers that are not loaded yet (they are many, so they are offered on request). " +
  'Call it with a "query" (words from the tool\'s name or purpose; empty lists all) to see matching tools, and with ' +
  '"activate" (exact tool names) to load them: they can be called from your next step on.';

export const SEARCH_SCHEMA: JsonObject = {
  type: "object",
  properties: {
    query: { type: "string", description: "words to look for in tool names and descriptions" },
    activate: { type: "array", items: { type: "string" }, description: "exact names of tools to load" },
  },
};

/** Rough token cost of offering these tools: about four characters per token of their JSON. */
export function toolTokens(tools: readonly McpTool[]): number {
  let chars = 0;
  for (const t of tools) chars += t.name.length + t.description.length + JSON.stringify(t.schema).length + 20;
  return Math.ceil(chars / 4);
}

export function shouldDefer(tools: readonly McpTool[], window: number, share: number): boolean {
  return toolTokens(tools) > (window > 0 ? window : FALLBACK_WINDOW) * share;
}

export type Candidate = { name: string; description: string; server: string; active: boolean };

/** The listing the search tool returns: best matches first (every query word found counts). */
export function searchText(candidates: readonly Candidate[], query: string, activated: readonly string[], unknown: readonly string[]): string {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== "");
  const scored = candidates
    .map((c) => {
      const hay = `${c.name} ${c.description}`.toLowerCase();
      return { c, score: words.length === 0 ? 1 : words.filter((w) => hay.includes(w)).length };
    })
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || a.c.name.localeCompare(b.c.name));
  const out: string[] = [];
  if (activated.length) out.push(`Loaded: ${activated.join(", ")}. They can be called from the next step on.`);
  if (unknown.length) out.push(`Not found (check the names): ${unknown.join(", ")}.`);
  if (query !== "" || activated.length === 0) {
    if (scored.length === 0) out.push(`No deferred MCP tool matches ${JSON.stringify(query)}.`);
    else {
      out.push(
        `${scored.length} matching tool${scored.length === 1 ? "" : "s"}${scored.length > MAX_HITS ? ` (first ${MAX_HITS} shown; refine the query)` : ""}:`,
      );
      for (const { c } of scored.slice(0, MAX_HITS)) out.push(`- ${c.name}${c.active ? " (loaded)" : ""}: ${firstLine(c.description)}`);
    }
  }
  return out.join("\n");
}

function firstLine(text: string): string {
  const line = (text.split("\n", 1)[0] ?? "").trim();
  return line.length > 160 ? `${line.slice(0, 159)}…` : line || "(no description)";
}
