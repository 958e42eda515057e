// /ext-config in a real terminal: the settings form of an extension that waits for a required
// secret, saving it (masked as typed), and the extension starting once it has it.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { waitFor } from "../helpers/wait.ts";
import { useTmux } from "./helpers/tmux.ts";

const CONFIGURED = resolve(import.meta.dir, "../fixtures/ext/configured");
const SECRET = "wx-secret-typed-in-the-form";

const tui = useTmux();

test("/ext-config lists the settings, takes a secret masked, stores it and starts the extension that needed it", async () => {
  const t = await tui.start({ args: ["-e", CONFIGURED] });
  await t.waitFor("Ask anything");
  t.send("/ext-config configured");
  const form = await t.waitFor("Settings of configured");
  expect(form).toContain("api_key");
  expect(form).toContain("(unset)  secret, required");
  expect(form).toContain('"metric" (default)  enum');
  t.keys("Enter");
  await t.waitFor("configured: api_key");
  t.type(SECRET);
  const typing = await t.waitFor("•••");
  expect(typing).not.toContain(SECRET);
  t.keys("Enter");
  const saved = await t.waitFor("api_key saved", 15_000);
  expect(saved).not.toContain(SECRET);
  expect(saved).toContain("Settings of configured");
  expect(saved).toContain("(set)  secret, required");
  const stored = JSON.parse(readFileSync(join(t.home, "extension-settings", "configured.json"), "utf8"));
  expect(stored).toEqual({ values: { api_key: SECRET }, secrets: ["api_key"] });
  t.keys("Escape");
  const log = () => readFileSync(join(t.home, "logs", "ext-configured.log"), "utf8");
  await waitFor(() => log().includes("registration complete"), 15_000);
  expect(log()).not.toContain(SECRET);
}, 60_000);

test("an enum setting is a choice among its values", async () => {
  const t = await tui.start({ args: ["-e", CONFIGURED] });
  await t.waitFor("Ask anything");
  t.send("/ext-config configured");
  await t.waitFor("Settings of configured");
  t.send("units");
  const choice = await t.waitFor("configured: units");
  expect(choice).toContain("imperial");
  t.keys("Down", "Enter");
  await t.waitFor("units saved (imperial)", 15_000);
}, 60_000);
