// Tab completion of command arguments, and the `!cmd` shell prefix.
import { expect, test } from "bun:test";
import { completeArg } from "../../src/tui/commands/arg-completion.ts";
import { parseShellCommand, sharedPrompt } from "../../src/tui/commands/shell-command.ts";

const sources = {
  theme: () => ["dark", "light", "lagoon"],
  model: () => ["anthropic/claude-sonnet-4-5", "anthropic/claude-opus-4-5", "openai/gpt-5"],
  "reload-ext": () => ["demo", "guard"],
};

test("one match is filled in", () => {
  expect(completeArg("/theme li", sources)).toEqual({ text: "/theme light", candidates: ["light"] });
  expect(completeArg("/reload-ext g", sources)).toEqual({ text: "/reload-ext guard", candidates: ["guard"] });
  expect(completeArg("/model gpt", sources)).toEqual({ text: "/model openai/gpt-5", candidates: ["openai/gpt-5"] });
});

test("several matches extend to what they share and are all returned", () => {
  expect(completeArg("/model cl", sources)).toEqual({ text: "/model cl", candidates: ["anthropic/claude-sonnet-4-5", "anthropic/claude-opus-4-5"] });
  expect(completeArg("/model anth", sources)?.text).toBe("/model anthropic/claude-");
  expect(completeArg("/theme l", sources)).toEqual({ text: "/theme l", candidates: ["light", "lagoon"] });
});

test("unknown commands, no matches and finished arguments complete nothing", () => {
  expect(completeArg("/nope x", sources)).toBeNull();
  expect(completeArg("/theme zz", sources)).toBeNull();
  expect(completeArg("/theme dark and more", sources)).toBeNull();
});

test("!cmd runs privately, !!cmd shares, a bare ! is a prompt", () => {
  expect(parseShellCommand("!git status")).toEqual({ command: "git status", share: false });
  expect(parseShellCommand("  !! ls -la ")).toEqual({ command: "ls -la", share: true });
  expect(parseShellCommand("!")).toBeNull();
  expect(parseShellCommand("why does ! fail")).toBeNull();
  expect(sharedPrompt("ls", { text: "a\nb\n", isError: false })).toBe("I ran `ls` in the shell. Its output:\n\n```\na\nb\n```");
});
