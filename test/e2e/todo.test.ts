// The todo tool through the built binary: the `todo` event in --json and RPC, the event an
// extension subscribed to, and the list kept in the session for `zot -c`.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { jsonLines, mockScript, useZotHome } from "./zot.ts";

const e2e = useZotHome({ prefix: "zot-todo-e2e-" });
const WATCHER = resolve(import.meta.dir, "../fixtures/ext/todo-watcher");

const PLAN = [
  { text: "read the code", status: "done" },
  { text: "write the fix", status: "in_progress" },
  { text: "run the tests", status: "pending" },
];

test("--json emits the whole list when the model sets it, and an extension subscribed to todo receives it", async () => {
  const path = mockScript(e2e.root, [
    { tool_calls: [{ name: "todo", args: { items: PLAN } }] },
    { tool_calls: [{ name: "todo", args: { items: [{ text: "oops", status: "started" }] } }] },
    { text: "planned" },
  ]);
  const r = await e2e.run(["--mock-script", path, "--json", "-e", WATCHER, "plan it"], { cwd: e2e.root });
  expect(r.code).toBe(0);
  const todos = jsonLines(r.stdout).filter((e) => e.type === "todo");
  // The refused second call changes nothing, so there is one event.
  expect(todos).toEqual([{ type: "todo", items: PLAN }]);
  const seen = readFileSync(join(e2e.root, "todo-events.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(seen).toEqual([PLAN]);
});

test("the list is kept in the session: after zot -c, RPC get_state has it, and a change is an event", async () => {
  const first = mockScript(e2e.root, [{ tool_calls: [{ name: "todo", args: { items: PLAN } }] }, { text: "planned" }]);
  expect((await e2e.run(["--mock-script", first, "-p", "plan it"], { cwd: e2e.root })).code).toBe(0);
  const done = PLAN.map((t) => ({ ...t, status: "done" }));
  const second = mockScript(e2e.root, [{ tool_calls: [{ name: "todo", args: { items: done } }] }, { text: "finished" }]);
  const rpc = e2e.rpc(["-c", "--mock-script", second], { cwd: e2e.root });
  expect(((await rpc.request({ type: "get_state" })).data as { todos: unknown }).todos).toEqual(PLAN);
  await rpc.request({ type: "prompt", message: "finish" });
  const ev = await rpc.waitFor((f) => f.type === "todo");
  expect(ev.items).toEqual(done);
  await rpc.waitFor((f) => f.type === "done");
  expect(((await rpc.request({ type: "get_state" })).data as { todos: unknown }).todos).toEqual(done);
  expect((await rpc.close()).code).toBe(0);
});
