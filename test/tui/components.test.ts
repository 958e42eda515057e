// Notes, queue, slash popup, panel, pickers and the status bar, rendered to lines.
import { describe, expect, test } from "bun:test";
import { fuzzyFilter, fuzzyScore } from "../../src/tui/fuzzy.ts";
import { MAX_NOTES, Notes } from "../../src/tui/components/notes.ts";
import { Panel } from "../../src/tui/components/panel.ts";
import { Picker, TextPrompt } from "../../src/tui/components/pickers.ts";
import { PromptQueue } from "../../src/tui/components/queued-prompts.ts";
import { parseSlash } from "../../src/modes/slash.ts";
import { findCommand, SlashPopup, slashItems } from "../../src/tui/components/slash.ts";
import { extensionCounts, StatusBar, type StatusInfo } from "../../src/tui/components/status-bar.ts";
import { createStyle, dark } from "../../src/tui/terminal/theme.ts";
import { emptyUsage } from "../../src/agent/messages.ts";
import { elements } from "../helpers/elements.ts";

const style = createStyle(dark, "none", false);

describe("notes", () => {
  test("show the extension in brackets, one line each, sanitized", () => {
    const n = new Notes({ style });
    n.add({ extension: "git", level: "warn", text: "dirty\x1b[2J tree" });
    n.add({ extension: "todo", level: "display", text: "a\nb" });
    expect(n.render(40)).toEqual(["[git] dirty tree", "[todo] a", "       b"]);
  });

  test("clear_notes drops one extension's notes and the list keeps the latest 50", () => {
    const n = new Notes({ style });
    // One note a second: no flood, so none is merged.
    for (let i = 0; i < MAX_NOTES + 5; i++) n.add({ extension: i % 2 ? "a" : "b", level: "info", text: `n${i}` }, i * 1000);
    expect(n.list).toHaveLength(MAX_NOTES);
    expect(n.list[0]!.text).toBe("n5");
    n.clearExtension("a");
    expect(n.list.every((x) => x.extension === "b")).toBe(true);
    expect(n.clear()).toBe(true);
    expect(n.clear()).toBe(false);
  });
});

describe("prompt queue", () => {
  test("keeps order, shows when each goes, the source and at most three entries", () => {
    const q = new PromptQueue({ style });
    for (const t of ["one", "two\nlines", "three", "four"]) q.push(t, t === "three" ? "demo" : null, t === "one" ? "steer" : "after");
    expect(q.render(60)).toEqual([
      "⏵ next tool boundary: one",
      "⏵ after this turn: two ⏎ lines",
      "⏵ after this turn: [demo] three",
      "  … 1 more queued",
      "  ↑ on an empty editor edits the last one · esc puts them b…",
    ]);
    expect(q.takeSteering().map((i) => i.text)).toEqual(["one"]);
    expect(q.pop()?.text).toBe("four");
    expect(q.shift()?.text).toBe("two\nlines");
    expect(q.clear()).toBe(1);
  });
});

describe("slash commands", () => {
  const items = slashItems([
    { name: "zeta", description: "last", extension: "z" },
    { name: "Alpha", description: "first", extension: "a" },
  ]);

  test("built-ins come first, extension commands after them sorted by name", () => {
    expect(items.map((i) => i.name)).toEqual([
      "help",
      "model",
      "sessions",
      "session",
      "resume",
      "export",
      "rename",
      "rewind",
      "study",
      "btw",
      "jump",
      "skills",
      "agents",
      "jail",
      "unjail",
      "clear",
      "init",
      "compact",
      "cost",
      "context",
      "status",
      "doctor",
      "copy",
      "add-dir",
      "reload-ext",
      "ext-config",
      "trust",
      "yolo",
      "permissions",
      "ps",
      "reasoning",
      "theme",
      "login",
      "logout",
      "exit",
      "quit",
      "Alpha",
      "zeta",
    ]);
  });

  test("the popup filters case-insensitively and draws a divider before extension commands", () => {
    const p = new SlashPopup({ style });
    p.update("/ALP", items);
    expect(p.open).toBe(true);
    expect(p.render(50)).toEqual(["── extensions " + "─".repeat(36), "› /Alpha   first [a]"]);
    p.update("/alpha more", items);
    expect(p.open).toBe(false);
  });

  test("lookup is case-insensitive and args are trimmed", () => {
    expect(findCommand(items, "ALPHA")?.name).toBe("Alpha");
    expect(parseSlash("/alpha   two words  ")).toEqual({ name: "alpha", args: "two words" });
    expect(parseSlash("not a command")).toBeNull();
  });
});

describe("fuzzy matching", () => {
  test("prefers prefixes, then substrings, then scattered letters", () => {
    expect(fuzzyFilter(["src/tui/app.ts", "apple", "map"], "ap", (s) => s)).toEqual(["apple", "map", "src/tui/app.ts"]);
    expect(fuzzyScore("xyz", "abc")).toBeNull();
  });
});

describe("panel", () => {
  const panel = () => new Panel({ style }, "todo", "p1", { id: "p1", title: "Todos", lines: ["one", "two\x1b[31m", "three"], footer: "esc close" });

  test("draws a bordered box with title, sanitized lines cut to the width, and footer", () => {
    const lines = panel().render(20, 10);
    expect(lines).toEqual([
      "╭─ Todos ──────────╮",
      "│ one              │",
      "│ two              │",
      "│ three            │",
      "│ esc close        │",
      "╰──────────────────╯",
    ]);
  });

  test("long content scrolls inside the box and reports its inner size", () => {
    const p = panel();
    p.update({ lines: Array.from({ length: 30 }, (_, i) => `row ${i + 1}`) });
    let lines = p.render(30, 8);
    expect(p.size).toEqual({ width: 26, height: 5 });
    expect(lines[0]).toContain(" 1-5/30 ");
    p.scrollBy(100);
    lines = p.render(30, 8);
    expect(lines[5]).toBe("│ row 30                     │");
  });
});

describe("pickers", () => {
  test("filter as you type, preview on move, pick on enter", () => {
    const moved: string[] = [];
    let picked = "";
    const p = new Picker<string>(
      { style },
      {
        title: "Theme",
        items: ["dark", "light", "ocean"],
        key: (s) => s,
        row: (s) => ({ label: s }),
        onMove: (s) => moved.push(s),
        onPick: (s) => (picked = s),
      },
    );
    p.handle("down", null);
    p.handle("o", "oc");
    expect(p.list.items).toEqual(["ocean"]);
    expect(p.handle("enter", null)).toBe(true);
    expect(moved).toEqual(["light", "ocean"]);
    expect(picked).toBe("ocean");
  });

  test("a secret prompt masks what is typed", () => {
    let got = "";
    const p = new TextPrompt({ style }, { title: "Key", hint: "", secret: true, onSubmit: (v) => (got = v) });
    p.handle("", "sk-123");
    expect(p.render(40)[2]).toBe("› •••••• ");
    p.handle("enter", null);
    expect(got).toBe("sk-123");
  });
});

describe("status bar", () => {
  test("shows model and thinking level, context, tokens, cost, directory and branch, the busy spinner, extensions and the permission mode", () => {
    const info: StatusInfo = {
      provider: "anthropic",
      model: "claude",
      context: { used: 50_000, window: 200_000 },
      usage: { ...emptyUsage(), input: 1200, output: 300, cost: 0.0123 },
      busySince: 0,
      busyLabel: "working",
      extensions: { loaded: 3, failed: 1 },
      mode: "ask",
      place: { dir: "~/p", branch: "main" },
      reasoning: "high",
    };
    const [line] = elements(
      new StatusBar(
        { style },
        () => 2500,
        () => info,
      ).render(130),
      1,
    );
    expect(line).toMatch(
      /^anthropic\/claude \(think high\) · ctx 25% of 200k · ↑1\.2k ↓300 · \$0\.012 · ~\/p \(main\) +. working 2\.5s · 3 ext 1 failed · ask$/,
    );
    expect(line.length).toBe(130);
  });

  test("counts loaded and failed extensions", () => {
    const s = (status: string) => ({ status }) as Parameters<typeof extensionCounts>[0][number];
    expect(extensionCounts([s("ready"), s("auto_ready"), s("failed"), s("disabled"), s("exited")])).toEqual({ loaded: 2, failed: 2 });
  });
});
