// What an export shows, whatever its format: the conversation as a list of entries (prompts, answers,
// thinking, tool calls paired with their results), and the session's models and cost. The renderers
// (html.ts, markdown.ts) only lay these out.
import type { ImagePart, Message, TextPart, ToolResultMessage, Usage } from "../messages.ts";
import type { ModelUsage } from "../model-usage.ts";
import { isInterruption } from "../session.ts";
import type { JsonObject } from "../../json.ts";

export type ExportMeta = {
  title: string;
  /** The transcript file, or null when the run keeps none. */
  session: string | null;
  cwd: string;
  /** ISO time of the session's start, or "" when unknown. */
  started: string;
  zotVersion: string;
  /** ISO time of the export. */
  exported: string;
};

export type ExportInput = ExportMeta & { messages: readonly Message[]; models: readonly ModelUsage[]; total: Usage };

/** A file a prompt attached (`@path`): its name and its text, shown collapsed. */
export type Attachment = { path: string; text: string };

export type Entry =
  | { kind: "user"; text: string; images: ImagePart[]; files: Attachment[] }
  | { kind: "note"; text: string }
  | { kind: "assistant"; text: string; provider: string; model: string; error: string | null }
  | { kind: "thinking"; text: string }
  | { kind: "tool"; name: string; summary: string; args: JsonObject; result: { text: string; images: ImagePart[]; isError: boolean } | null };

const FILE = /^<file path="([^"]*)">([\s\S]*)<\/file>([\s\S]*)$/;

/** The conversation in reading order; each tool call carries its result. */
export function entries(messages: readonly Message[]): Entry[] {
  const results = new Map<string, ToolResultMessage>();
  for (const m of messages) if (m.role === "toolResult") results.set(m.toolCallId, m);
  const out: Entry[] = [];
  for (const m of messages) {
    if (m.role === "toolResult") continue;
    if (m.role === "user") {
      if (isInterruption(m)) {
        out.push({ kind: "note", text: "interrupted by the user" });
        continue;
      }
      out.push(userEntry(m.content));
      continue;
    }
    let text = "";
    const flush = (): void => {
      if (text.trim() !== "") out.push({ kind: "assistant", text, provider: m.provider, model: m.model, error: null });
      text = "";
    };
    for (const p of m.content) {
      if (p.type === "text") text += p.text;
      else if (p.type === "thinking") {
        flush();
        if (p.thinking.trim() !== "") out.push({ kind: "thinking", text: p.thinking });
      } else {
        flush();
        const r = results.get(p.id);
        out.push({
          kind: "tool",
          name: p.name,
          summary: callSummary(p.args),
          args: p.args,
          result: r ? { text: partsText(r.content), images: r.content.filter((c): c is ImagePart => c.type === "image"), isError: r.isError } : null,
        });
      }
    }
    flush();
    if (m.stop === "error") out.push({ kind: "assistant", text: "", provider: m.provider, model: m.model, error: m.error ?? "the model call failed" });
  }
  return out;
}

function userEntry(content: readonly (TextPart | ImagePart)[]): Entry {
  const texts: string[] = [];
  const files: Attachment[] = [];
  for (const p of content) {
    if (p.type !== "text") continue;
    const f = FILE.exec(p.text);
    if (f) files.push({ path: f[1]!, text: (f[2]! + f[3]!).replace(/^\n/, "") });
    else texts.push(p.text);
  }
  return { kind: "user", text: texts.join("\n"), images: content.filter((p): p is ImagePart => p.type === "image"), files };
}

function partsText(content: readonly (TextPart | ImagePart)[]): string {
  return content
    .filter((p): p is TextPart => p.type === "text")
    .map((p) => p.text)
    .join("\n");
}

/** One line naming what a call did: its command, path, URL or pattern, else its arguments as JSON. */
export function callSummary(args: JsonObject): string {
  for (const k of ["command", "path", "url", "pattern", "query", "id"]) {
    const v = args[k];
    if (typeof v === "string" && v !== "") return oneLine(v);
  }
  return oneLine(JSON.stringify(args));
}

function oneLine(s: string, max = 120): string {
  const flat = s.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Images a browser shows from a data: URI; anything else is left out rather than trusted. */
const IMAGE_MIMES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function imageDataUri(p: ImagePart): string | null {
  if (!IMAGE_MIMES.has(p.mimeType) || !BASE64.test(p.data)) return null;
  return `data:${p.mimeType};base64,${p.data}`;
}

/** The kind of each line of a tool's output: a unified diff's removed, added and hunk lines are told apart. */
export type LineKind = "plain" | "add" | "del" | "hunk" | "file";

export function diffLines(text: string): { kind: LineKind; text: string }[] {
  const lines = text.split("\n");
  // Only output with a hunk header is a diff: a list of "- item" lines is not.
  const start = lines.findIndex((l) => /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/.test(l));
  return lines.map((l, i) => {
    if (start < 0 || i < start - 2) return { kind: "plain", text: l };
    if (l.startsWith("--- ") || l.startsWith("+++ ")) return { kind: "file", text: l };
    if (i < start) return { kind: "plain", text: l };
    if (l.startsWith("@@")) return { kind: "hunk", text: l };
    if (l.startsWith("+")) return { kind: "add", text: l };
    if (l.startsWith("-")) return { kind: "del", text: l };
    return { kind: "plain", text: l };
  });
}

/** "$0.0123", or "-" when no price was known. */
export function money(usd: number): string {
  return usd > 0 ? `$${usd.toFixed(4)}` : "-";
}

export function tokens(n: number): string {
  return n.toLocaleString("en-US");
}
