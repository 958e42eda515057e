// What the built-in tools leave behind and let through: the bash tool's environment, pseudo files
// read by `read`, and the private directories zot makes for what it keeps.
import { beforeEach, describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { bashTool } from "../../../src/agent/tools/bash.ts";
import { readTool } from "../../../src/agent/tools/read.ts";
import { History } from "../../../src/tui/history.ts";
import type { ToolContext, ToolOutput } from "../../../src/agent/tool.ts";
import { tempDir } from "../../helpers/temp.ts";

let dir: string;
beforeEach(() => {
  dir = tempDir("zot-hygiene-");
});

const ctx = (): ToolContext => ({ cwd: dir, signal: new AbortController().signal, progress: () => {}, home: dir });
const text = (out: ToolOutput): string => out.content.map((c) => (c.type === "text" ? c.text : "")).join("");

describe("the bash tool's environment", () => {
  test("has the user's variables but not zot's RPC token", async () => {
    const saved = process.env.ZOTCORE_RPC_TOKEN;
    process.env.ZOTCORE_RPC_TOKEN = "rpc-token-that-drives-zot";
    process.env.ZOT_HYGIENE_MARK = "visible";
    try {
      const out = await bashTool.execute({ command: "env" }, ctx());
      expect(text(out)).toContain("ZOT_HYGIENE_MARK=visible");
      expect(text(out)).not.toContain("ZOTCORE_RPC_TOKEN");
      expect(text(out)).not.toContain("rpc-token-that-drives-zot");
    } finally {
      if (saved === undefined) delete process.env.ZOTCORE_RPC_TOKEN;
      else process.env.ZOTCORE_RPC_TOKEN = saved;
      delete process.env.ZOT_HYGIENE_MARK;
    }
  });
});

describe.skipIf(process.platform !== "linux")("read of procfs files", () => {
  test("shows a process environment (size 0 on disk) with secret values masked", async () => {
    const child = Bun.spawn(["sleep", "30"], {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        PLAIN_SETTING: "kept-as-is",
        ANTHROPIC_API_KEY: "sk-ant-very-secret-value",
        GITHUB_TOKEN: "ghp_secret",
      },
      stdout: "ignore",
    });
    try {
      // Until the exec is done, the environment is the spawner's (or empty).
      while (!readFileSync(`/proc/${child.pid}/cmdline`, "utf8").startsWith("sleep")) await Bun.sleep(5);
      const path = `/proc/${child.pid}/environ`;
      expect(statSync(path).size).toBe(0);
      const out = await readTool.execute({ path }, ctx());
      expect(out.isError).toBe(false);
      const t = text(out);
      expect(t.split("\n")).toContain("PLAIN_SETTING=kept-as-is");
      expect(t.split("\n")).toContain("ANTHROPIC_API_KEY=[redacted]");
      expect(t.split("\n")).toContain("GITHUB_TOKEN=[redacted]");
      expect(t).not.toContain("sk-ant-very-secret-value");
      expect(t).not.toContain("ghp_secret");
    } finally {
      child.kill("SIGKILL");
    }
  });

  test("shows a command line one argument per line, with the value of --api-key masked", async () => {
    const child = Bun.spawn(["/bin/sh", "-c", "sleep 30; :", "sh", "--api-key", "sk-from-argv-123456"], { stdout: "ignore" });
    try {
      // Until the exec is done, the command line is the spawner's (or empty).
      while (!readFileSync(`/proc/${child.pid}/cmdline`, "utf8").includes("--api-key")) await Bun.sleep(5);
      const t = text(await readTool.execute({ path: `/proc/${child.pid}/cmdline` }, ctx()));
      expect(t.split("\n")).toEqual(["/bin/sh", "-c", "sleep 30; :", "sh", "--api-key", "[redacted]"]);
    } finally {
      child.kill("SIGKILL");
    }
  });

  test("reads a file whose reported size is not its length (/proc/self/status)", async () => {
    const t = text(await readTool.execute({ path: "/proc/self/status" }, ctx()));
    expect(t).toContain(`Pid:\t${process.pid}`);
  });
});

describe("directories zot creates for itself", () => {
  test("the prompt history directory is private (0700) under a permissive umask", () => {
    const old = process.umask(0o022);
    try {
      new History(join(dir, "home", "history", "prompts.jsonl")).add("hello");
    } finally {
      process.umask(old);
    }
    expect(statSync(join(dir, "home")).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, "home", "history")).mode & 0o777).toBe(0o700);
  });
});
