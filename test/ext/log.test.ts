import { extensionLogPath } from "../../src/platform/home.ts";
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ExtensionLog } from "../../src/ext/connection/log.ts";
import { tempDir } from "../helpers/temp.ts";

test("the log path is $home/logs/ext-<name>.log", () => {
  expect(extensionLogPath("/h", "weather")).toBe("/h/logs/ext-weather.log");
});

test("opening creates logs/ with a 0600 file, appends, and rotates a log over 10 MiB to .log.1", () => {
  const home = tempDir("zot-log-");
  const first = ExtensionLog.open(home, "x");
  if (!first.ok) throw new Error(first.error);
  first.log.line("one");
  first.log.close();
  const again = ExtensionLog.open(home, "x");
  if (!again.ok) throw new Error(again.error);
  again.log.line("two\nthree");
  again.log.close();
  const path = extensionLogPath(home, "x");
  expect(readFileSync(path, "utf8")).toBe("[zot] one\n[zot] two\\nthree\n");
  expect(statSync(path).mode & 0o777).toBe(0o600);

  writeFileSync(path, Buffer.alloc(10 * 1024 * 1024 + 1, 0x61));
  const rotated = ExtensionLog.open(home, "x");
  if (!rotated.ok) throw new Error(rotated.error);
  rotated.log.line("fresh");
  rotated.log.close();
  expect(statSync(`${path}.1`).size).toBe(10 * 1024 * 1024 + 1);
  expect(readFileSync(path, "utf8")).toBe("[zot] fresh\n");
});

test("a log that cannot be opened is an error value naming the path", () => {
  const home = tempDir("zot-log-");
  mkdirSync(join(home, "logs"));
  mkdirSync(join(home, "logs", "ext-dir.log"));
  const r = ExtensionLog.open(home, "dir");
  expect(r.ok).toBe(false);
  if (!r.ok) expect(r.error).toContain("ext-dir.log");
  expect(existsSync(join(home, "logs", "ext-dir.log.1"))).toBe(false);
});
