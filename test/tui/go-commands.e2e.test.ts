// The Go zot's session and workspace commands in a real terminal.
import { afterEach, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Tmux } from "./helpers/tmux.ts";

let t: Tmux | null = null;
afterEach(() => {
  t?.kill();
  t = null;
});

const T = 40_000;
const READY = "Ask anything";

function send(tm: Tmux, line: string): void {
  tm.type(line);
  tm.keys("Enter");
}

async function twoPrompts(tm: Tmux): Promise<void> {
  await tm.waitFor(READY);
  send(tm, "alpha-question");
  await tm.waitFor("mock: alpha-question");
  send(tm, "beta-question");
  await tm.waitFor("mock: beta-question");
}

test("/session fork branches before a prompt, puts it back in the editor, and /session tree shows the branch", async () => {
  t = await Tmux.start();
  await twoPrompts(t);
  send(t, "/session fork");
  await t.waitFor("Fork before which prompt?");
  t.type("beta");
  t.keys("Enter");
  let s = await t.waitFor("Forked before prompt #2");
  expect(s).toContain("› beta-question");
  expect(s).toContain("mock: alpha-question");
  expect(s).not.toContain("mock: beta-question");
  t.keys("C-u");
  send(t, "/session tree");
  s = await t.waitFor("Session tree");
  expect(s).toMatch(/└ .*\[current\]/);
  t.keys("Escape");
  const dir = readdirSync(join(t.home, "sessions"))[0] as string;
  const files = readdirSync(join(t.home, "sessions", dir)).map((f) => readFileSync(join(t!.home, "sessions", dir, f), "utf8"));
  expect(files.filter((f) => f.includes('"fork_point":2'))).toHaveLength(1);
}, T);

test("esc esc on an empty editor opens the rewind picker", async () => {
  t = await Tmux.start();
  await twoPrompts(t);
  t.keys("Escape");
  await Bun.sleep(100);
  t.keys("Escape");
  await t.waitFor("Rewind to which prompt?");
  t.keys("Down", "Enter");
  const s = await t.waitFor("Forked before prompt #1");
  expect(s).toContain("› alpha-question");
  expect(s).not.toContain("mock: alpha-question");
}, T);

test("/session export writes a .zotsession file and /session import switches to a copy of it", async () => {
  t = await Tmux.start();
  await twoPrompts(t);
  const out = join(t.dir, "shared.zotsession");
  send(t, `/session export ${out}`);
  await t.waitFor("Exported this session to");
  expect(existsSync(out)).toBe(true);
  expect(JSON.parse(readFileSync(out, "utf8").split("\n")[0]).meta.cwd).toBe("");
  send(t, "/clear");
  await t.waitFor("Started a fresh session.");
  await t.waitGone("mock: beta-question");
  send(t, `/session import '${out}'`);
  const s = await t.waitFor("Imported the session as");
  expect(s).toContain("mock: beta-question");
}, T);

test("/study sends the Go zot's canned prompt", async () => {
  t = await Tmux.start();
  await t.waitFor(READY);
  send(t, "/study");
  await t.waitFor("mock: Read and understand everything in the current directory.");
}, T);
