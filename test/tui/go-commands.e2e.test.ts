// The Go zot's session and workspace commands in a real terminal.
import { sessionDir } from "../../src/platform/home.ts";
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ROOT, type Tmux, useTmux } from "./helpers/tmux.ts";
import { tempDir } from "../helpers/temp.ts";

const tui = useTmux();

const T = 40_000;
const READY = "Ask anything";

async function twoPrompts(tm: Tmux): Promise<void> {
  await tm.waitFor(READY);
  tm.send("alpha-question");
  await tm.waitFor("mock: alpha-question");
  tm.send("beta-question");
  await tm.waitFor("mock: beta-question");
}

test(
  "/session fork branches before a prompt, puts it back in the editor, and /session tree shows the branch",
  async () => {
    const t = await tui.start();
    await twoPrompts(t);
    t.send("/session fork");
    await t.waitFor("Fork before which prompt?");
    t.send("beta");
    let s = await t.waitFor("Forked before prompt #2");
    expect(s).toContain("› beta-question");
    expect(s).toContain("mock: alpha-question");
    expect(s).not.toContain("mock: beta-question");
    t.keys("C-u");
    t.send("/session tree");
    s = await t.waitFor("Session tree");
    expect(s).toMatch(/└ .*\[current\]/);
    t.keys("Escape");
    const dir = readdirSync(join(t.home, "sessions"))[0] as string;
    const files = readdirSync(join(t.home, "sessions", dir)).map((f) => readFileSync(join(t.home, "sessions", dir, f), "utf8"));
    expect(files.filter((f) => f.includes('"fork_point":2'))).toHaveLength(1);
  },
  T,
);

test(
  "esc esc on an empty editor opens the rewind picker; conversation only forks before the prompt",
  async () => {
    const t = await tui.start();
    await twoPrompts(t);
    t.keys("Escape");
    await Bun.sleep(100);
    t.keys("Escape");
    await t.waitFor("Rewind to before which prompt?");
    t.keys("Down", "Enter");
    await t.waitFor("Restore conversation only");
    t.keys("Down", "Enter");
    const s = await t.waitFor("Rewound to before prompt #1");
    expect(s).toContain("› alpha-question");
    expect(s).not.toContain("mock: alpha-question");
  },
  T,
);

test(
  "/session export writes a .zotsession file and /session import switches to a copy of it",
  async () => {
    const t = await tui.start();
    await twoPrompts(t);
    const out = join(t.dir, "shared.zotsession");
    t.send(`/session export ${out}`);
    await t.waitFor("Exported this session to");
    expect(existsSync(out)).toBe(true);
    expect(JSON.parse(readFileSync(out, "utf8").split("\n")[0]!).meta.cwd).toBe("");
    t.send("/clear");
    await t.waitFor("Started a fresh session.");
    await t.waitGone("mock: beta-question");
    t.send(`/session import '${out}'`);
    const s = await t.waitFor("Imported the session as");
    expect(s).toContain("mock: beta-question");
    // /session alone offers the four; import then asks for the file (a drop pastes its path).
    t.send("/clear");
    await t.waitGone("mock: beta-question");
    t.send("/session");
    await t.waitFor("bring in a .zotsession file");
    t.send("import");
    await t.waitFor("Import which file?");
    t.paste(`'${out}'`);
    t.keys("Enter");
    await t.waitFor("mock: beta-question");
  },
  T,
);

test(
  "/study sends the Go zot's canned prompt",
  async () => {
    const t = await tui.start();
    await t.waitFor(READY);
    t.send("/study");
    await t.waitFor("mock: Read and understand everything in the current directory.");
  },
  T,
);

test(
  "/jail confines the file tools, shows in the status line and reaches extensions; /unjail lifts it",
  async () => {
    const log = join(tempDir("zot-jail-frames-"), "frames.jsonl");
    const t = await tui.start({ args: ["-e", join(ROOT, "test/fixtures/agent/toolbox")], env: { ZOT_TEST_EVENTS: log } });
    await t.waitFor(READY);
    t.send("/jail");
    await t.waitFor("A guardrail, not a sandbox");
    await t.waitFor(/jailed · /);
    t.send('call read {"path":"/etc/hostname"}');
    await t.waitFor("is outside");
    t.send("/reload-ext toolbox");
    await t.waitFor("Reloaded extension toolbox");
    t.send('call weather {"city":"Oslo"}');
    await t.waitFor("Oslo: 16C, fog");
    const frames = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const root = realpathSync(t.cwd);
    expect(frames.filter((f) => f.type === "hello_ack").at(-1)?.jail).toEqual({ root });
    expect(frames.find((f) => f.type === "tool_call")?.jail).toEqual({ root });
    expect(frames.find((f) => f.type === "event" && f.event === "tool_call")?.jail).toEqual({ root });
    t.send("/unjail");
    await t.waitFor("Unjailed");
    await t.waitGone(/jailed · /);
    rmSync(dirname(log), { recursive: true, force: true });
  },
  T,
);

test(
  "/skills lists the skills found, global compat roots included, and previews one; built-ins are hidden",
  async () => {
    const userHome = tempDir("zot-skills-home-");
    const t = await tui.start({ env: { HOME: userHome } });
    const skill = (dir: string, name: string, description: string, body: string) => {
      mkdirSync(join(dir, name), { recursive: true });
      writeFileSync(join(dir, name, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`);
    };
    skill(join(t.cwd, ".zot", "skills"), "deploy", "ship the project", "# Deploy\nRun make ship-it-now.");
    skill(join(userHome, ".claude", "skills"), "review", "review a change", "Look for bugs.");
    await t.waitFor(READY);
    t.send("/skills");
    let s = await t.waitFor("global (claude) · review a change");
    expect(s).toContain("project · ship the project");
    expect(s).not.toContain("write-zot-extension");
    t.send("deploy");
    s = await t.waitFor("make ship-it-now");
    expect(s).toContain("Skill deploy");
    t.keys("Escape");
    await t.waitFor("Skills  type to filter");
    t.keys("Escape");
    await t.waitGone("type to filter");
    // Discovery runs again on each open.
    skill(join(userHome, ".agents", "skills"), "later", "added while zot runs", "x");
    t.send("/skills");
    await t.waitFor("global (agents) · added while zot runs");
  },
  T,
);

test(
  "/jump scrolls back to an earlier turn without changing the conversation",
  async () => {
    const t = await tui.start({ height: 20 });
    await t.waitFor(READY);
    for (let i = 1; i <= 8; i++) {
      t.send(`turn-number-${i}`);
      await t.waitFor(`mock: turn-number-${i}`);
    }
    await t.waitGone("› turn-number-1");
    t.send("/jump number-2");
    await t.waitFor("Jump to turn");
    t.keys("Enter");
    const s = await t.waitFor("viewing turn 2 of 8");
    expect(s).toContain("› turn-number-2");
    expect(s).not.toContain("mock: turn-number-8");
    t.keys("C-End");
    await t.waitFor("mock: turn-number-8");
  },
  T,
);

test(
  "/btw answers a side question in a box and keeps nothing of it",
  async () => {
    const t = await tui.start();
    await t.waitFor(READY);
    t.send("main-question");
    await t.waitFor("mock: main-question");
    t.send("/btw what-was-that");
    let s = await t.waitFor("what-was-that", 10_000);
    s = await t.waitFor(/mock: A side question[\s\S]*what-was-that/);
    expect(s).toContain("side chat, not saved");
    t.keys("Escape");
    await t.waitGone("side chat, not saved");
    t.send("next-question");
    await t.waitFor("mock: next-question");
    const dir = readdirSync(join(t.home, "sessions"))[0] as string;
    const file = readFileSync(join(t.home, "sessions", dir, readdirSync(join(t.home, "sessions", dir))[0] as string), "utf8");
    expect(file).toContain("next-question");
    expect(file).not.toContain("what-was-that");
  },
  T,
);

test(
  "/sessions lists a Go zot session with its model, cost and first prompt, and resumes it",
  async () => {
    const t = await tui.start({ width: 120 });
    const dir = sessionDir(t.home, t.cwd);
    mkdirSync(dir, { recursive: true });
    const go = readFileSync(join(ROOT, "test/fixtures/zot-go/session-tool-call-continued.jsonl"), "utf8");
    writeFileSync(join(dir, "20261201-073011-bed10963.jsonl"), go.replace('"cwd":"/home/user/proj"', `"cwd":${JSON.stringify(t.cwd)}`));
    await t.waitFor(READY);
    t.send("/sessions");
    let s = await t.waitFor("Resume session");
    expect(s).toMatch(/6 msgs · claude-sonnet-4-5 · \$0\.001\d · first prompt/);
    t.keys("Enter");
    s = await t.waitFor("Resumed session");
    expect(s).toContain("› second prompt");
    expect(s).toContain("hello from mock");
    // The session's model needs an Anthropic key this run does not have; zot says so and stays on mock.
    expect(s).toContain("The session last used anthropic/claude-sonnet-4-5, but zot stays on mock/mock");
  },
  T,
);

test(
  "/login marks a provider the Go zot signed in with a subscription",
  async () => {
    const t = await tui.start();
    writeFileSync(join(t.home, "auth.json"), JSON.stringify({ anthropic: { oauth: { access_token: "sk-ant-oat01-x", refresh_token: "r" } } }), { mode: 0o600 });
    await t.waitFor(READY);
    t.send("/login");
    const s = await t.waitFor("Log in to provider");
    expect(s).toMatch(/anthropic +signed in with a subscription through the Go zot; zot uses API keys/);
    t.keys("Escape");
  },
  T,
);
