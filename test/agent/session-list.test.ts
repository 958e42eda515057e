import { beforeEach, describe, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { emptyUsage } from "../../src/agent/messages.ts";
import { describeSession, latestSession, listSessions } from "../../src/agent/session-list.ts";
import { appendSession, createSession, openSession } from "../../src/agent/session.ts";
import { sessionDir } from "../../src/platform/home.ts";
import { tempDir } from "../helpers/temp.ts";

let home: string;
let cwd: string;
beforeEach(() => {
  home = tempDir("zot-session-list-");
  cwd = join(home, "project");
  mkdirSync(cwd);
});

const user = (text: string) => ({ role: "user" as const, content: [{ type: "text" as const, text }], ts: 1 });
const reply = (text: string) => ({
  role: "assistant" as const,
  content: [{ type: "text" as const, text }],
  stop: "end_turn" as const,
  provider: "mock",
  model: "m",
  usage: emptyUsage(),
  ts: 2,
});

function session(prompt: string, at: string): string {
  const w = createSession({ home, cwd, provider: "mock", model: "m", now: new Date(at) });
  w.message(user(prompt));
  w.message(reply("ok"));
  w.close();
  return w.path as string;
}

/** What a listing says, read afresh from each transcript without the index. */
const fresh = (path: string) => describeSession(path, readFileSync(path, "utf8"), statSync(path).mtimeMs);

describe("the session list", () => {
  test("describes each transcript as a full reading would, and again after the index is written", () => {
    session("first", "2026-01-01T00:00:00Z");
    session("second", "2026-02-01T00:00:00Z");
    const first = listSessions(home, cwd);
    expect(first.map((s) => s.preview).sort()).toEqual(["first", "second"]);
    expect(first).toEqual(first.map((s) => fresh(s.path)).sort((a, b) => b.modified - a.modified || (a.path < b.path ? 1 : -1)));
    expect(readFileSync(join(sessionDir(home, cwd), "index.json"), "utf8")).toContain('"version":1');
    expect(listSessions(home, cwd)).toEqual(first);
  });

  test("a transcript that grew is described with what was appended: messages, a new title, the model", () => {
    const path = session("grows", "2026-01-01T00:00:00Z");
    expect(listSessions(home, cwd)[0]).toMatchObject({ messages: 2, title: "" });
    const opened = openSession(path);
    if (!opened.ok) throw new Error(opened.error);
    const w = appendSession(opened.session);
    w.message(user("more"));
    w.model("anthropic", "claude-sonnet-5-5");
    w.close();
    appendFileSync(path, `${JSON.stringify({ type: "rename", title: "the renamed one" })}\n`);
    const [info] = listSessions(home, cwd);
    expect(info).toEqual(fresh(path));
    expect(info).toMatchObject({ messages: 3, title: "the renamed one", model: "claude-sonnet-5-5", preview: "grows" });
  });

  test("an unchanged transcript is described from the index without being read again", () => {
    const path = session("cached", "2026-01-01T00:00:00Z");
    listSessions(home, cwd);
    const st = statSync(path);
    // Same size and time, other bytes: only a reading could see the difference.
    const text = readFileSync(path, "utf8");
    writeFileSync(path, text.replace('"cached"', '"CACHED"'));
    utimesSync(path, st.atime, st.mtime);
    expect(listSessions(home, cwd)[0]?.preview).toBe("cached");
  });

  test("a transcript rewritten shorter, a damaged index and a removed transcript are handled by reading again", () => {
    const a = session("kept", "2026-01-01T00:00:00Z");
    const b = session("removed", "2026-02-01T00:00:00Z");
    listSessions(home, cwd);
    const lines = readFileSync(a, "utf8").split("\n");
    writeFileSync(a, `${lines.slice(0, 2).join("\n")}\n`);
    rmSync(b);
    expect(listSessions(home, cwd)).toEqual([fresh(a)]);
    expect(readFileSync(join(sessionDir(home, cwd), "index.json"), "utf8")).not.toContain("removed");
    writeFileSync(join(sessionDir(home, cwd), "index.json"), '{"version":1,"sessions":{"x.jsonl":{"size":"big"}}');
    expect(listSessions(home, cwd)).toEqual([fresh(a)]);
  });

  test("a last line without its newline is counted, and read again once it is complete", () => {
    const path = session("cut", "2026-01-01T00:00:00Z");
    const row = JSON.stringify({ type: "message", message: { role: "user", content: [{ type: "text", text: "late" }] } });
    appendFileSync(path, row.slice(0, 20));
    expect(listSessions(home, cwd)[0]?.messages).toBe(2);
    appendFileSync(path, `${row.slice(20)}\n`);
    expect(listSessions(home, cwd)[0]).toEqual(fresh(path));
    expect(listSessions(home, cwd)[0]?.messages).toBe(3);
  });

  test("-c's latest session is the newest by modification time, and none in an empty directory", () => {
    const older = session("older", "2026-01-01T00:00:00Z");
    const newer = session("newer", "2026-02-01T00:00:00Z");
    utimesSync(older, new Date(), new Date(Date.now() + 60_000));
    expect(latestSession(home, cwd)).toBe(older);
    utimesSync(newer, new Date(), new Date(Date.now() + 120_000));
    expect(latestSession(home, cwd)).toBe(newer);
    expect(latestSession(home, join(home, "elsewhere"))).toBeNull();
  });
});
