// Approvals in a real terminal: the dialog shows everything that will run, esc stops the turn,
// standing rules (session and always), /permissions, and the shift+tab permission modes.
import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixture, type Tmux, useTmux } from "./helpers/tmux.ts";

const tui = useTmux();

const T = 40_000;

async function start(args: string[] = ["--no-yolo", "-e", fixture("demo")], reuse?: Tmux): Promise<Tmux> {
  if (reuse) {
    reuse.send(`${join(import.meta.dir, "../../dist/zot")} --provider mock ${args.join(" ")}`);
    await reuse.waitFor("Ask anything");
    return reuse;
  }
  const t = await tui.start({ args, mode: null });
  await t.waitFor("Ask anything");
  return t;
}

test(
  "a tool call waits for the dialog, emits tool_confirmation_requested, and runs on yes",
  async () => {
    const tm = await start();
    tm.send('call bash {"command":"printf confirmed-run"}');
    const s = await tm.waitFor("Allow bash?");
    expect(s).toContain("$ printf confirmed-run");
    expect(s).toContain("Yes to everything this session");
    expect(s).toContain("waiting for approval");
    const ev = await tm.until(() => tm.frames().find((f) => f.type === "event" && f.event === "tool_confirmation_requested"), "the event");
    expect(ev).toMatchObject({ tool_name: "bash" });
    tm.keys("1");
    await tm.waitFor("mock: tool bash returned: confirmed-run");
  },
  T,
);

test(
  "every line of a multi-line command is shown before it runs",
  async () => {
    const tm = await start();
    tm.send('call bash {"command":"echo harmless\\ntouch second-line-runs-too"}');
    const s = await tm.waitFor("Allow bash?");
    expect(s).toContain("$ echo harmless");
    expect(s).toContain("touch second-line-runs-too");
    expect(s).toContain("2 lines");
  },
  T,
);

test(
  "an edit approval shows the numbered diff, and the file is unchanged until yes",
  async () => {
    const tm = await start();
    const file = join(tm.cwd, "util.ts");
    writeFileSync(file, "const a = 1;\nconst b = 2;\n");
    tm.send('call edit {"path":"util.ts","edits":[{"oldText":"const b = 2;","newText":"const b = 3;"}]}');
    const s = await tm.waitFor("Allow edit?");
    expect(s).toMatch(/2 - const b = 2;/);
    expect(s).toMatch(/2 \+ const b = 3;/);
    expect(readFileSync(file, "utf8")).toBe("const a = 1;\nconst b = 2;\n");
    tm.keys("y");
    await tm.waitFor("mock: tool edit returned");
    expect(readFileSync(file, "utf8")).toBe("const a = 1;\nconst b = 3;\n");
  },
  T,
);

test(
  "an extension tool's arguments are shown as formatted JSON",
  async () => {
    const tm = await start();
    tm.send('call demo_tool {"n":2,"label":"fmt"}');
    const s = await tm.waitFor("Allow demo_tool [demo]?");
    expect(s).toContain('"n": 2,');
    expect(s).toContain('"label": "fmt"');
  },
  T,
);

test(
  "esc in the dialog refuses the call and stops the turn",
  async () => {
    const tm = await start();
    tm.send('call bash {"command":"printf never-runs"}');
    await tm.waitFor("Allow bash?");
    tm.keys("Escape");
    await tm.waitGone("Allow bash?");
    const s = await tm.waitGone("working", 15_000);
    expect(s).not.toContain("mock: tool bash");
    expect(s).toContain("Ask anything");
  },
  T,
);

test(
  "no with a reason refuses the call and tells the model",
  async () => {
    const tm = await start();
    tm.send('call bash {"command":"printf refused-run"}');
    await tm.waitFor("Allow bash?");
    tm.keys("n");
    await tm.waitFor("reason (optional");
    tm.send("not today");
    const s = await tm.waitFor("mock: tool bash failed");
    expect(s).toContain("not today");
    expect(s).not.toContain("returned: refused-run");
  },
  T,
);

test(
  "a command rule allowed for the session covers that command's shape only",
  async () => {
    const tm = await start();
    tm.send('call bash {"command":"printf one"}');
    await tm.waitFor("2. Yes, and don't ask again this session for `printf …`");
    tm.keys("2");
    await tm.waitFor("mock: tool bash returned: one");
    tm.send('call bash {"command":"printf two"}');
    await tm.waitFor("mock: tool bash returned: two");
    expect(tm.frames().filter((f) => f.event === "tool_confirmation_requested")).toHaveLength(1);
    tm.send('call bash {"command":"printf three && touch x"}');
    const s = await tm.waitFor("Allow bash?");
    // Only the part not yet allowed is offered.
    expect(s).toContain("don't ask again this session for `touch …`");
  },
  T,
);

test(
  "the answers keep their numbers: a destructive command offers only itself, an unreadable one no rule",
  async () => {
    const tm = await start();
    tm.send('call bash {"command":"rm -rf build"}');
    let s = await tm.waitFor("Allow bash?");
    expect(s).toContain("2. Yes, and don't ask again this session for `rm -rf build`");
    expect(s).not.toContain("`rm …`");
    expect(s).toContain("4. Yes to everything this session (yolo)");
    expect(s).toContain("5. No, and tell the model why");
    tm.keys("n");
    tm.send("");
    await tm.waitFor("mock: tool bash failed");
    tm.send('call bash {"command":"touch $(date +%s)"}');
    await tm.waitFor("touch $(date");
    s = await tm.waitFor("5. No, and tell the model why");
    expect(s).toContain("1. Yes");
    expect(s).not.toContain("2. Yes");
    expect(s).toContain("4. Yes to everything this session (yolo)");
    tm.keys("5");
    await tm.waitFor("reason (optional");
  },
  T,
);

test(
  "an always rule is remembered for the project, listed in /permissions and revocable",
  async () => {
    const tm = await start(["--no-yolo"]);
    tm.send('call bash {"command":"printf kept"}');
    await tm.waitFor("Allow bash?");
    tm.keys("3");
    await tm.waitFor("mock: tool bash returned: kept");
    const saved = JSON.parse(readFileSync(join(tm.home, "permissions.json"), "utf8"));
    expect(saved.projects[tm.cwd]).toEqual([{ tool: "bash", command: "printf", more: true }]);
    tm.send("/exit");
    await tm.waitFor("shell$ ", 10_000);

    await start(["--no-yolo"], tm);
    tm.send('call bash {"command":"printf again"}');
    await tm.waitFor("mock: tool bash returned: again");
    tm.send("/permissions");
    const s = await tm.waitFor("Standing approvals");
    expect(s).toContain("bash: `printf …`");
    expect(s).toContain("always, this project");
    tm.keys("Enter");
    await tm.waitFor("Revoked: bash: `printf …`");
    expect(JSON.parse(readFileSync(join(tm.home, "permissions.json"), "utf8")).projects[tm.cwd]).toBeUndefined();
    tm.send('call bash {"command":"printf asks"}');
    await tm.waitFor("Allow bash?");
  },
  T,
);

test(
  "an edit allowed for the session covers its directory, and /permissions lists it for this session",
  async () => {
    const tm = await start();
    tm.send('call write {"path":"src/a.txt","content":"a"}');
    await tm.waitFor("2. Yes, and don't ask again this session for writes to files under src/");
    tm.keys("2");
    await tm.waitFor("mock: tool write returned");
    tm.send('call write {"path":"src/b.txt","content":"b"}');
    await tm.until(() => existsSync(join(tm.cwd, "src", "b.txt")), "src/b.txt written without asking");
    tm.send('call write {"path":"top.txt","content":"t"}');
    await tm.waitFor("Allow write?");
    tm.keys("Escape");
    await tm.waitGone("Allow write?");
    tm.send("/permissions");
    const s = await tm.waitFor("Standing approvals");
    expect(s).toContain("write: files under src/");
    expect(s).toContain("this session");
  },
  T,
);

test(
  "inside the enforced sandbox the TUI starts in yolo, and zot -c comes back in the mode the session was left in",
  async () => {
    const tm = await start([]);
    await tm.waitFor(/ yolo\s*$/m);
    tm.keys("BTab");
    await tm.waitFor("Mode: plan");
    tm.keys("BTab");
    await tm.waitFor("Mode: ask");
    tm.keys("BTab");
    await tm.waitFor("Mode: auto-edit");
    tm.send("remember me");
    await tm.waitFor("mock: remember me");
    tm.send("/exit");
    await tm.waitFor("shell$ ", 10_000);
    await start(["-c"], tm);
    await tm.waitFor(/ auto-edit\s*$/m);
  },
  T,
);

test(
  "shift+tab cycles the modes: auto-edit writes without asking, plan refuses changes and offers to approve the plan",
  async () => {
    const tm = await start(["--no-yolo"]);
    await tm.waitFor(/ ask\s*$/m);
    tm.keys("BTab");
    await tm.waitFor("Mode: auto-edit");
    tm.send('call write {"path":"w.txt","content":"hi"}');
    await tm.waitFor("mock: tool write returned");
    expect(readFileSync(join(tm.cwd, "w.txt"), "utf8")).toBe("hi");
    tm.keys("BTab");
    await tm.waitFor("Mode: yolo");
    tm.keys("BTab");
    await tm.waitFor("Mode: plan");
    tm.send('call bash {"command":"touch made"}');
    const s = await tm.waitFor("Approve the plan?");
    expect(s).toContain("Blocked by plan mode (the user did not decline it)");
    expect(s).not.toContain("The user declined");
    expect(existsSync(join(tm.cwd, "made"))).toBe(false);
    tm.keys("Enter");
    await tm.waitFor("mock: The plan is approved. Carry it out now.");
    await tm.waitFor(/ auto-edit\s*$/m);
  },
  T,
);

test(
  "/yolo turns confirmations off for the rest of the session",
  async () => {
    const tm = await start();
    tm.send("/yolo");
    await tm.waitFor("yolo on");
    tm.send('call bash {"command":"printf free-run"}');
    const s = await tm.waitFor("mock: tool bash returned: free-run");
    expect(s).not.toContain("Allow bash?");
    expect(tm.frames().filter((f) => f.event === "tool_confirmation_requested")).toHaveLength(0);
  },
  T,
);
