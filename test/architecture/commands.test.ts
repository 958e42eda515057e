// The agent's commands start in one place: src/agent/sandbox/spawn.ts (directly, or through the
// confined command server it asks command-server.ts for, whose process server-process.ts starts). A second Bun.spawn under src/agent would
// be a way to run a command that skips the server, its confinement or its process-group tracking.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { code, sources, src } from "./source-text.ts";
import { join, relative } from "node:path";

/** Each file under src/agent that may start a process, and why. */
const ALLOWED: Record<string, string> = {
  "agent/sandbox/spawn.ts": "the one way a command starts when no command server confines it",
  "agent/sandbox/server-process.ts": "starts the confined command server (with the command line, or when the session asks), which spawns the commands",
  "agent/sandbox/status.ts": "the sandbox probe where no command server is the trial: one confined `exit 0`, not an agent command",
};

const SPAWNS = /\bBun\s*\.\s*spawn(?:Sync)?\b|\bnode:child_process\b|["']child_process["']/;

test("nothing under src/agent starts a process except spawn.ts, the command server's process and the sandbox probe", () => {
  const spawning = sources(join(src, "agent"))
    .filter((f) => SPAWNS.test(code(readFileSync(f, "utf8"))))
    .map((f) => relative(src, f))
    .sort();
  expect(spawning).toEqual(Object.keys(ALLOWED).sort());
});

test("the bash tool starts its commands through spawnCommand, foreground and background alike", () => {
  const bash = code(readFileSync(join(src, "agent/tools/bash.ts"), "utf8"));
  expect(bash.match(/\bspawnCommand\(/g)?.length).toBe(1);
  expect(bash).toContain("runBackground");
  expect(code(readFileSync(join(src, "agent/tools/background-jobs.ts"), "utf8"))).not.toMatch(/\bkillTree\b/);
});
