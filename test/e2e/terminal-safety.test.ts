// Untrusted text never reaches a terminal raw in print mode: model text and tool output with
// OSC 0 (window title) and OSC 52 (clipboard) are shown as plain text on a terminal (a real tmux
// pane), and passed through byte for byte to a pipe.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { useTmux } from "../tui/helpers/tmux.ts";
import { useZotHome, ZOT, zotEnv } from "./zot.ts";

const TITLE = "\u001b]0;pwned-title\u0007";
const CLIP = "\u001b]52;c;ZXZpbA==\u0007";
const TOOL = `printf 'tool-start\\033]0;tool-title\\007\\033]52;c;ZXZpbA==\\007tool-end\\n'`;

function script(dir: string): string {
  const path = join(dir, "script.jsonl");
  writeFileSync(
    path,
    [
      JSON.stringify({ tool_calls: [{ name: "bash", args: { command: TOOL } }] }),
      JSON.stringify({ text: `answer-start${TITLE}${CLIP}\tcol\r\nanswer-end` }),
    ].join("\n") + "\n",
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

/** `zot args…` with its stdout on a real terminal (a pty from script(1)), the terminal's output returned. */
async function onTerminal(home: string, args: string[]): Promise<string> {
  const command = [ZOT, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  const proc = Bun.spawn(["script", "-qfec", command, "/dev/null"], { cwd: home, env: zotEnv(home), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  return out.replace(/\r\n/g, "\n");
}

test("on a terminal, --json stays valid JSON whatever the model says, with C1 and bidi controls removed", async () => {
  const path = join(e2e.home, "c1.jsonl");
  writeFileSync(path, JSON.stringify({ text: 'one\u009b","type":"evil"} two\u202eoverride\u2066iso\u2069 end' }) + "\n");
  const out = await onTerminal(e2e.home, ["--mock-script", path, "--no-session", "--json", "go"]);
  const lines = out.split("\n").filter((l) => l.trim() !== "");
  expect(lines.length).toBeGreaterThan(0);
  const events = lines.map((l) => JSON.parse(l) as { type: string; text?: string });
  expect(events.find((e) => e.type === "done")?.text).toBe('one","type":"evil"} twooverrideiso end');
  expect(out).not.toMatch(/[\u0080-\u009f\u202a-\u202e\u2066-\u2069]/);
});
