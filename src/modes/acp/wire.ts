// The ACP v1 messages zot reads and writes, as types, and the decoders that check what the editor
// sends before anything acts on it. A bad field is an "invalid params" error naming the method,
// the field and what it should be.
import type { Json, JsonObject } from "../../json.ts";
import { isObject, kind } from "../../json.ts";
import { ErrorCode, RpcError } from "./jsonrpc.ts";

export const PROTOCOL_VERSION = 1;

export type ClientCapabilities = { readTextFile: boolean; writeTextFile: boolean; terminal: boolean };

export type McpServerSpec =
  | { type: "stdio"; name: string; command: string; args: string[]; env: { name: string; value: string }[] }
  | { type: "http"; name: string; url: string; headers: { name: string; value: string }[] };

/** A prompt's content, as the editor sent it. */
export type PromptBlock =
  | { type: "text"; text: string }
  | { type: "image"; mimeType: string; data: string }
  | { type: "resource_link"; uri: string; name: string }
  | { type: "resource"; uri: string; text: string }
  | { type: "resource_blob"; uri: string; mimeType: string | null; blob: string };

export type ContentBlock = { type: "text"; text: string } | { type: "image"; mimeType: string; data: string };

export type ToolKind = "read" | "edit" | "delete" | "move" | "search" | "execute" | "think" | "fetch" | "switch_mode" | "other";
export type ToolStatus = "pending" | "in_progress" | "completed" | "failed";
export type ToolCallContent =
  | { type: "content"; content: ContentBlock }
  | { type: "diff"; path: string; oldText: string | null; newText: string }
  | { type: "terminal"; terminalId: string };
export type Location = { path: string; line?: number };

export type ToolCallFields = {
  toolCallId: string;
  title?: string;
  kind?: ToolKind;
  status?: ToolStatus;
  content?: ToolCallContent[];
  locations?: Location[];
  rawInput?: Json;
  rawOutput?: Json;
};

export type PlanEntry = { content: string; priority: "high" | "medium" | "low"; status: "pending" | "in_progress" | "completed" };
export type AvailableCommand = { name: string; description: string; input?: { hint: string } };

export type SessionUpdate =
  | { sessionUpdate: "user_message_chunk" | "agent_message_chunk" | "agent_thought_chunk"; content: ContentBlock }
  | ({ sessionUpdate: "tool_call"; title: string } & ToolCallFields)
  | ({ sessionUpdate: "tool_call_update" } & ToolCallFields)
  | { sessionUpdate: "plan"; entries: PlanEntry[] }
  | { sessionUpdate: "available_commands_update"; availableCommands: AvailableCommand[] }
  | { sessionUpdate: "current_mode_update"; currentModeId: string }
  | { sessionUpdate: "usage_update"; used: number; size: number; cost: { amount: number; currency: "USD" } };

export type StopReason = "end_turn" | "max_tokens" | "max_turn_requests" | "refusal" | "cancelled";

export type PermissionOptionKind = "allow_once" | "allow_always" | "reject_once" | "reject_always";
export type PermissionOption = { optionId: string; name: string; kind: PermissionOptionKind };
export type PermissionOutcome = { outcome: "cancelled" } | { outcome: "selected"; optionId: string };

/** Converts what the type checker knows is JSON-shaped into `Json` for the writer. */
export function toJson<T extends object>(value: T): JsonObject {
  return value as unknown as JsonObject;
}

// ---------------------------------------------------------------- decoding

function bad(method: string, message: string): RpcError {
  return new RpcError(ErrorCode.invalidParams, `${method}: ${message}`);
}

export function paramsOf(method: string, params: Json | undefined): JsonObject {
  if (params === undefined || params === null) return {};
  if (!isObject(params)) throw bad(method, `"params" must be an object (got ${kind(params)})`);
  return params;
}

function str(method: string, o: JsonObject, key: string): string {
  const v = o[key];
  if (typeof v !== "string") throw bad(method, `"${key}" must be a string (got ${v === undefined ? "nothing" : kind(v)})`);
  return v;
}

function optStr(method: string, o: JsonObject, key: string): string | null {
  const v = o[key];
  if (v === undefined || v === null) return null;
  if (typeof v !== "string") throw bad(method, `"${key}" must be a string or null (got ${kind(v)})`);
  return v;
}

function absolute(method: string, o: JsonObject, key: string): string {
  const v = str(method, o, key);
  if (!v.startsWith("/")) throw bad(method, `"${key}" must be an absolute path (got "${v}")`);
  return v;
}

export function decodeInitialize(p: JsonObject): { protocolVersion: number; capabilities: ClientCapabilities; client: string | null } {
  const m = "initialize";
  const v = p.protocolVersion;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0)
    throw bad(m, `"protocolVersion" must be a non-negative integer (got ${v === undefined ? "nothing" : JSON.stringify(v)})`);
  // Capabilities the editor does not state, or states oddly, are taken as not offered (the schema's default).
  const caps = isObject(p.clientCapabilities) ? p.clientCapabilities : {};
  const fs = isObject(caps.fs) ? caps.fs : {};
  const info = isObject(p.clientInfo) && typeof p.clientInfo.name === "string" ? p.clientInfo.name : null;
  return {
    protocolVersion: v,
    capabilities: { readTextFile: fs.readTextFile === true, writeTextFile: fs.writeTextFile === true, terminal: caps.terminal === true },
    client: info,
  };
}

function pairs(method: string, where: string, v: Json | undefined): { name: string; value: string }[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw bad(method, `${where} must be an array of {name, value} (got ${kind(v)})`);
  return v.map((e, i) => {
    if (!isObject(e) || typeof e.name !== "string" || typeof e.value !== "string")
      throw bad(method, `${where}[${i}] must be {"name": string, "value": string}`);
    return { name: e.name, value: e.value };
  });
}

function decodeMcpServers(method: string, v: Json | undefined): McpServerSpec[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw bad(method, `"mcpServers" must be an array (got ${kind(v)})`);
  return v.map((s, i): McpServerSpec => {
    const where = `mcpServers[${i}]`;
    if (!isObject(s)) throw bad(method, `${where} must be an object`);
    if (typeof s.name !== "string" || s.name === "") throw bad(method, `${where}.name must be a non-empty string`);
    if (s.type === "sse")
      throw bad(
        method,
        `${where} (${s.name}) uses the SSE transport, which zot does not offer (initialize says mcpCapabilities.sse: false); use stdio or http`,
      );
    if (s.type === "http") {
      if (typeof s.url !== "string" || !/^https?:\/\//.test(s.url)) throw bad(method, `${where}.url must be an http(s) URL`);
      return { type: "http", name: s.name, url: s.url, headers: pairs(method, `${where}.headers`, s.headers) };
    }
    if (s.type !== undefined && s.type !== "stdio")
      throw bad(method, `${where}.type must be "http" or absent for a stdio server (got ${JSON.stringify(s.type)})`);
    if (typeof s.command !== "string" || s.command === "") throw bad(method, `${where}.command must be a non-empty string`);
    const args = s.args ?? [];
    if (!Array.isArray(args) || !args.every((a) => typeof a === "string")) throw bad(method, `${where}.args must be an array of strings`);
    return { type: "stdio", name: s.name, command: s.command, args: args as string[], env: pairs(method, `${where}.env`, s.env) };
  });
}

export function decodeNewSession(p: JsonObject): { cwd: string; mcpServers: McpServerSpec[] } {
  return { cwd: absolute("session/new", p, "cwd"), mcpServers: decodeMcpServers("session/new", p.mcpServers) };
}

/** session/load and session/resume: which session, where, with which servers. */
export function decodeOpenSession(method: string, p: JsonObject): { sessionId: string; cwd: string; mcpServers: McpServerSpec[] } {
  return { sessionId: str(method, p, "sessionId"), cwd: absolute(method, p, "cwd"), mcpServers: decodeMcpServers(method, p.mcpServers) };
}

export function decodeSessionId(method: string, p: JsonObject): string {
  return str(method, p, "sessionId");
}

export function decodeList(p: JsonObject): { cwd: string | null; cursor: string | null } {
  const cwd = optStr("session/list", p, "cwd");
  if (cwd !== null && !cwd.startsWith("/")) throw bad("session/list", `"cwd" must be an absolute path (got "${cwd}")`);
  return { cwd, cursor: optStr("session/list", p, "cursor") };
}

export function decodeSetMode(p: JsonObject): { sessionId: string; modeId: string } {
  return { sessionId: str("session/set_mode", p, "sessionId"), modeId: str("session/set_mode", p, "modeId") };
}

export function decodeAuthenticate(p: JsonObject): string {
  return str("authenticate", p, "methodId");
}

export function decodePrompt(p: JsonObject): { sessionId: string; prompt: PromptBlock[] } {
  const m = "session/prompt";
  const sessionId = str(m, p, "sessionId");
  if (!Array.isArray(p.prompt)) throw bad(m, `"prompt" must be an array of content blocks (got ${p.prompt === undefined ? "nothing" : kind(p.prompt)})`);
  const prompt = p.prompt.map((b, i): PromptBlock => {
    const where = `prompt[${i}]`;
    if (!isObject(b)) throw bad(m, `${where} must be an object`);
    switch (b.type) {
      case "text":
        return { type: "text", text: str(m, b, "text") };
      case "image": {
        const mimeType = str(m, b, "mimeType");
        if (!/^image\/(png|jpeg|gif|webp)$/.test(mimeType))
          throw bad(m, `${where}.mimeType must be image/png, image/jpeg, image/gif or image/webp (got "${mimeType}")`);
        return { type: "image", mimeType, data: str(m, b, "data") };
      }
      case "resource_link":
        return { type: "resource_link", uri: str(m, b, "uri"), name: str(m, b, "name") };
      case "resource": {
        const r = b.resource;
        if (!isObject(r)) throw bad(m, `${where}.resource must be an object`);
        const uri = str(m, r, "uri");
        if (typeof r.text === "string") return { type: "resource", uri, text: r.text };
        if (typeof r.blob === "string") return { type: "resource_blob", uri, mimeType: optStr(m, r, "mimeType"), blob: r.blob };
        throw bad(m, `${where}.resource needs "text" or "blob"`);
      }
      case "audio":
        throw bad(m, `${where} is audio, which zot does not take (initialize says promptCapabilities.audio: false)`);
      default:
        throw bad(m, `${where}.type must be text, image, resource_link or resource (got ${JSON.stringify(b.type ?? null)})`);
    }
  });
  return { sessionId, prompt };
}

/** The editor's answer to session/request_permission. */
export function decodePermissionOutcome(r: Json): PermissionOutcome {
  const o = isObject(r) && isObject(r.outcome) ? r.outcome : null;
  if (o?.outcome === "cancelled") return { outcome: "cancelled" };
  if (o?.outcome === "selected" && typeof o.optionId === "string") return { outcome: "selected", optionId: o.optionId };
  throw new RpcError(
    ErrorCode.invalidParams,
    `The editor's answer to session/request_permission is not {"outcome": {"outcome": "selected", "optionId"} | {"outcome": "cancelled"}}.`,
  );
}

export function decodeReadText(r: Json): string {
  if (isObject(r) && typeof r.content === "string") return r.content;
  throw new RpcError(ErrorCode.invalidParams, `The editor's answer to fs/read_text_file has no string "content".`);
}

export function decodeTerminalId(r: Json): string {
  if (isObject(r) && typeof r.terminalId === "string") return r.terminalId;
  throw new RpcError(ErrorCode.invalidParams, `The editor's answer to terminal/create has no string "terminalId".`);
}

export function decodeTerminalOutput(r: Json): { output: string; truncated: boolean } {
  if (isObject(r) && typeof r.output === "string") return { output: r.output, truncated: r.truncated === true };
  throw new RpcError(ErrorCode.invalidParams, `The editor's answer to terminal/output has no string "output".`);
}

export function decodeExit(r: Json): { exitCode: number | null; signal: string | null } {
  if (!isObject(r)) throw new RpcError(ErrorCode.invalidParams, `The editor's answer to terminal/wait_for_exit is not an object.`);
  return { exitCode: typeof r.exitCode === "number" ? r.exitCode : null, signal: typeof r.signal === "string" ? r.signal : null };
}
