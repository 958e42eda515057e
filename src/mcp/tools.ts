// MCP tools as zot tools: the `mcp__<server>__<tool>` names, the schema checks, and `tools/call`
// results mapped to zot content blocks.
import { isObject } from "../json.ts";
import type { ContentBlock, Json, JsonObject } from "../protocol.ts";
import { schemaLimitProblem } from "../ext/schema-limits.ts";

/** A server's tool as zot offers it. */
export type McpTool = {
  /** `mcp__<server>__<tool>`, made safe for every provider's name rules. */
  name: string;
  /** The server's own name for it, sent in `tools/call`. */
  remote: string;
  description: string;
  schema: JsonObject;
  annotations: JsonObject;
};

/** Providers accept 1–64 characters from this set in a tool name. */
const SAFE = /[^A-Za-z0-9_-]/g;
const MAX_NAME = 64;
/** MCP's own rule for tool names (1–128 of A-Z a-z 0-9 _ - .). */
const MCP_TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
export const MCP_PREFIX = "mcp__";

/** `mcp__<server>__<name>`; over 64 characters it is cut and ends in a short hash of the full name, so it stays unique. */
export function exposedName(server: string, name: string): string {
  const full = `${MCP_PREFIX}${server.replace(SAFE, "_")}__${name.replace(SAFE, "_")}`;
  if (full.length <= MAX_NAME) return full;
  const hash = Bun.hash(`${server}\u0000${name}`).toString(16).padStart(16, "0").slice(0, 8);
  return `${full.slice(0, MAX_NAME - 9)}_${hash}`;
}

/** The attribution zot shows and records for a server's tool calls. */
export function attribution(server: string): string {
  return `mcp:${server}`;
}

/** Checks one entry of `tools/list`; a rejected tool comes back as a warning naming it. */
export function checkMcpTool(server: string, raw: JsonObject): { ok: true; tool: McpTool } | { ok: false; warning: string } {
  const remote = raw.name;
  if (typeof remote !== "string" || !MCP_TOOL_NAME.test(remote))
    return { ok: false, warning: `tool name ${JSON.stringify(remote)} rejected: MCP tool names are 1–128 characters from A-Z a-z 0-9 _ - .` };
  let schema: JsonObject;
  const s = raw.inputSchema;
  if (s === undefined || s === null) schema = { type: "object", properties: {} };
  else if (!isObject(s)) return { ok: false, warning: `tool "${remote}" rejected: its inputSchema is not a JSON object` };
  else if (s.type !== undefined && s.type !== "object")
    return { ok: false, warning: `tool "${remote}" rejected: its inputSchema type must be "object", got ${JSON.stringify(s.type)}` };
  else schema = s.type === undefined ? { type: "object", ...s } : s;
  const problem = schemaLimitProblem(schema);
  if (problem) return { ok: false, warning: `tool "${remote}" rejected: its inputSchema ${problem}` };
  const header = headerProblem(schema);
  // SEP-2243: a call of this tool would carry a header no server can accept, so it is not offered at all.
  if (header) return { ok: false, warning: `tool "${remote}" of MCP server "${server}" is not offered: ${header}` };
  const title = typeof raw.title === "string" ? raw.title : "";
  const description = typeof raw.description === "string" ? raw.description : title;
  const annotations = isObject(raw.annotations) ? raw.annotations : {};
  return { ok: true, tool: { name: exposedName(server, remote), remote, description, schema, annotations } };
}

/** RFC 9110 `token`: what an HTTP field name may consist of (so no space, colon, control or non-ASCII character). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** SEP-2243: only these parameter types may be mirrored into an `Mcp-Param-*` header. */
const HEADER_TYPES: readonly string[] = ["string", "integer", "boolean"];

/**
 * The first broken `x-mcp-header` annotation of a tool's schema (in `properties`, at any depth, as
 * `paramHeaders` reads them), as a clause: an empty or non-token name, a parameter whose type is
 * not string, integer or boolean, or a name used twice in any case.
 */
export function headerProblem(schema: JsonObject): string | null {
  const seen = new Map<string, string>();
  const walk = (s: JsonObject, path: string): string | null => {
    const props = isObject(s.properties) ? s.properties : {};
    for (const [key, sub] of Object.entries(props)) {
      if (!isObject(sub)) continue;
      const where = path ? `${path}.${key}` : key;
      const h = sub["x-mcp-header"];
      if (h !== undefined) {
        if (typeof h !== "string" || h === "") return `the x-mcp-header of its parameter "${where}" is empty or not a string`;
        if (!HEADER_NAME.test(h))
          return `the x-mcp-header ${JSON.stringify(h)} of its parameter "${where}" has characters an HTTP header name cannot have (only letters, digits and !#$%&'*+-.^_\`|~)`;
        const types = Array.isArray(sub.type) ? sub.type.filter((t) => t !== "null") : [sub.type];
        if (types.length === 0 || !types.every((t) => typeof t === "string" && HEADER_TYPES.includes(t)))
          return `the x-mcp-header ${JSON.stringify(h)} is on its parameter "${where}" of type ${JSON.stringify(sub.type ?? null)}; only string, integer and boolean parameters can be headers`;
        const other = seen.get(h.toLowerCase());
        if (other !== undefined)
          return `the x-mcp-header ${JSON.stringify(h)} of its parameter "${where}" repeats the one of "${other}" (header names ignore case)`;
        seen.set(h.toLowerCase(), where);
      }
      const nested = walk(sub, where);
      if (nested) return nested;
    }
    return null;
  };
  return walk(schema, "");
}

export type MappedResult = { content: ContentBlock[]; isError: boolean; structured?: Json };

/** A `tools/call` result as zot content: text and images as they are, everything else as text naming what it was. */
export function mapToolResult(result: JsonObject): MappedResult {
  const content: ContentBlock[] = [];
  const blocks = Array.isArray(result.content) ? result.content : [];
  for (const b of blocks) if (isObject(b)) content.push(...mapBlock(b));
  const structured = result.structuredContent;
  if (content.length === 0 && structured !== undefined) content.push({ type: "text", text: JSON.stringify(structured) });
  const mapped: MappedResult = { content, isError: result.isError === true };
  if (structured !== undefined) mapped.structured = structured;
  return mapped;
}

function mapBlock(b: JsonObject): ContentBlock[] {
  switch (b.type) {
    case "text":
      return [{ type: "text", text: String(b.text ?? "") }];
    case "image":
      if (typeof b.data === "string" && typeof b.mimeType === "string") return [{ type: "image", mime_type: b.mimeType, data: b.data }];
      return [{ type: "text", text: "[image without data or mimeType]" }];
    case "audio": {
      const size = typeof b.data === "string" ? Math.floor((b.data.length * 3) / 4) : 0;
      return [{ type: "text", text: `[audio ${String(b.mimeType ?? "")}, ${size} bytes: zot cannot pass audio to the model]` }];
    }
    case "resource_link": {
      const name = typeof b.name === "string" ? b.name : String(b.uri ?? "");
      const about = typeof b.description === "string" ? ` ${b.description}` : "";
      return [{ type: "text", text: `[resource link: ${name} <${String(b.uri ?? "")}>]${about}` }];
    }
    case "resource":
      return isObject(b.resource) ? [resourceText(b.resource)] : [{ type: "text", text: "[embedded resource without contents]" }];
    default:
      return [{ type: "text", text: `[unsupported content type ${JSON.stringify(b.type)}]` }];
  }
}

/** One resource's contents (embedded in a result or read with `resources/read`) as text with its URI. */
export function resourceText(r: JsonObject): ContentBlock {
  const uri = String(r.uri ?? "");
  if (typeof r.text === "string") return { type: "text", text: `[resource ${uri}]\n${r.text}` };
  if (typeof r.blob === "string" && typeof r.mimeType === "string" && r.mimeType.startsWith("image/"))
    return { type: "image", mime_type: r.mimeType, data: r.blob };
  const size = typeof r.blob === "string" ? Math.floor((r.blob.length * 3) / 4) : 0;
  return { type: "text", text: `[resource ${uri}: ${String(r.mimeType ?? "binary")}, ${size} bytes not shown]` };
}

/** The one-line summary of a tool's annotations for a confirmation dialog (shown, never trusted). */
export function annotationNote(a: JsonObject): string {
  const hints = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"].filter((k) => a[k] === true).map((k) => k.replace("Hint", ""));
  return hints.length ? ` (server says: ${hints.join(", ")})` : "";
}
