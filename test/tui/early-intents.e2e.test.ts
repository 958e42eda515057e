// What an extension sends while zot is still loading reaches the interactive UI: a `submit` right
// after `ready` starts a turn, and a note sent then is shown.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { ROOT, useTmux } from "./helpers/tmux.ts";

const tui = useTmux();

const SUBMITTER = join(ROOT, "test", "fixtures", "ext", "submit-at-start");

test("a submit sent right after ready starts a turn, and the early note is shown", async () => {
  const t = await tui.start({ args: ["-e", SUBMITTER] });
  const s = await t.waitFor("mock: early bird prompt");
  expect(s).toContain("› early bird prompt");
  expect(s).toContain("early bird note");
  // The turn follows the startup line instead of coming before it.
  expect(s.indexOf("zot · mock/")).toBeLessThan(s.indexOf("› early bird prompt"));
}, 30_000);

test("a prompt given on the command line runs first; the extension's submit queues behind it", async () => {
  const t = await tui.start({ args: ["-e", SUBMITTER, "typed first"] });
  const s = await t.waitFor("mock: early bird prompt");
  expect(s).toContain("› typed first");
  expect(s.indexOf("› typed first")).toBeLessThan(s.indexOf("› early bird prompt"));
}, 30_000);
