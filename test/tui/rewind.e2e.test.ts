// /rewind and esc esc in a real terminal: the three choices, the listing of files before a code
// restore (esc cancels it), the files restored, and /rewind undo.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { useTmux } from "./helpers/tmux.ts";

const tui = useTmux();
const T = 60_000;
const call = (tool: string, args: object) => `call ${tool} ${JSON.stringify(args)}`;

test(
  "rewind code and conversation lists the files first, restores them, and /rewind undo puts them back",
  async () => {
    const t = await tui.start({ files: { "project/a.txt": "alpha", "project/gone.txt": "keep" } });
    const file = (name: string) => join(t.cwd, name);
    await t.waitFor("Ask anything");
    t.send(call("write", { path: "a.txt", content: "beta" }));
    await t.waitFor("mock: tool write returned");
    t.send(call("bash", { command: "rm gone.txt && echo made > made.txt" }));
    await t.waitFor("mock: tool bash returned");
    expect(existsSync(file("gone.txt"))).toBe(false);

    t.keys("Escape");
    await Bun.sleep(100);
    t.keys("Escape");
    let s = await t.waitFor("Rewind to before which prompt?");
    expect(s).toMatch(/#2 +call bash[\s\S]*#1 +call write/);
    t.keys("Down", "Enter");
    s = await t.waitFor("Restore code only");
    expect(s).toContain("Restore code and conversation");
    expect(s).toContain("Restore conversation only");
    t.keys("Enter");
    s = await t.waitFor("to before prompt #1?");
    expect(s).toMatch(/change +a\.txt/);
    expect(s).toMatch(/restore +gone\.txt/);
    expect(s).toMatch(/remove +made\.txt/);
    // Listed, not yet done; esc cancels and changes nothing.
    expect(readFileSync(file("a.txt"), "utf8")).toBe("beta");
    t.keys("Escape");
    await t.waitFor("Rewind cancelled; nothing was changed.");
    expect(existsSync(file("made.txt"))).toBe(true);

    t.send("/rewind");
    await t.waitFor("Rewind to before which prompt?");
    t.keys("Down", "Enter");
    await t.waitFor("Restore code only");
    t.keys("Enter");
    await t.waitFor("to before prompt #1?");
    t.keys("Enter");
    s = await t.waitFor("Rewound to before prompt #1");
    expect(s).toContain("3 files changed, restored or removed");
    expect(readFileSync(file("a.txt"), "utf8")).toBe("alpha");
    expect(readFileSync(file("gone.txt"), "utf8")).toBe("keep");
    expect(existsSync(file("made.txt"))).toBe(false);
    // The conversation went back too: the prompt is in the editor, its reply is gone from the chat.
    expect(s).toContain(`› ${call("write", { path: "a.txt", content: "beta" })}`);
    expect(s).not.toContain("mock: tool bash returned");

    t.keys("C-u");
    t.send("/rewind undo");
    s = await t.waitFor("Undo the last rewind?");
    expect(s).toMatch(/change +a\.txt/);
    t.keys("Enter");
    s = await t.waitFor("Undid the last rewind");
    expect(readFileSync(file("a.txt"), "utf8")).toBe("beta");
    expect(existsSync(file("gone.txt"))).toBe(false);
    expect(readFileSync(file("made.txt"), "utf8")).toBe("made\n");
    expect(s).toContain("mock: tool bash returned");
  },
  T,
);

test(
  "rewind code only restores the files and keeps the conversation",
  async () => {
    const t = await tui.start({ files: { "project/a.txt": "alpha" } });
    await t.waitFor("Ask anything");
    t.send(call("write", { path: "a.txt", content: "beta" }));
    await t.waitFor("mock: tool write returned");
    t.send("/rewind");
    await t.waitFor("Rewind to before which prompt?");
    t.keys("Enter");
    await t.waitFor("Restore code only");
    t.keys("Down", "Down", "Enter");
    await t.waitFor("Restore code only to before prompt #1?");
    t.keys("Enter");
    const s = await t.waitFor("Rewound the files to before prompt #1");
    expect(readFileSync(join(t.cwd, "a.txt"), "utf8")).toBe("alpha");
    expect(s).toContain("mock: tool write returned");
  },
  T,
);
