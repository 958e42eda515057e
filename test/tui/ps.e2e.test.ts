// /ps in a real terminal: the background commands with their state, and enter stopping one.
import { expect, test } from "bun:test";
import { useTmux } from "./helpers/tmux.ts";

const tui = useTmux();

test("/ps lists background commands as they run and end; enter stops the selected one", async () => {
  const t = await tui.start({ height: 40 });
  await t.waitFor("Ask anything");
  t.send('call bash {"command":"sleep 300","background":true}\ncall bash {"command":"echo quick","background":true}');
  await t.waitFor("Started background command bg2");
  await t.waitFor("Background command bg2 exited with code 0: echo quick");
  t.send("/ps");
  let s = await t.waitFor("bg1  running");
  expect(s).toContain("pid ");
  expect(s).toContain("sleep 300");
  expect(s).toContain("bg2  exited with code 0");
  t.keys("Enter");
  s = await t.waitFor("bg1  killed (by SIGTERM)");
  await t.waitFor("Background command bg1 killed (by SIGTERM): sleep 300");
  t.keys("Escape");
  await t.waitGone("Background commands · enter stops");
  t.send("/ps");
  s = await t.waitFor("bg2  exited");
  expect(s).toContain("bg1  killed");
}, 30_000);
