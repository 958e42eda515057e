// Runs the built `dist/zot` inside a detached tmux session of a fixed size, types into it with
// send-keys and reads the screen with capture-pane. Every wait polls the screen; nothing sleeps
// a fixed time and calls that an assertion.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { freshBinary } from "../../../scripts/build-freshness.ts";
import { useTestScope, type TestScope } from "../../helpers/test-scope.ts";
import { tempDir } from "../../helpers/temp.ts";

export const ROOT = resolve(import.meta.dir, "../../..");
export const ZOT = freshBinary(ROOT, join(ROOT, "dist", "zot"));
export const FIXTURES = join(ROOT, "test", "fixtures", "tui");
/** A private tmux server, so tests never touch the user's sessions. */
const SOCKET = "zot-tui-tests";

let counter = 0;

export type StartOptions = {
  /** Arguments after `zot --provider mock --permission-mode <mode>`. */
  args?: string[];
  /**
   * The permission mode zot starts in: yolo unless a test is about approvals (the screens under
   * test are not the dialog); null passes no mode, for the default or a mode given in `args`.
   */
  mode?: "ask" | "auto-edit" | "yolo" | "plan" | null;
  env?: Record<string, string>;
  width?: number;
  height?: number;
  /** A shell command run on zot's command line before it (`sleep 1`): keys typed meanwhile wait in the cooked terminal for zot. */
  before?: string;
  /** Shell words put in front of zot's command, a wrapper that runs it (`env HOME=…`, a script). */
  wrapper?: string;
  /** Files written before zot starts, by path relative to the test directory (`project/AGENTS.md`, `home/config.json`). */
  files?: Record<string, string | Uint8Array>;
};

function tmux(...args: string[]): { ok: boolean; out: string; err: string } {
  const p = Bun.spawnSync(["tmux", "-L", SOCKET, ...args], { stdout: "pipe", stderr: "pipe" });
  return { ok: p.exitCode === 0, out: p.stdout.toString(), err: p.stderr.toString() };
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export class Tmux {
  readonly dir: string;
  readonly home: string;
  readonly cwd: string;
  readonly log: string;

  private constructor(readonly name: string) {
    this.dir = tempDir("zot-tui-");
    this.home = join(this.dir, "home");
    this.cwd = join(this.dir, "project");
    this.log = join(this.dir, "fixture.log");
  }

  /** Starts a shell in a new session, then zot in it (so the shell is there after zot exits). */
  static async start(opts: StartOptions = {}): Promise<Tmux> {
    const t = new Tmux(`zt${process.pid}-${++counter}`);
    mkdirSync(t.home, { recursive: true });
    mkdirSync(t.cwd, { recursive: true });
    for (const [rel, content] of Object.entries(opts.files ?? {})) {
      const path = join(t.dir, rel);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
    }
    const env: Record<string, string> = {
      ZOT_HOME: t.home,
      TUI_FIXTURE_LOG: t.log,
      TERM: "xterm-256color",
      PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH ?? "/usr/bin:/bin"}`,
      ...opts.env,
    };
    const envFlags = Object.entries(env).flatMap(([k, v]) => ["-e", `${k}=${v}`]);
    const newSession = () =>
      tmux(
        "new-session",
        "-d",
        "-s",
        t.name,
        "-x",
        String(opts.width ?? 100),
        "-y",
        String(opts.height ?? 30),
        "-c",
        t.cwd,
        ...envFlags,
        "bash --norc --noprofile",
      );
    let r = newSession();
    // The private server exits when the previous test kills its last session; a new-session that
    // races with that exit fails this way and succeeds against a fresh server.
    for (let i = 0; !r.ok && /server exited unexpectedly|lost server/.test(r.err) && i < 5; i++) {
      await Bun.sleep(50);
      r = newSession();
    }
    if (!r.ok) throw new Error(`tmux new-session failed: ${r.err}`);
    try {
      tmux("set-option", "-t", t.name, "status", "off");
      // bash resets PS1 from the environment, so set it by typing.
      t.send("PS1='shell$ '");
      await t.waitFor("shell$");
      // tmux keeps its server's PATH for new sessions whatever -e says: a test's own is set by typing.
      if (opts.env?.PATH !== undefined) t.send(`export PATH=${quote(opts.env.PATH)}`);
    } catch (err) {
      t.kill();
      throw err;
    }
    // A test that names its mode in `args` (`--no-yolo`, `--permission-mode`) gets that one.
    const named = (opts.args ?? []).some((a) => a === "--no-yolo" || a.startsWith("--permission-mode"));
    const mode = opts.mode === undefined ? (named ? null : "yolo") : opts.mode;
    const args = [...(mode === null ? [] : ["--permission-mode", mode]), ...(opts.args ?? [])];
    t.send(`${opts.before ? `${opts.before}; ` : ""}${opts.wrapper ? `${opts.wrapper} ` : ""}${quote(ZOT)} --provider mock ${args.map(quote).join(" ")}`);
    return t;
  }

  /** Literal text, as if typed. */
  type(text: string): void {
    tmux("send-keys", "-t", this.name, "-l", text);
  }

  /** Types `text` and presses enter. */
  send(text: string): void {
    this.type(text);
    this.keys("Enter");
  }

  /** tmux key names: Enter, Escape, C-c, M-Enter, Up, PPage, BSpace, Tab… */
  keys(...names: string[]): void {
    tmux("send-keys", "-t", this.name, ...names);
  }

  /** Pastes `text` as the terminal would: bracketed, when the program asked for it. */
  paste(text: string): void {
    const file = join(this.dir, "paste.txt");
    writeFileSync(file, text);
    tmux("load-buffer", "-b", this.name, file);
    tmux("paste-buffer", "-p", "-d", "-b", this.name, "-t", this.name);
  }

  screen(colors = false): string {
    return tmux("capture-pane", "-p", ...(colors ? ["-e"] : []), "-t", this.name).out;
  }

  display(format: string): string {
    return tmux("display-message", "-p", "-t", this.name, format).out.trim();
  }

  resize(width: number, height: number): void {
    tmux("resize-window", "-t", this.name, "-x", String(width), "-y", String(height));
  }

  /** Polls until the screen matches; returns the screen. Fails with the last screen shown. */
  async waitFor(pattern: string | RegExp, timeoutMs = 10_000, colors = false): Promise<string> {
    return this.poll((s) => (typeof pattern === "string" ? s.includes(pattern) : pattern.test(s)), `${pattern}`, timeoutMs, colors);
  }

  /** Polls until the screen no longer matches. */
  async waitGone(pattern: string | RegExp, timeoutMs = 10_000): Promise<string> {
    return this.poll((s) => !(typeof pattern === "string" ? s.includes(pattern) : pattern.test(s)), `no ${pattern}`, timeoutMs, false);
  }

  /** Polls an arbitrary condition (a file's content, a tmux flag). */
  async until<T>(probe: () => T | null | undefined | false, what: string, timeoutMs = 10_000): Promise<T> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const v = probe();
      if (v) return v;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n--- screen ---\n${this.screen()}`);
      await Bun.sleep(25);
    }
  }

  /** The fixture extension's record of frames it received, parsed. */
  frames(): { type: string; [k: string]: unknown }[] {
    try {
      return readFileSync(this.log, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { type: string });
    } catch {
      return [];
    }
  }

  kill(): void {
    tmux("kill-session", "-t", this.name);
  }

  private async poll(test: (s: string) => boolean, what: string, timeoutMs: number, colors: boolean): Promise<string> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const s = this.screen(colors);
      if (test(s)) return s;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n--- screen ---\n${s}`);
      await Bun.sleep(25);
    }
  }
}

export const fixture = (name: string): string => join(FIXTURES, name);

export type TmuxScope = TestScope & {
  /** `Tmux.start`, with the session killed after the test. */
  start(opts?: StartOptions): Promise<Tmux>;
};

/** The set-up the tmux files share: sessions and provider servers a test starts end with it. */
export function useTmux(): TmuxScope {
  const scope = useTestScope();
  return {
    defer: scope.defer,
    serve: scope.serve,
    get server() {
      return scope.server;
    },
    async start(opts) {
      const t = await Tmux.start(opts);
      scope.defer(() => t.kill());
      return t;
    },
  };
}
