// The terminal stays the user's, in a real terminal: the conversation in the scrollback after
// /exit, line mode on TERM=dumb, the window title, the status line's directory and branch, the
// model picker's current model, /login leaving the mock, `zot -c` without a key, /sessions rows
// and the thinking level.
import { expect, test } from "bun:test";
import { useTmux, ZOT } from "./helpers/tmux.ts";

const tui = useTmux();

const T = 30_000;
const READY = "Ask anything";

test(
  "after /exit the conversation is on the main screen, with how to continue it",
  async () => {
    const t = await tui.start();
    await t.waitFor(READY);
    t.send("remember the scrollback");
    await t.waitFor("mock: remember the scrollback");
    t.send("/exit");
    await t.until(() => t.display("#{alternate_on}") === "0", "the main screen");
    const s = await t.waitFor("Continue this conversation with: zot -c");
    expect(s).toContain("› remember the scrollback");
    expect(s).toContain("mock: remember the scrollback");
    expect(s).toContain("shell$");
  },
  T,
);

test(
  "TERM=dumb gets a line-mode interface: plain prompts and streamed text, no alternate screen",
  async () => {
    // tmux gives its panes its own TERM, so the dumb terminal is asked for on the command line.
    const t = await tui.start();
    await t.waitFor(READY);
    t.send("/exit");
    await t.waitFor("shell$ ");
    t.send(`TERM=dumb ${ZOT} --provider mock`);
    await t.waitFor("Line mode (TERM=dumb)");
    expect(t.display("#{alternate_on}")).toBe("0");
    t.send("hello in line mode");
    await t.waitFor("mock: hello in line mode");
    t.send('call bash {"command":"echo from-a-tool"}');
    const s = await t.waitFor("mock: tool bash returned: from-a-tool");
    expect(s).toContain("[tool] bash echo from-a-tool");
    expect(t.screen(true)).not.toMatch(/\x1b\[[0-9;]*[HJ]/);
    t.send("/exit");
    await t.waitFor("shell$ ");
  },
  T,
);

test(
  "line mode asks approvals as a question showing the whole command",
  async () => {
    const t = await tui.start();
    await t.waitFor(READY);
    t.send("/exit");
    await t.waitFor("shell$ ");
    t.send(`TERM=dumb ${ZOT} --provider mock --no-yolo`);
    await t.waitFor("Line mode (TERM=dumb)");
    t.send('call bash {"command":"echo first\\ntouch second-line"}');
    const s = await t.waitFor("Allow bash? [y]es / [n]o / [a]ll (yolo) / [s]top:");
    expect(s).toContain("$ echo first");
    expect(s).toContain("touch second-line");
    t.send("y");
    await t.waitFor("mock: tool bash returned: first");
  },
  T,
);

test(
  "the window title shows the project and what zot is doing",
  async () => {
    const t = await tui.start();
    await t.waitFor(READY);
    await t.until(() => t.display("#{pane_title}") === "zot · project · idle", "the idle title");
    t.send('call bash {"command":"sleep 2"}');
    await t.until(() => t.display("#{pane_title}") === "zot · project · working", "the working title");
  },
  T,
);

test(
  "a turn that ran for a while rings the bell when it ends; a quick one does not",
  async () => {
    const t = await tui.start();
    await t.waitFor(READY);
    t.send("quick one");
    await t.waitFor("mock: quick one");
    expect(t.display("#{window_bell_flag}")).toBe("0");
    // Inside tmux the notification is the bell (tmux passes it on as an alert).
    t.send('call bash {"command":"sleep 5.5"}');
    await t.waitFor("mock: tool bash returned", 20_000);
    await t.until(() => t.display("#{window_bell_flag}") === "1", "the bell");
  },
  T,
);

test(
  "the status line shows the directory and its git branch",
  async () => {
    const t = await tui.start({ width: 120, files: { "project/.git/HEAD": "ref: refs/heads/feature-x\n" } });
    const s = await t.waitFor("(feature-x)");
    expect(s).toMatch(/project \(feature-x\)/);
  },
  T,
);

test(
  "the model picker marks the current model",
  async () => {
    const t = await tui.start();
    await t.waitFor(READY);
    t.send("/model");
    await t.waitFor("Model");
    t.type("mock");
    const s = await t.waitFor("● mock/mock");
    expect(s).toContain("current");
  },
  T,
);

test(
  "/login on the offline mock switches to the provider it stored a key for",
  async () => {
    const t = await tui.start({ env: { HOME: "/nonexistent" } });
    await t.waitFor(READY);
    t.send("/login openai");
    await t.waitFor("API key for openai");
    t.send("sk-test-key");
    await t.waitFor("Check the openai key first?");
    t.keys("Down");
    t.keys("Enter");
    const s = await t.waitFor("Switched to openai/");
    expect(s).toMatch(/openai\/\S+ · /);
  },
  T,
);

test(
  "zot -c of a session whose provider has no key opens the TUI on the mock with a notice",
  async () => {
    const server = tui.serve({ replies: [{ kind: "turn", text: "answer from the real provider" }] });
    const t = await tui.start({ args: ["--provider", "anthropic", "--api-key", "k", "--base-url", server.url, "--model", "claude-sonnet-4-5"] });
    await t.waitFor(READY);
    t.send("first question");
    await t.waitFor("answer from the real provider");
    t.send("/exit");
    await t.waitFor("zot -c");
    t.send(`${ZOT} -c`);
    const s = await t.waitFor("so it continues on the offline mock");
    expect(s).toContain("/login anthropic");
    expect(s).toContain("› first question");
    t.send("still here");
    await t.waitFor("mock: still here");
  },
  T,
);

test(
  "/sessions rows show the age, message count, model, cost and first prompt",
  async () => {
    const t = await tui.start({ width: 120 });
    await t.waitFor(READY);
    t.send("the very first prompt");
    await t.waitFor("mock: the very first prompt");
    t.send("/clear");
    await t.waitFor("Started a fresh session.");
    t.send("/sessions");
    const s = await t.waitFor("Resume session");
    expect(s).toMatch(/just now +2 msgs · mock · \$0\.0000 · the very first prompt/);
  },
  T,
);

test(
  "alt+t cycles the thinking level and /reasoning sets it; the status line shows it",
  async () => {
    const t = await tui.start();
    await t.waitFor(READY);
    t.keys("M-t");
    await t.waitFor("mock/mock (think low)");
    t.send("/reasoning high");
    await t.waitFor("mock/mock (think high)");
    // The mock model is not in the catalog, so every level is offered, up to max.
    t.keys("M-t");
    await t.waitFor("mock/mock (think xhigh)");
    t.keys("M-t");
    await t.waitFor("mock/mock (think max)");
    t.keys("M-t");
    await t.waitFor("Thinking: off");
    expect(t.screen()).not.toContain("(think");
  },
  T,
);
