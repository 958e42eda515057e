// The Go zot's session commands over RPC: export, import, fork and the tree.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { useZotHome } from "./zot.ts";

const e2e = useZotHome();

type Data = Record<string, unknown>;
const data = (f: Record<string, unknown>) => f.data as Data;

test("session_fork branches before a prompt, get_session_tree shows the branch, export and import round-trip", async () => {
  const rpc = e2e.rpc(["--provider", "mock"], { env: { HOME: e2e.home } });
  for (const message of ["first question", "second question"]) {
    await rpc.request({ type: "prompt", message });
    await rpc.waitForNth((f) => f.type === "done", message === "first question" ? 1 : 2);
  }
  const original = data(await rpc.request({ type: "get_state" })).session as string;

  const fork = await rpc.request({ type: "session_fork", message: 1 });
  expect(fork).toMatchObject({ success: true, data: { text: "second question" } });
  const branch = data(fork).session as string;
  expect(branch).not.toBe(original);
  const messages = data(await rpc.request({ type: "get_messages" })).messages as { role: string }[];
  expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  expect(JSON.parse(readFileSync(branch, "utf8").split("\n")[0]!).meta).toMatchObject({
    fork_point: 2,
    parent: JSON.parse(readFileSync(original, "utf8").split("\n")[0]!).meta.id,
  });

  const tree = data(await rpc.request({ type: "get_session_tree" })).sessions as {
    path: string;
    current: boolean;
    children: { path: string; current: boolean; fork_point: number }[];
  }[];
  expect(tree).toHaveLength(1);
  expect(tree[0]).toMatchObject({ path: original, current: false, children: [{ path: branch, current: true, fork_point: 2 }] });

  const exported = await rpc.request({ type: "session_export" });
  expect(exported.success).toBe(true);
  const file = data(exported).path as string;
  expect(file.startsWith(join(e2e.home, "Downloads"))).toBe(true);
  expect(file).toEndWith("-first-question.zotsession");
  expect(JSON.parse(readFileSync(file, "utf8").split("\n")[0]!).meta.cwd).toBe("");

  const imported = await rpc.request({ type: "session_import", path: `"${file}"` });
  expect(imported).toMatchObject({ success: true });
  const copy = data(imported).session as string;
  expect(existsSync(copy)).toBe(true);
  expect(data(await rpc.request({ type: "get_state" }))).toMatchObject({ session: copy, message_count: 2 });

  expect(await rpc.request({ type: "session_fork", message: 7 })).toMatchObject({
    success: false,
    error: "The session has 1 prompt; there is no prompt 8 to fork at.",
  });
  expect(await rpc.request({ type: "session_import", path: join(e2e.home, "nope.zotsession") })).toMatchObject({ success: false });
});

test("session commands on a run without a transcript answer with a sentence", async () => {
  const rpc = e2e.rpc(["--provider", "mock", "--no-session"]);
  expect(await rpc.request({ type: "session_export" })).toMatchObject({ success: false, error: "this run keeps no session (--no-session)" });
  expect(await rpc.request({ type: "session_fork", message: "x" })).toMatchObject({ success: false });
  expect(await rpc.request({ type: "get_session_tree" })).toMatchObject({ success: true, data: { sessions: [] } });
});
