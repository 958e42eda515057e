// Settings secrets on screen: the `echoer` fixture puts its secret in a note, a command's display
// note and a tool's output; the TUI masks it in each, as print mode does, and a secret changed with
// `zot ext config` while zot runs is masked after /reload-ext too.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ZOT, useTmux } from "./helpers/tmux.ts";

const tui = useTmux();
const ECHOER = resolve(import.meta.dir, "../fixtures/ext/echoer");
const FIRST = "sk-first-tui-secret-000111";
const SECOND = "sk-second-tui-secret-000222";

test("a secret setting is masked in notes, display notes and tool output, also after zot ext config changes it", async () => {
  const t = await tui.start({
    width: 120,
    files: {
      "home/extensions/echoer/extension.json": readFileSync(join(ECHOER, "extension.json")),
      "home/extensions/echoer/echoer.py": readFileSync(join(ECHOER, "echoer.py")),
      "home/extension-settings/echoer.json": JSON.stringify({ values: { api_key: FIRST }, secrets: ["api_key"] }),
    },
  });
  let s = await t.waitFor("note key sk-f…[redacted]");
  t.send("/showkey");
  s = await t.waitFor("display key sk-f…[redacted]");
  t.send("call reveal {}");
  s = await t.waitFor("tool key sk-f…[redacted]");
  expect(s).not.toContain(FIRST);

  const config = Bun.spawnSync([ZOT, "ext", "config", "echoer", `api_key=${SECOND}`], {
    env: { ...process.env, ZOT_HOME: t.home },
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(config.stderr.toString()).toBe("");
  expect(config.exitCode).toBe(0);
  t.send("/reload-ext echoer");
  s = await t.waitFor("note key sk-s…[redacted]");
  expect(s).not.toContain(SECOND);
  expect(s).not.toContain(FIRST);
}, 40_000);
