// The agent's sandbox in a real terminal: the welcome line and the status bar name the mode, and a
// command the sandbox blocked may run once outside it only through the escalation dialog.
import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { useTmux } from "./helpers/tmux.ts";
import { tempDir } from "../helpers/temp.ts";

const tui = useTmux();
const T = 40_000;

/** Outside the workspace and every temp directory, so the sandbox does not let commands write it. */
let outside: string | undefined;
afterEach(() => {
  outside = undefined;
});

test(
  "the welcome line and the status bar say the sandbox mode",
  async () => {
    const tm = await tui.start({ args: ["--sandbox", "read-only"] });
    const s = await tm.waitFor("Ask anything");
    expect(s).toContain("zot · mock/");
    expect(s.split("\n").filter((l) => l.includes("sandbox: read-only")).length).toBeGreaterThanOrEqual(2);
  },
  T,
);

test(
  "a blocked command asks to run outside the sandbox, shows why, and runs once when approved",
  async () => {
    outside = tempDir(".zot-tui-sandbox-", homedir());
    const target = join(outside, "escalated.txt");
    const tm = await tui.start({ args: ["--no-yolo"] });
    await tm.waitFor("sandbox: workspace-write");
    tm.send(`call bash {"command":"echo out > ${target}"}`);
    await tm.waitFor("Allow bash?");
    tm.keys("1");
    const s = await tm.waitFor("Run bash outside the sandbox?");
    expect(s).toContain("blocked by the sandbox: write outside the workspace to");
    expect(s).toContain("Yes, run it once outside the sandbox");
    expect(s).not.toContain("Yes to everything this session");
    expect(existsSync(target)).toBe(false);
    tm.keys("y");
    await tm.waitFor("Run outside the sandbox, approved by the user");
    expect(readFileSync(target, "utf8")).toBe("out\n");
  },
  T,
);

test(
  "refusing the escalation leaves the command blocked",
  async () => {
    outside = tempDir(".zot-tui-sandbox-", homedir());
    const target = join(outside, "refused.txt");
    const tm = await tui.start({ args: ["--no-yolo"] });
    await tm.waitFor("sandbox: workspace-write");
    tm.send(`call bash {"command":"echo out > ${target}"}`);
    await tm.waitFor("Allow bash?");
    tm.keys("1");
    await tm.waitFor("Run bash outside the sandbox?");
    tm.keys("n");
    tm.keys("Enter");
    await tm.waitFor("mock: tool bash failed");
    expect(existsSync(target)).toBe(false);
  },
  T,
);

test(
  "a command the user types with ! is confined the same way",
  async () => {
    outside = tempDir(".zot-tui-sandbox-", homedir());
    const target = join(outside, "typed.txt");
    const tm = await tui.start();
    await tm.waitFor("sandbox: workspace-write");
    tm.send(`!echo typed > ${target}`);
    await tm.waitFor("blocked by the sandbox: write outside the workspace");
    expect(existsSync(target)).toBe(false);
  },
  T,
);
