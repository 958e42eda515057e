// What Kimi's Chat Completions endpoint rejects, for a scripted Kimi server
// (`startProviderServer({ reject: kimiRejection })`). The rules are the documented ones
// (landscape notes §1.3 and §2: the dynamic-tool guide as quoted, Morph's K3 docs, a gateway's K3
// validator, platform.kimi.ai/docs/api/tool-use); the error sentences are this file's own.

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const NAME = /^[a-zA-Z_][a-zA-Z0-9-_]{0,127}$/;
const MAX_TOOLS = 128;
const K3_EFFORTS = ["low", "high", "max"];

/** Only K3 reads tool declarations in the conversation; K2.6 fails to tokenize them. */
const DYNAMIC_MODELS = ["kimi-k3"];

function functionProblem(tool: unknown, where: string): string | undefined {
  if (!isObj(tool) || tool.type !== "function" || !isObj(tool.function)) return `${where} must be {"type":"function","function":{…}}`;
  const fn = tool.function;
  if (typeof fn.name !== "string" || !NAME.test(fn.name)) return `${where}: function name ${JSON.stringify(fn.name)} must match ${NAME.source}`;
  if (!isObj(fn.parameters)) return `${where}: function "${fn.name}" needs "parameters"`;
  return undefined;
}

/** The 400 message Kimi would answer this request body with, or undefined when it would accept it. */
export function kimiRejection(body: unknown): string | undefined {
  if (!isObj(body) || !Array.isArray(body.messages)) return "Invalid request: messages must be an array";
  const model = String(body.model);
  const declared = new Set<string>();
  const top = body.tools ?? [];
  if (!Array.isArray(top)) return "Invalid request: tools must be an array";
  if (top.length > MAX_TOOLS) return `Invalid request: at most ${MAX_TOOLS} tools`;
  for (const [i, t] of top.entries()) {
    const p = functionProblem(t, `tools[${i}]`);
    if (p) return `Invalid request: ${p}`;
    declared.add(String((t as { function: { name: string } }).function.name));
  }
  if (body.reasoning_effort !== undefined && model === "kimi-k3" && !K3_EFFORTS.includes(String(body.reasoning_effort)))
    return `Invalid request: reasoning_effort must be one of ${K3_EFFORTS.join(", ")}`;
  for (const [i, m] of body.messages.entries()) {
    const where = `messages[${i}]`;
    if (!isObj(m)) return `Invalid request: ${where} must be an object`;
    if (m.role === "system" && "tools" in m) {
      if (!DYNAMIC_MODELS.includes(model)) return "tokenization failed";
      const extra = Object.keys(m).filter((k) => k !== "role" && k !== "tools");
      if (extra.length > 0)
        return `Invalid request: ${where}: additional properties are not allowed (${extra.map((k) => `'${k}'`).join(", ")} ${extra.length === 1 ? "was" : "were"} unexpected)`;
      if (!Array.isArray(m.tools) || m.tools.length === 0) return `Invalid request: ${where}.tools must be a non-empty array`;
      for (const [j, t] of m.tools.entries()) {
        const p = functionProblem(t, `${where}.tools[${j}]`);
        if (p) return `Invalid request: ${p}`;
        declared.add(String((t as { function: { name: string } }).function.name));
      }
      continue;
    }
    if (m.role === "assistant") {
      for (const c of Array.isArray(m.tool_calls) ? m.tool_calls : []) {
        const name = isObj(c) && isObj(c.function) ? String(c.function.name) : "";
        if (!declared.has(name)) return `Invalid request: ${where} calls tool "${name}", which is not declared before it`;
      }
      if ((m.content === "" || m.content === null || m.content === undefined) && !Array.isArray(m.tool_calls))
        return `Invalid request: ${where}: message content must not be empty`;
      continue;
    }
    if (m.content === "" || m.content === null || m.content === undefined) return `Invalid request: ${where}: message content must not be empty`;
  }
  return undefined;
}
