// What the `@` file picker and the checkpoints leave out: version-control and dependency directories and common build
// outputs always, and whatever the project's .gitignore files say (the repository root's and every
// directory's own, down to the one listed). Supports the usual gitignore forms: `#` comments, `!`
// negation, a trailing `/` for directories only, a leading or inner `/` anchoring the pattern to
// its file's directory, `*`, `?`, `[…]` and `**`.
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const ALWAYS_SKIPPED: ReadonlySet<string> = new Set([
  ".git",
  "node_modules",
  "dist",
  "build",
  "out",
  "target",
  "coverage",
  ".next",
  ".nuxt",
  ".svelte-kit",
  "__pycache__",
  ".venv",
  "venv",
  ".tox",
  ".mypy_cache",
  ".pytest_cache",
  ".gradle",
  ".cache",
  ".turbo",
]);

type Rule = { base: string; re: RegExp; negate: boolean; dirOnly: boolean };

function globToRegex(glob: string): string {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        // `**/` matches any number of directories (none included); a final `**` everything below.
        if (glob[i + 2] === "/") {
          re += "(?:.*/)?";
          i += 2;
        } else {
          re += ".*";
          i += 1;
        }
      } else re += "[^/]*";
    } else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 1);
      if (end < 0) re += "\\[";
      else {
        const body = glob
          .slice(i + 1, end)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\");
        re += `[${body}]`;
        i = end;
      }
    } else if (c === "\\" && i + 1 < glob.length) {
      re += glob[i + 1]!.replace(/[.+^${}()|[\]\\*?]/g, "\\$&");
      i++;
    } else re += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return re;
}

/** Parses one .gitignore's text; `base` is its directory relative to the listing's root ("" for the root). */
export function parseIgnore(text: string, base: string): Rule[] {
  const rules: Rule[] = [];
  for (let line of text.split(/\r?\n/)) {
    if (line === "" || line.startsWith("#")) continue;
    line = line.replace(/(?<!\\)\s+$/, "");
    if (line === "") continue;
    let negate = false;
    if (line.startsWith("!")) {
      negate = true;
      line = line.slice(1);
    }
    if (line.startsWith("\\")) line = line.slice(1);
    const dirOnly = line.endsWith("/");
    if (dirOnly) line = line.slice(0, -1);
    if (line === "") continue;
    const anchored = line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    const body = globToRegex(line);
    // Unanchored patterns match a name at any depth under their directory; a match of a directory
    // covers everything inside it.
    const re = new RegExp(`^${anchored ? "" : "(?:.*/)?"}${body}$`);
    rules.push({ base, re, negate, dirOnly });
  }
  return rules;
}

export class IgnoreRules {
  private rules: Rule[] = [];
  private loaded = new Set<string>();

  /** `root` is the directory paths are relative to. */
  constructor(private readonly root: string) {}

  /** Reads `<dir>/.gitignore` once (dir relative to the root). */
  load(dir: string): void {
    if (this.loaded.has(dir)) return;
    this.loaded.add(dir);
    let text: string;
    try {
      text = readFileSync(join(this.root, dir, ".gitignore"), "utf8");
    } catch {
      return;
    }
    this.rules.push(...parseIgnore(text, dir));
  }

  /** Whether `path` (relative to the root, `/`-separated) is left out. Its parent directories were checked already. */
  ignored(path: string, dir: boolean): boolean {
    const name = path.slice(path.lastIndexOf("/") + 1);
    if (ALWAYS_SKIPPED.has(name)) return true;
    let out = false;
    for (const r of this.rules) {
      if (r.dirOnly && !dir) continue;
      let rel = path;
      if (r.base !== "") {
        if (!path.startsWith(r.base + "/")) continue;
        rel = path.slice(r.base.length + 1);
      }
      if (r.re.test(rel)) out = !r.negate;
    }
    return out;
  }
}
