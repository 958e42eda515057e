import { historyPath } from "../../src/platform/home.ts";
import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Editor } from "../../src/tui/components/editor.ts";
import { History } from "../../src/tui/history.ts";
import { startMockRuntime } from "../helpers/mock-runtime.ts";
import { createStyle, dark } from "../../src/tui/terminal/theme.ts";
import { tempDir } from "../helpers/temp.ts";

const style = createStyle(dark, "none", false);
const editor = (text = "", cursor = text.length) => {
  const e = new Editor(new History(null), { style });
  e.setText(text, cursor);
  return e;
};
const press = (e: Editor, ...ids: string[]) => ids.forEach((id) => e.handle(id, null));

describe("editing keys", () => {
  test("typed text goes in at the cursor", () => {
    const e = editor("helo", 3);
    e.handle("rune", "l");
    expect(e.text).toBe("hello");
    expect(e.cursor).toBe(4);
  });

  test("alt+enter and shift+enter insert a newline instead of submitting", () => {
    const e = editor("a");
    press(e, "alt+enter");
    e.handle("rune", "b");
    press(e, "shift+enter");
    expect(e.text).toBe("a\nb\n");
  });

  test("ctrl+a and ctrl+e move within the current line of a multi-line prompt", () => {
    const e = editor("first\nsecond", 8);
    press(e, "ctrl+a");
    expect(e.cursor).toBe(6);
    press(e, "ctrl+e");
    expect(e.cursor).toBe(12);
    press(e, "home");
    expect(e.cursor).toBe(6);
  });

  test("alt+left and alt+right jump by words", () => {
    const e = editor("one two three");
    press(e, "alt+left");
    expect(e.cursor).toBe(8);
    press(e, "alt+left", "alt+left");
    expect(e.cursor).toBe(0);
    press(e, "alt+right");
    expect(e.cursor).toBe(3);
  });

  test("ctrl+u and ctrl+k delete to the start and end of the line", () => {
    const e = editor("keep\nabc def", 8);
    press(e, "ctrl+k");
    expect(e.text).toBe("keep\nabc");
    press(e, "ctrl+u");
    expect(e.text).toBe("keep\n");
  });

  test("ctrl+w and alt+backspace delete the word before the cursor", () => {
    const e = editor("rm -rf build");
    press(e, "ctrl+w");
    expect(e.text).toBe("rm -rf ");
    press(e, "alt+backspace");
    expect(e.text).toBe("rm -");
  });

  test("backspace and left step over a whole emoji", () => {
    const e = editor("a😀");
    press(e, "left");
    expect(e.cursor).toBe(1);
    press(e, "right", "backspace");
    expect(e.text).toBe("a");
  });

  test("a skin-toned or ZWJ emoji, a flag and a combining accent are one step each", () => {
    const text = "a👍🏽👨‍👩‍👧🇩🇪e\u0301b";
    const e = editor(text);
    const stops: number[] = [];
    for (let i = 0; i < 7; i++) {
      press(e, "left");
      stops.push(e.cursor);
    }
    expect(stops).toEqual([text.length - 1, text.length - 3, text.length - 7, text.length - 15, 1, 0, 0]);
    press(e, "right", "right");
    expect(e.cursor).toBe(text.length - 15);
    press(e, "backspace");
    expect(e.text).toBe("a👨‍👩‍👧🇩🇪e\u0301b");
    press(e, "delete");
    expect(e.text).toBe("a🇩🇪e\u0301b");
  });

  test("left at the start of a line goes to the end of the previous one", () => {
    const e = editor("ab\ncd", 3);
    press(e, "left");
    expect(e.cursor).toBe(2);
    press(e, "right", "right");
    expect(e.cursor).toBe(4);
  });

  test("up and down move between lines and report the edges", () => {
    const e = editor("ab\ncd", 4);
    expect(e.handle("up", null)).toBe(true);
    expect(e.cursor).toBe(1);
    expect(e.handle("up", null)).toBe(false);
    expect(e.handle("down", null)).toBe(true);
    expect(e.handle("down", null)).toBe(false);
  });
});

describe("paste", () => {
  test("a short paste is inserted as text with escapes and carriage returns removed", () => {
    const e = editor();
    e.paste("one\r\ntwo\x1b[31m red");
    expect(e.text).toBe("one\ntwo red");
  });

  test("a large paste shows as a chip and is expanded on submit", () => {
    const e = editor("see: ");
    const big = Array.from({ length: 30 }, (_, i) => `line ${i}`).join("\n");
    e.paste(big);
    expect(e.text).toBe("see: [paste #1 +30 lines]");
    expect(e.submit()).toBe(`see: ${big}`);
    expect(e.text).toBe("");
  });

  test("a draft with a chip cleared (ctrl+c) and brought back (ctrl+_) still sends the pasted text", () => {
    const e = editor("look: ");
    const big = Array.from({ length: 50 }, (_, i) => `row ${i}`).join("\n");
    e.paste(big);
    e.clear();
    expect(e.text).toBe("");
    press(e, "ctrl+_");
    expect(e.text).toBe("look: [paste #1 +50 lines]");
    expect(e.submit()).toBe(`look: ${big}`);
  });

  test("after a prompt is sent its chips are forgotten: the same text typed later is sent as typed", () => {
    const e = editor();
    e.paste(Array.from({ length: 20 }, (_, i) => `x${i}`).join("\n"));
    e.submit();
    e.setText("[paste #1 +20 lines]");
    expect(e.submit()).toBe("[paste #1 +20 lines]");
  });
});

describe("rendering", () => {
  test("wraps long lines and puts the cursor where the next character goes", () => {
    const e = editor("abcdefgh");
    const v = e.view(6, "");
    expect(v.lines).toEqual(["› abcd", "  efgh", "  "]);
    expect(v).toMatchObject({ cursorRow: 2, cursorCol: 2 });
  });

  test("measures wide characters in columns", () => {
    const e = editor("日本語", 1);
    const v = e.view(20, "");
    expect(v.lines).toEqual(["› 日本語"]);
    expect(v.cursorCol).toBe(4);
  });

  test("shows the placeholder when empty", () => {
    expect(editor().view(30, "Ask anything").lines).toEqual(["› Ask anything"]);
  });
});

describe("history", () => {
  let dir = "";

  test("is persisted per project directory and browsed newest first, keeping the draft", () => {
    dir = tempDir("zot-history-");
    const path = historyPath(dir, "/some/project");
    expect(historyPath(dir, "/other")).not.toBe(path);
    const first = new Editor(new History(path), { style });
    for (const p of ["one", "two"]) {
      first.setText(p);
      first.submit();
    }
    expect(readFileSync(path, "utf8")).toBe('"one"\n"two"\n');

    const e = new Editor(new History(path), { style });
    e.setText("draft");
    expect(e.historyPrev()).toBe(true);
    expect(e.text).toBe("two");
    e.historyPrev();
    expect(e.text).toBe("one");
    expect(e.historyPrev()).toBe(false);
    e.historyNext();
    e.historyNext();
    expect(e.text).toBe("draft");
  });

  test("a recalled prompt with a paste chip sends the pasted text again, also after a restart", () => {
    dir = tempDir("zot-history-");
    const path = historyPath(dir, "/p");
    const pasted = Array.from({ length: 20 }, (_, i) => `row ${i}`).join("\n");
    const first = new Editor(new History(path), { style });
    first.insert("explain ");
    first.paste(pasted);
    expect(first.text).toBe("explain [paste #1 +20 lines]");
    expect(first.submit()).toBe(`explain ${pasted}`);
    for (const e of [first, new Editor(new History(path), { style })]) {
      e.historyPrev();
      expect(e.text).toBe("explain [paste #1 +20 lines]");
      expect(e.submit()).toBe(`explain ${pasted}`);
    }
  });
});

test("the runtime hands the editor its project's history file under the home: a prompt typed there is recalled in the next session of that project only", async () => {
  const home = tempDir("zot-history-home-");
  const projects = [join(home, "a"), join(home, "b")];
  for (const p of projects) mkdirSync(p);
  const open = async (cwd: string) => {
    const rt = await startMockRuntime(home, { cwd });
    await rt.close();
    return new Editor(new History(rt.promptHistoryFile()), { style });
  };
  const typed = await open(projects[0]!);
  typed.setText("remember me");
  typed.submit();
  const again = await open(projects[0]!);
  expect(again.historyPrev()).toBe(true);
  expect(again.text).toBe("remember me");
  expect((await open(projects[1]!)).historyPrev()).toBe(false);
  expect(readdirSync(join(home, "history"))).toHaveLength(1);
});

describe("undo", () => {
  test("ctrl+_ undoes a typed word at a time, then deletions and pastes, back to the start", () => {
    const e = new Editor(new History(null), { style });
    for (const ch of "hello world") e.handle("rune", ch);
    press(e, "ctrl+w");
    expect(e.text).toBe("hello ");
    press(e, "ctrl+_");
    expect(e.text).toBe("hello world");
    press(e, "ctrl+_");
    expect(e.text).toBe("hello ");
    press(e, "ctrl+_", "ctrl+_");
    expect(e.text).toBe("");
    expect(e.undo()).toBe(false);
  });

  test("a sent prompt cannot be undone back into the editor", () => {
    const e = new Editor(new History(null), { style });
    e.handle("rune", "x");
    e.submit();
    expect(e.undo()).toBe(false);
    expect(e.text).toBe("");
  });
});
