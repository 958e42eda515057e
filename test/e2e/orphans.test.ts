// No process outlives zot, even after kill -9: the reaper kills every registered process group
// (bash tool commands with their background children, extensions that ignore SIGTERM and never
// read stdin) once zot is gone. A command detached on purpose with setsid survives.
import { expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { useZotHome, ZOT, zotEnv } from "./zot.ts";
import { elements } from "../helpers/elements.ts";
import { alive, childrenWith, reaperList, reaperOf, signal } from "../helpers/processes.ts";
import { anthropicEvents } from "../helpers/provider-server.ts";

const e2e = useZotHome();

/** Kills these processes after the test, whatever its outcome. */
function reap(pids: number[]): void {
  e2e.defer(() => {
    for (const pid of pids) {
      try {
        signal(pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
  });
}

async function pidsIn(file: string, n: number): Promise<number[]> {
  for (;;) {
    const lines = existsSync(file)
      ? readFileSync(file, "utf8")
          .split("\n")
          .filter((l) => l.trim() !== "")
      : [];
    if (lines.length >= n) return lines.slice(0, n).map(Number);
    await Bun.sleep(20);
  }
}

async function gone(pids: number[]): Promise<boolean> {
  for (let i = 0; i < 500; i++) {
    if (pids.every((p) => !alive(p))) return true;
    await Bun.sleep(20);
  }
  return false;
}

/** Every run here makes bash calls, which must run unasked. */
function start(args: string[], env: Record<string, string> = {}) {
  return Bun.spawn([ZOT, "--permission-mode", "yolo", ...args], {
    cwd: e2e.home,
    env: zotEnv(e2e.home, env),
    stdin: "ignore",
    stdout: "ignore",
    stderr: "ignore",
  });
}

test("kill -9 of zot during a bash call kills the command and its background children", async () => {
  const pids = join(e2e.home, "pids");
  const command = `echo $$ > ${pids}; sleep 300 & echo $! >> ${pids}; (trap '' TERM; sleep 301) & echo $! >> ${pids}; wait`;
  const zot = start(["-p", "--provider", "mock", `call bash ${JSON.stringify({ command })}`]);
  const started = await pidsIn(pids, 3);
  reap(started);
  expect(started.every(alive)).toBe(true);
  zot.kill("SIGKILL");
  await zot.exited;
  expect(await gone(started)).toBe(true);
});

test("with $TMPDIR missing, kill -9 of zot during a bash call still kills the command", async () => {
  const pids = join(e2e.home, "pids-notmp");
  const command = `echo $$ > ${pids}; exec sleep 300`;
  const zot = start(["--sandbox", "off", "-p", "--provider", "mock", `call bash ${JSON.stringify({ command })}`], { TMPDIR: join(e2e.home, "no-such-dir") });
  const started = await pidsIn(pids, 1);
  reap(started);
  expect(started.every(alive)).toBe(true);
  zot.kill("SIGKILL");
  await zot.exited;
  expect(await gone(started)).toBe(true);
});

test("kill -9 of zot during a sandboxed bash call kills the confined command server and its commands", async () => {
  const pids = join(e2e.home, "pids");
  // $PPID of a sandboxed command is the session's command server.
  const command = `echo $PPID > ${pids}; echo $$ >> ${pids}; sleep 300 & echo $! >> ${pids}; wait`;
  const zot = start(["--sandbox", "workspace-write", "-p", "--provider", "mock", `call bash ${JSON.stringify({ command })}`]);
  const started = await pidsIn(pids, 3);
  reap(started);
  expect(started.every(alive)).toBe(true);
  expect(started[0]).not.toBe(zot.pid);
  zot.kill("SIGKILL");
  await zot.exited;
  expect(await gone(started)).toBe(true);
});

/**
 * A config.json that is a named pipe holds zot's start-up where it reads its configuration, after
 * the command line has started the sandbox's command server and before it is told its confinement.
 */
async function heldAtConfig(args: string[], stdin: "ignore" | "pipe" = "ignore") {
  const home = join(e2e.root, "held-home");
  mkdirSync(home, { recursive: true });
  const config = join(home, "config.json");
  expect(Bun.spawnSync(["mkfifo", config]).exitCode).toBe(0);
  const zot = Bun.spawn([ZOT, ...args], { cwd: e2e.home, env: zotEnv(home), stdin, stdout: "ignore", stderr: "ignore" });
  let servers: number[] = [];
  for (let i = 0; i < 500 && servers.length === 0; i++) {
    servers = childrenWith(zot.pid, "--serve");
    if (servers.length === 0) await Bun.sleep(20);
  }
  reap([zot.pid, ...servers]);
  return { zot, servers, config };
}

test("kill -9 of zot before its command server is told its confinement ends that server too", async () => {
  const { zot, servers } = await heldAtConfig(["-p", "--provider", "mock", "hi"]);
  expect(servers.length).toBe(1);
  zot.kill("SIGKILL");
  await zot.exited;
  expect(await gone(servers)).toBe(true);
});

test("a server started with the command line that the session does not need ends while zot runs on", async () => {
  const { zot, servers, config } = await heldAtConfig(["rpc", "--provider", "mock"], "pipe");
  expect(servers.length).toBe(1);
  // The configuration turns the sandbox off: the session needs no server, and the early one goes.
  writeFileSync(config, JSON.stringify({ sandbox: { mode: "off" } }));
  expect(await gone(servers)).toBe(true);
  expect(zot.exitCode).toBeNull();
  if (zot.stdin) await zot.stdin.end();
  expect(await zot.exited).toBe(0);
});

test("a bash call started after the reaper is already running is killed too", async () => {
  const pids = join(e2e.home, "pids");
  const first = JSON.stringify({ command: "true" });
  const second = JSON.stringify({ command: `echo $$ > ${pids}; sleep 300 & echo $! >> ${pids}; wait` });
  const zot = start(["-p", "--provider", "mock", `call bash ${first}\ncall bash ${second}`]);
  const started = await pidsIn(pids, 2);
  reap(started);
  zot.kill("SIGKILL");
  await zot.exited;
  expect(await gone(started)).toBe(true);
});

test("kill -9 of zot kills extensions that ignore SIGTERM and never read stdin, and a bash call started after them", async () => {
  const pids = join(e2e.home, "pids");
  const exts: string[] = [];
  for (const name of ["stubborn-a", "stubborn-b"]) {
    const dir = join(e2e.home, name);
    mkdirSync(dir);
    writeFileSync(join(dir, "extension.json"), JSON.stringify({ name, version: "1.0.0", exec: "./run.sh" }));
    writeFileSync(
      join(dir, "run.sh"),
      `#!/bin/sh\ntrap '' TERM INT HUP\nprintf '%s\\n' '{"type":"hello","name":"${name}","version":"1.0.0"}' '{"type":"ready"}'\necho $$ >> ${pids}\nsleep 400 &\necho $! >> ${pids}\nwhile :; do sleep 1; done\n`,
    );
    chmodSync(join(dir, "run.sh"), 0o755);
    exts.push("-e", dir);
  }
  const zot = start(["-p", "--provider", "mock", ...exts, `call bash ${JSON.stringify({ command: `sleep 0.2; echo $$ >> ${pids}; sleep 300` })}`]);
  const started = await pidsIn(pids, 5);
  reap(started);
  zot.kill("SIGKILL");
  await zot.exited;
  expect(await gone(started)).toBe(true);
});

test.skipIf(!existsSync("/usr/bin/setsid") && !existsSync("/bin/setsid"))("a command detached with setsid -w survives the call and zot's kill -9", async () => {
  const pids = join(e2e.home, "pids");
  const command = `setsid -w sh -c 'sleep 302 > /dev/null 2>&1 & echo $! > ${pids}'; echo detached`;
  const zot = start(["-p", "--provider", "mock", `call bash ${JSON.stringify({ command })}`]);
  const [daemon] = elements(await pidsIn(pids, 1), 1);
  reap([daemon]);
  // Long enough for the call to end (its group is killed then) and for the run to finish.
  expect(await zot.exited).toBe(0);
  expect(alive(daemon)).toBe(true);
  const again = start(["-p", "--provider", "mock", `call bash {"command":"sleep 300"}`]);
  await Bun.sleep(300);
  again.kill("SIGKILL");
  await again.exited;
  await Bun.sleep(300);
  expect(alive(daemon)).toBe(true);
});

test("a normal run leaves no reaper or child behind and exits promptly", async () => {
  const marker = join(e2e.home, "marker");
  const zot = start(["-p", "--provider", "mock", `call bash ${JSON.stringify({ command: `echo $$ > ${marker}` })}`]);
  expect(await zot.exited).toBe(0);
  const [shell] = elements(await pidsIn(marker, 1), 1);
  expect(alive(shell)).toBe(false);
  const reapers = Bun.spawnSync(["pgrep", "-f", "trap '' INT TERM HUP QUIT PIPE"]).stdout.toString().trim();
  // Other zot runs (parallel tests) may have their own; none may be a child of this finished run.
  for (const pid of reapers.split("\n").filter(Boolean).map(Number)) {
    const ppid = Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
    expect(ppid).not.toBe(zot.pid);
  }
});

for (const sandbox of ["off", "workspace-write"])
  test(`with bash among the tools (--sandbox ${sandbox}), the reaper is up while the first model request is out, before any command`, async () => {
    let arrivals = 0;
    let arrived!: () => void;
    const requests = new Promise<void>((res) => (arrived = res));
    let answer!: () => void;
    const answered = new Promise<void>((res) => (answer = res));
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(req) {
        if (req.method !== "POST") return Response.json({ data: [] });
        if (++arrivals === 2) arrived();
        await answered;
        return new Response(anthropicEvents({ kind: "turn", text: "done" }, "claude-sonnet-4-5").join(""), {
          headers: { "content-type": "text/event-stream" },
        });
      },
    });
    e2e.defer(() => server.stop(true));
    const args = ["--sandbox", sandbox, "-p", "--provider", "anthropic", "--base-url", server.url.href.replace(/\/$/, ""), "--api-key", "sk-test"];
    const withBash = start([...args, "hello"]);
    const withoutBash = start([...args, "--tools", "read", "hello"]);
    reap([withBash.pid, withoutBash.pid]);
    // Both runs' first requests are out.
    await requests;
    for (let i = 0; i < 100 && reaperOf(withBash.pid) === undefined; i++) await Bun.sleep(20);
    const reaper = reaperOf(withBash.pid);
    expect(reaper).toBeDefined();
    expect(reaperOf(withoutBash.pid)).toBeUndefined();
    answer();
    expect(await withBash.exited).toBe(0);
    expect(await withoutBash.exited).toBe(0);
  });

for (const sandbox of ["off", "workspace-write"])
  test(`--sandbox ${sandbox}: a finished command's group leaves the reaper's list, so a kill -9 later never reaches a reused group id`, async () => {
    const pids = join(e2e.home, `pids-list-${sandbox}`);
    const quick = JSON.stringify({ command: "true" });
    const last = JSON.stringify({ command: `echo $$ > ${pids}; exec sleep 300` });
    const zot = start(["--sandbox", sandbox, "-p", "--provider", "mock", `call bash ${quick}\ncall bash ${quick}\ncall bash ${quick}\ncall bash ${last}`]);
    reap([zot.pid]);
    const [running] = elements(await pidsIn(pids, 1), 1);
    reap([running]);
    const reaper = reaperOf(zot.pid);
    expect(reaper).toBeDefined();
    // Only the command still running is on the reaper's list.
    expect(reaperList(reaper!)).toEqual([running]);
    zot.kill("SIGKILL");
    await zot.exited;
    expect(await gone([running])).toBe(true);
  });
