// The built-in tool set and the `--tools a,b` selection.
import type { Tool } from "../tool.ts";
import { bashTool } from "./bash.ts";
import { bashKillTool } from "./bash-kill.ts";
import { bashOutputTool } from "./bash-output.ts";
import { editTool } from "./edit.ts";
import { readTool } from "./read.ts";
import { skillTool } from "./skill.ts";
import { taskTool } from "./task.ts";
import { todoTool } from "./todo.ts";
import { webFetchTool } from "./web-fetch.ts";
import { writeTool } from "./write.ts";

/** In the order they are offered to the model (the order of `BUILTIN_TOOLS`). */
export function builtinTools(): Tool[] {
  return [readTool, writeTool, editTool, bashTool, bashOutputTool, bashKillTool, todoTool, webFetchTool, skillTool, taskTool];
}

/** `null` means all built-ins; names are matched exactly (after trimming) and keep the built-in order. */
export function selectTools(names: readonly string[] | null): { tools: Tool[]; error?: string } {
  const all = builtinTools();
  if (names === null) return { tools: all };
  const wanted = names.map((n) => n.trim()).filter((n) => n !== "");
  const unknown = wanted.filter((n) => !all.some((t) => t.name === n));
  if (unknown.length > 0) {
    const list = unknown.map((n) => `"${n}"`).join(", ");
    return {
      tools: [],
      error: `Unknown tool${unknown.length === 1 ? "" : "s"} ${list} in --tools; the built-in tools are ${all.map((t) => t.name).join(", ")}.`,
    };
  }
  return { tools: all.filter((t) => wanted.includes(t.name)) };
}
