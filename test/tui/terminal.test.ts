// Terminal restore in a real terminal: a tiny program enters raw mode and the alternate screen in
// tmux, then ends in different ways; tmux and stty report the state it left behind.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { stripAnsi } from "../../src/tui/terminal/ansi.ts";
import { FRAME_COLS, FRAME_ROWS, frames } from "./frames.ts";
import { signal } from "../helpers/processes.ts";

const BUN = resolve("node_modules/.bin/bun");
const TERMINAL = resolve("src/tui/terminal/terminal.ts");
const RENDERER = resolve("src/tui/terminal/renderer.ts");
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

/** Runs the program in a fresh tmux window; returns the window name and paths of its reports. */
async function start(name: string) {
  const rc = join(dir, `${name}.rc`);
  const stty = join(dir, `${name}.stty`);
  const pid = join(dir, `${name}.pid`);
  const cmd = `${BUN} ${join(dir, "prog.ts")} ${pid}; echo $? > ${rc}; stty -a > ${stty}; sleep 60`;
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
    `import { writeFileSync } from "node:fs";
import { Terminal, installRestoreHandlers } from ${JSON.stringify(TERMINAL)};
const term = new Terminal(process.stdin, process.stdout);
installRestoreHandlers(term);
term.enter({ altScreen: true });
term.write("INSIDE");
term.onResize(() => term.write(\`\\x1b[2;1HSIZE \${term.columns}x\${term.rows}\`));
term.onData((d) => {
  if (d === "q") process.exit(0);
  if (d === "x") throw new Error("boom");
  if (d === "r") Promise.reject(new Error("rejected"));
});
writeFileSync(process.argv[2], String(process.pid));
`,
  );
  writeFileSync(
    join(dir, "render.ts"),
    `import { Renderer } from ${JSON.stringify(RENDERER)};
import { Terminal } from ${JSON.stringify(TERMINAL)};
import { frames, FRAME_COLS, FRAME_ROWS } from ${JSON.stringify(resolve("test/tui/frames.ts"))};
const term = new Terminal(process.stdin, process.stdout);
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

describe("Terminal in a real terminal (tmux)", () => {
  test("restores raw mode, the screen and the cursor on a normal exit", async () => {
    const w = await start("quit");
    tmux("send-keys", "-t", w.name, "q");
    const r = await finished(w);
    expect(r.code).toBe(0);
    expect(sane(r.stty)).toBe(true);
    expect(r.alt).toBe("0");
    expect(r.cursor).toBe("1");
  });

  test("reports the new size after the terminal is resized", async () => {
    const w = await start("resize");
    tmux("resize-window", "-t", w.name, "-x", "100", "-y", "30");
    await waitFor(() => tmux("capture-pane", "-p", "-t", w.name).includes("SIZE 100x30"), "the resize report");
    tmux("send-keys", "-t", w.name, "q");
    expect((await finished(w)).code).toBe(0);
  });

  test("shows exactly the last frame after many diffed and scrolled frames", async () => {
    const size = ["-x", String(FRAME_COLS), "-y", String(FRAME_ROWS)];
    tmux("new-session", "-d", "-s", "render", ...size, `${BUN} ${join(dir, "render.ts")}; sleep 60`);
    await waitFor(() => tmux("capture-pane", "-p", "-t", "render").includes("DONE"), "the last frame");
    const last = frames().at(-1)!;
    const capture = Bun.spawnSync(["tmux", "-L", socket, "capture-pane", "-p", "-t", "render"], { stdout: "pipe" });
    const screen = capture.stdout.toString().replace(/\n$/, "").split("\n");
    expect(screen.map((l) => l.trimEnd())).toEqual(last.map((l) => stripAnsi(l).trimEnd()));
    tmux("send-keys", "-t", "render", "q");
  });

  test("restores the terminal and exits 143 when killed with SIGTERM", async () => {
    const w = await start("term");
    signal(w.pid, "SIGTERM");
    const r = await finished(w);
    expect(r.code).toBe(143);
    expect(sane(r.stty)).toBe(true);
    expect(r.alt).toBe("0");
    expect(r.cursor).toBe("1");
  });

  test("restores the terminal and exits 129 on SIGHUP", async () => {
    const w = await start("hup");
    signal(w.pid, "SIGHUP");
    const r = await finished(w);
    expect(r.code).toBe(129);
    expect(sane(r.stty)).toBe(true);
    expect(r.alt).toBe("0");
  });

  test("restores the terminal and exits 1 after an uncaught exception", async () => {
    const w = await start("crash");
    tmux("send-keys", "-t", w.name, "x");
    const r = await finished(w);
    expect(r.code).toBe(1);
    expect(sane(r.stty)).toBe(true);
    expect(r.alt).toBe("0");
    expect(tmux("capture-pane", "-p", "-t", w.name)).toContain("boom");
  });

  test("restores the terminal and exits 1 after an unhandled rejection", async () => {
    const w = await start("reject");
    tmux("send-keys", "-t", w.name, "r");
    const r = await finished(w);
    expect(r.code).toBe(1);
    expect(sane(r.stty)).toBe(true);
    expect(r.alt).toBe("0");
  });
});

import { tempDir } from "../helpers/temp.ts";
