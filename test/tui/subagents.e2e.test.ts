// Subagents in a real terminal: a subagent's call that needs approval asks in the foreground,
// naming the agent; its work shows as a live block under the task call, collapsed when done;
// /agents lists the agents with their sources, and a bad agent file is a warning naming it.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { useTmux } from "./helpers/tmux.ts";

const tui = useTmux();
const T = 40_000;
const READY = "Ask anything";

const call = (tool: string, args: object): string => `call ${tool} ${JSON.stringify(args)}`;

test(
  "a subagent's call asks the user in the foreground, naming the agent, and runs on yes",
  async () => {
    const t = await tui.start({ mode: "ask" });
    await t.waitFor(READY);
    t.send(call("task", { description: "make a file", prompt: call("bash", { command: "touch from-subagent" }) }));
    const s = await t.waitFor(/Allow bash \(subagent general-\d+\)\?/);
    expect(s).toContain("$ touch from-subagent");
    // Its block under the task call says what it waits for.
    expect(s).toContain("→ waiting for approval: bash touch from-subagent");
    expect(existsSync(join(t.cwd, "from-subagent"))).toBe(false);
    t.keys("1");
    await t.waitFor("mock: tool task returned: mock: tool bash returned");
    expect(existsSync(join(t.cwd, "from-subagent"))).toBe(true);
  },
  T,
);

test(
  "/agents lists the built-in and file agents with their sources; a bad file is a warning naming it",
  async () => {
    const t = await tui.start({
      width: 160,
      files: {
        "home/agents/reviewer.md": "---\nname: reviewer\ndescription: reviews a change for bugs\ntools: [read, bash]\n---\nYou review changes.\n",
        "home/agents/broken.md": "no front matter at all\n",
      },
    });
    let s = await t.waitFor(READY);
    expect(s).toContain(`Skipped the agent file ${join(t.home, "agents", "broken.md")}: it does not start with front`);
    t.send("/agents");
    s = await t.waitFor("built-in · a read-only agent");
    expect(s).toContain(`${join(t.home, "agents", "reviewer.md")} · reviews a change for bugs`);
    t.send("reviewer");
    s = await t.waitFor("You review changes.");
    expect(s).toContain("Tools: read, bash");
  },
  T,
);

test(
  "two subagents at once show as live blocks under their task calls at 80 columns, collapsed when done and expanded by ctrl+o",
  async () => {
    const t = await tui.start({ width: 80, mode: "yolo" });
    await t.waitFor(READY);
    const job = (description: string, word: string): string => call("task", { description, prompt: call("bash", { command: `sleep 3; echo ${word}` }) });
    t.send(`${job("count the apples", "apples")}\n${job("weigh the pears", "pears")}`);
    // Both at once, each with its agent, description, clock and tokens, and the call it runs now.
    const live =
      /general-(\d+) · count the apples · [\d.]+m?s · \d+ tokens[\s\S]*→ bash sleep 3; echo apples[\s\S]*general-(\d+) · weigh the pears · [\d.]+m?s · \d+ tokens[\s\S]*→ bash sleep 3; echo pears/;
    // Each block's first line holds all of that at 80 columns (the pattern allows no line break in it).
    await t.waitFor(live, 20_000);
    // Done, each block is one line with what it cost, and the task's answer under it.
    await t.waitFor(/✓ general-\d+ · weigh the pears · [\d.]+s · \d+ tokens · 1 call/, 20_000);
    await t.waitFor(/✓ general-\d+ · count the apples · [\d.]+s · \d+ tokens · 1 call/);
    let s = await t.waitFor("mock: tool task returned");
    expect(s).toContain("mock: tool bash returned: pears");
    expect(s).not.toContain("→ bash sleep 3; echo pears");
    // ctrl+o expands the newest block: its subagent's calls show again.
    t.keys("C-o");
    s = await t.waitFor("→ bash sleep 3; echo pears");
    expect(s).not.toContain("→ bash sleep 3; echo apples");
  },
  T,
);
