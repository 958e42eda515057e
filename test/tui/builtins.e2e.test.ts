// The editor's richer input (file picker, paste chips, multi-line) and the built-in commands that
// open pickers or touch files, in a real terminal.
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useTmux, ZOT } from "./helpers/tmux.ts";
import { tempDir } from "../helpers/temp.ts";

const tui = useTmux();

const T = 30_000;
const READY = "Ask anything";

test(
  "@ opens a fuzzy file picker whose directories can be entered",
  async () => {
    const t = await tui.start();
    mkdirSync(join(t.cwd, "src", "deep"), { recursive: true });
    writeFileSync(join(t.cwd, "src", "deep", "needle.ts"), "");
    writeFileSync(join(t.cwd, "notes.md"), "");
    await t.waitFor(READY);
    t.type("read @");
    let s = await t.waitFor("› src/");
    expect(s).toContain("notes.md");
    t.keys("Tab");
    s = await t.waitFor("› read @src/");
    await t.waitFor("› src/deep/");
    t.keys("C-u");
    t.type("see @needle");
    await t.waitFor("› src/deep/needle.ts");
    t.keys("Enter");
    await t.waitFor("› see @src/deep/needle.ts");
    await t.waitGone(/^› src\/deep\/needle\.ts/m);
    t.keys("Enter");
    await t.waitFor("mock: see @src/deep/needle.ts");
  },
  T,
);

test(
  "a large bracketed paste collapses to a chip and is sent in full",
  async () => {
    const t = await tui.start({ height: 50 });
    await t.waitFor(READY);
    t.paste(Array.from({ length: 20 }, (_, i) => `pasted line ${i + 1}`).join("\n"));
    await t.waitFor("› [paste #1 +20 lines]");
    t.keys("Enter");
    // The prompt shows collapsed in the chat; the model got every line.
    let s = await t.waitFor("… 8 more lines (ctrl+o to expand)");
    expect(s).toContain("› pasted line 1");
    s = await t.waitFor("pasted line 18 pasted line 19");
    expect(s).toContain("mock: pasted line 1 pasted line 2");
    t.keys("C-o");
    await t.waitFor(/^ {2}pasted line 20$/m);
  },
  T,
);

test(
  "alt+enter adds a line instead of sending",
  async () => {
    const t = await tui.start();
    await t.waitFor(READY);
    t.type("first line");
    t.keys("M-Enter");
    t.type("second line");
    const s = await t.waitFor("  second line");
    expect(s).toContain("› first line");
    t.keys("Enter");
    await t.waitFor("mock: first line");
  },
  T,
);

test(
  "/model switches the model for new turns",
  async () => {
    const t = await tui.start();
    await t.waitFor(READY);
    t.send("/model");
    await t.waitFor("type to filter");
    t.send("ollama/qwen3");
    await t.waitFor("Model: ollama/qwen3");
    await t.waitFor(/^ollama\/qwen3/m);
  },
  T,
);

test(
  "/login stores a key in auth.json with mode 0600 and /logout removes it",
  async () => {
    const t = await tui.start();
    await t.waitFor(READY);
    t.send("/login openai");
    await t.waitFor("API key for openai");
    t.type("sk-test-secret");
    let s = await t.waitFor("•••");
    expect(s).not.toContain("sk-test-secret");
    t.keys("Enter");
    await t.waitFor("Check the openai key first?");
    t.keys("Down", "Enter");
    await t.waitFor("Saved the openai key");
    const auth = join(t.home, "auth.json");
    expect(JSON.parse(readFileSync(auth, "utf8")).openai.api_key).toBe("sk-test-secret");
    expect(statSync(auth).mode & 0o777).toBe(0o600);
    t.send("/logout openai");
    s = await t.waitFor("Removed the openai key");
    expect(JSON.parse(readFileSync(auth, "utf8")).openai).toBeUndefined();
  },
  T,
);

test(
  "/login can check a key with one request first: a refused key is not saved, a good one is",
  async () => {
    const seen: string[] = [];
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(req) {
        seen.push(`${req.method} ${new URL(req.url).pathname} ${req.headers.get("authorization")}`);
        return req.headers.get("authorization") === "Bearer good-key" ? Response.json({ data: [] }) : new Response("no", { status: 401 });
      },
    });
    const home = tempDir("zot-login-");
    try {
      writeFileSync(
        join(home, "models.json"),
        JSON.stringify({ models: [{ provider: "openai", id: "local-model", baseUrl: `http://127.0.0.1:${server.port}/v1` }] }),
      );
      const t = await tui.start({ args: ["--provider", "openai", "--model", "local-model"], env: { ZOT_HOME: home, OPENAI_API_KEY: "from-the-environment" } });
      await t.waitFor(READY);
      const login = async (key: string): Promise<void> => {
        t.send("/login openai");
        await t.waitFor("API key for openai");
        t.send(key);
        await t.waitFor(`GET http://127.0.0.1:${server.port}/v1/models`);
        t.keys("Enter");
      };
      await login("bad-key");
      await t.waitFor("openai refused the key (HTTP 401");
      expect(existsSync(join(home, "auth.json"))).toBe(false);
      await login("good-key");
      await t.waitFor("The key works (HTTP 200");
      expect(JSON.parse(readFileSync(join(home, "auth.json"), "utf8")).openai.api_key).toBe("good-key");
      expect(seen).toEqual(["GET /v1/models Bearer bad-key", "GET /v1/models Bearer good-key"]);
    } finally {
      server.stop(true);
    }
  },
  T,
);

test(
  "/compact keeps the chat above a marker and /sessions resumes an earlier session",
  async () => {
    const t = await tui.start();
    await t.waitFor(READY);
    t.send("remember-this");
    await t.waitFor("mock: remember-this");
    t.send("/compact");
    const s = await t.waitFor("history condensed: 2 earlier messages summarised");
    expect(s).toContain("mock: remember-this");
    t.send("/clear");
    await t.waitFor("Started a fresh session.");
    await t.waitGone("remember-this");
    t.send("/sessions");
    await t.waitFor("Resume session");
    t.keys("Enter");
    await t.waitFor("Resumed session");
    expect(existsSync(t.home)).toBe(true);
  },
  T,
);

test(
  "zot -r opens the session picker at start, with the prompt waiting in the editor",
  async () => {
    const t = await tui.start();
    await t.waitFor(READY);
    t.send("from-the-old-session");
    await t.waitFor("mock: from-the-old-session");
    t.keys("C-d");
    await t.waitFor(/^shell\$\s*$/m);
    t.send(`'${ZOT}' --provider mock -r 'and-now-this'`);
    let s = await t.waitFor("Resume session");
    expect(s).toContain("from-the-old-session");
    t.keys("Enter");
    s = await t.waitFor("Resumed session");
    expect(s).toContain("mock: from-the-old-session");
    expect(s).toContain("› and-now-this");
    t.keys("Enter");
    await t.waitFor("mock: and-now-this");
  },
  T,
);
