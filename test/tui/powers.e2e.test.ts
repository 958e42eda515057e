// A rewritten tool call in a real terminal: the approval dialog and the tool's block show the
// arguments that will run and name the extension that changed them.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { useTmux } from "./helpers/tmux.ts";

const tui = useTmux();
const FIXTURE = resolve(import.meta.dir, "../fixtures/ext/powers");

test("the approval dialog and the tool block name the extension that rewrote the call", async () => {
  const manifest = { name: "powers", version: "1.0.0", exec: "/usr/bin/python3", args: ["powers.py"], permissions: { powers: ["rewrite_tool_calls"] } };
  const t = await tui.start({
    args: ["--no-yolo", "-e", "../powers"],
    files: {
      "powers/extension.json": JSON.stringify(manifest),
      "powers/powers.py": readFileSync(join(FIXTURE, "powers.py")),
      "powers/powers.json": JSON.stringify({ intercept: ["tool_call"], rewrite_command: "printf rewritten-run" }),
    },
  });
  await t.waitFor("Ask anything");
  t.send('call bash {"command":"printf the-model-asked"}');
  let s = await t.waitFor("Allow bash?");
  expect(s).toContain("⚠ arguments rewritten by extension powers (the model asked for others)");
  expect(s).toContain("$ printf rewritten-run");
  t.keys("1");
  s = await t.waitFor("mock: tool bash returned: rewritten-run");
  expect(s).toContain("✓ bash printf rewritten-run");
  expect(s).toContain("⚠ arguments rewritten by extension powers");
}, 40_000);
