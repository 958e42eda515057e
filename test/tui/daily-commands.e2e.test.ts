// The everyday commands in a real terminal: /cost, /context, /status, /doctor, /copy, /rename,
// /add-dir, /export, /resume and /quit, and images pasted as paths or from the clipboard (a fake
// `xclip` on PATH, a real subprocess, stands in for the system clipboard).
import { expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { BUILTIN_TOOLS } from "../../src/names.ts";
import { sessionDir } from "../../src/platform/home.ts";
import { useTmux } from "./helpers/tmux.ts";
import { redPng } from "../agent/export/fixture.ts";
import { tempDir } from "../helpers/temp.ts";

const tui = useTmux();
const T = 40_000;
const READY = "Ask anything";

test(
  "/cost lists the session's calls by model, /context draws what fills the window, /status sums it up",
  async () => {
    const t = await tui.start({ height: 50, files: { "project/AGENTS.md": "Be brief.\n" } });
    await t.waitFor(READY);
    t.send("/cost");
    await t.waitFor("No model calls in this session yet");
    t.send("hello there");
    await t.waitFor("mock: hello there");
    t.send("/cost");
    let s = await t.waitFor("Session cost:");
    expect(s).toMatch(/mock\/mock\s+1 call /);
    t.send("/context");
    s = await t.waitFor("Context: ≈");
    expect(s).toMatch(/\[█+▓+▒+░*·*\]/);
    expect(s).toContain("system prompt");
    expect(s).toContain(join(t.cwd, "AGENTS.md"));
    expect(s).toContain(`zot's tools (${BUILTIN_TOOLS.length})`);
    expect(s).toContain("messages (2)");
    t.send("/status");
    s = await t.waitFor(/model\s+mock\/mock · thinking off/);
    expect(s).toMatch(/directory\s+\S*project/);
    expect(s).toMatch(/messages\s+2/);
    expect(s).toMatch(/permissions\s+yolo/);
    // The row's name is not said twice ("sandbox  sandbox: …").
    expect(s).toMatch(/sandbox {2,}(workspace-write|off) \(/);
  },
  T,
);

test(
  "/doctor reports zot, the provider, the sandbox and this run's extensions",
  async () => {
    const t = await tui.start({ height: 50 });
    await t.waitFor(READY);
    t.send("/doctor");
    const s = await t.waitFor("no MCP servers configured");
    expect(s).toContain("provider  mock/mock: not checked: the offline mock provider has nothing to reach");
    expect(s).toMatch(/sandbox: workspace-write \((Landlock|.*not)/);
    expect(s).toContain("no extensions found");
  },
  T,
);

/** A stand-in for xclip: `-in` keeps what it is given, `-o` prints a PNG. */
function fakeXclip(dir: string): { bin: string; copied: string; png: Buffer } {
  const bin = join(dir, "bin");
  mkdirSync(bin, { recursive: true });
  const png = redPng(2, 2);
  const pngFile = join(dir, "clip.png");
  writeFileSync(pngFile, png);
  const copied = join(dir, "copied.txt");
  writeFileSync(join(bin, "xclip"), `#!/bin/sh\ncase " $* " in\n  *" -o "*) cat '${pngFile}' ;;\n  *) cat > '${copied}' ;;\nesac\n`);
  chmodSync(join(bin, "xclip"), 0o755);
  return { bin, copied, png };
}

test(
  "/copy puts the last answer on the clipboard with xclip and OSC 52; ctrl+v attaches the clipboard's image",
  async () => {
    const fake = fakeXclip(tempDir("zot-xclip-"));
    const t = await tui.start({ env: { PATH: `${fake.bin}:${process.env.PATH ?? "/usr/bin:/bin"}` } });
    await t.waitFor(READY);
    t.send("/copy");
    await t.waitFor("Nothing to copy yet");
    t.send("the answer to copy");
    await t.waitFor("mock: the answer to copy");
    t.send("/copy");
    await t.waitFor("with xclip and the terminal (OSC 52)");
    expect(readFileSync(fake.copied, "utf8")).toBe("mock: the answer to copy");
    t.keys("C-v");
    await t.waitFor("Pasted the clipboard's image (");
    const s = await t.waitFor(/@\S*zot-clipboard-\S*\/clipboard-1\.png/);
    expect(s).toContain("from xclip");
    const path = /@(\S*clipboard-1\.png)/.exec(s)![1]!;
    expect(readFileSync(path).equals(fake.png)).toBe(true);
    t.type("what is this");
    t.keys("Enter");
    await t.waitFor(/attached @\S*clipboard-1\.png as an image \(\d+ bytes\)/);
  },
  T,
);

test(
  "ctrl+v without a clipboard tool says what to install",
  async () => {
    const t = await tui.start({ env: { PATH: "/nonexistent" } });
    await t.waitFor(READY);
    t.keys("C-v");
    await t.waitFor("No clipboard tool to read an image with");
  },
  T,
);

test(
  "a dropped image path becomes an @ mention that attaches the image; other pastes stay text",
  async () => {
    const t = await tui.start({ height: 40 });
    mkdirSync(join(t.cwd, "my shots"), { recursive: true });
    writeFileSync(join(t.cwd, "my shots", "screen.png"), redPng());
    await t.waitFor(READY);
    t.paste(`'${join(t.cwd, "my shots", "screen.png")}'`);
    await t.waitFor('@"my shots/screen.png"');
    t.type("look");
    t.keys("Enter");
    await t.waitFor("attached @my shots/screen.png as an image");
    t.paste(`'${join(t.cwd, "missing.png")}'`);
    await t.waitFor(`'${join(t.cwd, "missing.png")}'`);
  },
  T,
);

test(
  "/rename titles the session in its transcript; /export writes HTML and Markdown files",
  async () => {
    const t = await tui.start({ height: 40 });
    await t.waitFor(READY);
    t.send("/export html");
    await t.waitFor("Export failed: this session has no messages yet.");
    t.send("first prompt <b>bold</b>");
    await t.waitFor("mock: first prompt <b>bold</b>");
    t.send("/rename   Greeting   work ");
    await t.waitFor('Renamed this session "Greeting work".');
    t.send("/status");
    await t.waitFor('("Greeting work")');
    const dir = sessionDir(t.home, t.cwd);
    const transcript = join(dir, readdirSync(dir).find((f) => f.endsWith(".jsonl"))!);
    expect(readFileSync(transcript, "utf8")).toContain('{"type":"rename","title":"Greeting work"');
    t.send("/export html out/page.html");
    await t.waitFor(`Exported this session as HTML to ${join(t.cwd, "out", "page.html")}`);
    const html = readFileSync(join(t.cwd, "out", "page.html"), "utf8");
    expect(html).toContain("<title>Greeting work</title>");
    expect(html).toContain("first prompt &#60;b&#62;bold&#60;/b&#62;");
    t.send("/export md notes.md");
    await t.waitFor(`as Markdown to ${join(t.cwd, "notes.md")}`);
    expect(readFileSync(join(t.cwd, "notes.md"), "utf8")).toContain("## Assistant (mock/mock)\n\nmock: first prompt <b>bold</b>");
    t.send("/export pdf");
    await t.waitFor('Unknown export format "pdf" (/export md|html [path]).');
  },
  T,
);

test(
  "/add-dir lets the file tools write a directory outside the workspace for the rest of the session",
  async () => {
    const t = await tui.start({ height: 40, args: ["--sandbox", "workspace-write"] });
    // Outside the workspace and every temp directory (which the sandbox lets commands write); the
    // checkout itself may lie in a temp directory, as CI's clone does.
    const outside = tempDir(".zot-add-dir-", homedir());
    tui.defer(() => rmSync(outside, { recursive: true, force: true }));
    await t.waitFor(READY);
    const call = `call write {"path":"${join(outside, "x.txt")}","content":"hi"}`;
    t.send(call);
    await t.waitFor("write outside the workspace");
    expect(existsSync(join(outside, "x.txt"))).toBe(false);
    t.send(`/add-dir ${outside}`);
    await t.waitFor("Commands and file tools may now write");
    t.send(call);
    await t.until(() => existsSync(join(outside, "x.txt")), "the write to the added directory");
    t.send("/add-dir /nonexistent/dir");
    await t.waitFor("/nonexistent/dir does not exist");
  },
  T,
);

test(
  "/resume is /sessions and /quit is /exit",
  async () => {
    const t = await tui.start();
    await t.waitFor(READY);
    t.send("/resume");
    await t.waitFor("No other sessions for this directory.");
    t.send("/quit");
    await t.waitFor("shell$");
  },
  T,
);
