import { expect, test } from "bun:test";
import { latestTodos, todoText } from "../../src/agent/todos.ts";
import { todoTool } from "../../src/agent/tools/todo.ts";
import type { Message } from "../../src/agent/messages.ts";
import type { JsonObject } from "../../src/json.ts";

const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 };
let n = 0;
function call(args: JsonObject, isError = false, intercepted?: JsonObject): Message[] {
  const id = `c${++n}`;
  return [
    { role: "assistant", content: [{ type: "toolCall", id, name: "todo", args }], stop: "tool_use", provider: "mock", model: "mock", usage, ts: 0 },
    {
      role: "toolResult",
      toolCallId: id,
      toolName: "todo",
      content: [{ type: "text", text: "ok" }],
      isError,
      ts: 0,
      ...(intercepted ? { intercept: { args: intercepted } } : {}),
    },
  ];
}

test("the list is the last successful todo call's items; a failed call changes nothing", () => {
  const first = {
    items: [
      { text: "read", status: "done" },
      { text: "write", status: "in_progress" },
    ],
  };
  const history = [...call(first), ...call({ items: "nope" }, true)];
  expect(latestTodos(history)).toEqual([
    { text: "read", status: "done" },
    { text: "write", status: "in_progress" },
  ]);
  expect(latestTodos([])).toEqual([]);
});

test("arguments an extension rewrote are the list the tool ran with", () => {
  const history = call({ items: [{ text: "model's", status: "pending" }] }, false, { items: [{ text: "rewritten", status: "done" }] });
  expect(latestTodos(history)).toEqual([{ text: "rewritten", status: "done" }]);
});

test("the tool refuses a bad status with a sentence naming the item and the allowed values", async () => {
  const r = await todoTool.execute(
    {
      items: [
        { text: "a", status: "pending" },
        { text: "b", status: "started" },
      ],
    },
    { cwd: "/", signal: new AbortController().signal, progress: () => {}, home: "/" },
  );
  expect(r.isError).toBe(true);
  expect(r.content[0]).toEqual({ type: "text", text: 'todo: items[1].status must be one of "pending", "in_progress", "done", got "started".' });
  const ok = await todoTool.execute(
    {
      items: [
        { text: "a", status: "done" },
        { text: "b", status: "pending" },
      ],
    },
    { cwd: "/", signal: new AbortController().signal, progress: () => {}, home: "/" },
  );
  expect(ok.content[0]).toEqual({ type: "text", text: "Todo list updated:\n[x] a\n[ ] b" });
  expect(todoText([])).toBe("(the todo list is empty)");
});
