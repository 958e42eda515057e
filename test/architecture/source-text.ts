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
