// Project instructions for the system prompt: `$ZOT_HOME/AGENTS.md` (the user's, for every project),
// then from the repository root down to the working directory each directory's AGENTS.md and
// CLAUDE.md, so the most specific file comes last. A project moving between agents often has both;
// both are followed (a CLAUDE.md that is the same file or says the same is read once). Outside a
// repository only the working directory is looked at.
import { globalInstructionsPath } from "../platform/home.ts";
import { readFileSync, realpathSync } from "node:fs";
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
    const seen: { real: string; text: string }[] = [];
    for (const name of INSTRUCTION_FILES) {
      const f = readCapped(join(dir, name));
      if (!f) continue;
      const real = realPath(f.path);
      if (seen.some((s) => s.real === real || s.text === f.text)) continue;
      seen.push({ real, text: f.text });
      out.push(f);
    }
  }
  return out;
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
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

/**
 * What `/init` asks the model: study the project and write (or improve) its AGENTS.md at the
 * project root, taking in a CLAUDE.md there (zot follows both, so the two must not disagree).
 */
export function initPrompt(cwd: string): string {
  const root = repoRoot(cwd) ?? resolve(cwd);
  const target = join(root, "AGENTS.md");
  const exists = (path: string): boolean => readCapped(path) !== null;
  const existing = exists(target);
  const claude = join(root, "CLAUDE.md");
  const claudeNote = !exists(claude)
    ? []
    : [
        existing
          ? `${claude} exists too, and zot follows both files: read it, and keep the two from repeating or contradicting each other (what applies to every agent belongs in AGENTS.md).`
          : `${claude} exists: read it first and carry over what is still right, so AGENTS.md starts from it. Leave CLAUDE.md in place; zot follows both files, so they must not contradict each other.`,
      ];
  return [
    `Study this project and ${existing ? "improve" : "write"} ${target}, the instructions future coding agents read before working here.`,
    "Cover: what the project is; how it is laid out (the main directories and what lives where); the exact commands to install, build, test and lint (check them before listing them); the conventions the code follows; and anything surprising a newcomer would get wrong.",
    "Keep it short (well under 150 lines), specific to this repository and true; no generic advice.",
    ...claudeNote,
    existing ? "The file exists: read it first, keep what is still right and fix what is not." : "Use the write tool to create the file.",
  ].join("\n");
}
