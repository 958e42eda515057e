// The model's todo list in a real terminal: drawn above the editor while a turn runs, gone when
// the turn ends, and back in the next turn of the session resumed with zot -c.
import { expect, test } from "bun:test";
import { ZOT, useTmux } from "./helpers/tmux.ts";

const tui = useTmux();

const PLAN = JSON.stringify({
  items: [
    { text: "read the code", status: "done" },
    { text: "write the fix", status: "in_progress" },
    { text: "run the tests", status: "pending" },
  ],
});

test("the todo list shows above the editor while a turn runs, and again after zot -c", async () => {
  const t = await tui.start({ height: 40 });
  await t.waitFor("Ask anything");
  t.send(`call todo ${PLAN}\ncall bash {"command":"sleep 30"}`);
  let s = await t.waitFor("Todo · 1/3 done");
  const lines = s.split("\n");
  const head = lines.findIndex((l) => l.includes("Todo · 1/3 done"));
  expect(lines[head + 1]).toContain("✓ read the code");
  expect(lines[head + 2]).toContain("▸ write the fix");
  expect(lines[head + 3]).toContain("○ run the tests");
  // The list sits between the chat and the editor box.
  expect(lines.slice(head).some((l) => /^─{20,}/.test(l))).toBe(true);
  t.keys("Escape");
  await t.waitGone("Todo · 1/3 done");
  t.keys("C-d");
  await t.waitFor(/^shell\$\s*$/m);
  t.send(`'${ZOT}' --provider mock -c`);
  await t.waitFor("Ask anything");
  t.send('call bash {"command":"sleep 30"}');
  s = await t.waitFor("▸ write the fix");
  expect(s).toContain("Todo · 1/3 done");
  t.keys("Escape");
  await t.waitGone("Todo · 1/3 done");
}, 40_000);
