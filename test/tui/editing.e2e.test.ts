// Keys and editing in a real terminal: esc twice for a long draft, undo, ctrl+r history search,
// ctrl+g in $EDITOR, `!cmd`, ctrl+z and fg, tab completion of arguments, the `/` popup's selection.
import { expect, test } from "bun:test";
import { chmodSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useTmux } from "./helpers/tmux.ts";
import { tempDir } from "../helpers/temp.ts";

const tui = useTmux();

const T = 30_000;
const READY = "Ask anything";

test(
  "esc on a long draft asks for a second esc; ctrl+_ brings the text back",
  async () => {
    const t = await tui.start();
    await t.waitFor(READY);
    t.type("this draft is long enough that one esc must not eat it");
    t.keys("Escape");
    await t.waitFor("Press esc again to clear the draft");
    expect(t.screen()).toContain("› this draft is long enough");
    t.keys("Escape");
    await t.waitGone("this draft is long enough");
    t.keys("C-_");
    await t.waitFor("› this draft is long enough that one esc must not eat it");
  },
  T,
);

test(
  "ctrl+r finds an earlier prompt by what it contained",
  async () => {
    const t = await tui.start();
    await t.waitFor(READY);
    t.send("alpha prompt");
    await t.waitFor("mock: alpha prompt");
    t.send("beta prompt");
    await t.waitFor("mock: beta prompt");
    t.keys("C-r");
    await t.waitFor("Search prompt history");
    t.type("alph");
    const found = await t.waitFor("filter: alph");
    expect(found.split("\n").filter((l) => l.includes("beta prompt"))).toHaveLength(2);
    t.keys("Enter");
    await t.until(() => {
      const lines = t.screen().trimEnd().split("\n");
      return lines[lines.length - 2] === "› alpha prompt";
    }, "the recalled prompt in the editor");
  },
  T,
);

test(
  "ctrl+g edits the prompt in $EDITOR and brings the text back",
  async () => {
    const dir = tempDir("zot-editor-");
    const script = join(dir, "fake-editor.sh");
    writeFileSync(script, `#!/bin/sh\nprintf '%s and more from the editor' "$(cat "$1")" > "$1"\n`);
    chmodSync(script, 0o755);
    tui.defer(() => rmSync(dir, { recursive: true, force: true }));
    const t = await tui.start({ env: { VISUAL: script } });
    await t.waitFor(READY);
    t.type("draft");
    t.keys("C-g");
    await t.waitFor("› draft and more from the editor");
    expect(t.display("#{alternate_on}")).toBe("1");
  },
  T,
);

test(
  "!cmd shows the command's output without asking the model; !!cmd sends it",
  async () => {
    const t = await tui.start();
    await t.waitFor(READY);
    t.send("!echo private-$((6*7))");
    const s = await t.waitFor("✓ ! echo private-$((6*7))");
    expect(s).toContain("│ private-42");
    expect(s).not.toContain("mock:");
    t.send("!!echo shared-$((6*7))");
    await t.waitFor("mock: I ran echo shared-$((6*7)) in the shell");
  },
  T,
);

test(
  "!cmd waits while a turn runs instead of running beside it",
  async () => {
    const t = await tui.start();
    await t.waitFor(READY);
    t.send('call bash {"command":"sleep 2"}');
    await t.waitFor("enter steers the running turn");
    t.send("!echo later");
    await t.waitFor("A turn is running; run the ! command when it has finished");
    expect(t.screen()).toContain("› !echo later");
    await t.waitFor("mock: tool bash returned", 15_000);
    t.keys("Enter");
    await t.waitFor("✓ ! echo later");
  },
  T,
);

test(
  "ctrl+z suspends zot to the shell and fg brings the screen back",
  async () => {
    const t = await tui.start();
    await t.waitFor(READY);
    t.type("kept draft");
    t.keys("C-z");
    await t.waitFor(/Stopped/);
    expect(t.display("#{alternate_on}")).toBe("0");
    t.send("fg");
    await t.waitFor("› kept draft");
    expect(t.display("#{alternate_on}")).toBe("1");
    t.keys("Enter");
    await t.waitFor("mock: kept draft");
  },
  T,
);

test(
  "tab completes a command's argument",
  async () => {
    const t = await tui.start();
    await t.waitFor(READY);
    t.type("/theme li");
    t.keys("Tab");
    await t.waitFor("› /theme light");
  },
  T,
);

test(
  "the / popup opens with its first entry selected even after another was used",
  async () => {
    const t = await tui.start();
    await t.waitFor(READY);
    t.type("/");
    await t.waitFor("keys and commands");
    t.keys("Down", "Down", "Down");
    await t.waitFor("› /session ");
    t.keys("Escape");
    await t.waitGone("keys and commands");
    t.keys("C-u");
    await t.waitFor(READY);
    t.type("/");
    const s = await t.waitFor("keys and commands");
    expect(s).toMatch(/› \/help/);
  },
  T,
);
