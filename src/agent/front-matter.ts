// Markdown files with a `key: value` front matter, as Claude Code writes them: custom commands
// (custom-commands.ts) and agent definitions (agents.ts) are read by this one parser.
import { readdirSync, readFileSync, statSync, type Stats } from "node:fs";
import { join } from "node:path";

export type FrontMatter = {
  /** False when the file does not open with a `---` … `---` block. */
  found: boolean;
  fields: Map<string, string | string[]>;
  body: string;
  /** The lines of the block that are neither `key: value` nor a list item, one sentence each. */
  problems: string[];
};

/** A `key: value` front matter between `---` lines; a value may be `[a, b]` or a list of `- item` lines. */
export function frontMatter(text: string): FrontMatter {
  const fields = new Map<string, string | string[]>();
  const problems: string[] = [];
  const m = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) return { found: false, fields, body: text.trim(), problems };
  let listKey: string | null = null;
  for (const [i, line] of (m[1] ?? "").split(/\r?\n/).entries()) {
    const item = /^\s+-\s+(.*)$/.exec(line) ?? /^-\s+(.*)$/.exec(line);
    if (item && listKey !== null) {
      const list = fields.get(listKey);
      fields.set(listKey, [...(Array.isArray(list) ? list : []), unquote(item[1] ?? "")]);
      continue;
    }
    const kv = /^([A-Za-z][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!kv) {
      if (line.trim() !== "" && !line.trimStart().startsWith("#")) problems.push(`line ${i + 2} ("${line.trim().slice(0, 40)}") is not "key: value"`);
      continue;
    }
    const key = (kv[1] ?? "").toLowerCase();
    const value = (kv[2] ?? "").trim();
    listKey = value === "" ? key : null;
    if (value.startsWith("[") && value.endsWith("]"))
      fields.set(
        key,
        value
          .slice(1, -1)
          .split(",")
          .map((v) => unquote(v.trim()))
          .filter((v) => v !== ""),
      );
    else if (value !== "") fields.set(key, unquote(value));
  }
  return { found: true, fields, body: text.slice(m[0].length).trim(), problems };
}

function unquote(v: string): string {
  return /^(["']).*\1$/.test(v) ? v.slice(1, -1) : v;
}

/** The `.md` files under `dir`, sorted, through at most `depth` levels of (not hidden) folders. */
export function markdownFiles(dir: string, depth: number): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    const p = join(dir, n);
    let st: Stats;
    try {
      st = statSync(p);
    } catch {
      return [];
    }
    if (st.isDirectory()) return depth > 0 && !n.startsWith(".") ? markdownFiles(p, depth - 1) : [];
    return st.isFile() && n.endsWith(".md") ? [p] : [];
  });
}

const MAX_BYTES = 256 * 1024;

/** The file's text, or why it cannot be used (a sentence fragment for "Skipped the … file PATH: …"). */
export function readMarkdown(path: string): { text: string } | { error: string } {
  try {
    if (statSync(path).size > MAX_BYTES) return { error: `it is larger than ${MAX_BYTES / 1024} KiB` };
    return { text: readFileSync(path, "utf8") };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}
