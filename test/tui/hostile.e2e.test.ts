// Extensions that misbehave: escape sequences in notes, panels and tool output stay inert; a late
// panel replaces the open one and its owner is told; an extension exiting leaves exactly one note.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { fixture, type Tmux, useTmux } from "./helpers/tmux.ts";

const tui = useTmux();

const READY = "Ask anything";
const T = 30_000;

function run(tm: Tmux, text: string): void {
  tm.send(text);
}

/** The terminal state an escape sequence could have changed. */
const modes = (tm: Tmux) => tm.display("#{alternate_on} #{cursor_flag} #{pane_title}");

test(
  "escape sequences from notes, panels and tool output cannot clear, move, retitle or leave the screen",
  async () => {
    const t = await tui.start({ args: ["-e", fixture("hostile")] });
    await t.waitFor(READY);
    const before = modes(t);
    run(t, "/evil-notify");
    // The 8-bit CSI (U+009B) is removed on its own: what followed it stays, as text ("2J").
    let s = await t.waitFor("[hostile] shown-start2Jshown-end");
    expect(s).toContain("[hostile] note-start2Jnote-end");
    expect(s).toContain("● zot · mock/mock");
    run(t, "call evil_tool {}");
    s = await t.waitFor("mock: tool evil_tool returned: result-start2Jresult-end");
    expect(s).toContain("│ result-start2Jresult-end");
    run(t, "/evil-error");
    s = await t.waitFor("[hostile] error-start2Jerror-end");
    expect(s).toContain("● zot · mock/mock");
    t.type("/evil-e");
    s = await t.waitFor("fails2Jloudly");
    t.keys("C-u");
    run(t, "/evil-insert");
    // The lone carriage return in it is a line break; everything else is gone.
    s = await t.waitFor(/› insert-start\n {2}2Jinsert-end/);
    expect(s).toContain("● zot · mock/mock");
    t.keys("C-c");
    await t.waitGone("insert-start");
    expect(modes(t)).toBe(before);
    run(t, "/evil-panel");
    s = await t.waitFor("╭─ Evil2JTitle ─");
    expect(s).toMatch(/│ line-start2Jline-end +│/);
    expect(s).toMatch(/│ second line +│/);
    expect(s).toMatch(/│ foot2Jer +│/);
    expect(s).toContain("● zot · mock/mock");
    // The cursor is hidden while the panel has the keys; the screen and title are untouched.
    const [alt, , title] = modes(t).split(" ");
    expect(`${alt} ${title}`).toBe(`1 ${before.split(" ")[2]}`);
    expect(t.screen(true)).not.toContain("pwned");
  },
  T,
);

test(
  "a panel opened while another is open replaces it and the previous owner gets panel_close",
  async () => {
    const t = await tui.start({ args: ["-e", fixture("hostile"), "-e", fixture("demo")] });
    await t.waitFor(READY);
    run(t, "/late-panel");
    run(t, "/demo-panel");
    await t.waitFor("╭─ Demo Panel");
    writeFileSync(`${t.log}.go`, "");
    await t.waitFor("╭─ Late Panel");
    const tm = t;
    const closes = await tm.until(() => {
      const f = tm.frames().filter((x) => x.type === "panel_close");
      return f.length > 0 ? f : null;
    }, "panel_close to the demo extension");
    expect(closes).toEqual([expect.objectContaining({ type: "panel_close", panel_id: "demo-panel" })]);
    tm.keys("x");
    await tm.until(() => tm.frames().some((f) => f.type === "panel_key" && f.panel_id === "late" && f.text === "x"), "the key at the new owner");
    expect(tm.frames().some((f) => f.type === "panel_key" && f.panel_id === "demo-panel")).toBe(false);
  },
  T,
);

test(
  "a panel from another extension that reuses the open panel's id gets the keys",
  async () => {
    const t = await tui.start({ args: ["-e", fixture("hostile"), "-e", fixture("demo")] });
    await t.waitFor(READY);
    run(t, "/late-panel demo-panel");
    run(t, "/demo-panel");
    await t.waitFor("╭─ Demo Panel");
    writeFileSync(`${t.log}.go`, "");
    await t.waitFor("╭─ Late Panel");
    const tm = t;
    tm.keys("z");
    await tm.until(() => tm.frames().some((f) => f.type === "panel_key" && f.by === "hostile" && f.text === "z"), "the key at the new owner");
    expect(tm.frames().filter((f) => f.type === "panel_close" && f.by === "hostile")).toEqual([]);
  },
  T,
);

test(
  "an owner re-opening its own open panel keeps receiving its keys",
  async () => {
    const t = await tui.start({ args: ["-e", fixture("hostile")] });
    await t.waitFor(READY);
    run(t, "/late-panel");
    run(t, "/late-panel");
    writeFileSync(`${t.log}.go`, "");
    await t.waitFor("╭─ Late Panel");
    const tm = t;
    tm.keys("y");
    await tm.until(() => tm.frames().some((f) => f.type === "panel_key" && f.text === "y"), "the key at the owner");
    expect(tm.frames().filter((f) => f.type === "panel_close")).toEqual([]);
  },
  T,
);

test(
  "an extension exiting at runtime leaves exactly one note, with or without a panel open",
  async () => {
    const t = await tui.start({ args: ["-e", fixture("hostile"), "-e", fixture("demo")] });
    await t.waitFor(READY);
    run(t, "/die");
    let s = await t.waitFor(/\[hostile\] .*exit/);
    expect(s.match(/\[hostile\]/g)).toHaveLength(1);
    run(t, "/demo-panel");
    await t.waitFor("╭─ Demo Panel");
    t.keys("k");
    s = await t.waitFor(/\[demo\] panel closed: .*exit/);
    await t.waitFor("2 failed");
    s = t.screen();
    expect(s.match(/\[demo\]/g)).toHaveLength(1);
    expect(s).not.toContain("Demo Panel");
  },
  T,
);

test(
  "esc cancels a turn stuck in an extension tool that never answers",
  async () => {
    const t = await tui.start({ args: ["-e", fixture("hostile")] });
    await t.waitFor(READY);
    run(t, "call stuck_tool {}");
    await t.waitFor("│ stuck for good");
    t.keys("Escape");
    const s = await t.waitFor("✗ stuck_tool [hostile]");
    expect(s).toContain("Cancelled.");
    await t.waitFor(READY);
    run(t, "still responsive");
    await t.waitFor("mock: still responsive");
  },
  T,
);
