import { beforeEach, expect, test } from "bun:test";
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { replaceBinary, stagingPath, windowsAsidePath } from "../../src/platform/replace-binary.ts";
import { tempDir } from "../helpers/temp.ts";

let dir = "";
let current = "";
beforeEach(() => {
  dir = tempDir("zot-replace-");
  current = join(dir, "zot");
  writeFileSync(current, "old");
  chmodSync(current, 0o750);
});

test("the new binary is staged as a hidden file beside the old one, runnable on Windows too", () => {
  expect(stagingPath("/home/pat/.local/bin/zot", "linux", "ab12")).toBe("/home/pat/.local/bin/.zot.update-ab12");
  expect(stagingPath("C:\\Users\\pat\\AppData\\Local\\Programs\\zot\\zot.exe", "win32", "ab12")).toBe(
    "C:\\Users\\pat\\AppData\\Local\\Programs\\zot\\.zot.exe.update-ab12.exe",
  );
  expect(windowsAsidePath("C:\\zot\\zot.exe")).toBe("C:\\zot\\zot.exe.old");
});

test("a checked binary replaces the old one by rename and keeps its permissions", async () => {
  let checked = "";
  const problem = await replaceBinary(current, new TextEncoder().encode("new"), async (staged) => {
    checked = readFileSync(staged, "utf8");
    return null;
  });
  expect(problem).toBeNull();
  expect(checked).toBe("new");
  expect(readFileSync(current, "utf8")).toBe("new");
  expect(statSync(current).mode & 0o777).toBe(0o750);
  expect(readdirSync(dir)).toEqual(["zot"]);
});

test("a binary that fails its check is removed and the old one stays as it was", async () => {
  const problem = await replaceBinary(current, new TextEncoder().encode("broken"), async () => "it did not start.");
  expect(problem).toBe("it did not start.");
  expect(readFileSync(current, "utf8")).toBe("old");
  expect(readdirSync(dir)).toEqual(["zot"]);
});

test("the Windows swap parks the old binary aside and leaves the new one under the old name", async () => {
  const exe = join(dir, "zot.exe");
  writeFileSync(exe, "old");
  writeFileSync(windowsAsidePath(exe), "older, left by the last update");
  expect(await replaceBinary(exe, new TextEncoder().encode("new"), async () => null, "win32")).toBeNull();
  expect(readFileSync(exe, "utf8")).toBe("new");
  expect(readFileSync(windowsAsidePath(exe), "utf8")).toBe("old");
  expect(readdirSync(dir).sort()).toEqual(["zot", "zot.exe", "zot.exe.old"]);
});

test("a directory that cannot take the new file leaves nothing changed and says so", async () => {
  const missing = join(dir, "gone", "zot");
  let checked = false;
  const problem = await replaceBinary(missing, new TextEncoder().encode("new"), async () => {
    checked = true;
    return null;
  });
  expect(problem).toStartWith(`cannot write the new binary beside ${missing} (`);
  expect(problem).toEndWith("); nothing was changed.");
  expect(checked).toBe(false);
  expect(readdirSync(dir)).toEqual(["zot"]);
});
