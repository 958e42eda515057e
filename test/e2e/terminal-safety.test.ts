// Untrusted text never reaches a terminal raw in print mode: model text and tool output with
// OSC 0 (window title) and OSC 52 (clipboard) are shown as plain text on a terminal (a real tmux
// pane), and passed through byte for byte to a pipe.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { useTmux } from "../tui/helpers/tmux.ts";
import { useZotHome } from "./zot.ts";

const TITLE = "\u001b]0;pwned-title\u0007";
const CLIP = "\u001b]52;c;ZXZpbA==\u0007";
const TOOL = `printf 'tool-start\\033]0;tool-title\\007\\033]52;c;ZXZpbA==\\007tool-end\\n'`;

function script(dir: string): string {
  const path = join(dir, "script.jsonl");
  writeFileSync(
    path,
    [JSON.stringify({ tool_calls: [{ name: "bash", args: { command: TOOL } }] }), JSON.stringify({ text: `answer-start${TITLE}${CLIP}\tcol\r\nanswer-end` })].join("\n") + "\n",
  );
  return path;
}

const e2e = useZotHome();
const tui = useTmux();

test("on a terminal, print mode strips escape sequences from the answer and from tool output", async () => {
  const t = await tui.start({ args: ["--mock-script", script(e2e.home), "--no-session", "-p", "go"] });
  const before = t.display("#{pane_title}");
  const screen = await t.waitFor("answer-end", 30_000);
  // The [tool] line quotes the command as text; what the command and the model printed is plain.
  expect(screen).toContain("\ntool-starttool-end\n");
  expect(screen).toMatch(/\nanswer-start\s+col\nanswer-end\n/);
  const after = t.display("#{pane_title}");
  expect(after).toBe(before);
  expect(after).not.toContain("title");
});

test("into a pipe, print mode writes the answer byte for byte", async () => {
  const r = await e2e.run(["--mock-script", script(e2e.home), "--no-session", "-p", "go"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe(`answer-start${TITLE}${CLIP}\tcol\r\nanswer-end\n`);
  expect(r.stderr).toContain("tool-start\u001b]0;tool-title\u0007\u001b]52;c;ZXZpbA==\u0007tool-end");
});
