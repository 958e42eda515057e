// The agent's todo list is a function of the conversation: the items of the last `todo` call that
// succeeded. So it is kept in the session with nothing new to store (a resumed or forked session
// has the list it had then) and `/clear` empties it. A summary from compaction replaces the calls
// it condenses, and with them the list.
import { decodeTodoItems, type TodoItem } from "../protocol.ts";
import type { Message } from "./messages.ts";

export type { TodoItem };

export const TODO_TOOL = "todo";

/** The current list: the last successful `todo` call's items (with the args it ran with, if an extension rewrote them). */
export function latestTodos(history: readonly Message[]): TodoItem[] {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i]!;
    if (m.role !== "toolResult" || m.toolName !== TODO_TOOL || m.isError) continue;
    const args = m.intercept?.args ?? callArgs(history, i, m.toolCallId);
    const items = args ? decodeTodoItems(args.items) : undefined;
    if (items?.ok) return items.value;
  }
  return [];
}

function callArgs(history: readonly Message[], before: number, id: string) {
  for (let i = before - 1; i >= 0; i--) {
    const m = history[i]!;
    if (m.role !== "assistant") continue;
    const call = m.content.find((p) => p.type === "toolCall" && p.id === id);
    if (call?.type === "toolCall") return call.args;
  }
  return undefined;
}

export function sameTodos(a: readonly TodoItem[], b: readonly TodoItem[]): boolean {
  return a.length === b.length && a.every((x, i) => x.text === b[i]!.text && x.status === b[i]!.status);
}

/** The list as text: `[x] done`, `[>] in progress`, `[ ] pending`. */
export function todoText(items: readonly TodoItem[]): string {
  if (items.length === 0) return "(the todo list is empty)";
  const mark = { done: "[x]", in_progress: "[>]", pending: "[ ]" } as const;
  return items.map((t) => `${mark[t.status]} ${t.text}`).join("\n");
}
