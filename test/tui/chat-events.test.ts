import { expect, test } from "bun:test";
import { applyEvent } from "../../src/tui/chat-events.ts";
import { showLoadProblems, startupReport, withLog } from "../../src/tui/components/load-errors.ts";
import { ChatLog } from "../../src/tui/components/chat-log.ts";
import { createStyle, dark } from "../../src/tui/terminal/theme.ts";
import type { ExtensionState } from "../../src/ext/types.ts";

const style = createStyle(dark, "none", false);
const view = (t: ChatLog) => t.window(80, 100, 0);

test("a turn's events build the chat: streamed text, a tool block, the final reply", () => {
  const t = new ChatLog({ style }, () => 0);
  applyEvent(t, { type: "text_delta", text: "Let me look." }, 0);
  applyEvent(t, { type: "tool_use_start", id: "c1", name: "read" }, 0);
  applyEvent(t, { type: "tool_call", id: "c1", name: "read", args: { path: "a.ts" } }, 0);
  applyEvent(t, { type: "tool_result", id: "c1", name: "read", content: [{ type: "text", text: "x" }], is_error: false, duration_ms: 3 }, 0);
  applyEvent(t, { type: "text_delta", text: "Done" }, 0);
  applyEvent(t, { type: "assistant_message", content: [], time: "", text: "Done." }, 0);
  expect(view(t)).toEqual(["Let me look.", "", "✓ read a.ts 3ms", "  │ x", "", "Done."]);
});

test("blocked replies, blocked turns and errors become info lines; notes events are left to intents", () => {
  const t = new ChatLog({ style }, () => 0);
  applyEvent(t, { type: "assistant_message", content: [], time: "", text: "", blocked: true, blocked_by: "guard", reason: "secret" }, 0);
  applyEvent(t, { type: "turn_blocked", step: 1, extension: "hours", reason: "closed" }, 0);
  applyEvent(t, { type: "turn_end", step: 1, stop: "error", error: "HTTP 500 from the provider" }, 0);
  expect(applyEvent(t, { type: "ext_notify", extension: "x", level: "info", message: "m" }, 0)).toBe(false);
  expect(view(t)).toEqual(["● reply hidden by guard: secret", "", "● Turn blocked by hours: closed", "", "● HTTP 500 from the provider"]);
});

test("a held reply shows only the text the interceptors let through", () => {
  const t = new ChatLog({ style }, () => 0);
  applyEvent(t, { type: "text_delta", text: "key: sk-…[redacted]", held: true }, 0);
  applyEvent(t, { type: "assistant_message", content: [], time: "", text: "key: sk-…[redacted]", rewritten_by: ["redact"] }, 0);
  expect(view(t)).toEqual(["key: sk-…[redacted]"]);
});

test("text before a tool call shows once, above the tool's block, whether it streamed or was held", () => {
  for (const held of [false, true]) {
    const t = new ChatLog({ style }, () => 0);
    if (!held) applyEvent(t, { type: "text_delta", text: "Let me check." }, 0);
    applyEvent(t, { type: "tool_use_start", id: "c1", name: "bash" }, 0);
    if (held) applyEvent(t, { type: "text_delta", text: "Let me check.", held: true }, 0);
    applyEvent(t, { type: "assistant_message", content: [], time: "", text: "Let me check." }, 0);
    applyEvent(t, { type: "tool_call", id: "c1", name: "bash", args: { command: "ls" } }, 0);
    applyEvent(t, { type: "tool_result", id: "c1", name: "bash", content: [{ type: "text", text: "a.ts" }], is_error: false, duration_ms: 3 }, 0);
    applyEvent(t, { type: "assistant_message", content: [], time: "", text: "" }, 0);
    applyEvent(t, { type: "text_delta", text: "Done.", held }, 0);
    applyEvent(t, { type: "assistant_message", content: [], time: "", text: "Done." }, 0);
    expect(view(t)).toEqual(["Let me check.", "", "✓ bash ls 3ms", "  │ a.ts", "", "Done."]);
  }
});

test("a hidden reply withdraws whatever streamed of it and leaves a note naming the extension", () => {
  const t = new ChatLog({ style }, () => 0);
  applyEvent(t, { type: "user_message", content: [], time: "", text: "hi", images: 0 }, 0);
  applyEvent(t, { type: "text_delta", text: "the original words" }, 0);
  applyEvent(t, { type: "assistant_message", content: [], time: "", text: "", blocked: true, blocked_by: "gate", reason: "" }, 0);
  expect(view(t)).toEqual(["● reply hidden by gate"]);
});

test("load errors show with their log path once, and a reload of one extension replaces only its lines", () => {
  expect(withLog("boom", "/l/ext-a.log")).toBe("boom (log: /l/ext-a.log)");
  expect(withLog("boom (log: /l/ext-a.log)", "/l/ext-a.log")).toBe("boom (log: /l/ext-a.log)");
  const state = (name: string, status: ExtensionState["status"], error: string | null, warnings: string[] = []) =>
    ({ name, status, error, log: `/l/ext-${name}.log`, warnings }) as ExtensionState;
  const t = new ChatLog({ style }, () => 0);
  showLoadProblems(
    t,
    startupReport([state("a", "failed", "a died"), state("b", "failed", "b died"), state("c", "ready", null), state("th", "theme_only", null, ["bad colour"])]),
  );
  expect(view(t)).toEqual(["● [a] a died (log: /l/ext-a.log)", "", "● [b] b died (log: /l/ext-b.log)", "", "● [th] bad colour"]);
  showLoadProblems(t, { extensions: [state("a", "ready", null)], errors: [] }, "a");
  expect(view(t)).toEqual(["● [b] b died (log: /l/ext-b.log)", "", "● [th] bad colour"]);
});

test("a task call's subagents show as nested live blocks, one line each when done, their calls when expanded", () => {
  let now = 0;
  const t = new ChatLog({ style }, () => now);
  const ref = (id: string, parent: string | null = null) => ({ id, name: id.split("-")[0]!, parent });
  const status = (id: string, state: "running" | "done" | "cancelled", tool: string | null, tokens: number, ms: number, parent: string | null = null) => ({
    agent: ref(id, parent),
    description: "count every apple in the whole orchard before the sun goes down",
    state,
    tool: tool ? { name: "bash", args: { command: tool } } : null,
    tokens,
    duration_ms: ms,
  });
  const progress = (s: ReturnType<typeof status>, from?: string) =>
    applyEvent(
      t,
      { type: "tool_progress", id: from ? "sub-call" : "c1", name: "task", text: "line\n", subagent: s, ...(from ? { agent: ref(from) } : {}) },
      now,
    );
  applyEvent(t, { type: "tool_call", id: "c1", name: "task", args: { description: "apples", prompt: "count them" } }, 0);
  progress(status("general-1", "running", null, 0, 0));
  expect(view(t).slice(1)).toEqual(["  ⠋ general-1 · count every apple in the whole orchard before… · 0ms · 0 tokens", "    → starting…"]);
  now = 2500;
  progress(status("general-1", "running", "sleep 5; echo x", 1234, 2400));
  // Its model's usage counts at once, before its next progress line.
  const usage = { input: 60, output: 40, cacheRead: 0, cacheWrite: 0, cost: 0 };
  expect(applyEvent(t, { type: "usage", usage, total: usage, agent: ref("general-1") }, now)).toBe(true);
  // A subagent's own task call starts a grandchild: its block goes under its parent's.
  expect(progress(status("explore-2", "running", "ls", 10, 0, "general-1"), "general-1")).toBe(true);
  now = 3600;
  expect(view(t).map((l) => l.length <= 80)).not.toContain(false);
  expect(view(t).slice(1)).toEqual([
    "  ⠴ general-1 · count every apple in the whole orchard bef… · 3.6s · 1.3k tokens",
    "    → bash sleep 5; echo x",
    "    ⠴ explore-2 · count every apple in the whole orchard bef… · 1.1s · 10 tokens",
    "      → bash ls",
  ]);
  progress(status("explore-2", "done", "ls", 20, 1000, "general-1"), "general-1");
  progress(status("general-1", "done", "sleep 5; echo x", 2000, 3500));
  applyEvent(t, { type: "tool_result", id: "c1", name: "task", content: [{ type: "text", text: "42 apples" }], is_error: false, duration_ms: 3600 }, now);
  expect(view(t)).toEqual([
    "✓ task general: apples 3.6s",
    "  ✓ general-1 · count every apple in the whole or… · 3.5s · 2.0k tokens · 1 call",
    "    ✓ explore-2 · count every apple in the whole or… · 1.0s · 20 tokens · 1 call",
    "  │ 42 apples",
  ]);
  expect(t.toggleVisible(80, 20, 0)).toBe(true);
  expect(view(t).filter((l) => l.includes("→"))).toEqual(["    → bash sleep 5; echo x", "      → bash ls"]);
});

test("a cancelled turn leaves its subagents' blocks stopped, not running", () => {
  const t = new ChatLog({ style }, () => 500);
  applyEvent(t, { type: "tool_call", id: "c1", name: "task", args: { description: "apples", prompt: "count them" } }, 0);
  const s = {
    agent: { id: "general-1", name: "general", parent: null },
    description: "apples",
    state: "running" as const,
    tool: null,
    tokens: 0,
    duration_ms: 0,
  };
  applyEvent(t, { type: "tool_progress", id: "c1", name: "task", text: "", subagent: s }, 0);
  t.abortRunning(500);
  expect(view(t)).toContain("  ✗ general-1 · apples · 500ms · 0 tokens · 0 calls · cancelled");
});
