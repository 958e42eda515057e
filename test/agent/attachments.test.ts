// `@path` mentions: text files attached (cut with a note past the cap), images as image parts,
// binaries refused with a note, and words that only look like mentions left alone.
import { beforeEach, expect, test } from "bun:test";
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { attachMentions, attachmentPath } from "../../src/agent/attachments.ts";
import { READ_MAX_BYTES } from "../../src/agent/tools/read.ts";
import { tempDir } from "../helpers/temp.ts";

let dir: string;
beforeEach(() => {
  dir = tempDir("zot-attach-");
});

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d1a0e60000000049454e44ae426082",
  "hex",
);

test("a mentioned text file is attached whole, once, even when mentioned twice", () => {
  writeFileSync(join(dir, "a.ts"), "export const a = 1;\n");
  const m = attachMentions("look at @a.ts and again @a.ts.", dir);
  expect(m.parts).toEqual([{ type: "text", text: '<file path="a.ts">\nexport const a = 1;\n</file>' }]);
  expect(m.attached).toEqual([{ path: "a.ts", summary: "attached @a.ts (20 bytes)", level: "info" }]);
  expect(attachmentPath(m.parts[0] as { type: "text"; text: string })).toBe("a.ts");
});

test("a file over the cap is cut at a line, with a note saying where to read on", () => {
  const line = "y".repeat(99) + "\n";
  writeFileSync(join(dir, "big.txt"), line.repeat(Math.ceil((READ_MAX_BYTES * 2) / 100)));
  const m = attachMentions("@big.txt", dir);
  const text = (m.parts[0] as { text: string }).text;
  const shown = Math.floor(READ_MAX_BYTES / 100);
  expect(text).toContain(`[zot: cut to lines 1-${shown} of ${Math.ceil((READ_MAX_BYTES * 2) / 100)}`);
  expect(text).toContain(`use the read tool with offset ${shown + 1} for the rest]`);
  expect(m.attached[0]!.level).toBe("warn");
  expect(m.attached[0]!.summary).toContain("cut to");
});

test("an image is attached as an image block", () => {
  writeFileSync(join(dir, "dot.png"), PNG);
  const m = attachMentions("what is @dot.png", dir);
  expect(m.parts[1]).toEqual({ type: "image", mimeType: "image/png", data: PNG.toString("base64") });
  expect(m.attached[0]!.summary).toBe(`attached @dot.png as an image (${PNG.length} bytes)`);
});

test("binary files are not attached and say so; addresses and missing paths are not mentions", () => {
  writeFileSync(join(dir, "blob.bin"), Buffer.from([0, 1, 2, 3, 0, 5]));
  const m = attachMentions("mail me@example.com about @blob.bin and @missing.ts", dir);
  expect(m.parts).toEqual([]);
  expect(m.attached).toEqual([{ path: "blob.bin", summary: "@blob.bin is a binary file; not attached", level: "warn" }]);
});

test("a mention of a file that never ends (a symlink to /proc/self/pagemap) reads no more than the read tool would", () => {
  symlinkSync("/proc/self/pagemap", join(dir, "map"));
  symlinkSync("/proc/self/status", join(dir, "status"));
  const m = attachMentions("@map and @status", dir);
  expect(m.attached[0]).toMatchObject({ path: "map", level: "warn" });
  expect(m.attached[0]!.summary).toMatch(/^@map (is a binary file; not attached|could not be read \()/);
  expect(m.attached[1]).toMatchObject({ path: "status", level: "info" });
  expect(m.parts).toHaveLength(1);
  expect((m.parts[0] as { text: string }).text).toContain("VmRSS:");
});

test('@"a path with spaces" attaches that file (what a dropped image path becomes)', () => {
  writeFileSync(join(dir, "my shot.png"), PNG);
  const m = attachMentions('what is @"my shot.png" showing?', dir);
  expect(m.attached).toEqual([{ path: "my shot.png", summary: `attached @my shot.png as an image (${PNG.length} bytes)`, level: "info" }]);
  expect(m.parts[1]).toEqual({ type: "image", mimeType: "image/png", data: PNG.toString("base64") });
});
