// Code checkpoints end to end with the built binary and the mock model: files changed by write and by
// bash commands come back byte for byte after `zot -c`, over RPC, the rewind is undone, and a real
// extension receives the checkpoint and rewind events.
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES, useZotHome } from "./zot.ts";

const e2e = useZotHome({ homeDir: "home" });

type Data = Record<string, unknown>;
const data = (f: Record<string, unknown>) => f.data as Data;
const binary = Buffer.from([0, 1, 2, 255, 254, 10, 13, 0, 128]);
const call = (tool: string, args: object) => `call ${tool} ${JSON.stringify(args)}`;

test("a rewind over RPC restores what write and bash changed across zot -c, lists it first, is undone, and extensions hear of it", async () => {
  const project = join(e2e.root, "project");
  mkdirSync(project);
  writeFileSync(join(project, "a.txt"), "alpha\n");
  writeFileSync(join(project, "logo.bin"), binary);
  writeFileSync(join(project, "gone.txt"), "keep me\n");
  const log = join(e2e.root, "events.ndjson");
  const ext = ["-e", join(FIXTURES, "rewind-log")];
  const env = { REWIND_LOG: log };

  const first = [
    call("write", { path: "a.txt", content: "changed by write\n" }),
    call("bash", { command: "rm gone.txt && printf x > made.txt && printf 'new' > logo.bin" }),
  ].join("\n");
  const r1 = await e2e.run(["-p", "--provider", "mock", ...ext, first], { cwd: project, env });
  expect(r1.code).toBe(0);
  expect(readFileSync(join(project, "logo.bin"), "utf8")).toBe("new");
  // A later run goes on in the same session.
  const r2 = await e2e.run(["-c", "-p", "--provider", "mock", ...ext, call("write", { path: "a.txt", content: "second\n" })], { cwd: project, env });
  expect(r2.code).toBe(0);
  expect(readFileSync(join(project, "a.txt"), "utf8")).toBe("second\n");

  const rpc = e2e.rpc(["-c", "--provider", "mock", ...ext], { cwd: project, env });
  const dry = await rpc.request({ type: "rewind", prompt: 0, restore: "code", dry_run: true });
  expect(dry).toMatchObject({ success: true });
  expect(data(dry).changes).toEqual([
    { path: "a.txt", action: "change" },
    { path: "gone.txt", action: "restore" },
    { path: "logo.bin", action: "change" },
    { path: "made.txt", action: "remove" },
  ]);
  expect(readFileSync(join(project, "a.txt"), "utf8")).toBe("second\n");

  const done = await rpc.request({ type: "rewind", prompt: 0, restore: "code" });
  expect(done).toMatchObject({ success: true, data: { failed: [] } });
  expect(readFileSync(join(project, "a.txt"), "utf8")).toBe("alpha\n");
  expect(readFileSync(join(project, "logo.bin")).equals(binary)).toBe(true);
  expect(readFileSync(join(project, "gone.txt"), "utf8")).toBe("keep me\n");
  expect(existsSync(join(project, "made.txt"))).toBe(false);
  // Code only: the conversation stays as it was.
  expect(data(await rpc.request({ type: "get_state" }))).toMatchObject({ message_count: 8 });

  const undone = await rpc.request({ type: "rewind", undo: true });
  expect(undone).toMatchObject({ success: true });
  expect(readFileSync(join(project, "a.txt"), "utf8")).toBe("second\n");
  expect(readFileSync(join(project, "logo.bin"), "utf8")).toBe("new");
  expect(existsSync(join(project, "gone.txt"))).toBe(false);
  expect(readFileSync(join(project, "made.txt"), "utf8")).toBe("x");

  // Both: the files before the second prompt, and the conversation forked before it.
  const before = data(await rpc.request({ type: "get_state" })).session as string;
  const both = await rpc.request({ type: "rewind", prompt: 1, restore: "both" });
  expect(both).toMatchObject({ success: true, data: { text: call("write", { path: "a.txt", content: "second\n" }) } });
  expect(data(both).session).not.toBe(before);
  expect(readFileSync(join(project, "a.txt"), "utf8")).toBe("changed by write\n");
  expect(data(await rpc.request({ type: "get_state" }))).toMatchObject({ message_count: 4 });

  expect(await rpc.request({ type: "rewind", prompt: 9, restore: "code" })).toMatchObject({ success: false });
  expect(await rpc.request({ type: "rewind", prompt: 0, restore: "files" })).toMatchObject({
    success: false,
    error: 'rewind: "restore" must be one of both, conversation, code',
  });
  await rpc.close();

  const events = readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Data);
  expect(events.filter((e) => e.event === "checkpoint").map((e) => e.files)).toEqual([3, 3]);
  expect(events.filter((e) => e.event === "rewind").map((e) => [e.restore, e.prompt, e.files])).toEqual([
    ["code", 0, ["a.txt", "gone.txt", "logo.bin", "made.txt"]],
    ["undo", undefined, ["a.txt", "gone.txt", "logo.bin", "made.txt"]],
    ["both", 1, ["a.txt"]],
  ]);
});

test('with "checkpoints": false in config.json nothing is recorded and a code rewind says checkpoints are off', async () => {
  const project = join(e2e.root, "project");
  mkdirSync(project);
  writeFileSync(join(e2e.home, "config.json"), JSON.stringify({ checkpoints: false }));
  const rpc = e2e.rpc(["--provider", "mock"], { cwd: project });
  await rpc.request({ type: "prompt", message: call("write", { path: "a.txt", content: "x" }) });
  await rpc.waitFor((f) => f.type === "done");
  expect(await rpc.request({ type: "rewind", prompt: 0, restore: "code" })).toMatchObject({
    success: false,
    error: expect.stringContaining("code checkpoints are off"),
  });
  expect(await rpc.request({ type: "rewind", prompt: 0, restore: "conversation" })).toMatchObject({ success: true, data: { changes: [] } });
  expect(existsSync(join(e2e.home, "checkpoints"))).toBe(false);
  expect(readFileSync(join(project, "a.txt"), "utf8")).toBe("x");
});
