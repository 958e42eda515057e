// The export renderers on their own: what each format shows of a conversation, and that no text of
// the transcript can leave its place (HTML escaping, Markdown fences longer than any backtick run).
import { afterEach, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { diffLines, entries } from "../../../src/agent/export/document.ts";
import { escapeHtml } from "../../../src/agent/export/html.ts";
import { fence } from "../../../src/agent/export/markdown.ts";
import { exportTranscript, writeExport } from "../../../src/agent/export/export-file.ts";
import { conversation, hostile } from "./fixture.ts";
import { tempDir } from "../../helpers/temp.ts";

const dirs: string[] = [];
const tmp = (): string => {
  const d = tempDir("zot-export-");
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

test("each tool call is paired with its result, and an attached file and image stay with their prompt", () => {
  const list = entries(conversation("http://x").messages);
  expect(list.map((e) => e.kind)).toEqual(["user", "thinking", "assistant", "tool", "tool", "assistant"]);
  const user = list[0]!;
  expect(user.kind === "user" && user.files.map((f) => f.path)).toEqual(["notes.txt"]);
  expect(user.kind === "user" && user.images.length).toBe(2);
  const bash = list[4]!;
  expect(bash.kind === "tool" && bash.result?.isError).toBe(true);
  expect(bash.kind === "tool" && bash.summary.startsWith("npm test <script>")).toBe(true);
});

test("only output with a hunk header is read as a diff", () => {
  expect(diffLines("- one\n- two").map((l) => l.kind)).toEqual(["plain", "plain"]);
  expect(diffLines("Edited a\n\n--- a\n+++ a\n@@ -1 +1 @@\n-x\n+y\n z").map((l) => l.kind)).toEqual([
    "plain",
    "plain",
    "file",
    "file",
    "hunk",
    "del",
    "add",
    "plain",
  ]);
});

test("the HTML page has no markup of the transcript's own: every hostile string comes out escaped", () => {
  const d = tmp();
  const r = writeExport("html", conversation("http://127.0.0.1:1"), join(d, "s.html"), d);
  expect(r.ok).toBe(true);
  const html = readFileSync(join(d, "s.html"), "utf8");
  expect(html).not.toContain("<script");
  expect(html).not.toContain("<iframe");
  expect(html).not.toMatch(/<a |href="|onerror="|onload="/);
  expect(html).toContain(escapeHtml(hostile("http://127.0.0.1:1")));
  // The one image with a known type is inline; the one whose type is an attack is named, not drawn.
  expect(html.match(/<img /g)?.length).toBe(1);
  expect(html).toContain('src="data:image/png;base64,');
  expect(html).toContain("Content-Security-Policy");
  expect(html).toContain("@media print");
});

test("the Markdown export fences output so no backtick run in it can close the fence", () => {
  expect(fence("a ``` b ```` c")).toBe("`````\na ``` b ```` c\n`````");
  const d = tmp();
  const src = conversation("http://x");
  src.messages = [
    ...src.messages,
    {
      role: "assistant",
      ts: 1,
      provider: "p",
      model: "m",
      stop: "end_turn",
      usage: src.total,
      content: [{ type: "toolCall", id: "c3", name: "bash", args: { command: "cat x" } }],
    },
    { role: "toolResult", ts: 2, toolCallId: "c3", toolName: "bash", isError: false, content: [{ type: "text", text: "```\n# not a heading\n```" }] },
  ];
  const r = writeExport("md", src, join(d, "s.md"), d);
  expect(r.ok).toBe(true);
  const md = readFileSync(join(d, "s.md"), "utf8");
  expect(md).toContain("````\n```\n# not a heading\n```\n````");
  expect(md).toContain("```diff\nEdited hello.ts");
  expect(md).toContain("| anthropic/claude-test | 1 | 1,200 | 80 | 0 | 0 | $0.0042 |");
  expect(md).toContain("| **total** | 2 | 2,400 | 160 | 0 | 0 | **$0.0084** |");
  // A summary line cannot open markup: its < is an entity.
  expect(md).toContain("<summary>bash npm test &#60;script&#62;");
});

test("a directory as the destination gets the session's dated name; a named file is written as given", () => {
  const d = tmp();
  const r = writeExport("html", conversation("http://x"), d, d);
  expect(r.ok && r.path).toBe(join(d, "20261201-100000-greeting-fix-script-window-pwned-1-scrip.html"));
  const named = writeExport("md", conversation("http://x"), "out/notes.md", d);
  expect(named.ok && named.path).toBe(join(d, "out", "notes.md"));
});

test("exporting a transcript file that does not exist says which file", () => {
  const d = tmp();
  const r = exportTranscript(join(d, "nope.jsonl"), "html", join(d, "x.html"), d);
  expect(r.ok).toBe(false);
  expect(!r.ok && r.error).toContain(join(d, "nope.jsonl"));
});
