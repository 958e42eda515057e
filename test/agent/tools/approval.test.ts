// What the approval dialog is told a call will do: the whole command, an edit's diff, a write's new
// content or its diff against the existing file; the file on disk is never touched.
import { beforeEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bashTool } from "../../../src/agent/tools/bash.ts";
import { editTool } from "../../../src/agent/tools/edit.ts";
import { writeTool } from "../../../src/agent/tools/write.ts";
import { tempDir } from "../../helpers/temp.ts";

let dir: string;
beforeEach(() => {
  dir = tempDir("zot-approval-");
});

test("a bash approval carries the whole command, every line of it", () => {
  expect(bashTool.approval!({ command: "echo harmless\nrm -rf ~/work" }, dir)).toEqual({ kind: "command", command: "echo harmless\nrm -rf ~/work" });
});

test("an edit approval is the diff the edit will make, and the file stays as it was", () => {
  const p = join(dir, "util.ts");
  writeFileSync(p, "a\nb\nc\n");
  const d = editTool.approval!({ path: "util.ts", edits: [{ oldText: "b", newText: "B" }] }, dir);
  expect(d).toEqual({ kind: "diff", path: p, diff: `--- ${p}\n+++ ${p}\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c` });
  expect(readFileSync(p, "utf8")).toBe("a\nb\nc\n");
});

test("an edit runs on the file as it is when it runs, even after an approval of the file as it was", async () => {
  const p = join(dir, "util.ts");
  writeFileSync(p, "a\nb\nc\n");
  const args = { path: "util.ts", edits: [{ oldText: "b", newText: "B" }] };
  editTool.approval!(args, dir);
  // Same size, other bytes: the plan the approval read is stale and must not be written.
  writeFileSync(p, "x\nb\ny\n");
  const ctx = { cwd: dir, signal: new AbortController().signal, progress: () => {}, home: dir };
  expect((await editTool.execute(args, ctx)).isError).toBe(false);
  expect(readFileSync(p, "utf8")).toBe("x\nB\ny\n");
  // Unchanged since its approval, the edit is what the approval showed.
  editTool.approval!({ path: "util.ts", edits: [{ oldText: "y", newText: "Y" }] }, dir);
  expect((await editTool.execute({ path: "util.ts", edits: [{ oldText: "y", newText: "Y" }] }, ctx)).isError).toBe(false);
  expect(readFileSync(p, "utf8")).toBe("x\nB\nY\n");
});

test("an edit that will fail says why and shows its arguments", () => {
  writeFileSync(join(dir, "util.ts"), "a\n");
  const d = editTool.approval!({ path: "util.ts", edits: [{ oldText: "zzz", newText: "y" }] }, dir);
  expect(d.kind).toBe("json");
  expect(d.kind === "json" && d.note).toContain("This edit will fail: oldText was not found");
  expect(d.kind === "json" && d.json).toContain('"oldText": "zzz"');
});

test("a write approval shows a new file's content, or the diff against the file it replaces", () => {
  expect(writeTool.approval!({ path: "new.txt", content: "hello\n" }, dir)).toEqual({
    kind: "content",
    path: join(dir, "new.txt"),
    content: "hello\n",
    note: "new file",
  });
  const p = join(dir, "old.txt");
  writeFileSync(p, "one\ntwo\n");
  expect(writeTool.approval!({ path: "old.txt", content: "one\n2\n" }, dir)).toEqual({
    kind: "diff",
    path: p,
    diff: `--- ${p}\n+++ ${p}\n@@ -1,2 +1,2 @@\n one\n-two\n+2`,
  });
  expect(readFileSync(p, "utf8")).toBe("one\ntwo\n");
});

test("a write or edit over a FIFO is previewed as refused, without reading the pipe", () => {
  const fifo = join(dir, "pipe");
  expect(Bun.spawnSync(["mkfifo", fifo]).exitCode).toBe(0);
  const w = writeTool.approval!({ path: "pipe", content: "x" }, dir);
  expect(w).toMatchObject({ kind: "content", path: fifo, content: "x" });
  expect("note" in w && w.note).toStartWith(`This write will fail: Cannot write ${fifo}: it is a FIFO`);
  const e = editTool.approval!({ path: "pipe", edits: [{ oldText: "a", newText: "b" }] }, dir);
  expect(e.kind).toBe("json");
  expect("note" in e && e.note).toStartWith(`This edit will fail: Cannot edit ${fifo}: it is a FIFO`);
});
