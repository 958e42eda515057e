// /reload-ext and extension load errors in a real terminal.
import { expect, test } from "bun:test";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { fixture, useTmux } from "./helpers/tmux.ts";
import { dark, toXterm256 } from "../../src/tui/terminal/theme.ts";
import { tempDir } from "../helpers/temp.ts";

const tui = useTmux();

const T = 30_000;
const RED = `38;5;${toXterm256(dark.error as string)}m`;

test(
  "startup load errors are visible in the chat with the log path",
  async () => {
    const t = await tui.start({ args: ["-e", fixture("demo"), "-e", fixture("broken")] });
    const s = await t.waitFor("[broken]", 10_000, true);
    expect(s).toContain(`${RED}● [broken]`);
    expect(t.screen()).toContain("ext-broken.log");
    expect(t.screen()).toContain("1 ext 1 failed");
  },
  T,
);

test(
  "/reload-ext reports each load error in red with its log path, then dismisses the status",
  async () => {
    const t = await tui.start({ args: ["-e", fixture("demo"), "-e", fixture("broken")] });
    await t.waitFor("Ask anything");
    t.send("/reload-ext");
    const s = await t.waitFor("✗ broken:", 10_000, true);
    expect(s).toContain(`${RED}✗ broken:`);
    const plain = t.screen();
    expect(plain).toContain("1 failed");
    // The status line (wrapped, never cut) ends with the log path.
    const status = plain.slice(plain.indexOf("✗ broken:"));
    expect(status.slice(0, status.indexOf("─")).replace(/\s+/g, "")).toContain(`(log:${t.home}/logs/ext-broken.log)`);
    const after = await t.waitGone("✗ broken:", 10_000);
    // The error line in the chat stays until a successful reload or /clear.
    expect(after).toContain("[broken]");
  },
  T,
);

test(
  "a successful reload removes earlier load errors from the chat",
  async () => {
    const dir = tempDir("zot-tui-flaky-");
    const ext = join(dir, "broken");
    cpSync(fixture("broken"), ext, { recursive: true });
    const t = await tui.start({ args: ["-e", ext] });
    await t.waitFor("[broken]");
    // Repair the extension on disk: it now only answers the handshake.
    await Bun.write(
      join(ext, "broken.py"),
      [
        "#!/usr/bin/env python3",
        "import json, sys",
        'print(json.dumps({"type": "hello", "name": "broken", "version": "1"}), flush=True)',
        "for line in sys.stdin:",
        "    m = json.loads(line)",
        '    if m["type"] == "hello_ack": print(json.dumps({"type": "ready"}), flush=True)',
        '    if m["type"] == "shutdown": break',
        "",
      ].join("\n"),
    );
    t.send("/reload-ext broken");
    await t.waitFor("Reloaded extension broken");
    const s = await t.waitGone("[broken]");
    expect(s).not.toContain("failed");
  },
  T,
);

test(
  "/reload-ext NAME counts every extension running afterwards, not just the one reloaded",
  async () => {
    const t = await tui.start({ args: ["-e", fixture("demo"), "-e", join(import.meta.dir, "../fixtures/agent/toolbox")] });
    await t.waitFor("Ask anything");
    t.send("/reload-ext toolbox");
    await t.waitFor("Reloaded extension toolbox: 2 running in all.");
  },
  T,
);

test(
  "an extension that dies while running its command is reported once, as a note with its log",
  async () => {
    const t = await tui.start({ args: ["-e", join(import.meta.dir, "../fixtures/agent/cmdcrash")] });
    await t.waitFor("Ask anything");
    t.send("/boom");
    const s = await t.waitFor("cmdcrash: dying");
    await Bun.sleep(300);
    expect(t.screen().split('extension "cmdcrash" exited with exit code 3').length - 1).toBe(1);
    expect(s).toContain("ext-cmdcrash.log");
  },
  T,
);
