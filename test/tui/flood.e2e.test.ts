// A notify flood and a giant note in a real terminal: the notes stay a few lines, the editor keeps
// taking keys while the flood goes on, and the screen keeps its editor and status bar.
import { expect, test } from "bun:test";
import { fixture, type Tmux, useTmux } from "./helpers/tmux.ts";

const tui = useTmux();

const T = 40_000;

function run(tm: Tmux, text: string): void {
  tm.send(text);
}

test(
  "during a notify flood the notes merge into one counting line and typed text still reaches the editor",
  async () => {
    const t = await tui.start({ args: ["-e", fixture("flood")] });
    await t.waitFor("Ask anything");
    run(t, "/flood");
    await t.waitFor(/\+\d+ more notes \(more than 10 a second\)/, 15_000);
    t.type("typed while flooded");
    const s = await t.waitFor("› typed while flooded", 15_000);
    // Ten notes shown one by one, then the merged one (its latest text and the count): nothing more.
    expect(s.match(/^\[flood\] /gm)?.length).toBe(11);
    expect(s).toContain("mock/mock · ctx");
    t.keys("C-u");
    run(t, "/stop");
  },
  T,
);

test(
  "a note of 100 000 lines is cut to a few lines ending in +N lines; the editor and status bar stay",
  async () => {
    const t = await tui.start({ args: ["-e", fixture("flood")], height: 40 });
    await t.waitFor("Ask anything");
    run(t, "/bignote");
    const s = await t.waitFor(/\+99981 lines/, 15_000);
    expect(s).toContain("[flood] big line 0");
    expect(s).toContain("big line 18");
    expect(s).not.toContain("big line 19");
    expect(s).toContain("Ask anything");
    expect(s).toContain("mock/mock · ctx");
  },
  T,
);
