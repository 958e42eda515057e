// How a zot tool call looks in the editor: its ACP kind, a title, the files it touches (so the
// editor can follow along), and its content — the diff of a write or an edit, a command's output.
import { readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { Json, JsonObject } from "../../json.ts";
import { isObject } from "../../json.ts";
import type { ImagePart, TextPart } from "../../agent/messages.ts";
import type { ContentBlock, Location, PlanEntry, ToolCallContent, ToolKind } from "./wire.ts";
import type { TodoItem } from "../../runtime/api.ts";

const KINDS: Record<string, ToolKind> = {
  read: "read",
  write: "edit",
  edit: "edit",
  bash: "execute",
  bash_output: "execute",
  bash_kill: "execute",
  todo: "think",
  web_fetch: "fetch",
  skill: "read",
};

/** Extension and MCP tools are "other": zot cannot know what they do. */
export function toolKind(name: string, extension: boolean): ToolKind {
  return extension ? "other" : (KINDS[name] ?? "other");
}

function text(args: JsonObject, key: string): string | null {
  const v = args[key];
  return typeof v === "string" && v !== "" ? v : null;
}

export function toolTitle(name: string, args: JsonObject): string {
  const path = text(args, "path");
  switch (name) {
    case "read":
      return path ? `Read ${path}` : "Read";
    case "write":
      return path ? `Write ${path}` : "Write";
    case "edit":
      return path ? `Edit ${path}` : "Edit";
    case "bash": {
      const command = text(args, "command");
      return command ? `\`${command.length > 200 ? `${command.slice(0, 200)}…` : command}\`` : "Run a command";
    }
    case "bash_output":
      return "Read a background command's output";
    case "bash_kill":
      return "Stop a background command";
    case "todo":
      return "Update the todo list";
    case "web_fetch":
      return `Fetch ${text(args, "url") ?? "a web page"}`;
    case "skill":
      return `Load skill ${text(args, "name") ?? ""}`.trim();
    default:
      return name;
  }
}

function absolute(cwd: string, path: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}

function fileText(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** 1-based line of `needle` in `haystack`, or undefined when it is not there. */
function lineOf(haystack: string | null, needle: string): number | undefined {
  if (haystack === null || needle === "") return undefined;
  const at = haystack.indexOf(needle);
  return at < 0 ? undefined : haystack.slice(0, at).split("\n").length;
}

/** The files a built-in call touches, with the line where that is known (an edit's first change, a read's offset). */
export function toolLocations(name: string, args: JsonObject, cwd: string): Location[] {
  const path = text(args, "path");
  if (!path || !(name === "read" || name === "write" || name === "edit")) return [];
  const abs = absolute(cwd, path);
  if (name === "read") {
    const offset = args.offset;
    return [typeof offset === "number" && Number.isInteger(offset) && offset > 0 ? { path: abs, line: offset } : { path: abs }];
  }
  if (name === "edit") {
    const first = Array.isArray(args.edits) ? args.edits[0] : undefined;
    const line = isObject(first) && typeof first.oldText === "string" ? lineOf(fileText(abs), first.oldText) : undefined;
    return [line === undefined ? { path: abs } : { path: abs, line }];
  }
  return [{ path: abs }];
}

/**
 * The diff the editor shows before and after a write or an edit: a write's whole file (null before
 * for a new one), an edit's replaced passages. Read before the call runs.
 */
export function toolDiffs(name: string, args: JsonObject, cwd: string): ToolCallContent[] {
  const path = text(args, "path");
  if (!path) return [];
  const abs = absolute(cwd, path);
  if (name === "write" && typeof args.content === "string") return [{ type: "diff", path: abs, oldText: fileText(abs), newText: args.content }];
  if (name === "edit" && Array.isArray(args.edits))
    return args.edits.flatMap((e: Json): ToolCallContent[] =>
      isObject(e) && typeof e.oldText === "string" && typeof e.newText === "string"
        ? [{ type: "diff", path: abs, oldText: e.oldText, newText: e.newText }]
        : [],
    );
  return [];
}

export function contentBlock(part: TextPart | ImagePart): ContentBlock {
  return part.type === "text" ? { type: "text", text: part.text } : { type: "image", mimeType: part.mimeType, data: part.data };
}

/** A command's output as the editor shows it: fenced, so it keeps its layout. */
export function terminalText(output: string): ToolCallContent {
  const fence = output.includes("```") ? "````" : "```";
  return { type: "content", content: { type: "text", text: `${fence}\n${output.replace(/\n$/, "")}\n${fence}` } };
}

export function planEntries(items: readonly TodoItem[]): PlanEntry[] {
  return items.map((t) => ({ content: t.text, priority: "medium", status: t.status === "done" ? "completed" : t.status }));
}
