// Project instructions for the system prompt: `$ZOT_HOME/AGENTS.md` (the user's, for every project),
// then from the repository root down to the working directory each directory's AGENTS.md (or its
// CLAUDE.md when it has no AGENTS.md), so the most specific file comes last. Outside a repository only
// the working directory is looked at.
import { globalInstructionsPath } from "../platform/home.ts";
import { readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { repoRoot } from "../platform/project-root.ts";

export const INSTRUCTION_FILES = ["AGENTS.md", "CLAUDE.md"] as const;
/** Per file; a longer file is cut with a note, so one runaway file can't crowd out the conversation. */
export const INSTRUCTIONS_MAX_BYTES = 32 * 1024;

export type InstructionFile = { path: string; text: string; cut: boolean };

/** The directories from the repository root (or `cwd` outside one) down to `cwd`. */
function chain(cwd: string): string[] {
  const here = resolve(cwd);
  const root = repoRoot(here) ?? here;
  const rel = relative(root, here);
  const dirs = [root];
  if (rel !== "") {
    let dir = root;
    for (const part of rel.split(sep)) {
      dir = join(dir, part);
      dirs.push(dir);
    }
  }
  return dirs;
}

function readCapped(path: string): InstructionFile | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return null;
  }
  const cut = bytes.length > INSTRUCTIONS_MAX_BYTES;
  const text = (cut ? bytes.subarray(0, INSTRUCTIONS_MAX_BYTES) : bytes).toString("utf8").trim();
  return text === "" ? null : { path, text, cut };
}

export function loadInstructions(cwd: string, home: string): InstructionFile[] {
  const out: InstructionFile[] = [];
  const global = readCapped(globalInstructionsPath(home));
  if (global) out.push(global);
  for (const dir of chain(cwd)) {
    for (const name of INSTRUCTION_FILES) {
      const f = readCapped(join(dir, name));
      if (f) {
        out.push(f);
        break;
      }
    }
  }
  return out;
}

/** The system prompt section; empty when there are no instructions. */
export function instructionsSection(files: readonly InstructionFile[]): string {
  if (files.length === 0) return "";
  const parts = files.map((f) => {
    const note = f.cut ? `\n[zot: cut to the first ${INSTRUCTIONS_MAX_BYTES} bytes; read the file for the rest]` : "";
    return `### ${f.path}\n\n${f.text}${note}`;
  });
  return `## Project instructions\n\nFollow these instructions from the user and the project (later, more specific files take precedence):\n\n${parts.join("\n\n")}`;
}

/** What `/init` asks the model: study the project and write (or improve) its AGENTS.md at the project root. */
export function initPrompt(cwd: string): string {
  const root = repoRoot(cwd) ?? resolve(cwd);
  const target = join(root, "AGENTS.md");
  let existing = false;
  try {
    readFileSync(target);
    existing = true;
  } catch {
    // Not there yet: the model creates it.
  }
  return [
    `Study this project and ${existing ? "improve" : "write"} ${target}, the instructions future coding agents read before working here.`,
    "Cover: what the project is; how it is laid out (the main directories and what lives where); the exact commands to install, build, test and lint (check them before listing them); the conventions the code follows; and anything surprising a newcomer would get wrong.",
    "Keep it short (well under 150 lines), specific to this repository and true; no generic advice.",
    existing ? "The file exists: read it first, keep what is still right and fix what is not." : "Use the write tool to create the file.",
  ].join("\n");
}
