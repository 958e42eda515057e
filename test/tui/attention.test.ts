// Notifications, the window title, alternate scroll, the status line's place and /sessions rows.
import { beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readConfig } from "../../src/agent/config.ts";
import { sessionSummary } from "../../src/agent/session.ts";
import { notification, resolveNotify, titleText } from "../../src/tui/terminal/attention.ts";
import { age } from "../../src/tui/commands/commands.ts";
import { gitBranch } from "../../src/tui/git-branch.ts";
import { shortDir } from "../../src/tui/paths.ts";
import { Terminal } from "../../src/tui/terminal/terminal.ts";
import { tempDir } from "../helpers/temp.ts";

let dir: string;
beforeEach(() => {
  dir = tempDir("zot-attn-");
});

test("auto notifications use OSC 9 or OSC 777 where the terminal shows them, the bell elsewhere and inside tmux", () => {
  expect(resolveNotify("auto", { TERM_PROGRAM: "iTerm.app" })).toBe("osc9");
  expect(resolveNotify("auto", { TERM: "foot" })).toBe("osc777");
  expect(resolveNotify("auto", { TERM_PROGRAM: "iTerm.app", TMUX: "/tmp/tmux" })).toBe("bell");
  expect(resolveNotify("auto", { TERM: "xterm-256color" })).toBe("bell");
  expect(resolveNotify("off", { TERM_PROGRAM: "iTerm.app" })).toBe("off");
  expect(notification("bell", "done")).toBe("\x07");
  expect(notification("osc9", "zot finished\x1b[2J")).toBe("\x1b]9;zot finished\x07");
  expect(notification("osc777", "zot; done")).toBe("\x1b]777;notify;zot;zot  done\x07");
  expect(notification("off", "x")).toBe("");
});

test("notify in config.json is checked", () => {
  writeFileSync(join(dir, "config.json"), JSON.stringify({ notify: "osc9" }));
  expect(readConfig(dir).values.notify).toBe("osc9");
  writeFileSync(join(dir, "config.json"), JSON.stringify({ notify: "loud" }));
  expect(readConfig(dir).warnings.join("\n")).toContain('"notify"');
});

test("the title names the project directory and the state, with nothing unsafe in it", () => {
  expect(titleText("/home/u/work/zot", "working")).toBe("\x1b]2;zot · zot · working\x07");
  expect(titleText("/tmp/evil\x07name", "idle")).toBe("\x1b]2;zot · evilname · idle\x07");
});

test("the terminal turns alternate scroll on with the alternate screen and off again, and keeps the title", () => {
  const written: string[] = [];
  const input = { isTTY: false, on() {}, off() {}, resume() {}, pause() {} };
  const output = { isTTY: true, write: (s: string) => written.push(s), on() {}, off() {} };
  const term = new Terminal(input, output);
  term.enter({ altScreen: true });
  expect(written.join("")).toContain("\x1b[?1049h\x1b[?1007h");
  expect(written.join("")).toContain("\x1b[22;0t");
  term.restore();
  expect(written.join("")).toContain("\x1b[23;0t\x1b[?1007l\x1b[?1049l");
});

test("the status line's directory is shortened and the branch read from HEAD, worktrees included", () => {
  expect(shortDir("/home/u/projects/clients/acme/app", 16, "/home/u")).toBe("~/p/c/acme/app");
  expect(shortDir("/home/u/projects/clients/acme/app", 20, "/home/u")).toBe("~/p/clients/acme/app");
  expect(shortDir("/home/u/x", 30, "/home/u")).toBe("~/x");
  mkdirSync(join(dir, "repo", ".git"), { recursive: true });
  writeFileSync(join(dir, "repo", ".git", "HEAD"), "ref: refs/heads/feature/login\n");
  mkdirSync(join(dir, "repo", "src"));
  expect(gitBranch(join(dir, "repo", "src"))).toBe("feature/login");
  writeFileSync(join(dir, "repo", ".git", "HEAD"), "0123456789abcdef0123456789abcdef01234567\n");
  expect(gitBranch(join(dir, "repo"))).toBe("0123456");
  mkdirSync(join(dir, "wt"));
  mkdirSync(join(dir, "gitdirs", "wt"), { recursive: true });
  writeFileSync(join(dir, "wt", ".git"), `gitdir: ${join(dir, "gitdirs", "wt")}\n`);
  writeFileSync(join(dir, "gitdirs", "wt", "HEAD"), "ref: refs/heads/daily\n");
  expect(gitBranch(join(dir, "wt"))).toBe("daily");
  mkdirSync(join(dir, "plain"));
  expect(gitBranch(join(dir, "plain"))).toBeNull();
});

test("/sessions rows: the age, then messages, model, cost and the first prompt", () => {
  const now = Date.UTC(2026, 0, 10, 12);
  expect([age(now - 20_000, now), age(now - 5 * 60_000, now), age(now - 3 * 3_600_000, now), age(now - 2 * 86_400_000, now)]).toEqual([
    "just now",
    "5m ago",
    "3h ago",
    "2d ago",
  ]);
  const info = {
    path: "/s",
    id: "1",
    created: "",
    modified: now,
    preview: "fix the build",
    messages: 4,
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    cost: 0.0421,
    title: "",
    parent: "",
    forkPoint: 0,
  };
  expect(sessionSummary(info)).toBe("4 msgs · claude-sonnet-4-5 · $0.0421 · fix the build");
});
