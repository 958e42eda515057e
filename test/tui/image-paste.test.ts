// What a file dropped into the terminal pastes: image paths become @ mentions, anything else stays text.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { imageMentions } from "../../src/tui/components/image-paste.ts";
import { tempDir } from "../helpers/temp.ts";

const dir = tempDir("zot-drop-");
mkdirSync(join(dir, "my shots"));
writeFileSync(join(dir, "my shots", "a b.png"), "x");
writeFileSync(join(dir, "c.JPG"), "x");
writeFileSync(join(dir, "notes.txt"), "x");

test("quoted, backslash-escaped and file:// paths of images become mentions, relative inside the directory", () => {
  expect(imageMentions(`'${dir}/my shots/a b.png'`, dir)).toBe('@"my shots/a b.png" ');
  expect(imageMentions(`${dir}/my\\ shots/a\\ b.png ${dir}/c.JPG`, dir)).toBe('@"my shots/a b.png" @c.JPG ');
  expect(imageMentions(`file://${encodeURI(`${dir}/my shots/a b.png`)}`, dir)).toBe('@"my shots/a b.png" ');
  expect(imageMentions(`${dir}/c.JPG`, join(dir, "my shots"))).toBe(`@${dir}/c.JPG `);
});

test("text, missing files, non-images and a mix stay an ordinary paste", () => {
  expect(imageMentions("look at this", dir)).toBeNull();
  expect(imageMentions(`${dir}/missing.png`, dir)).toBeNull();
  expect(imageMentions(`${dir}/notes.txt`, dir)).toBeNull();
  expect(imageMentions(`${dir}/c.JPG ${dir}/notes.txt`, dir)).toBeNull();
  expect(imageMentions(`${dir}/c.JPG\n${dir}/c.JPG`, dir)).toBeNull();
  expect(imageMentions(`'${dir}/c.JPG`, dir)).toBeNull();
});
