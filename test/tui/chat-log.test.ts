import { describe, expect, test } from "bun:test";
import { argsPreview, COLLAPSED_TOOL_LINES, COLLAPSED_USER_LINES, ChatLog, renderEntry } from "../../src/tui/components/chat-log.ts";
import { createStyle, dark } from "../../src/tui/terminal/theme.ts";
import { ChatScroll } from "../../src/tui/scroll.ts";

const style = createStyle(dark, "none", false);
const view = (t: ChatLog, height = 100, offset = 0, width = 60) => t.window(width, height, offset);
const text = (s: string) => [{ type: "text" as const, text: s }];

describe("transcript", () => {
  test("shows user prompts and streamed assistant text as it arrives, separated by blank lines", () => {
    const t = new ChatLog({ style }, () => 1000);
    t.addUser("hi");
    t.appendAssistant("hel");
    expect(view(t)).toEqual(["› hi", "", "hel"]);
    t.appendAssistant("lo **there**");
    expect(view(t)).toEqual(["› hi", "", "hello there"]);
  });

  test("the final assistant message replaces provisional text", () => {
    const t = new ChatLog({ style }, () => 1000);
    t.appendAssistant("secret stuff");
    t.finishAssistant("[redacted]");
    expect(view(t)).toEqual(["[redacted]"]);
  });

  test("collapses thinking to one dim line until expanded", () => {
    const t = new ChatLog({ style }, () => 1000);
    t.appendThinking("step one\nstep two");
    expect(view(t)).toEqual(["∴ thinking… (2 lines, ctrl+o to expand)"]);
    t.toggleExpanded();
    expect(view(t)).toEqual(["∴ thinking", "  step one", "  step two"]);
  });

  test("tool blocks show name, owner, args and outcome, with output collapsed to a dozen lines", () => {
    const t = new ChatLog({ style }, () => 1000);
    t.toolCall("c1", "lookup", { query: "weather in Berlin" }, "demo", 0);
    const out = Array.from({ length: 20 }, (_, i) => String(i + 1)).join("\n");
    t.toolResult("c1", "lookup", text(out), false, 1500, "demo", 0);
    const lines = view(t);
    expect(lines[0]).toBe("✓ lookup [demo] weather in Berlin 1.5s");
    expect(lines).toHaveLength(1 + COLLAPSED_TOOL_LINES + 1);
    expect(lines[COLLAPSED_TOOL_LINES]).toBe("  │ 12");
    expect(lines[lines.length - 1]).toBe("  │ … 8 more lines (ctrl+o to expand)");
    t.toggleExpanded();
    expect(view(t)).toHaveLength(21);
  });

  test("live progress streams into a running tool block, newest lines first in view", () => {
    const t = new ChatLog({ style }, () => 1000);
    t.toolStart("c1", "bash", 0);
    t.toolProgress("c1", Array.from({ length: 15 }, (_, i) => `p${i + 1}`).join("\n"));
    const lines = view(t);
    expect(lines[0]).toMatch(/^. bash 1\.0s$/);
    expect(lines[1]).toBe("  │ … 3 earlier lines");
    expect(lines[lines.length - 1]).toBe("  │ p15");
    t.toolResult("c1", "bash", text("boom"), true, 20, undefined, 0);
    expect(view(t)).toEqual(["✗ bash 20ms", "  │ boom"]);
  });

  test("a running tool with a huge output shows its last lines and counts the earlier ones", () => {
    const t = new ChatLog({ style }, () => 1000);
    t.toolStart("c1", "bash", 0);
    for (let chunk = 0; chunk < 30; chunk++) {
      t.toolProgress("c1", Array.from({ length: 10_000 }, (_, i) => `l${chunk * 10_000 + i + 1}\n`).join(""));
    }
    const lines = view(t);
    expect(lines[1]).toBe(`  │ … ${300_000 - COLLAPSED_TOOL_LINES} earlier lines`);
    expect(lines.slice(-2)).toEqual(["  │ l299999", "  │ l300000"]);
    expect(lines).toHaveLength(2 + COLLAPSED_TOOL_LINES);
    t.toggleExpanded();
    expect(t.lineCount(60)).toBe(1 + 300_000 + 1);
  });

  test("a very long prompt shows its first lines in the chat until ctrl+o expands it", () => {
    const t = new ChatLog({ style }, () => 1000);
    t.addUser(Array.from({ length: 5000 }, (_, i) => `pasted ${i + 1}`).join("\n"));
    const lines = view(t, 100);
    expect(lines).toHaveLength(COLLAPSED_USER_LINES + 1);
    expect(lines[0]).toBe("› pasted 1");
    expect(lines[COLLAPSED_USER_LINES]).toBe(`  … ${5000 - COLLAPSED_USER_LINES} more lines (ctrl+o to expand)`);
    t.toggleExpanded();
    expect(t.lineCount(60)).toBe(5001);
  });

  test("tool output cannot smuggle escape sequences onto the screen", () => {
    const t = new ChatLog({ style }, () => 1000);
    t.toolResult("c1", "bash", text("ok\x1b[2J\x1b]0;title\x07done"), false, 5, undefined, 0);
    expect(view(t)[1]).toBe("  │ okdone");
  });

  test("windows count from the bottom and scroll by offset", () => {
    const t = new ChatLog({ style }, () => 1000);
    for (let i = 1; i <= 5; i++) t.addUser(`m${i}`);
    expect(t.lineCount(60)).toBe(10);
    expect(view(t, 3)).toEqual(["› m4", "", "› m5"]);
    expect(view(t, 3, 2)).toEqual(["› m3", "", "› m4"]);
  });

  test("a history longer than the lines it keeps shows the same lines at every scroll position, there and back", () => {
    const t = new ChatLog({ style }, () => 1000);
    for (let i = 0; i < 300; i++) {
      t.addUser(`prompt ${i}`);
      t.toolResult(`c${i}`, "read", [{ type: "text", text: Array.from({ length: 8 }, (_, k) => `out ${i}.${k}`).join("\n") }], false, 5, undefined, 1000);
      t.appendAssistant(`reply ${i}\n\n- item **${i}**`);
      t.closeStreams();
    }
    // The reference: every entry rendered on its own, joined by blank lines.
    const all = t.list.map((e) => renderEntry(e, 60, style, false, 1000)).filter((l) => l.length > 0);
    const ref = all.flatMap((lines, i) => (i === 0 ? lines : ["", ...lines]));
    expect(ref.length).toBeGreaterThan(4000);
    // The count includes a separator under the newest entry too.
    expect(t.lineCount(60)).toBe(ref.length + 1);
    const at = (offset: number) => ref.slice(Math.max(0, ref.length - offset - 30), ref.length - offset);
    const offsets = [0, 17, 400, 2500, ref.length - 30, 2500, 400, 17, 0, ref.length - 30, 0];
    for (const offset of offsets) expect(view(t, 30, offset)).toEqual(at(offset));
  });

  test("re-renders only the entry that changed", () => {
    const t = new ChatLog({ style }, () => 1000);
    t.addUser("first");
    t.appendAssistant("a");
    view(t);
    const userEntry = t.list[0]!;
    const cached = userEntry.cache;
    t.appendAssistant("b");
    view(t);
    expect(userEntry.cache).toBe(cached);
  });

  test("tagged info lines can be removed as a group", () => {
    const t = new ChatLog({ style }, () => 1000);
    t.addInfo("load failed", "error", "load:x");
    t.addInfo("kept", "info");
    t.removeTagged((tag) => tag === "load:x");
    expect(view(t)).toEqual(["● kept"]);
  });

  test("args previews prefer the command or path and stay on one line", () => {
    expect(argsPreview({ command: "ls\n-la" })).toBe("ls ⏎ -la");
    expect(argsPreview({ path: "src/a.ts", offset: 3 })).toBe("src/a.ts");
    expect(argsPreview({ x: 1 })).toBe('{"x":1}');
  });
});

describe("blocks", () => {
  const seq = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => String(a + i)).join("\n");

  test("a finished command keeps the tail of its output; other tools keep the head", () => {
    const t = new ChatLog({ style }, () => 1000);
    t.toolCall("b", "bash", { command: "seq 1 20" }, undefined, 0);
    t.toolResult("b", "bash", text(seq(1, 20)), false, 5, undefined, 0);
    t.toolCall("r", "read", { path: "x" }, undefined, 0);
    t.toolResult("r", "read", text(seq(1, 20)), false, 5, undefined, 0);
    const lines = view(t);
    expect(lines.slice(1, 3)).toEqual(["  │ … 8 earlier lines (ctrl+o to expand)", "  │ 9"]);
    expect(lines).toContain("  │ 20");
    const read = lines.slice(lines.findIndex((l) => l.startsWith("✓ read")));
    expect(read.slice(1, 2)).toEqual(["  │ 1"]);
    expect(read.at(-1)).toBe("  │ … 8 more lines (ctrl+o to expand)");
  });

  test("toggling the newest block in view expands only it, with the whole command in its header", () => {
    const t = new ChatLog({ style }, () => 1000);
    t.toolCall("a", "bash", { command: "seq 1 20\necho second line" }, undefined, 0);
    t.toolResult("a", "bash", text(seq(1, 20)), false, 5, undefined, 0);
    t.toolCall("b", "bash", { command: "seq 101 120" }, undefined, 0);
    t.toolResult("b", "bash", text(seq(101, 120)), false, 5, undefined, 0);
    expect(t.toggleVisible(60, 100, 0)).toBe(true);
    let lines = view(t);
    expect(lines).toContain("  │ 101");
    expect(lines).not.toContain("  │ 1");
    // Scrolled so only the first block is in view, it is the one that toggles.
    expect(t.toggleVisible(60, 5, lines.length - 5)).toBe(true);
    lines = view(t);
    expect(lines).toContain("  │ 1");
    expect(lines).toContain("  $ seq 1 20");
    expect(lines).toContain("    echo second line");
  });
});

describe("the line count kept up to date between frames", () => {
  /** What the chat shows, counted from scratch: every line of the window over the whole transcript, plus the last separator. */
  const shown = (t: ChatLog, width: number): number => {
    const lines = t.window(width, 1e9, 0).length;
    return lines === 0 ? 0 : lines + 1;
  };

  /** Most steps change an entry in place (what streaming and tool output do between frames); a few insert, remove or re-lay out. */
  const everyChange = (t: ChatLog, width: number, now: () => number): ((i: number) => void)[] => [
    (i) => t.addUser(`prompt ${i} `.repeat(1 + (i % 7))),
    (i) => t.appendAssistant(`streamed words ${i} `.repeat(1 + (i % 5))),
    (i) => t.appendAssistant(`and more ${i}\n\n- a list item\n`),
    (i) => t.appendThinking(`thinking about ${i}\n`),
    (i) => t.toolCall(`c${i % 3}`, "bash", { command: `echo ${i}` }, undefined, now()),
    (i) => t.toolProgress(`c${i % 3}`, "a line of output\n".repeat(1 + (i % 4))),
    (i) => t.toolProgress(`c${i % 3}`, "more output\n".repeat(1 + (i % 9))),
    (i) => t.awaitApproval(`c${i % 3}`, i % 2 === 0, now()),
    (i) => t.toolResult(`c${i % 3}`, "bash", [{ type: "text", text: "done\n".repeat(i % 30) }], i % 2 === 0, 5, undefined, now()),
    () => t.toggleVisible(width, 20, 0),
    () => t.closeStreams(),
    (i) => t.addInfo(`load error ${i}`, "error", "load"),
    (i) => (i % 3 === 0 ? t.removeTagged((tag) => tag === "load") : t.appendHeld(`held ${i}`)),
    (i) => (i % 5 === 0 ? t.finishAssistant("the final text, replaced") : t.dropOpenAssistant()),
    (i) => (i % 7 === 0 ? t.abortRunning(now()) : i % 13 === 0 ? t.toggleExpanded() : t.addMarker("compacted")),
  ];

  /** Each kind of change in turn, 400 in all, on a chat `width` columns wide; `check` after each. */
  const afterEveryChange = (width: number, check: (t: ChatLog, i: number) => void): void => {
    let now = 1_000;
    const t = new ChatLog({ style: createStyle(dark, "none") }, () => now);
    const steps = everyChange(t, width, () => now);
    for (let i = 0; i < 400; i++) {
      steps[i % steps.length]!(i);
      now += 37;
      check(t, i);
    }
  };

  test.each([60, 23])("matches a count from scratch after every kind of change (%i columns)", (width) => {
    afterEveryChange(width, (t, i) => expect({ i, count: t.lineCount(width) }).toEqual({ i, count: shown(t, width) }));
  });

  test.each([
    [60, "counted whole"],
    [23, "counted whole"],
    [60, "counted back as far as each window reaches"],
    [23, "counted back as far as each window reaches"],
  ])("a window scrolled up shows the same lines as the whole chat at that place, after every kind of change (%i columns, %s)", (width, how) => {
    afterEveryChange(width, (t, i) => {
      if (how === "counted whole") t.lineCount(width);
      // The reference: the whole chat, walked from the bottom.
      const all = t.window(width, 1e9, 0);
      for (const offset of [1, 2, 7, Math.floor(all.length / 2), all.length - 20, all.length - 1, all.length, all.length + 5]) {
        if (offset <= 0) continue;
        const want = all.slice(Math.max(0, all.length - offset - 20), Math.max(0, all.length - offset));
        expect({ i, offset, lines: t.window(width, 20, offset) }).toEqual({ i, offset, lines: want });
      }
    });
  });

  /** A chat of 300 entries laid in at once, as a resume does. */
  const resumed = (): ChatLog => {
    const t = new ChatLog({ style: createStyle(dark, "none") }, () => 1_000);
    for (let i = 0; i < 300; i++) {
      if (i % 3 === 0) t.addUser(`prompt ${i} `.repeat(1 + (i % 7)));
      else if (i % 3 === 1) t.appendAssistant(`words ${i}\n\n- item\n`.repeat(1 + (i % 4)));
      else t.toolCall(`c${i}`, "bash", { command: `echo ${i}` }, undefined, 1_000);
      t.closeStreams();
    }
    return t;
  };
  const rendered = (t: ChatLog): number => t.list.filter((e) => e.cache !== undefined).length;

  test("a long resumed chat is rendered from its end only as far back as the view reaches", () => {
    const width = 50;
    const t = resumed();
    // A frame at the bottom: the running sum and a window of 20 lines.
    t.grown(width);
    t.window(width, 20, 0);
    const atBottom = rendered(t);
    expect(atBottom).toBeGreaterThan(0);
    expect(atBottom).toBeLessThan(20);
    // Scrolled back 100 lines: counted back past the window's top, and no further.
    t.window(width, 20, 100);
    const back = rendered(t);
    expect(back).toBeGreaterThan(atBottom);
    expect(back).toBeLessThan(100);
    expect(t.reach(width, 50)).toBeGreaterThanOrEqual(121);
    // Hundreds of entries laid in between two frames (a replay into a chat already drawn) count as a history too.
    for (let i = 0; i < 300; i++) t.addInfo(`line ${i}`, "info");
    t.grown(width);
    t.window(width, 20, 0);
    expect(rendered(t) - back).toBeLessThan(20);
    // Changes at the bottom meanwhile, then the top: the whole count is what the chat shows.
    t.appendAssistant("a reply streaming while scrolled back");
    t.toolResult("c2", "bash", text("out\n".repeat(20)), false, 5, undefined, 1_000);
    t.addUser("a new prompt");
    expect(t.lineCount(width)).toBe(shown(t, width));
    expect(rendered(t)).toBe(t.list.length);
  });

  test("a view scrolled back keeps its lines while the chat grows below it, however far back it was counted", () => {
    const width = 40;
    const t = resumed();
    const scroll = new ChatScroll();
    const frame = (): string[] => {
      scroll.follow(t.grown(width));
      const lines = t.window(width, 10, scroll.offset);
      scroll.settle({ offset: scroll.offset, chatHeight: 10 });
      return lines;
    };
    frame();
    scroll.by(60);
    const before = frame();
    t.toolCall("late", "bash", { command: "make" }, undefined, 1_000);
    t.toolProgress("late", "compiling\n".repeat(7));
    expect(frame()).toEqual(before);
    t.appendAssistant("an answer\n\nin two paragraphs");
    t.addUser("and another prompt");
    expect(frame()).toEqual(before);
    // Scrolled further back than counted so far: the count goes on back, the lines below stay counted.
    scroll.by(200);
    const further = frame();
    t.toolResult("late", "bash", text("built\n".repeat(3)), false, 5, undefined, 1_000);
    expect(frame()).toEqual(further);
  });

  test("a view scrolled back stays where it is when an entry above it changes (a tool still running far up)", () => {
    const width = 40;
    const t = new ChatLog({ style: createStyle(dark, "none") }, () => 1_000);
    t.toolCall("early", "bash", { command: "tail -f server.log" }, undefined, 1_000);
    t.toolProgress("early", "listening\n");
    for (let i = 0; i < 40; i++) {
      t.addUser(`prompt ${i}`);
      t.appendAssistant(`answer ${i}\n\nwith a second paragraph`);
      t.closeStreams();
    }
    const scroll = new ChatScroll();
    // As the layout does: the offset clamped to the lines above the window.
    const frame = (): string[] => {
      scroll.follow(t.grown(width));
      const offset = scroll.offset > 0 ? Math.min(scroll.offset, t.reach(width, scroll.offset + 11) - 10) : 0;
      const lines = t.window(width, 10, offset);
      scroll.settle({ offset, chatHeight: 10 });
      return lines;
    };
    // Scrolled to the top once, so the whole chat is counted, then back down to its middle.
    scroll.toTop();
    expect(frame().join("\n")).toContain("tail -f");
    scroll.toBottom();
    frame();
    scroll.by(80);
    const before = frame();
    expect(before.join("\n")).not.toContain("tail -f");
    // The tool far above the view prints more: the lines in view and those below it are the same.
    t.toolProgress("early", "request 1\nrequest 2\nrequest 3\n");
    expect(frame()).toEqual(before);
    // Below the view, a change still moves the view with its lines.
    t.addUser("a new prompt");
    expect(frame()).toEqual(before);
    // Scrolled back to the tool itself, its growth is what the user sees change.
    scroll.toTop();
    frame();
    t.toolProgress("early", "request 4\n");
    expect(frame().join("\n")).toContain("request 4");
  });

  test("a view scrolled back keeps its place when the chat is laid out anew: a resize, ctrl+o", () => {
    const t = new ChatLog({ style: createStyle(dark, "none") }, () => 1_000);
    for (let i = 0; i < 40; i++) {
      t.addUser(`prompt ${i}`);
      t.appendThinking(`considering ${i}\nand more`);
      t.appendAssistant(`w${i} `.repeat(30));
      t.closeStreams();
    }
    const scroll = new ChatScroll();
    let width = 60;
    // As the app's frame does, the layout's clamp included.
    const frame = (): string[] => {
      scroll.follow(t.grown(width));
      const kept = scroll.offset > 0 ? t.keptOffset(width) : null;
      if (kept !== null) scroll.keep(kept);
      const offset = scroll.offset > 0 ? Math.min(scroll.offset, t.reach(width, scroll.offset + 11) - 10) : 0;
      const lines = t.window(width, 10, offset);
      scroll.settle({ offset, chatHeight: 10 });
      return lines;
    };
    frame();
    scroll.by(150);
    let before = frame();
    // Down line by line until the view's last line is inside a reply.
    while (!/w\d+ /.test(before.at(-1)!)) {
      scroll.by(-1);
      before = frame();
    }
    const reply = /w\d+ /.exec(before.at(-1)!)![0];
    expect(scroll.offset).toBeGreaterThan(100);
    width = 35;
    const narrower = frame();
    expect(narrower.at(-1)).toContain(reply);
    expect(narrower.join("\n")).not.toBe(before.join("\n"));
    width = 90;
    expect(frame().at(-1)).toContain(reply);
    // ctrl+o shows every thinking block whole: the reply read last stays at the bottom of the view.
    t.toggleExpanded();
    const expanded = frame();
    expect(expanded.at(-1)).toContain(reply);
    expect(expanded.join("\n")).toContain("and more");
    // A theme change renders everything again: the same place.
    t.invalidate();
    expect(frame()).toEqual(expanded);
  });

  test("knows whether a tool is still running without looking through the history", () => {
    const t = new ChatLog({ style: createStyle(dark, "none") });
    for (let i = 0; i < 50; i++) t.addUser(`p${i}`);
    t.toolCall("a", "bash", { command: "sleep 1" }, undefined, 0);
    expect(t.hasRunningTool).toBe(true);
    t.toolResult("a", "bash", [{ type: "text", text: "" }], false, 1, undefined, 1);
    expect(t.hasRunningTool).toBe(false);
    t.toolCall("b", "bash", { command: "sleep 1" }, undefined, 2);
    t.abortRunning(3);
    expect(t.hasRunningTool).toBe(false);
    t.toolCall("c", "bash", { command: "sleep 1" }, undefined, 4);
    t.clear();
    expect(t.hasRunningTool).toBe(false);
  });
});
