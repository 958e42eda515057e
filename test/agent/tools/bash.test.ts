import { beforeEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { bashTool } from "../../../src/agent/tools/bash.ts";
import type { ToolContext, ToolOutput } from "../../../src/agent/tool.ts";
import { tempDir } from "../../helpers/temp.ts";
import { noneRunning } from "../../helpers/processes.ts";

let dir: string;
beforeEach(() => {
  dir = tempDir("zot-bash-test-");
});

const ctx = (over: Partial<ToolContext> = {}): ToolContext => ({ cwd: dir, signal: new AbortController().signal, progress: () => {}, home: dir, ...over });
const text = (out: ToolOutput): string => out.content.map((c) => (c.type === "text" ? c.text : "")).join("");

/** True once the process is gone (a zombie waiting for a reaper that isn't us counts as gone). */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z") ?? true;
  } catch {
    return true;
  }
}

async function eventuallyGone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100 && !gone(pid); i++) await Bun.sleep(50);
  return gone(pid);
}

describe("bash", () => {
  test("merges stdout and stderr in the order they were written", async () => {
    const out = await bashTool.execute({ command: "echo one; echo two >&2; echo three" }, ctx());
    expect(out.isError).toBe(false);
    expect(text(out)).toBe("one\ntwo\nthree");
  });

  test("runs the command as sh -c would: $0 is /bin/sh and no positional parameters are set", async () => {
    const out = await bashTool.execute({ command: 'echo "$0|$#|$1|$@"' }, ctx());
    expect(text(out)).toBe("/bin/sh|0||");
  });

  test("shows the shell's syntax and not-found errors in the output, with the command's line numbers", async () => {
    const syntax = await bashTool.execute({ command: "echo before\nif then" }, ctx());
    expect(syntax.isError).toBe(true);
    expect(text(syntax)).toMatch(/^before\n.*2: .*Syntax error: "then" unexpected\n\n\[Exit code 2\]$/);
    const missing = await bashTool.execute({ command: "true\nzot_no_such_command_x" }, ctx());
    expect(text(missing)).toMatch(/^\/bin\/sh: 2: .*zot_no_such_command_x: not found\n\n\[Exit code 127\]$/);
  });

  test("runs in the session cwd with empty stdin", async () => {
    const out = await bashTool.execute({ command: "pwd; cat; echo done" }, ctx());
    expect(text(out)).toBe(`${dir}\ndone`);
  });

  test("reports a non-zero exit code as an error with the output", async () => {
    const out = await bashTool.execute({ command: "echo failing; exit 3" }, ctx());
    expect(out.isError).toBe(true);
    expect(text(out)).toBe("failing\n\n[Exit code 3]");
  });

  test("says so when there is no output", async () => {
    expect(text(await bashTool.execute({ command: "true" }, ctx()))).toBe("(no output)");
  });

  test("streams output chunks to progress as they arrive", async () => {
    const chunks: string[] = [];
    // "b" is printed only after progress has delivered "a", so streaming (not buffering) is what ends the loop.
    const progress = (t: string): void => {
      chunks.push(t);
      if (t.includes("a")) Bun.write(join(dir, "go"), "");
    };
    const out = await bashTool.execute({ command: "echo a; while [ ! -f go ]; do sleep 0.05; done; echo b", timeout: 30 }, ctx({ progress }));
    expect(chunks.join("")).toBe("a\nb\n");
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expect(text(out)).toBe("a\nb");
  });

  test("timeout kills the whole process group, grandchildren included", async () => {
    const pidFile = join(dir, "pid");
    const out = await bashTool.execute({ command: `sleep 300 & echo $! > ${pidFile}; echo started; wait`, timeout: 1 }, ctx());
    expect(out.isError).toBe(true);
    expect(text(out)).toContain("started");
    expect(text(out)).toContain("[Timed out after 1 s; the command and its child processes were killed.]");
    expect(await eventuallyGone(Number(readFileSync(pidFile, "utf8")))).toBe(true);
  });

  test("abort kills the whole process group", async () => {
    const ac = new AbortController();
    const pidFile = join(dir, "pid");
    const out = await bashTool.execute(
      { command: `sh -c 'sleep 300' & echo $! > ${pidFile}; echo started; wait` },
      ctx({ signal: ac.signal, progress: (t) => t.includes("started") && ac.abort() }),
    );
    expect(out.isError).toBe(true);
    expect(text(out)).toContain("[Aborted; the command and its child processes were killed.]");
    expect(await eventuallyGone(Number(readFileSync(pidFile, "utf8")))).toBe(true);
  });

  test("a call aborted while its command is starting stops the command instead of waiting for it", async () => {
    const ac = new AbortController();
    // A sleep no other test runs, so its process can be found by its command line.
    const pending = bashTool.execute({ command: "exec sleep 314159" }, ctx({ signal: ac.signal }));
    // The shell is being spawned: the abort lands before the call has its command.
    ac.abort();
    const out = await pending;
    expect(out.isError).toBe(true);
    expect(text(out)).toContain("[Aborted; the command and its child processes were killed.]");
    expect(await noneRunning(["sleep", "314159"])).toBe(true);
  });

  test("background processes are stopped when the command finishes", async () => {
    const out = await bashTool.execute({ command: "sleep 300 > /dev/null 2>&1 & echo $!" }, ctx());
    expect(out.isError).toBe(false);
    expect(await eventuallyGone(Number(text(out)))).toBe(true);
  });

  test("long output keeps head and tail and spills the full output to a private file", async () => {
    const out = await bashTool.execute({ command: "seq 1 100000" }, ctx());
    expect(out.isError).toBe(false);
    const t = text(out);
    const lines = t.split("\n");
    expect(lines[0]).toBe("1");
    expect(lines[999]).toBe("1000");
    expect(t).toContain("\n100000\n");
    expect(t).toContain("lines omitted");
    const m = /the full output is in (\S+\.log)\./.exec(t);
    expect(m?.[1]).toStartWith(join(dir, "spill", "zot-bash-"));
    const spill = m?.[1] ?? "";
    try {
      expect(statSync(spill).mode & 0o777).toBe(0o600);
      const full = readFileSync(spill, "utf8");
      expect(full).toBe(Array.from({ length: 100000 }, (_, i) => String(i + 1)).join("\n") + "\n");
      expect(t).toContain("[Output truncated: 100000 lines");
    } finally {
      if (existsSync(spill)) unlinkSync(spill);
    }
  });

  test("rejects an empty command and a bad timeout", async () => {
    expect((await bashTool.execute({ command: " " }, ctx())).isError).toBe(true);
    const out = await bashTool.execute({ command: "true", timeout: -1 }, ctx());
    expect(out.isError).toBe(true);
    expect(text(out)).toContain('"timeout" must be a positive number');
  });

  test("reports a working directory that does not exist", async () => {
    const out = await bashTool.execute({ command: "true" }, ctx({ cwd: join(dir, "missing") }));
    expect(out.isError).toBe(true);
    expect(text(out)).toContain(`Could not start /bin/sh in ${join(dir, "missing")}`);
  });
});
