// `/export html` and `zot export SESSION --html FILE`: one self-contained page. No script at all, a
// Content-Security-Policy that forbids every fetch (images come as data: URIs), every piece of the
// transcript escaped, tool output in <details> (expandable without script), diffs coloured, and a
// print style that opens the collapsed parts on paper.
import { diffLines, entries, imageDataUri, money, tokens, type Entry, type ExportInput } from "./document.ts";
import type { ImagePart } from "../messages.ts";

/** Text for an HTML text node or a quoted attribute. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

const STYLE = `
:root { --fg: #1f2328; --muted: #656d76; --bg: #ffffff; --box: #f6f8fa; --line: #d0d7de; --user: #ddf4ff; --add: #dafbe1; --add-fg: #116329; --del: #ffebe9; --del-fg: #82071e; --hunk: #0550ae; --err: #cf222e; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #8d96a0; --bg: #0d1117; --box: #161b22; --line: #30363d; --user: #102a43; --add: #12261e; --add-fg: #7ee787; --del: #25171c; --del-fg: #ffa198; --hunk: #79c0ff; --err: #ff7b72; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 920px; padding: 24px 16px 64px; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
h1 { font-size: 1.4em; margin: 0 0 4px; }
.meta { color: var(--muted); font-size: .9em; margin-bottom: 16px; }
table { border-collapse: collapse; margin: 8px 0 24px; font-size: .9em; }
th, td { border: 1px solid var(--line); padding: 4px 10px; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.msg { margin: 14px 0; padding: 10px 14px; border-radius: 8px; border: 1px solid var(--line); }
.msg > .who { font-size: .8em; color: var(--muted); margin-bottom: 4px; }
.user { background: var(--user); }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
.note { color: var(--muted); font-style: italic; margin: 8px 0; }
.error { color: var(--err); }
details { margin: 8px 0; border: 1px solid var(--line); border-radius: 6px; background: var(--box); }
summary { cursor: pointer; padding: 6px 10px; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .85em; overflow-wrap: anywhere; }
summary .tool { font-weight: 600; }
summary .failed { color: var(--err); }
pre { margin: 0; padding: 8px 10px; border-top: 1px solid var(--line); overflow-x: auto; font: 12.5px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; white-space: pre-wrap; overflow-wrap: anywhere; }
pre span { display: block; }
.add { background: var(--add); color: var(--add-fg); }
.del { background: var(--del); color: var(--del-fg); }
.hunk { color: var(--hunk); }
.file { font-weight: 600; }
img { max-width: 100%; height: auto; display: block; margin: 8px 0; border: 1px solid var(--line); }
@media print {
  body { max-width: none; padding: 0; font-size: 11pt; }
  details::details-content { content-visibility: visible; display: block; }
  details > summary { list-style: none; }
  .msg, details { break-inside: avoid-page; }
  pre { white-space: pre-wrap; }
}
`;

export function renderHtml(input: ExportInput): string {
  const body: string[] = [];
  body.push(`<h1>${escapeHtml(input.title)}</h1>`);
  const meta = [
    input.started ? `started ${escapeHtml(input.started)}` : "",
    `exported ${escapeHtml(input.exported)} by zot ${escapeHtml(input.zotVersion)}`,
    input.cwd ? `in ${escapeHtml(input.cwd)}` : "",
    input.session ? `session ${escapeHtml(input.session)}` : "",
  ].filter(Boolean);
  body.push(`<div class="meta">${meta.join(" · ")}</div>`);
  body.push(costTable(input));
  for (const e of entries(input.messages)) body.push(entry(e));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(input.title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body.join("\n")}
</body>
</html>
`;
}

function costTable(input: ExportInput): string {
  if (input.models.length === 0) return `<div class="meta">no model calls recorded</div>`;
  const row = (cells: string[], tag = "td"): string => `<tr>${cells.map((c) => `<${tag}>${c}</${tag}>`).join("")}</tr>`;
  const rows = input.models.map((m) =>
    row([
      escapeHtml(m.provider ? `${m.provider}/${m.model}` : m.model),
      String(m.calls),
      tokens(m.usage.input),
      tokens(m.usage.output),
      tokens(m.usage.cacheRead),
      tokens(m.usage.cacheWrite),
      money(m.usage.cost),
    ]),
  );
  const t = input.total;
  const calls = input.models.reduce((n, m) => n + m.calls, 0);
  return `<table class="cost">
${row(["model", "calls", "input", "output", "cache read", "cache write", "cost"], "th")}
${rows.join("\n")}
${row(["<b>total</b>", String(calls), tokens(t.input), tokens(t.output), tokens(t.cacheRead), tokens(t.cacheWrite), `<b>${money(t.cost)}</b>`])}
</table>`;
}

function images(list: readonly ImagePart[]): string {
  return list
    .map((p) => {
      const uri = imageDataUri(p);
      return uri ? `<img alt="attached image" src="${escapeHtml(uri)}">` : `<div class="note">an image of type ${escapeHtml(p.mimeType)} (not shown)</div>`;
    })
    .join("");
}

function pre(text: string): string {
  const lines = diffLines(text).map((l) =>
    l.kind === "plain" ? `<span>${escapeHtml(l.text) || " "}</span>` : `<span class="${l.kind}">${escapeHtml(l.text) || " "}</span>`,
  );
  return `<pre>${lines.join("")}</pre>`;
}

function entry(e: Entry): string {
  switch (e.kind) {
    case "user": {
      const files = e.files.map((f) => `<details class="attachment"><summary>attached ${escapeHtml(f.path)}</summary>${pre(f.text)}</details>`).join("");
      return `<div class="msg user"><div class="who">user</div><div class="text">${escapeHtml(e.text)}</div>${files}${images(e.images)}</div>`;
    }
    case "note":
      return `<div class="note">${escapeHtml(e.text)}</div>`;
    case "assistant": {
      const who = `<div class="who">assistant · ${escapeHtml(e.provider ? `${e.provider}/${e.model}` : e.model)}</div>`;
      if (e.error !== null) return `<div class="msg assistant">${who}<div class="text error">the model call failed: ${escapeHtml(e.error)}</div></div>`;
      return `<div class="msg assistant">${who}<div class="text">${escapeHtml(e.text)}</div></div>`;
    }
    case "thinking":
      return `<details class="thinking"><summary>thinking</summary><pre>${escapeHtml(e.text)}</pre></details>`;
    case "tool": {
      const status = e.result === null ? ` <span class="failed">(no result)</span>` : e.result.isError ? ` <span class="failed">(failed)</span>` : "";
      const summary = `<summary><span class="tool">${escapeHtml(e.name)}</span> ${escapeHtml(e.summary)}${status}</summary>`;
      const args = pre(JSON.stringify(e.args, null, 2));
      const out = e.result ? `${pre(e.result.text || "(no output)")}${images(e.result.images)}` : "";
      return `<details class="tool-call">${summary}${args}${out}</details>`;
    }
  }
}
