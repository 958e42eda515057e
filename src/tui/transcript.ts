// The chat transcript: user prompts, streamed assistant Markdown, thinking, tool blocks and info
// lines. Each entry caches its rendered lines per width, so a streamed delta re-renders only the
// entry it touched and the frame costs O(visible lines), not O(transcript).
import type { ContentBlock, Json } from "../ext/protocol.ts";
import { sanitize } from "./ansi.ts";
import { renderMarkdown, StreamingMarkdown } from "./markdown.ts";
import { formatDuration, spinnerFrame } from "./spinner.ts";
import type { Style } from "./theme.ts";
import { truncate, wrap } from "./wrap.ts";

export const COLLAPSED_TOOL_LINES = 12;

export type InfoLevel = "info" | "success" | "warn" | "error";

type Base = { version: number; cache?: { key: string; lines: string[] } };
export type UserEntry = Base & { kind: "user"; text: string };
/** `md` keeps the settled Markdown blocks of a reply while it streams, so a delta re-renders only the tail. */
export type AssistantEntry = Base & { kind: "assistant"; text: string; open: boolean; md?: StreamingMarkdown };
export type ThinkingEntry = Base & { kind: "thinking"; text: string; open: boolean };
export type ToolEntry = Base & {
  kind: "tool";
  id: string;
  name: string;
  args: string;
  extension?: string;
  status: "running" | "ok" | "error";
  startedAt: number;
  durationMs?: number;
  output: string;
};
/** `tag` lets a group of lines be removed later (extension load errors). */
export type InfoEntry = Base & { kind: "info"; text: string; level: InfoLevel; tag?: string };
export type Entry = UserEntry | AssistantEntry | ThinkingEntry | ToolEntry | InfoEntry;

export class Transcript {
  private entries: Entry[] = [];
  /** ctrl+o: show tool output and thinking in full. */
  expanded = false;
  version = 0;

  get list(): readonly Entry[] {
    return this.entries;
  }

  clear(): void {
    this.entries = [];
    this.version++;
  }

  addUser(text: string): void {
    this.push({ kind: "user", text, version: 0 });
  }

  addInfo(text: string, level: InfoLevel, tag?: string): void {
    this.push({ kind: "info", text, level, tag, version: 0 });
  }

  removeTagged(match: (tag: string) => boolean): void {
    const kept = this.entries.filter((e) => e.kind !== "info" || e.tag === undefined || !match(e.tag));
    if (kept.length === this.entries.length) return;
    this.entries = kept;
    this.version++;
  }

  appendAssistant(delta: string): void {
    const e = this.openEntry("assistant");
    e.text += delta;
    this.touch(e);
  }

  /** The final user-visible text (after interception) replaces what was streamed. */
  finishAssistant(text: string): void {
    const last = this.entries[this.entries.length - 1];
    const e = last && last.kind === "assistant" ? last : this.openEntry("assistant");
    e.text = text;
    e.open = false;
    this.touch(e);
  }

  appendThinking(delta: string): void {
    const e = this.openEntry("thinking");
    e.text += delta;
    this.touch(e);
  }

  /** Closes streamed entries so the next delta starts a new block. */
  closeStreams(): void {
    for (const e of this.entries.slice(-3)) {
      if ((e.kind === "assistant" || e.kind === "thinking") && e.open) {
        e.open = false;
        this.touch(e);
      }
    }
  }

  toolStart(id: string, name: string, now: number): void {
    this.closeStreams();
    if (this.tool(id)) return;
    this.push({ kind: "tool", id, name, args: "", status: "running", startedAt: now, output: "", version: 0 });
  }

  toolCall(id: string, name: string, args: Json, extension: string | undefined, now: number): void {
    this.toolStart(id, name, now);
    const e = this.tool(id)!;
    e.name = name;
    e.args = argsPreview(args);
    e.extension = extension;
    this.touch(e);
  }

  toolProgress(id: string, text: string): void {
    const e = this.tool(id);
    if (!e || e.status !== "running") return;
    e.output += text;
    this.touch(e);
  }

  toolResult(id: string, name: string, content: ContentBlock[], isError: boolean, durationMs: number, extension: string | undefined, now: number): void {
    this.toolStart(id, name, now);
    const e = this.tool(id)!;
    e.status = isError ? "error" : "ok";
    e.durationMs = durationMs;
    if (extension) e.extension = extension;
    e.output = content.map((b) => (b.type === "text" ? b.text : `[image ${b.mime_type}]`)).join("\n");
    this.touch(e);
  }

  /** Running tools left behind by an aborted turn are marked as failed. */
  abortRunning(now: number): void {
    for (const e of this.entries) {
      if (e.kind === "tool" && e.status === "running") {
        e.status = "error";
        e.durationMs = now - e.startedAt;
        e.output += e.output ? "\n[cancelled]" : "[cancelled]";
        this.touch(e);
      }
    }
    this.closeStreams();
  }

  get hasRunningTool(): boolean {
    return this.entries.some((e) => e.kind === "tool" && e.status === "running");
  }

  toggleExpanded(): void {
    this.expanded = !this.expanded;
    this.version++;
  }

  /** Every entry's lines, separated by blank lines, measured without building the full array. */
  totalLines(width: number, style: Style, now: number): number {
    let n = 0;
    for (const e of this.entries) n += this.linesOf(e, width, style, now).length + 1;
    return n;
  }

  /**
   * The `height` lines ending `offset` lines above the bottom. Walks entries from the end, so the
   * cost follows the scroll position, not the transcript length.
   */
  window(width: number, style: Style, now: number, height: number, offset: number): string[] {
    const need = height + offset;
    const chunks: string[][] = [];
    let have = 0;
    for (let i = this.entries.length - 1; i >= 0 && have < need; i--) {
      const lines = this.linesOf(this.entries[i]!, width, style, now);
      chunks.push([""], lines);
      have += lines.length + 1;
    }
    const all: string[] = [];
    for (let i = chunks.length - 1; i >= 0; i--) all.push(...chunks[i]!);
    // The loop pushed a separator after every entry; the newest one needs none below it.
    if (all.length > 0) all.pop();
    const end = Math.max(0, all.length - offset);
    return all.slice(Math.max(0, end - height), end);
  }

  private linesOf(e: Entry, width: number, style: Style, now: number): string[] {
    const live = e.kind === "tool" && e.status === "running";
    const key = `${width}|${e.version}|${this.expanded}|${this.generation}|${live ? Math.floor(now / 80) : ""}`;
    if (e.cache && e.cache.key === key) return e.cache.lines;
    const lines = renderEntry(e, width, style, this.expanded, now);
    e.cache = { key, lines };
    return lines;
  }

  /** Drops every cached rendering (the theme changed). */
  invalidate(): void {
    this.generation++;
    this.version++;
  }

  private generation = 0;

  private push(e: Entry): void {
    this.entries.push(e);
    this.version++;
  }

  private touch(e: Entry): void {
    e.version++;
    this.version++;
  }

  private openEntry<K extends "assistant" | "thinking">(kind: K): Extract<Entry, { kind: K }> {
    const last = this.entries[this.entries.length - 1];
    if (last && last.kind === kind && last.open) return last as Extract<Entry, { kind: K }>;
    if (last && (last.kind === "assistant" || last.kind === "thinking") && last.open) {
      last.open = false;
      this.touch(last);
    }
    const e = { kind, text: "", open: true, version: 0 } as Extract<Entry, { kind: K }>;
    this.push(e);
    return e;
  }

  private tool(id: string): ToolEntry | undefined {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i]!;
      if (e.kind === "tool" && e.id === id) return e;
    }
    return undefined;
  }
}

const INFO_ROLE = { info: "muted", success: "success", warn: "warning", error: "error" } as const;

export function renderEntry(e: Entry, width: number, style: Style, expanded: boolean, now: number): string[] {
  const w = Math.max(4, width);
  switch (e.kind) {
    case "user": {
      const out: string[] = [];
      for (const [i, line] of sanitize(e.text).split("\n").entries()) {
        for (const [j, part] of wrap(line, w - 2).entries()) out.push(style.fg("user", (i === 0 && j === 0 ? "› " : "  ") + part));
      }
      return out;
    }
    case "assistant": {
      if (e.text.trim() === "") return [];
      if (e.open) return (e.md ??= new StreamingMarkdown()).render(sanitize(e.text), w, style);
      e.md = undefined;
      return renderMarkdown(sanitize(e.text), w, style);
    }
    case "thinking": {
      const text = sanitize(e.text).trim();
      if (text === "") return [];
      const count = text.split("\n").length;
      if (!expanded) return [style.dim(style.italic(`∴ thinking${e.open ? "…" : ""} (${count} line${count === 1 ? "" : "s"}, ctrl+o to expand)`))];
      const out = [style.dim(style.italic("∴ thinking"))];
      for (const line of text.split("\n")) for (const part of wrap(line, w - 2)) out.push(style.dim(style.italic("  " + part)));
      return out;
    }
    case "info": {
      const out: string[] = [];
      for (const [i, line] of sanitize(e.text).split("\n").entries()) {
        for (const [j, part] of wrap(line, w - 2).entries()) out.push(style.fg(INFO_ROLE[e.level], (i === 0 && j === 0 ? "● " : "  ") + part));
      }
      return out;
    }
    case "tool":
      return renderTool(e, w, style, expanded, now);
  }
}

function renderTool(e: ToolEntry, width: number, style: Style, expanded: boolean, now: number): string[] {
  const mark =
    e.status === "running" ? style.fg("accent", spinnerFrame(now)) : e.status === "ok" ? style.fg("success", "✓") : style.fg("error", "✗");
  const owner = e.extension ? ` [${sanitize(e.extension)}]` : "";
  // Replayed calls have no recorded duration (0); show none rather than a made-up one.
  const ms = e.status === "running" ? now - e.startedAt : e.durationMs;
  const tail = ms ? ` ${formatDuration(ms)}` : "";
  const name = style.bold(style.fg("tool", sanitize(e.name))) + style.fg("muted", owner);
  const room = Math.max(0, width - 2 - sanitize(e.name).length - owner.length - tail.length - 2);
  const args = e.args && room > 3 ? " " + style.fg("muted", truncate(e.args, room)) : "";
  const header = `${mark} ${name}${args}${style.fg("muted", tail)}`;
  const out = [truncate(header, width)];
  const body = sanitize(e.output).replace(/\n+$/, "");
  if (body === "") return out;
  const lines: string[] = [];
  for (const line of body.split("\n")) lines.push(...wrap(line, width - 4));
  const role = e.status === "error" ? "error" : "muted";
  const limit = expanded ? lines.length : COLLAPSED_TOOL_LINES;
  // While running, the newest output matters; once done, the start reads as the answer.
  const shown = e.status === "running" ? lines.slice(-limit) : lines.slice(0, limit);
  const hidden = lines.length - shown.length;
  if (hidden > 0 && e.status === "running") out.push(style.dim(`  │ … ${hidden} earlier line${hidden === 1 ? "" : "s"}`));
  for (const line of shown) out.push(style.fg(role, "  │ ") + style.fg(role, line));
  if (hidden > 0 && e.status !== "running") out.push(style.dim(`  │ … ${hidden} more line${hidden === 1 ? "" : "s"} (ctrl+o to expand)`));
  return out;
}

/** One line saying what a tool call is about: the command or path when there is one, else the JSON. */
export function argsPreview(args: Json): string {
  if (args && typeof args === "object" && !Array.isArray(args)) {
    for (const key of ["command", "path", "file_path", "pattern", "query", "url", "name"]) {
      const v = args[key];
      if (typeof v === "string") return oneLine(v);
    }
  }
  return oneLine(JSON.stringify(args) ?? "");
}

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, " ⏎ ").trim();
}
