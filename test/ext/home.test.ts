import { describe, expect, test } from "bun:test";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateDir, zotHome } from "../../src/platform/home.ts";
import { tempDir } from "./cli-helpers.ts";

describe("zotHome", () => {
  test("ZOT_HOME wins over everything else", () => {
    expect(zotHome({ ZOT_HOME: "/z", XDG_STATE_HOME: "/x", LOCALAPPDATA: "C:\\L" }, "linux", "/home/u")).toBe("/z");
    expect(zotHome({ ZOT_HOME: "/z" }, "darwin", "/Users/u")).toBe("/z");
  });

  test("XDG_STATE_HOME is used on every platform when ZOT_HOME is unset", () => {
    expect(zotHome({ XDG_STATE_HOME: "/x" }, "linux", "/home/u")).toBe("/x/zot");
    expect(zotHome({ XDG_STATE_HOME: "/x" }, "darwin", "/Users/u")).toBe("/x/zot");
    expect(zotHome({ XDG_STATE_HOME: "C:\\state" }, "win32", "C:\\Users\\u")).toBe("C:\\state\\zot");
  });

  test("macOS defaults to Application Support", () => {
    expect(zotHome({}, "darwin", "/Users/u")).toBe("/Users/u/Library/Application Support/zot");
  });

  test("Windows defaults to LOCALAPPDATA", () => {
    expect(zotHome({ LOCALAPPDATA: "C:\\Users\\u\\AppData\\Local" }, "win32", "C:\\Users\\u")).toBe("C:\\Users\\u\\AppData\\Local\\zot");
  });

  test("Linux and other systems default to ~/.local/state/zot", () => {
    expect(zotHome({}, "linux", "/home/u")).toBe("/home/u/.local/state/zot");
    expect(zotHome({}, "freebsd", "/home/u")).toBe("/home/u/.local/state/zot");
  });

  test("empty variables count as unset", () => {
    expect(zotHome({ ZOT_HOME: "", XDG_STATE_HOME: "" }, "linux", "/home/u")).toBe("/home/u/.local/state/zot");
  });

  test("resolving the home creates nothing on disk", () => {
    const base = tempDir();
    const home = zotHome({ ZOT_HOME: join(base, "home") });
    expect(existsSync(home)).toBe(false);
  });
});

describe("ensurePrivateDir", () => {
  test("creates missing parents and is idempotent", () => {
    const base = tempDir();
    const deep = join(base, "a", "b", "logs");
    expect(ensurePrivateDir(deep)).toBe(deep);
    expect(ensurePrivateDir(deep)).toBe(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
  });

  test("makes every directory it creates 0700 even under a permissive umask", () => {
    const base = tempDir();
    const old = process.umask(0o002);
    try {
      ensurePrivateDir(join(base, "a", "b"));
    } finally {
      process.umask(old);
    }
    expect(statSync(join(base, "a")).mode & 0o777).toBe(0o700);
    expect(statSync(join(base, "a", "b")).mode & 0o777).toBe(0o700);
  });
});
