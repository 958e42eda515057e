import { sessionDir } from "../../src/platform/home.ts";
import { beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { appendSession, createSession, interruptedMessage, openSession } from "../../src/agent/session.ts";
import { listSessions } from "../../src/agent/session-list.ts";
import { exportSession, flattenTree, forkSession, importSession, sessionPrompts, sessionTree, slugify, unquotePath } from "../../src/agent/session-ops.ts";
import type { AssistantMessage } from "../../src/agent/messages.ts";
import { readWithGoRules } from "../helpers/go-session-rules.ts";
import { tempDir } from "../helpers/temp.ts";

let home: string;
let cwd: string;
let other: string;
beforeEach(() => {
  home = tempDir("zot-session-ops-");
  cwd = join(home, "project");
  other = join(home, "elsewhere");
  mkdirSync(cwd);
  mkdirSync(other);
});

const reply = (text: string, ts: number): AssistantMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  stop: "end_turn",
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  usage: { input: 10, output: 2, cacheRead: 0, cacheWrite: 0, cost: 0.01 },
  ts,
});

/** A session of `cwd` with three prompts, a model switch after the first, and usage rows. */
function threePrompts(): string {
  const w = createSession({ home, cwd, provider: "anthropic", model: "claude-sonnet-4-5", now: new Date("2026-12-01T10:20:30Z") });
  ["Fix the login bug!", "now the tests", "and the docs"].forEach((text, i) => {
    w.message({ role: "user", content: [{ type: "text", text }], ts: 1000 * i + 1 });
    w.usage(
      reply("", 0).usage,
      { input: 10 * (i + 1), output: 2 * (i + 1), cacheRead: 0, cacheWrite: 0, cost: 0.01 * (i + 1) },
      "anthropic",
      "claude-sonnet-4-5",
    );
    w.message(reply(`done ${i}`, 1000 * i + 2));
    if (i === 0) w.model("anthropic", "claude-haiku-4-5");
  });
  w.close();
  return w.path as string;
}

/** Sends one more prompt in `path`, as a user going on in a fork would. */
function writeIn(path: string, text: string): void {
  const loaded = openSession(path);
  if (!loaded.ok) throw new Error(loaded.error);
  const w = appendSession(loaded.session);
  w.message({ role: "user", content: [{ type: "text", text }], ts: 9000 });
  w.close();
}

const rows = (path: string) =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));

describe("/session export", () => {
  test("writes ~/Downloads/<started>-<id>-<prompt slug>.zotsession with every cwd stripped and the rows kept", () => {
    const src = threePrompts();
    const id = rows(src)[0].meta.id as string;
    const r = exportSession(src, undefined, home);
    if (!r.ok) throw new Error(r.error);
    expect(r.path).toBe(join(home, "Downloads", `20261201-102030-${id.slice(0, 8)}-fix-the-login-bug.zotsession`));
    const out = rows(r.path);
    expect(out.filter((x) => x.type === "meta").map((x) => [x.meta.cwd, x.meta.model])).toEqual([
      ["", "claude-sonnet-4-5"],
      ["", "claude-haiku-4-5"],
    ]);
    expect(out.filter((x) => x.type !== "meta")).toEqual(rows(src).filter((x) => x.type !== "meta"));
    expect(readWithGoRules(readFileSync(r.path, "utf8")).firstLineIsMeta).toBe(true);
  });

  test("into a directory, to a bare file name, and never over an existing file", () => {
    const src = threePrompts();
    const dir = exportSession(src, other, home);
    expect(dir.ok && basename(dir.path)).toEndWith("-fix-the-login-bug.zotsession");
    const named = exportSession(src, join(other, "mine"), home);
    expect(named).toEqual({ ok: true, path: join(other, "mine.zotsession") });
    expect(exportSession(src, join(other, "mine.zotsession"), home)).toEqual({
      ok: false,
      error: `${join(other, "mine.zotsession")} already exists; give another path to /session export.`,
    });
  });
});

describe("/session import", () => {
  test("copies a dropped (quoted) file into this directory's sessions with a fresh id, this cwd and the last model", () => {
    const exported = exportSession(threePrompts(), join(other, "my session"), home);
    if (!exported.ok) throw new Error(exported.error);
    const r = importSession(`'${exported.path}'`, home, other, new Date("2026-12-02T08:00:00Z"));
    if (!r.ok) throw new Error(r.error);
    expect(r.path.startsWith(sessionDir(home, other))).toBe(true);
    const out = rows(r.path);
    expect(out[0].meta).toMatchObject({ cwd: other, model: "claude-haiku-4-5", started: "2026-12-02T08:00:00.000Z" });
    expect(out[0].meta.id).not.toBe(rows(exported.path)[0].meta.id);
    expect(out.filter((x) => x.type === "meta")).toHaveLength(1);
    const loaded = openSession(r.path);
    if (!loaded.ok) throw new Error(loaded.error);
    expect(loaded.session.messages).toHaveLength(6);
    expect(loaded.session.usage.cost).toBeCloseTo(0.03);
  });

  test("a file that is not a session is refused with a sentence", () => {
    writeFileSync(join(other, "notes.txt"), "hello\n");
    expect(importSession(join(other, "notes.txt"), home, cwd)).toEqual({
      ok: false,
      error: `Session file ${join(other, "notes.txt")} is not a zot session (its first line is not a meta row).`,
    });
    expect(importSession(join(other, "gone.zotsession"), home, cwd)).toEqual({
      ok: false,
      error: `Session file ${join(other, "gone.zotsession")} does not exist; check the path.`,
    });
  });

  test("drag-and-drop paths lose their quotes and escapes", () => {
    expect(unquotePath(`"/tmp/a b.zotsession"`)).toBe("/tmp/a b.zotsession");
    expect(unquotePath(`/tmp/a\\ b.zotsession `)).toBe("/tmp/a b.zotsession");
    expect(slugify("  Fix: the LOGIN bug!! ")).toBe("fix-the-login-bug");
  });
});

describe("/session fork", () => {
  test("branches before a prompt: the rows before it, parent and fork_point in the meta, the prompt's text back", () => {
    const parent = threePrompts();
    expect(sessionPrompts(parent)).toEqual({
      ok: true,
      prompts: [
        { index: 0, text: "Fix the login bug!", time: "1970-01-01T00:00:00.001Z" },
        { index: 1, text: "now the tests", time: "1970-01-01T00:00:01.001Z" },
        { index: 2, text: "and the docs", time: "1970-01-01T00:00:02.001Z" },
      ],
    });
    const r = forkSession(parent, 1, home, cwd);
    if (!r.ok) throw new Error(r.error);
    expect(r.text).toBe("now the tests");
    const out = rows(r.path);
    expect(out[0].meta).toMatchObject({ parent: rows(parent)[0].meta.id, fork_point: 2, model: "claude-haiku-4-5", cwd });
    const loaded = openSession(r.path);
    if (!loaded.ok) throw new Error(loaded.error);
    expect(loaded.session.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(loaded.session.usage).toMatchObject({ input: 10, output: 2 });
    expect(forkSession(parent, 3, home, cwd)).toEqual({ ok: false, error: "The session has 3 prompts; there is no prompt 4 to fork at." });
  });

  test("/session tree shows forks under their parent and marks the current session", () => {
    const parent = threePrompts();
    const a = forkSession(parent, 1, home, cwd, new Date("2026-12-01T11:00:00Z"));
    const b = forkSession(parent, 2, home, cwd, new Date("2026-12-01T12:00:00Z"));
    if (!a.ok || !b.ok) throw new Error("fork failed");
    const grandchild = forkSession(a.path, 0, home, cwd, new Date("2026-12-01T11:30:00Z"));
    if (!grandchild.ok) throw new Error(grandchild.error);
    for (const f of [a.path, b.path, grandchild.path]) writeIn(f, "going on");
    const flat = flattenTree(sessionTree(home, cwd, a.path)).map(({ node, depth }) => [depth, node.session.path, node.current]);
    expect(flat).toEqual([
      [0, parent, false],
      [1, a.path, true],
      [2, grandchild.path, false],
      [1, b.path, false],
    ]);
    rmSync(parent);
    expect(
      sessionTree(home, cwd, null)
        .map((n) => n.session.path)
        .sort(),
    ).toEqual([a.path, b.path].sort());
  });

  test("the note after an interrupted turn is not a prompt: the pickers skip it, indexes still count it", () => {
    const w = createSession({ home, cwd, provider: "mock", model: "mock" });
    w.message({ role: "user", content: [{ type: "text", text: "long task" }], ts: 1 });
    w.message(interruptedMessage(2));
    w.message({ role: "user", content: [{ type: "text", text: "shorter one" }], ts: 3 });
    w.close();
    const r = sessionPrompts(w.path as string);
    if (!r.ok) throw new Error(r.error);
    expect(r.prompts.map((p) => [p.index, p.text])).toEqual([
      [0, "long task"],
      [2, "shorter one"],
    ]);
    const fork = forkSession(w.path as string, 2, home, cwd);
    expect(fork).toMatchObject({ ok: true, text: "shorter one" });
  });

  test("a fork nobody wrote in is left out of /sessions, /session tree and zot -r, unless it is the session in use; -c still finds it", () => {
    const parent = threePrompts();
    const used = forkSession(parent, 1, home, cwd, new Date("2026-12-01T11:00:00Z"));
    const left = forkSession(parent, 2, home, cwd, new Date("2026-12-01T12:00:00Z"));
    if (!used.ok || !left.ok) throw new Error("fork failed");
    writeIn(used.path, "a new direction");
    expect(
      listSessions(home, cwd)
        .map((s) => s.path)
        .sort(),
    ).toEqual([parent, used.path].sort());
    expect(flattenTree(sessionTree(home, cwd, null)).map(({ node }) => node.session.path)).toEqual([parent, used.path]);
    expect(flattenTree(sessionTree(home, cwd, left.path)).map(({ node }) => [node.session.path, node.current])).toEqual([
      [parent, false],
      [used.path, false],
      [left.path, true],
    ]);
    expect(listSessions(home, cwd, "all")).toHaveLength(3);
  });
});
