// Background commands over real processes: bash with background: true, bash_output, bash_kill.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { bashTool } from "../../../src/agent/tools/bash.ts";
import { bashOutputTool } from "../../../src/agent/tools/bash-output.ts";
import { bashKillTool } from "../../../src/agent/tools/bash-kill.ts";
import { JOB_KEEP_CHARS, listJobs, onJobChange, stopJobs, type JobInfo } from "../../../src/agent/tools/background-jobs.ts";
import type { ToolContext, ToolOutput } from "../../../src/agent/tool.ts";
import { alive } from "../../ext/fixture-host.ts";
import { waitFor } from "../../helpers/wait.ts";
import { tempDir } from "../../helpers/temp.ts";
import { noneRunning } from "../../helpers/processes.ts";

let dir: string;
beforeEach(() => {
  dir = tempDir("zot-bg-test-");
});
afterEach(async () => {
  await stopJobs();
});

const ctx = (): ToolContext => ({ cwd: dir, signal: new AbortController().signal, progress: () => {}, home: dir });
const text = (out: ToolOutput): string => out.content.map((c) => (c.type === "text" ? c.text : "")).join("");

async function start(command: string): Promise<string> {
  const out = await bashTool.execute({ command, background: true }, ctx());
  expect(out.isError).toBe(false);
  const id = /Started background command (bg\d+)/.exec(text(out))?.[1];
  expect(id).toBeDefined();
  return id!;
}

const ended = (id: string): JobInfo | undefined => listJobs().find((j) => j.id === id && j.state !== "running");

test("a background command returns at once; bash_output gives only the output that is new, then how it ended", async () => {
  const id = await start("echo one; while [ ! -f go ]; do sleep 0.02; done; echo two; exit 3");
  // A read may come before "one" was written; read until it shows.
  let seen = "";
  // (The header names the command, "echo one", so only a line that is just "one" is the output.)
  for (let i = 0; i < 500 && !/^one$/m.test(seen); i++) {
    seen += text(await bashOutputTool.execute({ id }, ctx()));
    await Bun.sleep(10);
  }
  expect(seen).toContain(`[${id} running: echo one;`);
  expect(seen).toMatch(/^one$/m);
  await Bun.write(join(dir, "go"), "");
  await waitFor(() => ended(id));
  const out = await bashOutputTool.execute({ id }, ctx());
  expect(text(out)).toContain(`[${id} exited with code 3:`);
  expect(text(out).split("\n").slice(1)).toEqual(["two"]);
  expect(text(await bashOutputTool.execute({ id }, ctx()))).toContain("(no new output)");
});

test("bash_kill stops the command and the processes it started, and says so", async () => {
  const id = await start(`sh -c 'echo $$ > child.pid; exec sleep 300' & echo $$ > shell.pid; wait`);
  await waitFor(() => existsSync(join(dir, "child.pid")) && existsSync(join(dir, "shell.pid")) && readFileSync(join(dir, "child.pid"), "utf8").endsWith("\n"));
  const child = Number(readFileSync(join(dir, "child.pid"), "utf8"));
  expect(alive(child)).toBe(true);
  const out = await bashKillTool.execute({ id }, ctx());
  expect(text(out)).toBe(`Stopped ${id}: killed (by SIGTERM).`);
  await waitFor(() => !alive(child));
  expect(text(await bashKillTool.execute({ id }, ctx()))).toBe(`${id} had already ended: killed (by SIGTERM).`);
  expect(text(await bashOutputTool.execute({ id }, ctx()))).toContain(`[${id} killed (by SIGTERM):`);
});

test("a job that writes more than the buffer keeps the tail and says how much was dropped", async () => {
  const id = await start(`head -c ${JOB_KEEP_CHARS * 3} /dev/zero | tr '\\0' x; echo; echo END`);
  await waitFor(() => ended(id));
  const out = text(await bashOutputTool.execute({ id }, ctx()));
  const dropped = Number(/\[(\d+) characters of output were dropped/.exec(out)?.[1]);
  expect(dropped).toBeGreaterThan(JOB_KEEP_CHARS);
  expect(out.trimEnd().endsWith("END")).toBe(true);
  expect(out.length).toBeLessThan(JOB_KEEP_CHARS + 500);
});

test("listeners hear a job start and end; unknown ids get an error naming the known ones", async () => {
  const seen: string[] = [];
  const off = onJobChange((j) => seen.push(`${j.id} ${j.state}`));
  const id = await start("true");
  await waitFor(() => ended(id));
  off();
  expect(seen).toEqual([`${id} running`, `${id} exited`]);
  const r = await bashOutputTool.execute({ id: "bg999" }, ctx());
  expect(r.isError).toBe(true);
  expect(text(r)).toContain(`There is no background command "bg999" (known: `);
  expect(text(r)).toContain(id);
});

test("a background command aborted while it starts is stopped, not left running as a job nobody knows of", async () => {
  const ac = new AbortController();
  // A sleep no other test runs, so its process can be found by its command line.
  const pending = bashTool.execute({ command: "exec sleep 314161", background: true }, { ...ctx(), signal: ac.signal });
  ac.abort();
  const out = await pending;
  expect(out.isError).toBe(true);
  expect(text(out)).toBe("Aborted while the command was starting; it was stopped.");
  expect(listJobs().filter((j) => j.command.includes("314161"))).toEqual([]);
  expect(await noneRunning(["sleep", "314161"])).toBe(true);
});
