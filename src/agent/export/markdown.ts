// `/export md` and `zot export SESSION --md FILE`: the conversation as Markdown. Tool calls and their
// output sit in <details> blocks (GitHub and most viewers collapse them) inside code fences longer
// than any backtick run in the text, so no output can close its fence; diffs are fenced as `diff`.
import { diffLines, entries, money, tokens, type Entry, type ExportInput } from "./document.ts";

/** A fenced block whose fence no run of backticks in `text` can end. */
export function fence(text: string, lang = ""): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = "`".repeat(Math.max(3, longest + 1));
  return `${f}${lang}\n${text.replace(/\n$/, "")}\n${f}`;
}

/** Text shown in a summary line or a table cell: one line, HTML and table syntax neutralised. */
function inline(s: string): string {
  return s.replace(/[&<>|`*_[\]\\]/g, (c) => (c === "|" ? "\\|" : `&#${c.charCodeAt(0)};`)).replace(/\s+/g, " ");
}

export function renderMarkdown(input: ExportInput): string {
  const out: string[] = [`# ${inline(input.title)}`, ""];
  const meta = [
    input.started ? `started ${input.started}` : "",
    `exported ${input.exported} by zot ${input.zotVersion}`,
    input.cwd ? `in \`${input.cwd.replace(/`/g, "'")}\`` : "",
  ].filter(Boolean);
  out.push(meta.join(" · "), "");
  if (input.models.length > 0) {
    out.push("| model | calls | input | output | cache read | cache write | cost |", "|---|---:|---:|---:|---:|---:|---:|");
    for (const m of input.models)
      out.push(
        `| ${inline(m.provider ? `${m.provider}/${m.model}` : m.model)} | ${m.calls} | ${tokens(m.usage.input)} | ${tokens(m.usage.output)} | ${tokens(m.usage.cacheRead)} | ${tokens(m.usage.cacheWrite)} | ${money(m.usage.cost)} |`,
      );
    const t = input.total;
    out.push(
      `| **total** | ${input.models.reduce((n, m) => n + m.calls, 0)} | ${tokens(t.input)} | ${tokens(t.output)} | ${tokens(t.cacheRead)} | ${tokens(t.cacheWrite)} | **${money(t.cost)}** |`,
      "",
    );
  }
  for (const e of entries(input.messages)) out.push(entry(e), "");
  return out.join("\n");
}

function output(text: string): string {
  return fence(text, diffLines(text).some((l) => l.kind === "hunk") ? "diff" : "");
}

function entry(e: Entry): string {
  switch (e.kind) {
    case "user": {
      const parts = ["## User", "", e.text];
      for (const f of e.files) parts.push("", `<details><summary>attached ${inline(f.path)}</summary>`, "", fence(f.text), "", "</details>");
      for (const img of e.images) parts.push("", `*(an attached ${inline(img.mimeType)} image, ${Math.round((img.data.length * 3) / 4 / 1024)} KiB)*`);
      return parts.join("\n");
    }
    case "note":
      return `*${inline(e.text)}*`;
    case "assistant": {
      const head = `## Assistant (${inline(e.provider ? `${e.provider}/${e.model}` : e.model)})`;
      return e.error !== null ? `${head}\n\n**The model call failed:** ${inline(e.error)}` : `${head}\n\n${e.text}`;
    }
    case "thinking":
      return `<details><summary>thinking</summary>\n\n${fence(e.text)}\n\n</details>`;
    case "tool": {
      const status = e.result === null ? " (no result)" : e.result.isError ? " (failed)" : "";
      const parts = [`<details><summary>${inline(e.name)} ${inline(e.summary)}${status}</summary>`, "", fence(JSON.stringify(e.args, null, 2), "json")];
      if (e.result) parts.push("", output(e.result.text || "(no output)"));
      parts.push("", "</details>");
      return parts.join("\n");
    }
  }
}
