// The `@` file picker: while the word at the cursor starts with `@`, list files matching it
// (fuzzy over the project, or inside the directory typed so far). Choosing a directory descends
// into it; choosing a file puts `@path ` into the prompt. Ignored files (ignore-rules.ts) are not listed.
import { type Dirent, readdirSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { repoRoot } from "../../platform/project-root.ts";
import { fuzzyFilter } from "../fuzzy.ts";
import { IgnoreRules } from "../../runtime/api.ts";
import { SelectList } from "./list.ts";
import type { Component, StyleRef } from "./component.ts";

type FileEntry = { path: string; dir: boolean };

const MAX_WALK = 5000;
const MAX_DEPTH = 8;

export class FilePicker implements Component {
  readonly list: SelectList<FileEntry>;
  open = false;
  private start = 0;
  private walked: FileEntry[] | null = null;
  private ignore: Ignore | null = null;

  constructor(
    theme: StyleRef,
    private readonly cwd: string,
  ) {
    this.list = new SelectList<FileEntry>(theme, (e) => ({ label: e.path + (e.dir ? "/" : "") }), 8, "no matching files");
  }

  private rules(): Ignore {
    return (this.ignore ??= new Ignore(this.cwd));
  }

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
      items = fuzzyFilter(listDir(this.cwd, dir, this.rules()), q.slice(slash + 1), (e) => e.path.slice(dir.length));
    } else if (q === "") {
      items = listDir(this.cwd, "", this.rules());
    } else {
      this.walked ??= walk(this.cwd, this.rules());
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

  render(width: number): string[] {
    return this.list.render(width);
  }

  invalidate(): void {}
}

/** The ignore rules seen from the picker's cwd: paths relative to it, .gitignore files from the repository root down. */
class Ignore {
  private readonly rules: IgnoreRules;
  /** The cwd relative to the root, `/`-separated ("" when they are the same). */
  private readonly prefix: string;

  constructor(cwd: string) {
    const root = repoRoot(cwd) ?? resolve(cwd);
    this.rules = new IgnoreRules(root);
    this.prefix = relative(root, resolve(cwd)).split(sep).join("/");
    this.rules.load("");
    let dir = "";
    for (const part of this.prefix === "" ? [] : this.prefix.split("/")) {
      dir = dir ? `${dir}/${part}` : part;
      this.rules.load(dir);
    }
  }

  /** Root-relative form of a cwd-relative path, or null for one outside the cwd (`../x`, `/x`, `~/x`). */
  private rooted(rel: string): string | null {
    const clean = rel.replace(/\/+$/, "");
    if (clean.startsWith("/") || clean.startsWith("~") || clean.split("/").includes("..")) return null;
    return this.prefix && clean ? `${this.prefix}/${clean}` : this.prefix || clean;
  }

  /** Reads the .gitignore of a directory the listing goes into. */
  enter(rel: string): void {
    const at = this.rooted(rel);
    if (at !== null && at !== "") this.rules.load(at);
  }

  skip(rel: string, dir: boolean): boolean {
    const at = this.rooted(rel);
    return this.rules.ignored(at ?? rel.slice(rel.lastIndexOf("/") + 1), dir);
  }
}

function listDir(cwd: string, dir: string, ignore: Ignore): FileEntry[] {
  let names: { name: string; dir: boolean }[];
  try {
    names = readdirSync(resolve(cwd, dir), { withFileTypes: true }).map((d) => ({ name: d.name, dir: d.isDirectory() }));
  } catch {
    return [];
  }
  let at = "";
  for (const part of dir.split("/").filter(Boolean)) ignore.enter((at = at ? `${at}/${part}` : part));
  return names
    .filter((d) => (!d.name.startsWith(".") || d.name === ".zot") && !ignore.skip(dir + d.name, d.dir))
    .sort((a, b) => Number(b.dir) - Number(a.dir) || a.name.localeCompare(b.name))
    .map((d) => ({ path: dir + d.name, dir: d.dir }));
}

function walk(cwd: string, ignore: Ignore): FileEntry[] {
  const out: FileEntry[] = [];
  const queue: { rel: string; depth: number }[] = [{ rel: "", depth: 0 }];
  while (queue.length > 0 && out.length < MAX_WALK) {
    const { rel, depth } = queue.shift()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(join(cwd, rel), { withFileTypes: true });
    } catch {
      continue;
    }
    if (rel) ignore.enter(rel);
    for (const d of entries) {
      const path = rel ? `${rel}/${d.name}` : d.name;
      if (d.name.startsWith(".") || ignore.skip(path, d.isDirectory())) continue;
      out.push({ path, dir: d.isDirectory() });
      if (d.isDirectory() && depth < MAX_DEPTH) queue.push({ rel: path, depth: depth + 1 });
    }
  }
  return out;
}
