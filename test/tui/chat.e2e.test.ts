// The chat in a real terminal: streamed answers, tool blocks, queued prompts, cancelling, exiting.
import { expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useTmux } from "./helpers/tmux.ts";
import { signal } from "../helpers/processes.ts";

const tui = useTmux();

const PROMPT_READY = "Ask anything";

test("a prompt is answered with the streamed mock reply", async () => {
  const t = await tui.start();
  await t.waitFor(PROMPT_READY);
  t.send("hello there");
  const s = await t.waitFor("mock: hello there");
  expect(s).toContain("› hello there");
}, 30_000);

test("a finished command shows the tail of its output; ctrl+o expands that block with the whole command", async () => {
  const t = await tui.start({ height: 60 });
  await t.waitFor(PROMPT_READY);
  t.send('call bash {"command":"seq 1 20 # the command goes on and on so the header has to cut it somewhere before the end"}');
  let s = await t.waitFor("8 earlier lines (ctrl+o to expand)");
  expect(s).toMatch(/✓ bash seq 1 20/);
  expect(s).toContain("│ 20");
  expect(s).toContain("│ 9");
  expect(s).not.toMatch(/│ 8$/m);
  await t.waitFor("mock: tool bash returned");
  t.keys("C-o");
  s = await t.waitFor(/│ 1$/m);
  expect(s).not.toContain("earlier lines");
  expect(s).toContain("so the header has to cut it somewhere before the end");
  t.keys("C-o");
  await t.waitFor("8 earlier lines (ctrl+o to expand)");
}, 30_000);

test("ctrl+o expands only the newest block in view; alt+o expands every block", async () => {
  const t = await tui.start({ height: 60 });
  await t.waitFor(PROMPT_READY);
  t.send('call read {"path":"one.txt"}\ncall read {"path":"two.txt"}');
  await t.waitFor("mock: tool read failed");
  t.send('call bash {"command":"seq 101 115"}');
  await t.waitFor("3 earlier lines (ctrl+o to expand)");
  t.send('call bash {"command":"seq 201 215"}');
  await t.waitFor(/│ 215/);
  t.keys("C-o");
  let s = await t.waitFor(/│ 201$/m);
  expect(s).not.toMatch(/│ 101$/m);
  t.keys("C-o");
  await t.waitGone(/│ 201$/m);
  t.keys("M-o");
  s = await t.waitFor(/│ 101$/m);
  expect(s).toMatch(/│ 201$/m);
}, 30_000);

test("prompts queued with alt+enter during a turn run in order after it", async () => {
  const t = await tui.start();
  await t.waitFor(PROMPT_READY);
  t.send('call bash {"command":"sleep 1.5"}');
  await t.waitFor("enter steers the running turn");
  t.type("queued-one");
  t.keys("M-Enter");
  t.type("queued-two");
  t.keys("M-Enter");
  const s = await t.waitFor("⏵ after this turn: queued-two");
  expect(s).toContain("⏵ after this turn: queued-one");
  const done = await t.waitFor("mock: queued-two", 15_000);
  expect(done).toContain("mock: tool bash returned");
  expect(done.indexOf("mock: queued-one")).toBeGreaterThan(done.indexOf("mock: tool bash returned"));
  expect(done.indexOf("mock: queued-one")).toBeLessThan(done.indexOf("mock: queued-two"));
  expect(done).not.toContain("⏵ after this turn");
}, 30_000);

test("a message typed during a turn steers it at the next tool boundary", async () => {
  const t = await tui.start({ height: 40 });
  await t.waitFor(PROMPT_READY);
  t.send('call bash {"command":"sleep 1.5; echo slept"}');
  await t.waitFor("enter steers the running turn");
  t.send("actually stop after this");
  await t.waitFor("⏵ next tool boundary: actually stop after this");
  // The model's next call sees the steering message after the tool result, in the same turn.
  const s = await t.waitFor("mock: actually stop after this", 15_000);
  expect(s.indexOf("✓ bash")).toBeLessThan(s.indexOf("› actually stop after this"));
  expect(s).not.toContain("mock: tool bash returned");
  expect(s).not.toContain("⏵ next tool boundary");
}, 30_000);

test("a queued message can be taken back with ↑ and edited before it is sent", async () => {
  const t = await tui.start();
  await t.waitFor(PROMPT_READY);
  t.send('call bash {"command":"sleep 2"}');
  await t.waitFor("enter steers the running turn");
  t.type("first thought");
  t.keys("M-Enter");
  await t.waitFor("⏵ after this turn: first thought");
  t.keys("Up");
  await t.waitFor("› first thought");
  await t.waitGone("⏵ after this turn");
  t.keys("BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace");
  t.type("idea");
  t.keys("M-Enter");
  await t.waitFor("⏵ after this turn: first idea");
  await t.waitFor("mock: first idea", 15_000);
}, 30_000);

test("esc cancels the running turn, leaves an interrupted marker and puts queued messages back in the editor", async () => {
  const t = await tui.start();
  await t.waitFor(PROMPT_READY);
  // A marker only this test's process carries, so the check below finds nobody else's sleep.
  const marker = `${process.pid}${Date.now() % 100000}`;
  const running = () => Bun.spawnSync(["pgrep", "-f", `sleep 30.${marker}`]).exitCode === 0;
  t.send(`call bash {"command":"sleep 30.${marker}"}`);
  await t.waitFor("enter steers the running turn");
  await t.until(running, "the sleep to start");
  t.send("not-lost");
  await t.waitFor("⏵ next tool boundary: not-lost");
  t.keys("Escape");
  const s = await t.waitFor("✗ bash sleep 30");
  expect(s).toContain("Cancelled.");
  await t.waitFor("interrupted by user");
  await t.waitFor("› not-lost");
  await t.until(() => !running(), "the cancelled command to die");
  expect(t.screen()).not.toContain("⏵ next tool boundary");
  t.keys("C-u");
  t.send("after-cancel");
  const after = await t.waitFor("mock: after-cancel");
  expect(after).not.toContain("mock: not-lost");
  expect(after).toContain("interrupted by user");
}, 30_000);

test("esc when idle clears the notes first, then the input", async () => {
  const t = await tui.start({ args: ["-e", `${import.meta.dir}/../fixtures/tui/demo`] });
  await t.waitFor(PROMPT_READY);
  t.send("/demo-noop");
  await t.waitFor("[demo] error-note-from-demo");
  t.type("draft words");
  t.keys("Escape");
  const s = await t.waitGone("info-note-from-demo");
  expect(s).toContain("› draft words");
  t.keys("Escape");
  await t.waitGone("draft words");
}, 30_000);

test("ctrl+c clears the input without arming exit; on an empty editor a second press exits and the shell is usable again", async () => {
  const t = await tui.start();
  await t.waitFor(PROMPT_READY);
  expect(t.display("#{alternate_on}")).toBe("1");
  t.type("some draft");
  await t.waitFor("› some draft");
  t.keys("C-c");
  await t.waitGone("some draft");
  expect(t.screen()).not.toContain("Press ctrl+c again to exit");
  t.keys("C-c");
  await t.waitFor("Press ctrl+c again to exit");
  t.keys("C-c");
  await t.until(() => t.display("#{alternate_on}") === "0", "the normal screen");
  await t.waitFor("shell$");
  expect(t.display("#{cursor_flag}")).toBe("1");
  t.send("echo still-$((40+2))");
  await t.waitFor("still-42");
}, 30_000);

test("ctrl+c during a turn cancels it and keeps the draft; a prompt sent after a first ctrl+c disarms exit", async () => {
  const t = await tui.start();
  await t.waitFor(PROMPT_READY);
  t.send('call bash {"command":"sleep 20"}');
  await t.waitFor("enter steers the running turn");
  t.type("half-typed");
  t.keys("C-c");
  await t.waitFor("✗ bash sleep 20");
  expect(t.screen()).toContain("› half-typed");
  t.keys("C-u");
  t.keys("C-c");
  await t.waitFor("Press ctrl+c again to exit");
  t.send("hello");
  await t.waitFor("mock: hello");
  t.keys("C-c");
  await t.waitFor("Press ctrl+c again to exit");
  expect(t.display("#{alternate_on}")).toBe("1");
}, 30_000);

test("ctrl+d on an empty editor exits", async () => {
  const t = await tui.start();
  await t.waitFor(PROMPT_READY);
  t.keys("C-d");
  await t.until(() => t.display("#{alternate_on}") === "0", "the normal screen");
  await t.waitFor("shell$");
}, 30_000);

test("SIGTERM restores the terminal", async () => {
  const t = await tui.start();
  await t.waitFor(PROMPT_READY);
  const shell = t.display("#{pane_pid}");
  const zot = await t.until(() => {
    const out = Bun.spawnSync(["pgrep", "-P", shell]).stdout.toString().trim();
    return out.split("\n")[0] || null;
  }, "the zot process");
  signal(Number(zot), "SIGTERM");
  await t.until(() => t.display("#{alternate_on}") === "0", "the normal screen");
  expect(t.display("#{cursor_flag}")).toBe("1");
  t.send("echo term-$((1+1))");
  await t.waitFor("term-2");
}, 30_000);

test("a resize re-lays out the screen to the new width", async () => {
  const t = await tui.start();
  await t.waitFor(PROMPT_READY);
  t.send("x".repeat(70));
  await t.waitFor("mock: " + "x".repeat(70));
  t.resize(60, 20);
  // Wait for the whole frame drawn at the new size (the rule spans exactly 60 columns, the status
  // bar is back), since a capture can land while the terminal is still painting.
  const s = await t.until(() => {
    const screen = t.screen();
    return new RegExp(`^${"─".repeat(60)}$`, "m").test(screen) && screen.includes("yolo") ? screen : null;
  }, "the re-laid-out frame");
  for (const line of s.split("\n")) expect(line.length).toBeLessThanOrEqual(60);
  expect(s).toMatch(new RegExp(`^${"x".repeat(60)}$`, "m"));
}, 30_000);

test("up on an empty editor recalls the previous prompt, as in a shell; down goes forward to the draft", async () => {
  const t = await tui.start();
  await t.waitFor(PROMPT_READY);
  for (const p of ["first-prompt", "second-prompt"]) {
    t.send(p);
    await t.waitFor(`mock: ${p}`);
  }
  // The editor is the line above the status bar (the chat above shows the same prompts). Each key
  // waits for the one before, so two arrows never arrive together (that is how the wheel looks).
  const editorShows = (text: string) => t.until(() => t.screen().trimEnd().split("\n").at(-2) === text, `the editor to show ${text}`);
  t.keys("Up");
  await editorShows("› second-prompt");
  t.keys("Up");
  await editorShows("› first-prompt");
  t.keys("Down");
  await editorShows("› second-prompt");
  t.keys("Down");
  await t.waitFor(PROMPT_READY);
  t.keys("C-p");
  await editorShows("› second-prompt");
}, 30_000);

test("pgup and shift+up scroll back with a catch-up hint, pgdn returns to the bottom", async () => {
  const t = await tui.start();
  await t.waitFor(PROMPT_READY);
  t.send('call bash {"command":"seq 1 60"}');
  await t.waitFor("mock: tool bash returned");
  t.keys("C-o");
  // Collapsed, a command keeps its tail and says how much came before; expanded, it does not.
  await t.waitGone("earlier lines");
  t.keys("PPage");
  const s = await t.waitFor("more lines below");
  expect(s).not.toContain("mock: tool bash returned");
  const before = /↓ (\d+) more lines below/.exec(s)![1];
  t.keys("S-Up");
  await t.waitFor(`↓ ${Number(before) + 3} more lines below · pgdn/shift+↓ scroll · ctrl+end catches up`);
  t.keys("S-Down");
  await t.waitFor(`↓ ${before} more lines below`);
  // The mouse wheel on the alternate screen arrives as a burst of arrows: it scrolls, it does
  // not recall history.
  t.type("\x1b[A\x1b[A\x1b[A");
  await t.waitFor(`↓ ${Number(before) + 3} more lines below`);
  expect(t.screen()).toContain("› Ask anything");
  t.keys("NPage", "NPage", "NPage");
  await t.waitGone("more lines below");
  expect(t.screen()).toContain("mock: tool bash returned");
}, 30_000);

test("notes arriving while scrolled up do not move what is being read", async () => {
  const t = await tui.start({ args: ["-e", `${import.meta.dir}/../fixtures/tui/demo`] });
  await t.waitFor(PROMPT_READY);
  t.send('call bash {"command":"seq 1 60"}');
  await t.waitFor("mock: tool bash returned");
  t.keys("C-o");
  // Collapsed, a command keeps its tail and says how much came before; expanded, it does not.
  await t.waitGone("earlier lines");
  t.keys("PPage");
  const s = await t.waitFor(/↓ (\d+) more lines below/);
  const below = Number(/↓ (\d+) more lines below/.exec(s)![1]);
  const top = s.split("\n")[0];
  t.send("/demo-noop");
  const after = await t.waitFor(`↓ ${below + 5} more lines below`);
  expect(after.split("\n")[0]).toBe(top);
  t.keys("C-End");
  await t.waitFor("[demo] error-note-from-demo");
}, 30_000);

test("NO_COLOR draws without colours", async () => {
  const t = await tui.start({ env: { NO_COLOR: "1" } });
  await t.waitFor(PROMPT_READY);
  t.send("plain please");
  const s = await t.waitFor("mock: plain please", 10_000, true);
  expect(s).not.toMatch(/\x1b\[[0-9;]*(38|48);/);
}, 30_000);

test("an extension tool's block names its owner and shows its progress and result", async () => {
  const t = await tui.start({ args: ["-e", `${import.meta.dir}/../fixtures/tui/demo`] });
  await t.waitFor(PROMPT_READY);
  t.send('call demo_tool {"n":3}');
  const s = await t.waitFor("mock: tool demo_tool returned: counted to 3");
  expect(s).toMatch(/✓ demo_tool \[demo\] \{"n":3\}/);
  expect(s).toContain("│ counted to 3");
}, 30_000);

test("a prompt given on the command line is sent at once", async () => {
  const t = await tui.start({ args: ["hello from argv"] });
  const s = await t.waitFor("mock: hello from argv");
  expect(s).toContain("› hello from argv");
}, 30_000);

test("bash output streams into the running tool block", async () => {
  const t = await tui.start();
  await t.waitFor(PROMPT_READY);
  t.send('call bash {"command":"echo live-one; sleep 20; echo live-two"}');
  const s = await t.waitFor("│ live-one");
  expect(s).toMatch(/^. bash echo live-one; sleep 20; echo live-two \d/m);
  expect(s).not.toContain("│ live-two");
  expect(s).toContain("working");
  t.keys("Escape");
  await t.waitFor("✗ bash");
}, 30_000);

test("ctrl+l redraws a screen that something else scribbled on", async () => {
  const t = await tui.start();
  await t.waitFor(PROMPT_READY);
  t.send("keep me");
  await t.waitFor("mock: keep me");
  // Another process writes to the same terminal behind zot's back.
  writeFileSync(t.display("#{pane_tty}"), "\x1b[2J\x1b[HSCRIBBLE");
  await t.waitFor("SCRIBBLE");
  t.keys("C-l");
  const s = await t.waitGone("SCRIBBLE");
  expect(s).toContain("mock: keep me");
  expect(s).toContain(PROMPT_READY);
}, 30_000);

test("thinking shows collapsed and dimmed until ctrl+o, Markdown replies are rendered", async () => {
  const script = join(tmpdir(), `zot-tui-script-${process.pid}.jsonl`);
  writeFileSync(script, JSON.stringify({ thinking: "first idea\nsecond idea", text: "# Title\n\nsome **bold** and `code`" }) + "\n");
  try {
    const t = await tui.start({ args: ["--mock-script", script] });
    await t.waitFor(PROMPT_READY);
    t.send("think");
    const s = await t.waitFor("∴ thinking (2 lines, ctrl+o to expand)");
    expect(t.screen(true)).toMatch(/\x1b\[[0-9;]*\b2[;m][^\n]*∴ thinking/);
    expect(s).toContain("some bold and code");
    expect(s).not.toContain("**");
    expect(s).not.toContain("first idea");
    t.keys("C-o");
    await t.waitFor("  second idea");
  } finally {
    rmSync(script, { force: true });
  }
}, 30_000);

test("a prompt typed and entered while zot is still starting is sent, not left as two lines in the editor", async () => {
  // Typed while the shell still sleeps, so certainly before zot has put the terminal in raw mode.
  const t = await tui.start({ before: "sleep 1" });
  t.send("typed ahead");
  const s = await t.waitFor("mock: typed ahead", 30_000);
  expect(s).toContain("› typed ahead");
}, 60_000);
