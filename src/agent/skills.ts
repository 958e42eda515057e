// Skill discovery: directories holding a SKILL.md with `name` / `description` front matter. Only the
// names and descriptions go into the system prompt; the body is loaded when the model asks for it.
import { skillsDir } from "../platform/home.ts";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { BUILTIN_SKILLS } from "./builtin-skills.ts";

export type SkillSource = "project" | "global" | "claude" | "global-claude" | "agents" | "global-agents" | "builtin";

export type Skill = {
  name: string;
  description: string;
  source: SkillSource;
  /** The skill's directory; null for skills built into zot. */
  dir: string | null;
  /** Path of SKILL.md; null for built-in skills. */
  file: string | null;
};

export type SkillDiscovery = { skills: Skill[]; warnings: string[] };

/**
 * The search roots in precedence order (the Go zot's): the first skill of a name wins. `userHome`
 * holds the global compat roots `~/.claude/skills` and `~/.agents/skills`.
 */
function skillRoots(cwd: string, home: string, userHome: string): { dir: string; source: SkillSource }[] {
  return [
    { dir: join(cwd, ".zot", "skills"), source: "project" },
    { dir: skillsDir(home), source: "global" },
    { dir: join(cwd, ".claude", "skills"), source: "claude" },
    { dir: join(userHome, ".claude", "skills"), source: "global-claude" },
    { dir: join(cwd, ".agents", "skills"), source: "agents" },
    { dir: join(userHome, ".agents", "skills"), source: "global-agents" },
  ];
}

export function discoverSkills(cwd: string, home: string, userHome: string = homedir()): SkillDiscovery {
  const skills: Skill[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  const add = (skill: Skill): void => {
    const key = skill.name.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    skills.push(skill);
  };
  for (const root of skillRoots(cwd, home, userHome)) {
    let entries: string[];
    try {
      entries = readdirSync(root.dir).sort();
    } catch {
      continue;
    }
    for (const entry of entries) {
      const dir = join(root.dir, entry);
      const file = join(dir, "SKILL.md");
      let text: string;
      try {
        if (!statSync(dir).isDirectory()) continue;
        text = readFileSync(file, "utf8");
      } catch {
        continue;
      }
      const parsed = parseSkill(text);
      const name = parsed.meta.name?.trim() || entry;
      const description = parsed.meta.description?.trim() ?? "";
      if (description === "") {
        warnings.push(`Skill ${file} has no "description" in its front matter, so it was skipped; add a line "description: <when to use it>".`);
        continue;
      }
      if (!/^[\w.-]+$/.test(name)) {
        warnings.push(`Skill ${file} has the name ${JSON.stringify(name)}; use letters, digits, ".", "_" or "-". It was skipped.`);
        continue;
      }
      add({ name, description, source: root.source, dir, file });
    }
  }
  for (const b of BUILTIN_SKILLS) add({ name: b.name, description: b.description, source: "builtin", dir: null, file: null });
  return { skills, warnings };
}

/** The body of a skill (front matter removed), read fresh so edits show without a restart. */
export function skillBody(skill: Skill): { body: string } | { error: string } {
  if (skill.file === null) {
    const b = BUILTIN_SKILLS.find((s) => s.name === skill.name);
    return b ? { body: b.body.trim() } : { error: `The built-in skill "${skill.name}" does not exist.` };
  }
  try {
    return { body: parseSkill(readFileSync(skill.file, "utf8")).body };
  } catch (err) {
    return { error: `Could not read ${skill.file} (${err instanceof Error ? err.message : String(err)}).` };
  }
}

/**
 * Hand-parses the simple front matter skills use: `key: value` lines between `---` fences, values
 * optionally quoted, and indented continuation lines (YAML's `>` / `|` blocks) folded into the value.
 */
export function parseSkill(text: string): { meta: Record<string, string>; body: string } {
  const src = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const lines = src.split(/\r?\n/);
  if (lines[0]?.trim() !== "---") return { meta: {}, body: src.trim() };
  const end = lines.findIndex((l, i) => i > 0 && l.trim() === "---");
  if (end === -1) return { meta: {}, body: src.trim() };
  const meta: Record<string, string> = {};
  let key: string | null = null;
  for (const line of lines.slice(1, end)) {
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const m = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (m?.[1] !== undefined && m[2] !== undefined && !/^\s/.test(line)) {
      key = m[1];
      const v = m[2].trim();
      meta[key] = v === ">" || v === "|" || v === ">-" || v === "|-" ? "" : unquote(v);
    } else if (key !== null && /^\s/.test(line)) {
      meta[key] = meta[key] === "" ? line.trim() : `${meta[key]} ${line.trim()}`;
    }
  }
  return {
    meta,
    body: lines
      .slice(end + 1)
      .join("\n")
      .trim(),
  };
}

function unquote(v: string): string {
  if (v.length >= 2 && ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'")))) {
    const inner = v.slice(1, -1);
    return v.startsWith('"') ? inner.replace(/\\"/g, '"').replace(/\\\\/g, "\\") : inner.replace(/''/g, "'");
  }
  return v;
}

/** The system-prompt section listing the skills; empty when there are none. */
export function skillsPromptSection(skills: readonly Skill[]): string {
  if (skills.length === 0) return "";
  const lines = skills.map((s) => `- ${s.name}: ${s.description}`);
  return [
    "## Skills",
    "Skills are instructions for specific tasks. When a task matches a skill's description, load it with the skill tool (argument: its name) before starting, and follow it.",
    ...lines,
  ].join("\n");
}
