// A long resumed chat scrolled back in a real terminal: the chat keeps rendered lines only for
// the entries drawn lately and renders the others again when they come back into view, so every
// position must still show the history's own text, in order, at the top, deep in, and back at
// the bottom.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sessionDir } from "../../src/platform/home.ts";
import { type Tmux, useTmux } from "./helpers/tmux.ts";

const tui = useTmux();
const T = 60_000;
const GROUPS = 200;
const pad = (n: number) => String(n).padStart(4, "0");

/** A session of GROUPS prompts, each answered by a bash call with 20 lines of output and a reply (~4 000 lines in the chat). */
function session(cwd: string): string {
  const time = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
  const rows = [JSON.stringify({ type: "meta", meta: { id: "00000000-0000-4000-8000-00000000abcd", cwd, provider: "mock", model: "mock", started: time(0) } })];
  const message = (m: object) => rows.push(JSON.stringify({ type: "message", message: m }));
  for (let g = 1; g <= GROUPS; g++) {
    const t = time(g);
    message({ role: "user", content: [{ text: `prompt-${pad(g)} look again` }], time: t });
    message({ role: "assistant", content: [{ id: `call${g}`, name: "bash", arguments: { command: `list ${pad(g)}` } }], time: t });
    const output = Array.from({ length: 20 }, (_, k) => `out-${pad(g)}-line-${String(k + 1).padStart(2, "0")}`).join("\n");
    message({ role: "tool", content: [{ call_id: `call${g}`, content: [{ text: output }], is_error: false }], time: t });
    message({ role: "assistant", content: [{ text: `reply-${pad(g)} **done**` }], time: t });
  }
  return rows.join("\n") + "\n";
}

/** The group numbers on screen, top to bottom, from every line that names one. */
function groups(screen: string): number[] {
  return [...screen.matchAll(/(?:prompt|out|reply|list)-(\d{4})/g)].map((m) => Number(m[1]));
}

/** What is on screen is one stretch of the history: groups never go backwards and skip none. */
function expectInOrder(screen: string): number[] {
  const seen = groups(screen);
  expect(seen.length).toBeGreaterThan(3);
  for (let i = 1; i < seen.length; i++) expect(seen[i]! - seen[i - 1]!).toBeOneOf([0, 1]);
  // Within a block the output lines keep their order.
  const lines = [...screen.matchAll(/out-(\d{4})-line-(\d{2})/g)].map((m) => Number(m[1]) * 100 + Number(m[2]));
  for (let i = 1; i < lines.length; i++) expect(lines[i]!).toBeGreaterThan(lines[i - 1]!);
  return seen;
}

/** Up `pages` pages from the bottom: the screen once it shows the history scrolled back. */
function pagedUp(t: Tmux, pages: number): Promise<string> {
  for (let i = 0; i < pages; i++) t.keys("PPage");
  return t.until(() => {
    const screen = t.screen();
    return screen.includes("more lines below") && groups(screen).length > 3 && Math.max(...groups(screen)) < GROUPS && screen;
  }, `${pages} pages up from the bottom`);
}

/** Resized: the screen once the whole frame is drawn at the new size (the rule spans exactly its width). */
function resized(t: Tmux, width: number, height: number): Promise<string> {
  t.resize(width, height);
  return t.until(() => {
    const screen = t.screen();
    return new RegExp(`^${"─".repeat(width)}$`, "m").test(screen) && screen.includes("more lines below") && screen;
  }, `the frame at ${width}×${height}`);
}

async function resumed(): Promise<Tmux> {
  const t = await tui.start({ width: 100, height: 30 });
  const dir = sessionDir(t.home, t.cwd);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "20260101-000000-0000abcd.jsonl"), session(t.cwd));
  await t.waitFor("Ask anything");
  t.send("/sessions");
  await t.waitFor("Resume session");
  t.keys("Enter");
  await t.waitFor(`reply-${pad(GROUPS)}`);
  return t;
}

test(
  "a long resumed chat shows its own text scrolled to the top, deep in, and back at the bottom",
  async () => {
    const t = await resumed();
    // Up a few pages first, before anything has counted the chat further back than the screen.
    let s = await pagedUp(t, 3);
    expect(Math.min(...expectInOrder(s))).toBeGreaterThan(GROUPS - 10);
    t.keys("C-Home");
    s = await t.waitFor("prompt-0001 look again");
    expect(expectInOrder(s)[0]).toBe(1);
    // Down page by page from the top: each page follows the one before it.
    let last = Math.max(...groups(s));
    for (let i = 0; i < 8; i++) {
      t.keys("NPage");
      s = await t.until(() => {
        const screen = t.screen();
        return groups(screen).length > 3 && Math.max(...groups(screen)) > last && screen;
      }, `a page below group ${last}`);
      const seen = expectInOrder(s);
      expect(seen[0]).toBeLessThanOrEqual(last);
      last = Math.max(...seen);
    }
    // Back to the bottom, whose lines were dropped while the top was drawn.
    t.keys("C-End");
    s = await t.waitGone("more lines below");
    expect(s).toContain(`reply-${pad(GROUPS)} done`);
    expect(s).toContain(`out-${pad(GROUPS)}-line-20`);
    expectInOrder(s);
    // Deep in from the bottom, page by page: the same stretch as the one reached from the top.
    for (let i = 0; i < 60; i++) t.keys("PPage");
    s = await t.waitFor("more lines below");
    const deep = expectInOrder(s);
    expect(Math.min(...deep)).toBeLessThan(GROUPS - 40);
    expect(Math.max(...deep)).toBeGreaterThan(10);
    t.keys("C-Home");
    s = await t.waitFor("prompt-0001 look again");
    expectInOrder(s);
  },
  T,
);

/** The last line above the "more lines below" hint that names a line of the history. */
function lastShown(screen: string): string | undefined {
  const lines = screen.split("\n");
  const hint = lines.findIndex((l) => l.includes("more lines below"));
  const tags = lines.slice(0, hint < 0 ? lines.length : hint).flatMap((l) => [...l.matchAll(/(?:prompt|reply)-\d{4}|out-\d{4}-line-\d{2}/g)].map((m) => m[0]));
  return tags.at(-1);
}

test(
  "scrolled back, a resize keeps the line read last at the bottom of the view",
  async () => {
    const t = await resumed();
    await pagedUp(t, 5);
    // Every page key drawn: the same screen for 200 ms (eight captures in a row).
    let previous = "";
    let same = 0;
    const before = lastShown(
      await t.until(() => {
        const screen = t.screen();
        same = screen === previous ? same + 1 : 0;
        previous = screen;
        return same >= 8 && screen;
      }, "the screen five pages up, settled"),
    );
    expect(before).toBeDefined();
    const after = await resized(t, 70, 22);
    expect(lastShown(after)).toBe(before);
    expectInOrder(after);
    expect(lastShown(await resized(t, 120, 36))).toBe(before);
  },
  T,
);
