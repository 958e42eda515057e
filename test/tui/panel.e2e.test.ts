// Extension panels in a real terminal: opened by a command, driven by keys (the fixture records
// the panel frames it receives), re-rendered, scrolled, resized and closed from both sides.
import { expect, test } from "bun:test";
import { fixture, type Tmux, useTmux } from "./helpers/tmux.ts";

const tui = useTmux();

const T = 30_000;

async function openPanel(): Promise<Tmux> {
  const t = await tui.start({ args: ["-e", fixture("demo")] });
  await t.waitFor("Ask anything");
  t.send("/demo-panel");
  await t.waitFor("╭─ Demo Panel");
  return t;
}

const panelFrames = (tm: Tmux, type: string) => tm.frames().filter((f) => f.type === type);

test(
  "a panel takes the keys, forwards them normalized and shows the extension's re-render",
  async () => {
    const tm = await openPanel();
    await tm.until(() => panelFrames(tm, "panel_resize").length > 0, "panel_resize on open");
    expect(panelFrames(tm, "panel_resize")[0]).toMatchObject({ panel_id: "demo-panel", width: 96 });

    const sent = ["Down", "Up", "Left", "Right", "Enter", "Tab", "Home", "End", "BSpace", "DC", "x"];
    for (const k of sent) tm.keys(k);
    await tm.waitFor(`Demo Panel (${sent.length} keys)`);
    const keys = panelFrames(tm, "panel_key").map((f) => (f.key === "rune" ? `rune:${f.text}` : f.key));
    expect(keys).toEqual(["down", "up", "left", "right", "enter", "tab", "home", "end", "backspace", "delete", "rune:x"]);
    const s = tm.screen();
    expect(s).toContain("last key: rune:x");
    // The editor never saw those keys.
    expect(s).toContain("› the panel has the keys · esc closes it");
  },
  T,
);

test(
  "pgdn scrolls a long panel locally when the extension ignores it",
  async () => {
    const tm = await openPanel();
    expect(tm.screen()).not.toContain("row 40");
    tm.keys("NPage");
    tm.keys("NPage");
    await tm.waitFor("│ row 40");
    expect(panelFrames(tm, "panel_key").map((f) => f.key)).toEqual(["pagedown", "pagedown"]);
    tm.keys("PPage");
    tm.keys("PPage");
    await tm.waitFor("│ last key: none");
  },
  T,
);

test(
  "esc and ctrl+c close the panel and tell the owner, without exiting zot",
  async () => {
    const tm = await openPanel();
    tm.keys("Escape");
    await tm.waitGone("Demo Panel");
    await tm.until(() => panelFrames(tm, "panel_close").length === 1, "panel_close to the extension");
    tm.send("/demo-panel");
    await tm.waitFor("╭─ Demo Panel");
    tm.keys("C-c");
    await tm.waitGone("Demo Panel");
    await tm.until(() => panelFrames(tm, "panel_close").length === 2, "a second panel_close");
    tm.type("typed-after");
    await tm.waitFor("› typed-after");
  },
  T,
);

test(
  "the extension can close its own panel",
  async () => {
    const tm = await openPanel();
    tm.keys("q");
    await tm.waitGone("Demo Panel");
    expect(panelFrames(tm, "panel_close")).toHaveLength(0);
  },
  T,
);

test(
  "a terminal resize sends panel_resize with the new size",
  async () => {
    const tm = await openPanel();
    await tm.until(() => panelFrames(tm, "panel_resize").length === 1, "the first panel_resize");
    tm.resize(80, 24);
    const frames = await tm.until(() => {
      const f = panelFrames(tm, "panel_resize");
      return f.length >= 2 ? f : null;
    }, "a second panel_resize");
    expect(frames[frames.length - 1]).toMatchObject({ panel_id: "demo-panel", width: 76 });
    await tm.waitFor(/╭─ Demo Panel ─+ 1-\d+\/42 ╮/);
  },
  T,
);

test(
  "when the owner exits, its panel closes with a note",
  async () => {
    const tm = await openPanel();
    tm.keys("k");
    await tm.waitGone("Demo Panel");
    const s = await tm.waitFor(/\[demo\] panel closed: .*demo/);
    expect(s).toContain("1 failed");
  },
  T,
);

test(
  "a panel opened with esc_key gets esc as a key and stays open; ctrl+c still closes it",
  async () => {
    const t = await tui.start({ args: ["-e", fixture("demo")] });
    await t.waitFor("Ask anything");
    t.send("/demo-escpanel");
    await t.waitFor("╭─ Demo Panel");
    expect(t.screen()).toContain("› the panel has the keys · ctrl+c closes it");
    t.keys("Escape");
    await t.waitFor("last key: esc");
    expect(t.screen()).toContain("╭─ Demo Panel");
    expect(panelFrames(t, "panel_close")).toEqual([]);
    t.keys("C-c");
    await t.waitGone("╭─ Demo Panel");
    await t.until(() => panelFrames(t, "panel_close").length === 1, "panel_close after ctrl+c");
  },
  T,
);
