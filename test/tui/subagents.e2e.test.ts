// Subagents in a real terminal: a subagent's call that needs approval asks in the foreground,
// naming the agent; its work shows as progress lines under the task call; /agents lists the
// agents with their sources, and a bad agent file is a warning naming it.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { useTmux } from "./helpers/tmux.ts";

const tui = useTmux();
const T = 40_000;
const READY = "Ask anything";

const call = (tool: string, args: object): string => `call ${tool} ${JSON.stringify(args)}`;

test("a subagent's call asks the user in the foreground, naming the agent, and runs on yes", async () => {
  const t = await tui.start({ mode: "ask" });
  await t.waitFor(READY);
  t.send(call("task", { description: "make a file", prompt: call("bash", { command: "touch from-subagent" }) }));
  const s = await t.waitFor(/Allow bash \(subagent general-\d+\)\?/);
  expect(s).toContain("$ touch from-subagent");
  expect(existsSync(join(t.cwd, "from-subagent"))).toBe(false);
  t.keys("1");
  await t.waitFor("mock: tool task returned: mock: tool bash returned");
  expect(existsSync(join(t.cwd, "from-subagent"))).toBe(true);
}, T);

test("/agents lists the built-in and file agents with their sources; a bad file is a warning naming it", async () => {
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
}, T);
