// The `todo` tool: the model keeps a short checklist of its plan. Each call replaces the whole list;
// the list itself is read back from the conversation (agent/todos.ts), so this only checks it.
import { decodeTodoItems } from "../../protocol.ts";
import { TODO_TOOL, todoText } from "../todos.ts";
import { textResult } from "./common.ts";
import { customParam, defineTool } from "./define.ts";

const DESCRIPTION = `Keep a todo list for a task with several steps, shown to the user while you work. Each call replaces the whole list: send every item, each with its status (pending, in_progress or done). Keep one item in_progress at a time and mark items done as soon as they are; skip the list for a one-step task.`;

const ITEMS_SCHEMA = {
  type: "array",
  description: "The whole list, in order.",
  items: {
    type: "object",
    properties: {
      text: { type: "string", description: "What the step is." },
      status: { type: "string", enum: ["pending", "in_progress", "done"] },
    },
    required: ["text", "status"],
  },
};

const itemsParam = customParam(ITEMS_SCHEMA, (v) => {
  const items = decodeTodoItems(v);
  return items.ok ? items : { ok: false, error: `todo: ${items.error}.` };
});

export const todoTool = defineTool({
  name: TODO_TOOL,
  description: DESCRIPTION,
  params: { items: itemsParam },
  preview(args) {
    const items = decodeTodoItems(args.items);
    if (!items.ok) return "todo";
    const done = items.value.filter((t) => t.status === "done").length;
    return `todo ${done}/${items.value.length} done`;
  },
  async execute({ items }) {
    return textResult(`Todo list updated:\n${todoText(items)}`);
  },
});
