// One interpretation of a command response for every mode.
import { describe, expect, test } from "bun:test";
import { commandIntents, commandOutcome } from "../../src/ext/command-outcome.ts";
import type { CommandResponseFrame } from "../../src/protocol.ts";

const response = (r: Omit<CommandResponseFrame, "type" | "id">): CommandResponseFrame => ({ type: "command_response", id: "1", ...r });

describe("commandOutcome", () => {
  test("an error is kept beside the action", () => {
    expect(commandOutcome(response({ action: "display", display: "half done", error: "it broke" }))).toEqual({
      action: { kind: "display", text: "half done" },
      error: "it broke",
    });
  });

  test("a prompt without text is an error, not a silent no-op", () => {
    expect(commandOutcome(response({ action: "prompt", prompt: "  " }))).toEqual({ action: null, error: "asked for a prompt but sent no text" });
    expect(commandOutcome(response({ action: "prompt", prompt: "go on" }))).toEqual({ action: { kind: "prompt", text: "go on" }, error: null });
  });

  test("an empty display or insert, and noop, do nothing", () => {
    expect(commandOutcome(response({ action: "display", display: "" }))).toEqual({ action: null, error: null });
    expect(commandOutcome(response({ action: "insert" }))).toEqual({ action: null, error: null });
    expect(commandOutcome(response({ action: "noop" }))).toEqual({ action: null, error: null });
  });

  test("a panel comes with its plain-text form for modes without a screen", () => {
    const panel = { id: "p", title: "Title", lines: ["a", "", "b"], footer: "esc" };
    expect(commandOutcome(response({ action: "open_panel", open_panel: panel }))).toEqual({
      action: { kind: "panel", panel, text: "Title\na\nb\nesc" },
      error: null,
    });
  });

  test("the interactive mode gets the same outcome as intents", () => {
    expect(commandIntents("ext", response({ action: "prompt", prompt: "" }))).toEqual([
      { kind: "command_error", extension: "ext", message: "asked for a prompt but sent no text" },
    ]);
    expect(commandIntents("ext", response({ action: "insert", insert: "x" }))).toEqual([{ kind: "insert", extension: "ext", text: "x" }]);
    expect(commandIntents("ext", response({ action: "noop" }))).toEqual([]);
  });
});
