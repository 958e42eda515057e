import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decodeTheme, findThemeFile, isColor, loadTheme, parseTheme } from "../../src/ext/install/theme-file.ts";
import { tempDir } from "./cli-helpers.ts";

describe("theme colours", () => {
  test("accepts #rrggbb in either case and integers from 0 to 255", () => {
    for (const ok of ["#000000", "#FfA0b1", 0, 42, 255]) expect(isColor(ok)).toBe(true);
  });

  test("rejects short hex, names, fractions and out-of-range numbers", () => {
    for (const bad of ["#fff", "red", "#gggggg", "000000", 1.5, -1, 256, null, true]) expect(isColor(bad)).toBe(false);
  });
});

describe("decodeTheme", () => {
  test("keeps known roles and their colours", () => {
    const t = decodeTheme({ name: "Night", colors: { text: "#ffffff", accent: 33 } }, "night.json");
    expect(t).toEqual({ ok: true, name: "Night", colors: { text: "#ffffff", accent: 33 }, warnings: [] });
  });

  test("ignores unknown roles with a warning naming the role", () => {
    const t = decodeTheme({ name: "Night", colors: { text: "#ffffff", glitter: "#000000" } }, "night.json");
    expect(t.ok).toBe(true);
    if (!t.ok) return;
    expect(t.colors).toEqual({ text: "#ffffff" });
    expect(t.warnings).toHaveLength(1);
    expect(t.warnings[0]).toContain('"glitter"');
  });

  test("rejects the whole theme when one colour is bad, naming theme and role", () => {
    const t = decodeTheme({ name: "Night", colors: { text: "#ffffff", error: "#12" } }, "night.json");
    expect(t.ok).toBe(false);
    if (t.ok) return;
    expect(t.error).toContain('"Night"');
    expect(t.error).toContain('"error"');
    expect(t.error).toContain("night.json");
  });

  test("requires a name and a colors object", () => {
    expect(decodeTheme({ colors: {} }, "a.json").ok).toBe(false);
    expect(decodeTheme({ name: "x" }, "a.json").ok).toBe(false);
    expect(decodeTheme({ name: "x", colors: [] }, "a.json").ok).toBe(false);
    expect(decodeTheme([], "a.json").ok).toBe(false);
  });

  test("parseTheme reports invalid JSON with the file name", () => {
    const t = parseTheme("{nope", "/t/theme.json");
    expect(t.ok).toBe(false);
    if (!t.ok) expect(t.error).toContain("/t/theme.json");
  });
});

describe("theme files", () => {
  test("theme.json is preferred over themes/theme.json", () => {
    const dir = tempDir();
    mkdirSync(join(dir, "themes"));
    writeFileSync(join(dir, "themes", "theme.json"), "{}");
    expect(findThemeFile(dir)).toBe(join(dir, "themes", "theme.json"));
    writeFileSync(join(dir, "theme.json"), "{}");
    expect(findThemeFile(dir)).toBe(join(dir, "theme.json"));
  });

  test("a directory without a theme file has none", () => {
    expect(findThemeFile(tempDir())).toBeNull();
  });

  test("loadTheme attaches the extension and path, or returns null with the reason as a warning", () => {
    const dir = tempDir();
    const path = join(dir, "theme.json");
    writeFileSync(path, JSON.stringify({ name: "Sun", colors: { text: 15 } }));
    expect(loadTheme(path, "sun-ext")).toEqual({ theme: { name: "Sun", colors: { text: 15 }, extension: "sun-ext", path }, warnings: [] });
    writeFileSync(path, JSON.stringify({ name: "Sun", colors: { text: 300 } }));
    const bad = loadTheme(path, "sun-ext");
    expect(bad.theme).toBeNull();
    expect(bad.warnings.join(" ")).toContain('"text"');
  });
});
