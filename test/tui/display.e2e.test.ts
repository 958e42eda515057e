// The transcript as displayed in a real terminal: the ctrl+t transcript view and its search, an
// edit's coloured, numbered diff, emoji that never push a line past the edge, and the editor's
// "↑ N more lines" when a draft is taller than its box.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { useTmux } from "./helpers/tmux.ts";

const tui = useTmux();

const T = 30_000;
const READY = "Ask anything";

test(
  "ctrl+t shows the whole transcript expanded; / searches and n moves between matches; esc goes back",
  async () => {
    const t = await tui.start({ height: 24 });
    await t.waitFor(READY);
    t.send('call bash {"command":"seq 1 80 | sed s/^/row-/"}');
    await t.waitFor("mock: tool bash returned");
    t.keys("C-t");
    let s = await t.waitFor(" transcript · lines");
    expect(s).toContain("row-80");
    t.type("/");
    t.send("row-7");
    // row-7 and row-70 … row-79, and the model's reply that quotes them.
    s = await t.waitFor("/row-7: 12 matching lines");
    const first = /lines (\d+)–/.exec(s)![1];
    expect(s).toContain("│ row-7\n");
    expect(s).not.toContain("row-80");
    t.type("n");
    s = await t.waitFor(new RegExp(`lines (?!${first}–)\\d+–`));
    expect(s).toContain("│ row-70");
    t.keys("Escape");
    s = await t.waitFor(READY);
    expect(s).not.toContain(" transcript · lines");
  },
  T,
);

test(
  "an edit's result shows its diff with line numbers, added lines green and removed lines red",
  async () => {
    const t = await tui.start({ height: 30 });
    writeFileSync(join(t.cwd, "a.txt"), "one\ntwo\nthree\n");
    await t.waitFor(READY);
    t.send('call edit {"path":"a.txt","edits":[{"oldText":"two","newText":"TWO"}]}');
    const s = await t.waitFor("mock: tool edit returned");
    expect(s).toMatch(/│ +2 - two/);
    expect(s).toMatch(/│ +2 \+ TWO/);
    const coloured = t
      .screen(true)
      .split("\n")
      .find((l) => l.includes("TWO") && l.includes("+"))!;
    expect(coloured).toMatch(/\x1b\[[0-9;]*m/);
  },
  T,
);

test(
  "a write over an existing file shows what it changed as a numbered diff",
  async () => {
    const t = await tui.start({ height: 30 });
    writeFileSync(join(t.cwd, "b.txt"), "keep\nold line\n");
    await t.waitFor(READY);
    t.send('call write {"path":"b.txt","content":"keep\\nnew line\\n"}');
    const s = await t.waitFor("mock: tool write returned");
    expect(s).toMatch(/│ +2 - old line/);
    expect(s).toMatch(/│ +2 \+ new line/);
  },
  T,
);

test(
  "lines with emoji sequences stay inside the screen in tmux",
  async () => {
    const t = await tui.start({ width: 40 });
    await t.waitFor(READY);
    const emoji = "👍🏽👨‍👩‍👧🏳️‍🌈".repeat(6);
    t.send(`${emoji} end`);
    await t.waitFor("mock:");
    await t.waitFor(/ end$/m);
    // Every row holding emoji starts where the chat's own wrapping put it: had a row run past the
    // edge, tmux would have wrapped its end onto the next row, which would then start with an emoji.
    const screen = t.screen().split("\n");
    const first = screen.findIndex((l) => l.startsWith("› 👍"));
    const prompt = screen.slice(first, screen.indexOf("", first));
    expect(prompt.length).toBe(3);
    for (const row of prompt.slice(1)) expect(row).toMatch(/^ {2}\S/);
    expect(prompt[2]).toMatch(/ end$/);
    // The status bar is still the bottom line (at this width the model name is cut to fit the sandbox label).
    expect(t.screen().trimEnd().split("\n").at(-1)).toMatch(/^mock\/m/);
  },
  T,
);

test(
  "a draft taller than the editor box shows ↑ N more lines",
  async () => {
    const t = await tui.start({ height: 15 });
    await t.waitFor(READY);
    for (let i = 1; i <= 9; i++) {
      t.type(`draft line ${i}`);
      if (i < 9) t.keys("C-j");
    }
    const s = await t.waitFor("draft line 9");
    expect(s).toContain("↑ 4 more lines");
    expect(s).not.toContain("draft line 4\n");
  },
  T,
);
