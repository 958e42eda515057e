// Slash commands in a real terminal: the popup, every command_response action, and note rules.
import { expect, test } from "bun:test";
import { fixture, type Tmux, useTmux } from "./helpers/tmux.ts";
import { dark, toXterm256 } from "../../src/tui/terminal/theme.ts";

const tui = useTmux();

const READY = "Ask anything";
const T = 30_000;

async function start(): Promise<Tmux> {
  const t = await tui.start({ args: ["-e", fixture("demo")] });
  await t.waitFor(READY);
  return t;
}

async function run(tm: Tmux, line: string): Promise<void> {
  tm.send(line);
}

test(
  "the slash popup lists built-ins, then extension commands under a divider with owner",
  async () => {
    const tm = await start();
    tm.type("/");
    let s = await tm.waitFor("› /help");
    expect(s.indexOf("/help")).toBeLessThan(s.indexOf("/model"));
    tm.type("demo-");
    s = await tm.waitFor("/demo-submit");
    expect(s).toContain("── extensions");
    expect(s).toContain("/demo-display");
    expect(s).toContain("shows a one-shot note [demo]");
    expect(s.indexOf("/demo-clear")).toBeLessThan(s.indexOf("/demo-submit"));
    tm.type("DISP");
    tm.keys("Tab");
    // Completion adds a space after the name, which closes the popup.
    s = await tm.waitGone("── extensions");
    expect(s).toMatch(/^› \/demo-display\s*$/m);
  },
  T,
);

test(
  "a prompt action runs a turn with the command's text and canonical name",
  async () => {
    const tm = await start();
    await run(tm, "/DEMO-PROMPT  some args  ");
    await tm.waitFor("mock: prompted by demo some args");
    const invoked = tm.frames().find((f) => f.type === "command_invoked");
    expect(invoked).toMatchObject({ name: "demo-prompt", args: "some args" });
  },
  T,
);

test(
  "an insert action puts text into the editor without sending it",
  async () => {
    const tm = await start();
    await run(tm, "/demo-insert");
    const s = await tm.waitFor("› inserted-by-demo");
    expect(s).not.toContain("mock: inserted-by-demo");
  },
  T,
);

test(
  "a display action shows a note attributed to the extension",
  async () => {
    const tm = await start();
    await run(tm, "/demo-display");
    await tm.waitFor("[demo] displayed-by-demo");
  },
  T,
);

test(
  "a noop action changes nothing, notify notes are coloured by level",
  async () => {
    const tm = await start();
    await run(tm, "/demo-noop");
    const s = await tm.waitFor("[demo] error-note-from-demo", 10_000, true);
    expect(s).toContain(`38;5;${toXterm256(dark.error as string)}m[demo] error-note-from-demo`);
    expect(s).toContain(`38;5;${toXterm256(dark.warning as string)}m[demo] warn-note-from-demo`);
    expect(s).toContain(`38;5;${toXterm256(dark.success as string)}m[demo] success-note-from-demo`);
  },
  T,
);

test(
  "an error in a command response is shown as a red status line",
  async () => {
    const tm = await start();
    await run(tm, "/demo-error");
    const s = await tm.waitFor("demo-failed-on-purpose", 10_000, true);
    expect(s).toContain(`38;5;${toXterm256(dark.error as string)}m[demo] demo-failed-on-purpose`);
  },
  T,
);

test(
  "an unknown command is reported and not sent to the model; a prompt starting with a path is a prompt",
  async () => {
    const tm = await start();
    await run(tm, "/no-such-thing");
    const s = await tm.waitFor("Unknown command /no-such-thing");
    expect(s).not.toContain("mock:");
    // The mistyped command stays in the editor to be fixed.
    expect(s).toContain("› /no-such-thing");
    tm.keys("C-u");
    await run(tm, "/etc/hosts looks wrong");
    await tm.waitFor("mock: /etc/hosts looks wrong");
  },
  T,
);

test(
  "a mistyped command is never replaced by another one: it is reported with the nearest name; a typed start of a name still completes",
  async () => {
    const tm = await start();
    await run(tm, "/config");
    const s = await tm.waitFor("Unknown command /config; did you mean /ext-config?");
    expect(s).not.toContain("No loaded extension declares settings.");
    tm.keys("C-u");
    await run(tm, "/reload-e");
    await tm.waitFor("Reloaded extensions: 1 running.");
  },
  T,
);

test(
  "clear_notes removes only that extension's notes",
  async () => {
    const tm = await start();
    await run(tm, "/demo-noop");
    await tm.waitFor("[demo] info-note-from-demo");
    await run(tm, "/demo-clear");
    await tm.waitGone("note-from-demo");
  },
  T,
);

test(
  "notes are cleared by the next prompt and by /clear",
  async () => {
    const tm = await start();
    await run(tm, "/demo-noop");
    await tm.waitFor("[demo] info-note-from-demo");
    await run(tm, "next prompt");
    let s = await tm.waitFor("mock: next prompt");
    expect(s).not.toContain("note-from-demo");
    await run(tm, "/demo-display");
    await tm.waitFor("[demo] displayed-by-demo");
    await run(tm, "/clear");
    s = await tm.waitFor("Started a fresh session.");
    expect(s).not.toContain("displayed-by-demo");
    expect(s).not.toContain("mock: next prompt");
  },
  T,
);

test(
  "submit frames join the prompt queue and run in order",
  async () => {
    const tm = await start();
    await run(tm, "/demo-submit");
    const s = await tm.waitFor("mock: second-submit");
    expect(s).toContain("mock: first-submit");
    expect(s.indexOf("mock: first-submit")).toBeLessThan(s.indexOf("mock: second-submit"));
  },
  T,
);

test(
  "a prompt action while a turn runs is queued, never run concurrently",
  async () => {
    const tm = await start();
    await run(tm, 'call bash {"command":"sleep 1.5"}');
    await tm.waitFor("enter steers the running turn");
    await run(tm, "/demo-prompt while-busy");
    await tm.waitFor("⏵ after this turn: [demo] prompted by demo while-busy");
    const s = await tm.waitFor("mock: prompted by demo while-busy", 15_000);
    expect(s.indexOf("mock: tool bash returned")).toBeLessThan(s.indexOf("mock: prompted by demo while-busy"));
  },
  T,
);

test(
  "/help lists keys, permission modes, built-in and extension commands",
  async () => {
    const t = await tui.start({ args: ["-e", fixture("demo")], height: 100 });
    await t.waitFor(READY);
    await run(t, "/help");
    const s = await t.waitFor("Extension commands:");
    expect(s).toContain("ctrl+o");
    expect(s).toContain("Permission modes (shift+tab):");
    expect(s).toMatch(/plan +only reads and read-only commands run/);
    expect(s).toContain("/permissions");
    expect(s).toContain("/reload-ext");
    expect(s).toContain("/demo-panel");
  },
  T,
);
