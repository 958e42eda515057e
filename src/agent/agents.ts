// Agent definitions for the `task` tool: zot's built-in `general` and `explore`, Markdown files in
// Claude Code's format (front matter `name`, `description`, `tools`, `model`, and zot's `reasoning`
// and `subagents`; the body is the system prompt), and the agents extensions register. Folders,
// first wins: the project's `.zot/agents` and `.claude/agents` (only when workspace trust lets
// project code run), then `$ZOT_HOME/agents` and `~/.claude/agents`; then the built-ins, then the
// extensions' agents.
import { homedir } from "node:os";
import { basename, join } from "node:path";
import { NAME_PATTERN } from "../names.ts";
import { projectRoot } from "../platform/project-root.ts";
import { EFFORTS, isEffort, orList, type Effort } from "./choices.ts";
import { TOOL_NAMES } from "./custom-commands.ts";
import { frontMatter, markdownFiles, readMarkdown } from "./front-matter.ts";

export type AgentDefinition = {
  name: string;
  /** When to use it: the `task` tool's description lists it for the model. */
  description: string;
  /** The tools it may use; null: every tool of the session. */
  tools: string[] | null;
  /** `provider/model` or a model id of the current provider; null: the session's model. */
  model: string | null;
  /** Its thinking level; null: the session's. */
  reasoning: Effort | "off" | null;
  /** It may itself start subagents (the `task` tool), down to the depth limit. */
  subagents: boolean;
  /** Only commands that only look run in it (`explore`): bash's other commands are refused. */
  readOnly: boolean;
  /** The system prompt. */
  prompt: string;
  /** A file's path, "built-in", or "extension NAME". */
  source: string;
};

export type LoadedAgents = {
  agents: AgentDefinition[];
  /** One sentence each, naming the file: bad front matter, bad names, duplicates. */
  warnings: string[];
  /** Project agent folders that exist but were not read because the folder is not trusted. */
  untrusted: string[];
};

/** How deep subagents nest: the main agent is depth 0; one whose definition allows it may start depth 2, which never can. */
export const MAX_AGENT_DEPTH = 2;

const GENERAL_PROMPT = `You are a subagent of zot, a coding agent: the main agent handed you one self-contained task. You work in your own conversation; nobody sees it but you. Do the task with the tools you have, then end with a short, complete answer: what you found or did, with the exact paths, names and numbers the main agent needs. That final message is all the main agent gets back, so put everything it needs in it.`;

const EXPLORE_PROMPT = `You are an explore subagent of zot: you study code and answer a question about it. You may only look: read files, and run commands that only look (ls, cat, grep, rg, find, git status/log/diff/show); anything else is refused. Search broadly first, then read what matters. End with a short answer: what you found, with the file paths and line numbers that support it. That final message is all the main agent gets back.`;

export const BUILTIN_AGENTS: readonly AgentDefinition[] = [
  {
    name: "general",
    description:
      "a general-purpose agent with every tool: multi-step tasks (research, changes, running commands) whose details the main conversation does not need",
    tools: null,
    model: null,
    reasoning: null,
    subagents: false,
    readOnly: false,
    prompt: GENERAL_PROMPT,
    source: "built-in",
  },
  {
    name: "explore",
    description:
      "a read-only agent for searching and understanding code (read, commands that only look, skill): where is X defined, how does Y work, which files use Z",
    tools: ["read", "bash", "skill"],
    model: null,
    reasoning: null,
    subagents: false,
    readOnly: true,
    prompt: EXPLORE_PROMPT,
    source: "built-in",
  },
];

type Scope = "project" | "user";

/** The folders, in precedence order. */
export function agentDirs(cwd: string, home: string): { dir: string; scope: Scope }[] {
  const root = projectRoot(cwd);
  return [
    { dir: join(root, ".zot", "agents"), scope: "project" },
    { dir: join(root, ".claude", "agents"), scope: "project" },
    { dir: join(home, "agents"), scope: "user" },
    { dir: join(homedir(), ".claude", "agents"), scope: "user" },
  ];
}

/** The fields an agent is made of, as a file's front matter or a `register_agent` frame gives them. */
export type AgentFields = {
  name: string;
  description: string;
  prompt: string;
  tools?: string[] | string;
  model?: string;
  reasoning?: string;
  subagents?: string;
};

/** Claude Code's `model: sonnet` and friends name a model of another vendor's family: the session's model stands in. */
const INHERITED_MODELS = new Set(["inherit", "sonnet", "opus", "haiku"]);

/** An agent from its fields, or the sentence saying what is wrong with them (after "is skipped: "). */
export function defineAgent(f: AgentFields, source: string): AgentDefinition | string {
  if (!NAME_PATTERN.test(f.name)) return `"${f.name}" is not an agent name (letters, digits, - and _, at most 64)`;
  if (f.description.trim() === "") return `it has no "description" (the model chooses agents by it)`;
  if (f.prompt.trim() === "") return "its body (the agent's system prompt) is empty";
  let reasoning: Effort | "off" | null = null;
  if (f.reasoning !== undefined) {
    if (f.reasoning !== "off" && !isEffort(f.reasoning)) return `"reasoning: ${f.reasoning}" is not a thinking level (${orList([...EFFORTS, "off"])})`;
    reasoning = f.reasoning;
  }
  let subagents = false;
  if (f.subagents !== undefined) {
    if (f.subagents !== "true" && f.subagents !== "false") return `"subagents: ${f.subagents}" must be true or false`;
    subagents = f.subagents === "true";
  }
  const listed = f.tools === undefined ? null : (Array.isArray(f.tools) ? f.tools : f.tools.split(",")).map((t) => t.trim()).filter((t) => t !== "");
  const tools = listed === null || listed.includes("*") ? null : [...new Set(listed.map((t) => TOOL_NAMES[t.toLowerCase()] ?? t))];
  const model = f.model === undefined || INHERITED_MODELS.has(f.model.toLowerCase()) ? null : f.model;
  return { name: f.name, description: f.description.trim(), tools, model, reasoning, subagents, readOnly: false, prompt: f.prompt.trim(), source };
}

/** Every agent: the files (when `projectTrusted`, the project's too), the built-ins, then `extra` (the extensions'). */
export function loadAgents(cwd: string, home: string, projectTrusted: boolean, extra: readonly { fields: AgentFields; source: string }[] = []): LoadedAgents {
  const out: LoadedAgents = { agents: [], warnings: [], untrusted: [] };
  const seen = new Map<string, string>();
  const add = (agent: AgentDefinition, what: string): void => {
    const earlier = seen.get(agent.name.toLowerCase());
    if (earlier !== undefined) {
      out.warnings.push(`Skipped ${what}: the agent "${agent.name}" is already defined by ${earlier}.`);
      return;
    }
    seen.set(agent.name.toLowerCase(), agent.source);
    out.agents.push(agent);
  };
  for (const { dir, scope } of agentDirs(cwd, home)) {
    const files = markdownFiles(dir, 0);
    if (files.length === 0) continue;
    if (scope === "project" && !projectTrusted) {
      out.untrusted.push(dir);
      continue;
    }
    for (const file of files) {
      const agent = readAgent(file);
      if (typeof agent === "string") out.warnings.push(`Skipped the agent file ${file}: ${agent}.`);
      else add(agent, `the agent file ${file}`);
    }
  }
  for (const agent of BUILTIN_AGENTS) add(agent, `the built-in agent "${agent.name}"`);
  for (const { fields, source } of extra) {
    const agent = defineAgent(fields, source);
    if (typeof agent === "string") out.warnings.push(`Skipped the agent "${fields.name}" of ${source}: ${agent}.`);
    else add(agent, `the agent "${agent.name}" of ${source}`);
  }
  return out;
}

const KNOWN_KEYS = new Set(["name", "description", "tools", "model", "reasoning", "subagents", "color"]);

function readAgent(path: string): AgentDefinition | string {
  const read = readMarkdown(path);
  if ("error" in read) return read.error;
  const fm = frontMatter(read.text);
  if (!fm.found) return 'it does not start with front matter (a "---" line, "name: …" and "description: …", and a closing "---")';
  if (fm.problems.length > 0) return `its front matter is malformed: ${fm.problems.join("; ")}`;
  const unknown = [...fm.fields.keys()].filter((k) => !KNOWN_KEYS.has(k));
  if (unknown.length > 0)
    return `its front matter has unknown keys ${unknown.map((k) => `"${k}"`).join(", ")} (known: name, description, tools, model, reasoning, subagents)`;
  const scalar = (key: string): string | undefined => {
    const v = fm.fields.get(key);
    return v === undefined ? undefined : Array.isArray(v) ? v.join(", ") : v;
  };
  const tools = fm.fields.get("tools");
  const fields: AgentFields = { name: scalar("name") ?? basename(path, ".md"), description: scalar("description") ?? "", prompt: fm.body };
  if (tools !== undefined) fields.tools = tools;
  for (const key of ["model", "reasoning", "subagents"] as const) {
    const v = scalar(key);
    if (v !== undefined) fields[key] = v;
  }
  return defineAgent(fields, path);
}

/** The `task` tool's description: what it does and, from their descriptions, when to use each agent. */
export function taskDescription(agents: readonly AgentDefinition[]): string {
  const list = agents.map((a) => `- ${a.name}: ${a.description}`).join("\n");
  return [
    "Hand a self-contained task to a subagent, which works in its own conversation with its own tools and returns only its final answer (and a note of the files it changed). Use it to keep long searches or side work out of this conversation, and call it several times in one message to run independent tasks in parallel.",
    'Give a short "description" (3-6 words) and a complete "prompt": the subagent sees nothing of this conversation, so say everything it needs and what to report back.',
    `"agent" picks who does it (default general):\n${list}`,
  ].join("\n\n");
}
