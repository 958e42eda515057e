// What the architecture tests read: every source file under a folder, and its text without comments.
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";

export const src = resolve(import.meta.dir, "../../src");

export function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? sources(path) : e.name.endsWith(".ts") ? [path] : [];
  });
}

/** Source text without comments, so an import or a spawn shown in a comment is not read as one. */
export function code(text: string): string {
  // Strings are kept whole (a "//" inside one is not a comment); template literals hold no imports here.
  return text.replace(/("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')|\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (_, str: string | undefined) => str ?? "");
}

/** The specifiers `text` imports at load: static imports and re-exports, not `import()`; `types: false` leaves out type-only ones, which load nothing. */
export function staticSpecifiers(text: string, { types = true } = {}): string[] {
  const body = code(text);
  const found: string[] = [];
  const forms = [
    // import x from, import { x } from, import type { x } from, import * as x from, export { x } from, export * from
    /\b(?:import|export)\b[^"'`;()]*?\bfrom\s*["']([^"']+)["']/g,
    // import "./side-effect.ts"
    /(?:^|[;\s])import\s*["']([^"']+)["']/g,
  ];
  for (const form of forms) for (const m of body.matchAll(form)) if (types || !/^\s*[;\s]?\s*(?:import|export)\s+type\b/.test(m[0])) found.push(m[1]!);
  return found;
}
