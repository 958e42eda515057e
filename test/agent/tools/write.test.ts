import { beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync, lstatSync } from "node:fs";
import { join } from "node:path";
import { writeTool } from "../../../src/agent/tools/write.ts";
import type { ToolContext, ToolOutput } from "../../../src/agent/tool.ts";
import { tempDir } from "../../helpers/temp.ts";

let dir: string;
beforeEach(() => {
  dir = tempDir("zot-write-");
});

const ctx = (): ToolContext => ({ cwd: dir, signal: new AbortController().signal, progress: () => {}, home: dir });
const text = (out: ToolOutput): string => out.content.map((c) => (c.type === "text" ? c.text : "")).join("");

describe("write", () => {
  test("creates missing parent directories and reports a short summary", async () => {
    const out = await writeTool.execute({ path: "a/b/c.txt", content: "one\ntwo\n" }, ctx());
    expect(out.isError).toBe(false);
    expect(readFileSync(join(dir, "a/b/c.txt"), "utf8")).toBe("one\ntwo\n");
    expect(text(out)).toBe(`Created ${join(dir, "a/b/c.txt")} (8 bytes, 2 lines).`);
  });

  test("overwrites an existing file, keeps its mode and leaves no temp file behind", async () => {
    const p = join(dir, "script.sh");
    writeFileSync(p, "old");
    chmodSync(p, 0o750);
    const out = await writeTool.execute({ path: p, content: "#!/bin/sh\necho new\n" }, ctx());
    expect(text(out)).toStartWith(`Overwrote ${p}`);
    expect(readFileSync(p, "utf8")).toBe("#!/bin/sh\necho new\n");
    expect(statSync(p).mode & 0o777).toBe(0o750);
    expect(readdirSync(dir)).toEqual(["script.sh"]);
  });

  test("writes through a symlink instead of replacing it", async () => {
    writeFileSync(join(dir, "real.txt"), "old");
    symlinkSync(join(dir, "real.txt"), join(dir, "link.txt"));
    await writeTool.execute({ path: "link.txt", content: "new" }, ctx());
    expect(lstatSync(join(dir, "link.txt")).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, "real.txt"), "utf8")).toBe("new");
  });

  test("refuses to write over a directory", async () => {
    mkdirSync(join(dir, "d"));
    const out = await writeTool.execute({ path: "d", content: "x" }, ctx());
    expect(out.isError).toBe(true);
    expect(text(out)).toContain("is a directory");
  });

  test("writes an empty file when content is empty", async () => {
    const out = await writeTool.execute({ path: "e.txt", content: "" }, ctx());
    expect(out.isError).toBe(false);
    expect(readFileSync(join(dir, "e.txt"), "utf8")).toBe("");
  });

  test("asks for content when it is missing", async () => {
    const out = await writeTool.execute({ path: "x.txt" }, ctx());
    expect(out.isError).toBe(true);
    expect(text(out)).toContain('"content"');
  });
});
