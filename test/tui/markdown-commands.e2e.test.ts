// Markdown slash commands in a real terminal: listed in the popup and /help, run as their prompt,
// and their allowed-tools let matching calls run without the approval dialog.
import { expect, test } from "bun:test";
import { useTmux } from "./helpers/tmux.ts";

const tui = useTmux();

const FILES = {
  "home/commands/say.md": '---\ndescription: echo something\nargument-hint: <word>\nallowed-tools: Bash(printf:*)\n---\ncall bash {"command":"printf $1"}\n',
  "home/commands/git/sum.md": "Summarise the last commit.",
  "home/commands/help.md": "never used: /help is built in",
};

test("Markdown commands show in the popup and /help; allowed-tools spare the dialog for matching calls only", async () => {
  const t = await tui.start({ args: ["--no-yolo"], files: FILES, height: 50 });
  let s = await t.waitFor("Ask anything");
  expect(s.replace(/\n\s+/g, " ")).toContain("commands/help.md is not used: /help is already a built-in or extension command.");
  // "/sa": "/s" matches more built-ins than the popup shows at once.
  t.type("/sa");
  s = await t.waitFor("/say");
  expect(s).toContain("<word> · echo something (user)");
  t.keys("C-u");
  t.type("/git:");
  await t.waitFor("/git:sum");
  t.keys("C-u");
  await t.waitGone("/git:sum");
  t.send("/help");
  s = await t.waitFor("Markdown commands:");
  expect(s).toMatch(/\/git:sum\s+Summarise the last commit\. \(user\)/);
  t.send("/say shipped");
  await t.waitFor("mock: tool bash returned: shipped");
  expect(t.screen()).not.toContain("Allow bash?");
  // Outside the command's prompt the same call asks again.
  t.send('call bash {"command":"printf later"}');
  await t.waitFor("Allow bash?");
}, 30_000);
