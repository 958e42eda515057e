// A file dropped into the terminal arrives as pasted text: its path, quoted or with backslash-escaped
// spaces, or a file:// URI (several files: several paths, space-separated). When every path names an
// existing image, the paste becomes `@path` mentions, so the prompt attaches them like `@image.png`.
import { statSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, relative, resolve } from "node:path";

const IMAGE_EXT = /\.(png|jpe?g|gif|webp)$/i;

/** The words of a dropped line as a shell would split them: 'quoted', "quoted", or with `\ ` escapes. */
function droppedWords(text: string): string[] | null {
  const words: string[] = [];
  let cur = "";
  let quote: "'" | '"' | null = null;
  let any = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else cur += c;
      continue;
    }
    if (c === "'" || c === '"') {
      quote = c;
      any = true;
    } else if (c === "\\" && i + 1 < text.length) {
      cur += text[++i];
      any = true;
    } else if (/\s/.test(c)) {
      if (any) words.push(cur);
      cur = "";
      any = false;
    } else {
      cur += c;
      any = true;
    }
  }
  if (quote) return null;
  if (any) words.push(cur);
  return words;
}

function fileUriPath(word: string): string {
  if (!word.startsWith("file://")) return word;
  try {
    return decodeURIComponent(new URL(word).pathname);
  } catch {
    return word;
  }
}

/** `@path` for each pasted image path (quoted when it holds a space), or null when the paste is not only image paths. */
export function imageMentions(pasted: string, cwd: string): string | null {
  const text = pasted.trim();
  if (text === "" || text.includes("\n") || text.length > 4096) return null;
  const words = droppedWords(text);
  if (!words || words.length === 0) return null;
  const mentions: string[] = [];
  for (const w of words.map(fileUriPath)) {
    if (!IMAGE_EXT.test(w)) return null;
    const path = w === "~" || w.startsWith("~/") ? join(homedir(), w.slice(1)) : w;
    const abs = isAbsolute(path) ? path : resolve(cwd, path);
    try {
      if (!statSync(abs).isFile()) return null;
    } catch {
      return null;
    }
    // The mention syntax has no escape for a double quote: such a path stays a plain paste.
    if (abs.includes('"')) return null;
    const rel = relative(cwd, abs);
    const shown = rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : abs;
    mentions.push(/\s/.test(shown) ? `@"${shown}"` : `@${shown}`);
  }
  return `${mentions.join(" ")} `;
}
