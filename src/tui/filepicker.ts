// The `@` file picker: while the word at the cursor starts with `@`, list files matching it
// (fuzzy over the project, or inside the directory typed so far). Choosing a directory descends
// into it; choosing a file puts `@path ` into the prompt.
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fuzzyFilter } from "./fuzzy.ts";
import { SelectList } from "./list.ts";
import type { Style } from "./theme.ts";

type FileEntry = { path: string; dir: boolean };

const SKIP = new Set([".git", "node_modules", "dist", ".zot"]);
const MAX_WALK = 5000;
const MAX_DEPTH = 8;

export class FilePicker {
  readonly list = new SelectList<FileEntry>((e) => ({ label: e.path + (e.dir ? "/" : "") }), 8);
  open = false;
  private start = 0;
  private walked: FileEntry[] | null = null;

  constructor(private readonly cwd: string) {}

  /** Re-lists for the `@` token at the cursor (`null` closes the picker). */
  update(token: { start: number; query: string } | null): void {
    if (!token) {
      this.open = false;
      return;
    }
    this.start = token.start;
    const q = token.query;
    const slash = q.lastIndexOf("/");
    let items: FileEntry[];
    if (slash >= 0) {
      const dir = q.slice(0, slash + 1);
      items = fuzzyFilter(listDir(this.cwd, dir), q.slice(slash + 1), (e) => e.path.slice(dir.length));
    } else if (q === "") {
      items = listDir(this.cwd, "");
    } else {
      this.walked ??= walk(this.cwd);
      items = fuzzyFilter(this.walked, q, (e) => e.path);
    }
    this.list.setItems(items.slice(0, 200));
    this.open = true;
  }

  /** The text that replaces the `@` token for the selection, and whether to keep listing. */
  accept(): { start: number; text: string; descend: boolean } | null {
    const e = this.list.current;
    if (!e) return null;
    if (e.dir) return { start: this.start, text: `@${e.path}/`, descend: true };
    this.open = false;
    return { start: this.start, text: `@${e.path} `, descend: false };
  }

  close(): void {
    this.open = false;
  }

  render(width: number, style: Style): string[] {
    return this.list.render(width, style, "no matching files");
  }
}

function listDir(cwd: string, dir: string): FileEntry[] {
  let names: { name: string; dir: boolean }[];
  try {
    names = readdirSync(resolve(cwd, dir), { withFileTypes: true }).map((d) => ({ name: d.name, dir: d.isDirectory() }));
  } catch {
    return [];
  }
  return names
    .filter((d) => !d.name.startsWith(".") || d.name === ".zot")
    .sort((a, b) => Number(b.dir) - Number(a.dir) || a.name.localeCompare(b.name))
    .map((d) => ({ path: dir + d.name, dir: d.dir }));
}

function walk(cwd: string): FileEntry[] {
  const out: FileEntry[] = [];
  const queue: { rel: string; depth: number }[] = [{ rel: "", depth: 0 }];
  while (queue.length > 0 && out.length < MAX_WALK) {
    const { rel, depth } = queue.shift()!;
    let entries;
    try {
      entries = readdirSync(join(cwd, rel), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const d of entries) {
      if (d.name.startsWith(".") || SKIP.has(d.name)) continue;
      const path = rel ? `${rel}/${d.name}` : d.name;
      out.push({ path, dir: d.isDirectory() });
      if (d.isDirectory() && depth < MAX_DEPTH) queue.push({ rel: path, depth: depth + 1 });
    }
  }
  return out;
}
