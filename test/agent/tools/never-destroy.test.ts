// write and edit change regular files only, and what they change keeps its owner, group, mode and
// hard links. Each case is a real special file in a temp dir (a FIFO, a device made with mknod, a
// listening unix socket), never the machine's own /dev entries.
import { beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, chownSync, linkSync, lstatSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Server } from "node:net";
import { editTool } from "../../../src/agent/tools/edit.ts";
import { writeTool } from "../../../src/agent/tools/write.ts";
import type { ToolContext, ToolOutput } from "../../../src/agent/tool.ts";
import { tempDir } from "../../helpers/temp.ts";

let dir: string;
beforeEach(() => {
  dir = tempDir("zot-destroy-");
});

const ctx = (): ToolContext => ({ cwd: dir, signal: new AbortController().signal, progress: () => {}, home: dir });
const text = (out: ToolOutput): string => out.content.map((c) => (c.type === "text" ? c.text : "")).join("");
const isRoot = process.getuid?.() === 0;

function sh(cmd: string): void {
  const r = Bun.spawnSync(["/bin/sh", "-c", cmd], { cwd: dir });
  if (r.exitCode !== 0) throw new Error(`${cmd} failed: ${r.stderr.toString()}`);
}

async function listenUnix(path: string): Promise<Server> {
  const { createServer } = await import("node:net");
  const server = createServer(() => {});
  await new Promise<void>((res) => server.listen(path, res));
  return server;
}

type Special = { name: string; kind: string; make: () => Promise<(() => void) | void>; rootOnly?: boolean };

const specials: Special[] = [
  { name: "a FIFO", kind: "a FIFO (named pipe)", make: async () => sh("mkfifo target") },
  {
    name: "a unix socket",
    kind: "a socket",
    make: async () => {
      const s = await listenUnix(join(dir, "target"));
      return () => s.close();
    },
  },
  { name: "a character device that discards writes (like /dev/null)", kind: "a character device", rootOnly: true, make: async () => sh("mknod target c 1 3") },
  { name: "a character device that is always full (like /dev/full)", kind: "a character device", rootOnly: true, make: async () => sh("mknod target c 1 7") },
];

describe("write and edit refuse targets that are not regular files", () => {
  for (const s of specials) {
    for (const via of ["directly", "through a symlink"] as const) {
      test.skipIf(s.rootOnly === true && !isRoot)(`${s.name}, named ${via}, is refused and left as it was`, async () => {
        const done = await s.make();
        try {
          const before = lstatSync(join(dir, "target"));
          const path = via === "directly" ? "target" : "link";
          if (via !== "directly") symlinkSync(join(dir, "target"), join(dir, "link"));
          const w = await writeTool.execute({ path, content: "replaced\n" }, ctx());
          expect(w.isError).toBe(true);
          expect(text(w)).toContain(`it is ${s.kind}, and write only changes regular files`);
          if (via !== "directly") expect(text(w)).toContain(`(it resolves to ${join(dir, "target")})`);
          const e = await editTool.execute({ path, edits: [{ oldText: "a", newText: "b" }] }, ctx());
          expect(e.isError).toBe(true);
          expect(text(e)).toContain(`it is ${s.kind}, and edit only changes regular files`);
          const after = lstatSync(join(dir, "target"));
          expect(after.ino).toBe(before.ino);
          expect(after.isFile()).toBe(false);
          if (via !== "directly") expect(lstatSync(join(dir, "link")).isSymbolicLink()).toBe(true);
        } finally {
          if (done) done();
        }
      });
    }
  }
});

describe("write and edit keep what the user has", () => {
  test("a symlink to a regular file is written through and stays a link", async () => {
    writeFileSync(join(dir, "real.txt"), "alpha\n");
    symlinkSync(join(dir, "real.txt"), join(dir, "link.txt"));
    const e = await editTool.execute({ path: "link.txt", edits: [{ oldText: "alpha", newText: "beta" }] }, ctx());
    expect(e.isError).toBe(false);
    expect(readFileSync(join(dir, "real.txt"), "utf8")).toBe("beta\n");
    expect(lstatSync(join(dir, "link.txt")).isSymbolicLink()).toBe(true);
  });

  test("a file with a second hard link is written in place, so both names see the new content", async () => {
    writeFileSync(join(dir, "a.txt"), "old content\n");
    linkSync(join(dir, "a.txt"), join(dir, "b.txt"));
    const ino = statSync(join(dir, "a.txt")).ino;
    const w = await writeTool.execute({ path: "a.txt", content: "new\n" }, ctx());
    expect(w.isError).toBe(false);
    expect(readFileSync(join(dir, "b.txt"), "utf8")).toBe("new\n");
    expect(statSync(join(dir, "a.txt")).ino).toBe(ino);
    expect(statSync(join(dir, "a.txt")).nlink).toBe(2);
    const e = await editTool.execute({ path: "b.txt", edits: [{ oldText: "new", newText: "edited" }] }, ctx());
    expect(e.isError).toBe(false);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("edited\n");
  });

  test.skipIf(!isRoot)("as root, a file owned by nobody stays owned by nobody, with its mode", async () => {
    const p = join(dir, "owned.txt");
    writeFileSync(p, "one\n");
    chownSync(p, 65534, 65534);
    chmodSync(p, 0o640);
    const w = await writeTool.execute({ path: p, content: "two\n" }, ctx());
    expect(w.isError).toBe(false);
    const e = await editTool.execute({ path: p, edits: [{ oldText: "two", newText: "three" }] }, ctx());
    expect(e.isError).toBe(false);
    const st = statSync(p);
    expect(readFileSync(p, "utf8")).toBe("three\n");
    expect([st.uid, st.gid]).toEqual([65534, 65534]);
    expect(st.mode & 0o7777).toBe(0o640);
  });
});
