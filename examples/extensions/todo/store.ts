// The todo list and its file: `todos.json` in the extension's data_dir, rewritten atomically.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export type Todo = { text: string; done: boolean };

export class Store {
  readonly path: string;
  items: Todo[] = [];

  constructor(dataDir: string) {
    this.path = join(dataDir, "todos.json");
    this.items = load(this.path);
  }

  add(text: string): Todo {
    const todo = { text: text.trim(), done: false };
    this.items.push(todo);
    this.save();
    return todo;
  }

  toggle(index: number): Todo | null {
    const todo = this.items[index];
    if (!todo) return null;
    todo.done = !todo.done;
    this.save();
    return todo;
  }

  remove(index: number): Todo | null {
    const [todo] = this.items.splice(index, 1);
    if (!todo) return null;
    this.save();
    return todo;
  }

  /** One line per item, numbered from 1 (the numbers the tool and the model use). */
  list(): string {
    if (!this.items.length) return "The todo list is empty.";
    return this.items.map((t, i) => `${i + 1}. [${t.done ? "x" : " "}] ${t.text}`).join("\n");
  }

  private save(): void {
    const tmp = `${this.path}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.items, null, 2) + "\n");
    renameSync(tmp, this.path);
  }
}

function load(path: string): Todo[] {
  if (!existsSync(path)) return [];
  try {
    const raw: unknown = JSON.parse(readFileSync(path, "utf8"));
    if (!Array.isArray(raw)) return [];
    return raw
      .filter((t): t is { text: string; done?: unknown } => typeof t === "object" && t !== null && typeof (t as { text?: unknown }).text === "string")
      .map((t) => ({ text: t.text, done: t.done === true }));
  } catch (e) {
    console.error(`todo: ${path} is not valid JSON (${e instanceof Error ? e.message : String(e)}); starting with an empty list.`);
    return [];
  }
}
