// /theme in a real terminal: the picker previews live and the choice is saved in config.json.
import { expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixture, useTmux } from "./helpers/tmux.ts";
import { dark, light, toXterm256 } from "../../src/tui/terminal/theme.ts";
import { tempDir } from "../helpers/temp.ts";

const tui = useTmux();

const accent = (hex: string) => `38;5;${toXterm256(hex)}m›`;

test("/theme previews themes as the selection moves and saves the pick", async () => {
  const t = await tui.start({ args: ["-e", fixture("ocean")] });
  await t.waitFor("Ask anything");
  expect(t.screen(true)).toContain(accent(dark.accent as string));
  t.send("/theme");
  const s = await t.waitFor("ocean");
  expect(s).toContain("light");
  t.keys("Down");
  await t.waitFor(accent(light.accent as string), 10_000, true);
  t.send("oce");
  await t.waitFor("Theme: ocean (saved)");
  await t.waitFor(accent("#00d7ff"), 10_000, true);
  const config = JSON.parse(readFileSync(join(t.home, "config.json"), "utf8"));
  expect(config.theme).toBe("ocean");
}, 30_000);

test("esc in the theme picker restores the previous theme", async () => {
  const t = await tui.start();
  await t.waitFor("Ask anything");
  t.send("/theme");
  await t.waitFor("light");
  t.keys("Down");
  await t.waitFor(accent(light.accent as string), 10_000, true);
  t.keys("Escape");
  await t.waitFor(accent(dark.accent as string), 10_000, true);
}, 30_000);

test("a bad theme file is reported in the chat and the theme is not offered", async () => {
  const dir = tempDir("zot-tui-theme-");
  const ext = join(dir, "badtheme");
  mkdirSync(ext);
  writeFileSync(join(ext, "extension.json"), JSON.stringify({ name: "badtheme", version: "1" }));
  writeFileSync(join(ext, "theme.json"), JSON.stringify({ name: "bad", colors: { text: "red" } }));
  const t = await tui.start({ args: ["-e", ext] });
  await t.waitFor('[badtheme] theme "bad"');
  t.send("/theme");
  const s = await t.waitFor("› dark");
  expect(s).not.toMatch(/^ {2}bad$/m);
}, 30_000);
