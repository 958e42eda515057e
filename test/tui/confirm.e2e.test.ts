// Tool confirmations (--no-yolo) in a real terminal: the dialog, its answers, the event, /yolo.
import { afterEach, expect, test } from "bun:test";
import { fixture, Tmux } from "./helpers/tmux.ts";

let t: Tmux | null = null;
afterEach(() => {
  t?.kill();
  t = null;
});

const T = 30_000;

async function start(): Promise<Tmux> {
  t = await Tmux.start({ args: ["--no-yolo", "-e", fixture("demo")] });
  await t.waitFor("Ask anything");
  return t;
}

test("a tool call waits for the dialog, emits tool_confirmation_requested, and runs on yes", async () => {
  const tm = await start();
  expect(tm.screen()).toContain("confirm");
  tm.type('call bash {"command":"echo confirmed-run"}');
  tm.keys("Enter");
  const s = await tm.waitFor("Allow tool call?");
  expect(s).toContain("echo confirmed-run");
  expect(s).toContain("Yes to everything this session");
  const ev = await tm.until(() => tm.frames().find((f) => f.type === "event" && f.event === "tool_confirmation_requested"), "the event");
  expect(ev).toMatchObject({ tool_name: "bash" });
  tm.keys("1");
  await tm.waitFor("mock: tool bash returned: confirmed-run");
}, T);

test("no with a reason refuses the call and tells the model", async () => {
  const tm = await start();
  tm.type('call bash {"command":"echo refused-run"}');
  tm.keys("Enter");
  await tm.waitFor("Allow tool call?");
  tm.keys("4");
  await tm.waitFor("reason (optional");
  tm.type("not today");
  tm.keys("Enter");
  const s = await tm.waitFor("mock: tool bash failed");
  expect(s).toContain("not today");
  expect(s).not.toContain("returned: refused-run");
}, T);

test("yes for this tool stops asking for that tool", async () => {
  const tm = await start();
  tm.type('call bash {"command":"echo one"}');
  tm.keys("Enter");
  await tm.waitFor("Allow tool call?");
  tm.keys("2");
  await tm.waitFor("mock: tool bash returned: one");
  tm.type('call bash {"command":"echo two"}');
  tm.keys("Enter");
  const s = await tm.waitFor("mock: tool bash returned: two");
  expect(s).not.toContain("Allow tool call?");
  expect(tm.frames().filter((f) => f.event === "tool_confirmation_requested")).toHaveLength(1);
}, T);

test("/yolo turns confirmations off for the rest of the session", async () => {
  const tm = await start();
  tm.type("/yolo");
  tm.keys("Enter");
  await tm.waitFor("yolo on");
  tm.type('call bash {"command":"echo free-run"}');
  tm.keys("Enter");
  const s = await tm.waitFor("mock: tool bash returned: free-run");
  expect(s).not.toContain("Allow tool call?");
  expect(tm.frames().filter((f) => f.event === "tool_confirmation_requested")).toHaveLength(0);
}, T);
