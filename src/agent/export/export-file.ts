// Where an export goes and how a transcript becomes one: `/export md|html [path]` (the current
// session) and `zot export SESSION --html FILE` (any transcript) both end here.
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import type { Result } from "../../result.ts";
import type { Message, Usage } from "../messages.ts";
import { openSession, sessionTimestamp } from "../session.ts";
import type { ModelUsage } from "../model-usage.ts";
import { slugify, unquotePath } from "../session-ops.ts";
import { ZOT_VERSION } from "../../version.ts";
import type { ExportInput } from "./document.ts";
import { renderHtml } from "./html.ts";
import { renderMarkdown } from "./markdown.ts";

export type ExportFormat = "md" | "html";
export const EXPORT_FORMATS: readonly ExportFormat[] = ["md", "html"];

export function isExportFormat(s: string): s is ExportFormat {
  return s === "md" || s === "html";
}

export type ExportSource = {
  messages: readonly Message[];
  models: readonly ModelUsage[];
  total: Usage;
  title: string | null;
  session: string | null;
  cwd: string;
  started: string;
};

export function renderExport(format: ExportFormat, input: ExportInput): string {
  return format === "html" ? renderHtml(input) : renderMarkdown(input);
}

function firstPrompt(messages: readonly Message[]): string {
  for (const m of messages) if (m.role === "user") for (const p of m.content) if (p.type === "text" && p.text.trim() !== "") return p.text;
  return "";
}

/**
 * Writes the export of `src`. No `dest`: `~/Downloads/<started>-<first prompt>.<format>`; a directory:
 * that name inside it; anything else is the file (relative to `base`), replaced if it exists.
 */
export function writeExport(
  format: ExportFormat,
  src: ExportSource,
  dest: string | undefined,
  base: string,
  now = new Date(),
  home = homedir(),
): Result<{ path: string }> {
  const started = Date.parse(src.started);
  const slug = slugify(src.title ?? firstPrompt(src.messages));
  const name = `${sessionTimestamp(Number.isFinite(started) ? new Date(started) : now)}${slug ? `-${slug}` : ""}.${format}`;
  const given = dest === undefined ? "" : unquotePath(dest.trim());
  const target = given === "" ? join(home, "Downloads") : resolve(base, given === "~" ? home : given.startsWith("~/") ? join(home, given.slice(2)) : given);
  const out = given === "" || isDirectory(target) ? join(target, name) : target;
  const input: ExportInput = {
    title: src.title || firstPrompt(src.messages).replace(/\s+/g, " ").trim().slice(0, 80) || "zot session",
    session: src.session,
    cwd: src.cwd,
    started: src.started,
    zotVersion: ZOT_VERSION,
    exported: now.toISOString(),
    messages: src.messages,
    models: src.models,
    total: src.total,
  };
  try {
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, renderExport(format, input), { mode: 0o600 });
  } catch (err) {
    return { ok: false, error: `could not write the export to ${out} (${err instanceof Error ? err.message : String(err)}); give another path` };
  }
  return { ok: true, path: out };
}

/** `zot export SESSION --html FILE`: a transcript file rendered whole (its warnings, such as a cut last line, come back too). */
export function exportTranscript(path: string, format: ExportFormat, dest: string | undefined, base: string): Result<{ path: string; warnings: string[] }> {
  const loaded = openSession(path);
  if (!loaded.ok) return loaded;
  const s = loaded.session;
  const r = writeExport(
    format,
    {
      messages: s.messages,
      models: s.byModel,
      total: s.usage,
      title: s.title,
      session: s.path,
      cwd: s.meta?.cwd ?? "",
      started: s.meta?.started ?? "",
    },
    dest,
    base,
  );
  return r.ok ? { ok: true, path: r.path, warnings: s.warnings } : r;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
