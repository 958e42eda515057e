// Terminal restore in a real terminal: a tiny program enters raw mode and the alternate screen in
// tmux, then ends in different ways; tmux and stty report the state it left behind. Each case runs
// both ways zot reaches a terminal: directly (processTerminal: Bun's tty binding, Bun's reader of
// fd 0, writes to fd 1) and through Node's process.stdin/stdout (where the binding is missing, and
// in dumb terminals).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { stripAnsi } from "../../src/tui/terminal/ansi.ts";
import { FRAME_COLS, FRAME_ROWS, frames } from "./frames.ts";
import { signal } from "../helpers/processes.ts";

const BUN = resolve("node_modules/.bin/bun");
const TERMINAL = resolve("src/tui/terminal/terminal.ts");
const RENDERER = resolve("src/tui/terminal/renderer.ts");
const PROCESS_TERMINAL = resolve("src/tui/terminal/process-terminal.ts");
const socket = `zot-tui-term-${process.pid}`;
let dir = "";

function tmux(...args: string[]): string {
  const r = Bun.spawnSync(["tmux", "-L", socket, ...args], { stdout: "pipe", stderr: "pipe" });
  return r.stdout.toString().trim();
}

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await Bun.sleep(25);
  }
  throw new Error(`timed out waiting for ${what}`);
}

type Way = "direct" | "node";
const WAYS: Way[] = ["direct", "node"];

/** Runs the program in a fresh tmux window; returns the window name and paths of its reports. */
async function start(name: string, way: Way) {
  const rc = join(dir, `${name}.rc`);
  const stty = join(dir, `${name}.stty`);
  const pid = join(dir, `${name}.pid`);
  const cmd = `${BUN} ${join(dir, "prog.ts")} ${pid} ${way} ${join(dir, name)}; echo $? > ${rc}; stty -a > ${stty}; sleep 60`;
  tmux("new-window", "-d", "-n", name, cmd);
  await waitFor(() => existsSync(pid) && tmux("capture-pane", "-p", "-t", name).includes("INSIDE"), `${name} to start`);
  expect(tmux("display", "-p", "-t", name, "#{alternate_on}")).toBe("1");
  return { name, rc, stty, pid: Number(readFileSync(pid, "utf8")) };
}

async function finished(w: { name: string; rc: string; stty: string }) {
  await waitFor(() => existsSync(w.stty) && readFileSync(w.stty, "utf8").includes("icanon"), `${w.name} to exit`);
  return {
    code: Number(readFileSync(w.rc, "utf8").trim()),
    stty: readFileSync(w.stty, "utf8"),
    alt: tmux("display", "-p", "-t", w.name, "#{alternate_on}"),
    cursor: tmux("display", "-p", "-t", w.name, "#{cursor_flag}"),
  };
}

beforeAll(() => {
  dir = tempDir("zot-tui-term-");
  writeFileSync(
    join(dir, "prog.ts"),
    `import { appendFileSync, writeFileSync } from "node:fs";
import { Terminal, installRestoreHandlers } from ${JSON.stringify(TERMINAL)};
import { directTty, processTerminal } from ${JSON.stringify(PROCESS_TERMINAL)};
const [pidFile, way, out] = process.argv.slice(2);
// The direct way must be the one taken, not a silent fall back to process.stdin/stdout.
if (way === "direct" && !directTty()) throw new Error("no direct terminal");
const term = way === "direct" ? processTerminal() : new Terminal(process.stdin, process.stdout);
installRestoreHandlers(term);
term.enter({ altScreen: true });
term.write("INSIDE");
term.onResize(() => term.write(\`\\x1b[2;1HSIZE \${term.columns}x\${term.rows}\`));
const stty = () => Bun.spawnSync(["stty", "-a"], { stdin: "inherit", stdout: "pipe" }).stdout.toString();
term.onData((d) => {
  appendFileSync(out + ".keys", JSON.stringify(d) + "\\n");
  if (d === "q") process.exit(0);
  if (d === "x") throw new Error("boom");
  if (d === "r") Promise.reject(new Error("rejected"));
  if (d === "s") writeFileSync(out + ".raw", stty());
  if (d === "l") {
    term.lend(() => Bun.spawnSync(["sh", "-c", 'read line; echo "$line" > "$0"', out + ".lent"], { stdio: ["inherit", "inherit", "inherit"] }));
    term.write("BACK");
  }
  if (d === "p") {
    // Keys typed while no terminal is entered reach the next one, as the trust question hands over to the TUI.
    term.restore();
    writeFileSync(out + ".paused", "");
    setTimeout(() => { term.enter({ altScreen: true }); term.write("AGAIN"); }, 600);
  }
});
writeFileSync(pidFile, String(process.pid));
`,
  );
  writeFileSync(
    join(dir, "render.ts"),
    `import { Renderer } from ${JSON.stringify(RENDERER)};
import { Terminal } from ${JSON.stringify(TERMINAL)};
import { processTerminal } from ${JSON.stringify(PROCESS_TERMINAL)};
import { frames, FRAME_COLS, FRAME_ROWS } from ${JSON.stringify(resolve("test/tui/frames.ts"))};
const term = process.argv[2] === "direct" ? processTerminal() : new Terminal(process.stdin, process.stdout);
term.enter({ altScreen: true });
const r = new Renderer((s) => term.write(s));
for (const f of frames()) r.render(f, null, FRAME_ROWS, FRAME_COLS);
term.onData((d) => { if (d === "q") { term.restore(); process.exit(0); } });
`,
  );
  Bun.spawnSync(["tmux", "-L", socket, "new-session", "-d", "-x", "80", "-y", "24", "-s", "main"]);
});

afterAll(() => {
  Bun.spawnSync(["tmux", "-L", socket, "kill-server"]);
});

const sane = (stty: string) => /(^|\s)icanon(\s|$)/.test(stty) && /(^|\s)echo(\s|$)/.test(stty);

const read = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : "");
const keys = (name: string) =>
  read(join(dir, `${name}.keys`))
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as string)
    .join("");

describe.each(WAYS)("Terminal in a real terminal (tmux), reached %s", (way) => {
  test("restores raw mode, the screen and the cursor on a normal exit", async () => {
    const w = await start(`quit-${way}`, way);
    tmux("send-keys", "-t", w.name, "q");
    const r = await finished(w);
    expect(r.code).toBe(0);
    expect(sane(r.stty)).toBe(true);
    expect(r.alt).toBe("0");
    expect(r.cursor).toBe("1");
  });

  test("reports the new size after the terminal is resized", async () => {
    const w = await start(`resize-${way}`, way);
    tmux("resize-window", "-t", w.name, "-x", "100", "-y", "30");
    await waitFor(() => tmux("capture-pane", "-p", "-t", w.name).includes("SIZE 100x30"), "the resize report");
    tmux("send-keys", "-t", w.name, "q");
    expect((await finished(w)).code).toBe(0);
  });

  test("raw mode: no echo, no line editing, no signals from keys, CR as typed, output processing kept", async () => {
    const w = await start(`raw-${way}`, way);
    tmux("send-keys", "-t", w.name, "s");
    await waitFor(() => read(join(dir, `${w.name}.raw`)).includes("icanon"), "stty inside raw mode");
    const raw = read(join(dir, `${w.name}.raw`));
    for (const flag of [
      "-icanon",
      "-echo",
      "-isig",
      "-iexten",
      "-icrnl",
      "-ixon",
      "-brkint",
      "-istrip",
      "-inpck",
      "onlcr",
      "opost",
      "cs8",
      "min = 1",
      "time = 0",
    ])
      expect(raw).toMatch(new RegExp(`(^|[\\s;])${flag.replace(/ /g, "\\s")}([\\s;]|$)`));
    tmux("send-keys", "-t", w.name, "q");
    expect(sane((await finished(w)).stty)).toBe(true);
  });

  test("a program the terminal is lent to reads its own keys; the next key comes back to zot", async () => {
    const w = await start(`lend-${way}`, way);
    tmux("send-keys", "-t", w.name, "l");
    await Bun.sleep(300);
    tmux("send-keys", "-t", w.name, "hello", "Enter");
    await waitFor(() => read(join(dir, `${w.name}.lent`)) === "hello\n", "the lent program's line");
    await waitFor(() => tmux("capture-pane", "-p", "-t", w.name).includes("BACK"), "the terminal back");
    tmux("send-keys", "-t", w.name, "z");
    await waitFor(() => keys(w.name).endsWith("z"), "the next key");
    expect(keys(w.name)).toBe("lz");
    tmux("send-keys", "-t", w.name, "q");
    expect((await finished(w)).code).toBe(0);
  });

  test("keys typed while the terminal is given back reach it when it is entered again", async () => {
    const w = await start(`pause-${way}`, way);
    tmux("send-keys", "-t", w.name, "p");
    await waitFor(() => existsSync(join(dir, `${w.name}.paused`)), "the terminal given back");
    tmux("send-keys", "-t", w.name, "ab");
    await waitFor(() => tmux("capture-pane", "-p", "-t", w.name).includes("AGAIN"), "the terminal entered again");
    await waitFor(() => keys(w.name) === "pab", "the keys typed meanwhile");
    tmux("send-keys", "-t", w.name, "q");
    expect((await finished(w)).code).toBe(0);
  });

  test("shows exactly the last frame after many diffed and scrolled frames", async () => {
    const size = ["-x", String(FRAME_COLS), "-y", String(FRAME_ROWS)];
    tmux("new-session", "-d", "-s", `render-${way}`, ...size, `${BUN} ${join(dir, "render.ts")} ${way}; sleep 60`);
    await waitFor(() => tmux("capture-pane", "-p", "-t", `render-${way}`).includes("DONE"), "the last frame");
    const last = frames().at(-1)!;
    const capture = Bun.spawnSync(["tmux", "-L", socket, "capture-pane", "-p", "-t", `render-${way}`], { stdout: "pipe" });
    const screen = capture.stdout.toString().replace(/\n$/, "").split("\n");
    expect(screen.map((l) => l.trimEnd())).toEqual(last.map((l) => stripAnsi(l).trimEnd()));
    tmux("send-keys", "-t", `render-${way}`, "q");
  });

  test("restores the terminal and exits 143 when killed with SIGTERM", async () => {
    const w = await start(`term-${way}`, way);
    signal(w.pid, "SIGTERM");
    const r = await finished(w);
    expect(r.code).toBe(143);
    expect(sane(r.stty)).toBe(true);
    expect(r.alt).toBe("0");
    expect(r.cursor).toBe("1");
  });

  test("restores the terminal and exits 129 on SIGHUP", async () => {
    const w = await start(`hup-${way}`, way);
    signal(w.pid, "SIGHUP");
    const r = await finished(w);
    expect(r.code).toBe(129);
    expect(sane(r.stty)).toBe(true);
    expect(r.alt).toBe("0");
  });

  test("restores the terminal and exits 1 after an uncaught exception", async () => {
    const w = await start(`crash-${way}`, way);
    tmux("send-keys", "-t", w.name, "x");
    const r = await finished(w);
    expect(r.code).toBe(1);
    expect(sane(r.stty)).toBe(true);
    expect(r.alt).toBe("0");
    expect(tmux("capture-pane", "-p", "-t", w.name)).toContain("boom");
  });

  test("restores the terminal and exits 1 after an unhandled rejection", async () => {
    const w = await start(`reject-${way}`, way);
    tmux("send-keys", "-t", w.name, "r");
    const r = await finished(w);
    expect(r.code).toBe(1);
    expect(sane(r.stty)).toBe(true);
    expect(r.alt).toBe("0");
  });
});

import { tempDir } from "../helpers/temp.ts";
