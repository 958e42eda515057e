import { beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expandCommand, loadCustomCommands, toolRule, usableCommands } from "../../src/agent/custom-commands.ts";
import { tempDir } from "../helpers/temp.ts";

let root: string;
let cwd: string;
let home: string;
beforeEach(() => {
  root = tempDir("zot-cmds-");
  cwd = join(root, "project");
  home = join(root, "home");
  mkdirSync(join(cwd, ".git"), { recursive: true });
  mkdirSync(home, { recursive: true });
});

function file(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

test("files become commands: subfolders give dir:name, front matter gives description, hint, tools and model", () => {
  file(
    join(cwd, ".zot/commands/git/commit.md"),
    "---\ndescription: Commit the staged work\nargument-hint: <message>\nallowed-tools: Bash(git commit:*), Read\nmodel: mock/mock\n---\nCommit with message $1.\n",
  );
  file(join(cwd, ".claude/commands/review.md"), "# Review the diff\n\nReview $ARGUMENTS carefully.");
  file(join(home, "commands/review.md"), "shadowed by the project one");
  file(join(home, "commands/bad name.md"), "x");
  const loaded = loadCustomCommands(cwd, home, true);
  expect(loaded.commands.map((c) => [c.name, c.scope, c.description])).toEqual([
    ["git:commit", "project", "Commit the staged work"],
    ["review", "project", "Review the diff"],
  ]);
  const commit = loaded.commands[0]!;
  expect(commit.argumentHint).toBe("<message>");
  expect(commit.allowedTools).toEqual([{ tool: "bash", command: "git commit", more: true }, { tool: "read" }]);
  expect(commit.model).toBe("mock/mock");
  expect(loaded.warnings).toEqual([
    `Skipped the command file ${join(home, "commands/bad name.md")}: "/bad name" is not a command name (letters, digits, - and _, folders joined by ":").`,
    `Skipped the command file ${join(home, "commands/review.md")}: /review is already defined by ${join(cwd, ".claude/commands/review.md")}.`,
  ]);
});

test("project commands wait for workspace trust; the user's own load anyway", () => {
  file(join(cwd, ".zot/commands/deploy.md"), "deploy it");
  file(join(home, "commands/hello.md"), "say hello");
  const loaded = loadCustomCommands(cwd, home, false);
  expect(loaded.commands.map((c) => c.name)).toEqual(["hello"]);
  expect(loaded.untrusted).toEqual([join(cwd, ".zot", "commands")]);
});

test("$ARGUMENTS and $1…$9 are filled in; without placeholders the arguments are appended", () => {
  file(join(home, "commands/fix.md"), "Fix issue $1 in $2 ($ARGUMENTS); $3 is empty.");
  file(join(home, "commands/plain.md"), "Explain the build.");
  const [fix, plain] = loadCustomCommands(cwd, home, true).commands;
  expect(expandCommand(fix!, '42 "src/a b.ts"')).toBe('Fix issue 42 in src/a b.ts (42 "src/a b.ts");  is empty.');
  expect(expandCommand(plain!, "")).toBe("Explain the build.");
  expect(expandCommand(plain!, "for arm64")).toBe("Explain the build.\n\nARGUMENTS: for arm64");
});

test("built-in and extension commands win name conflicts, and each loser is named", () => {
  file(join(home, "commands/help.md"), "x");
  file(join(home, "commands/Deploy.md"), "x");
  file(join(home, "commands/ok.md"), "x");
  const r = usableCommands(loadCustomCommands(cwd, home, true), ["deploy"]);
  expect(r.commands.map((c) => c.name)).toEqual(["ok"]);
  expect(r.shadowed).toEqual([
    `The command file ${join(home, "commands/Deploy.md")} is not used: /Deploy is already a built-in or extension command.`,
    `The command file ${join(home, "commands/help.md")} is not used: /help is already a built-in or extension command.`,
  ]);
});

test("allowed-tools entries map Claude Code's names; a pattern zot cannot honour exactly is refused", () => {
  expect(toolRule("Bash(npm test)")).toEqual({ tool: "bash", command: "npm test", more: false });
  expect(toolRule("WebFetch")).toEqual({ tool: "web_fetch" });
  expect(toolRule("Edit(src/**)")).toBe('zot matches edit calls by tool only, and allowing all of them would be broader than "src/**"');
});
