// The confined command server (src/platform/command-server.ts, src/agent/sandbox/command-server.ts)
// under the real kernel sandbox: one server runs every command of a session and confinement, each
// command inherits its confinement, and its death, a policy change and a timeout end what they must.
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { bashTool } from "../../../src/agent/tools/bash.ts";
import { commandServerFor } from "../../../src/agent/sandbox/command-server.ts";
import { spawnCommand } from "../../../src/agent/sandbox/spawn.ts";
import { commandServerStart, type ServerStart } from "../../../src/agent/sandbox/status.ts";
import { sandboxPolicy, type SandboxPolicy } from "../../../src/agent/sandbox/policy.ts";
import { encodeEvent, encodeRequest, eventFrames, requestFrames } from "../../../src/platform/command-protocol.ts";
import { textOf } from "../../../src/agent/content.ts";
import { tempDir } from "../../helpers/temp.ts";
import { alive, noneRunning, reaperList, reaperOf, signal } from "../../helpers/processes.ts";

let ws: string;
let outside: string;
let userHome: string;
let zotHome: string;

beforeAll(() => {
  // Not under a temp directory, so only the workspace is writable.
  const root = tempDir(".zot-cmdserver-", homedir());
  outside = tempDir(".zot-cmdserver-outside-", homedir());
  ws = join(root, "project");
  userHome = join(root, "home");
  zotHome = join(root, "zot-home");
  for (const d of [ws, join(userHome, ".ssh"), zotHome]) mkdirSync(d, { recursive: true });
  writeFileSync(join(userHome, ".ssh", "id_ed25519"), "PRIVATE KEY\n");
});

function policy(more: { network?: boolean; writable?: string[] } = {}): SandboxPolicy {
  return sandboxPolicy({ mode: "workspace-write", network: more.network ?? false, writable: more.writable ?? [], hidden: [] }, { cwd: ws, zotHome, userHome });
}

async function run(command: string, sandbox: SandboxPolicy, timeout?: number) {
  const r = await bashTool.execute(
    { command, ...(timeout ? { timeout } : {}) },
    { cwd: ws, home: zotHome, signal: new AbortController().signal, progress: () => {}, sandbox },
  );
  return { text: textOf(r.content), isError: r.isError };
}

async function gone(pids: number[]): Promise<boolean> {
  for (let i = 0; i < 250; i++) {
    if (pids.every((p) => !alive(p))) return true;
    await Bun.sleep(20);
  }
  return false;
}

describe("one server per session and confinement", () => {
  test("two commands run as children of the same server, which is not zot", async () => {
    const p = policy();
    const a = await run("echo $PPID", p);
    const b = await run("echo $PPID", p);
    expect(a.isError).toBe(false);
    expect(a.text).toBe(b.text);
    expect(Number(a.text)).not.toBe(process.pid);
    expect(Number(a.text)).toBe(commandServerFor(p)?.pid ?? -1);
  });

  test("a command that reads its stdin reads an empty one, through the server and spawned directly", async () => {
    for (const sandbox of [policy(), undefined]) {
      const c = await spawnCommand("/bin/sh", 'printf "[%s]" "$(cat)"; echo " $0 $1"', ["a", "b"], ws, sandbox);
      if (typeof c === "string") throw new Error(c);
      const parts: Uint8Array[] = [];
      for await (const bytes of c.output) parts.push(bytes);
      expect((await c.exited).code).toBe(0);
      expect(Buffer.concat(parts).toString()).toBe("[] a b\n");
    }
  });

  test("every rule holds for a command of the server and what it starts: no write outside, no hidden file, no network", async () => {
    const p = policy();
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("reached") });
    try {
      const r = await run(
        `echo no > ${outside}/x.txt; sh -c 'cat ${userHome}/.ssh/id_ed25519'; curl -sS --max-time 5 http://127.0.0.1:${server.port}/; echo ok > in.txt`,
        p,
      );
      expect(existsSync(join(outside, "x.txt"))).toBe(false);
      expect(r.text).not.toContain("PRIVATE KEY");
      expect(r.text).not.toContain("reached");
      expect(readFileSync(join(ws, "in.txt"), "utf8")).toBe("ok\n");
    } finally {
      server.stop(true);
    }
  });

  test("no command can signal, trace or read any thread of zot: zot's threads are outside the commands' Landlock domain", async () => {
    // A command shares the domain of the thread that spawns it, which is why that thread is another process's.
    const probe = join(ws, "reach-zot.py");
    writeFileSync(
      probe,
      `import ctypes, os, platform, sys
libc = ctypes.CDLL(None, use_errno=True)
zot = int(sys.argv[1])
TGKILL = {"x86_64": 234, "aarch64": 131}[platform.machine()]
PIDFD_OPEN, PIDFD_SEND_SIGNAL, PIDFD_THREAD = 434, 424, 0x80
reached = []
tids = [int(t) for t in os.listdir(f"/proc/{zot}/task")]
for t in tids:
    if libc.kill(t, 0) == 0: reached.append(f"kill {t}")
    if libc.syscall(TGKILL, zot, t, 0) == 0: reached.append(f"tgkill {t}")
    fd = libc.syscall(PIDFD_OPEN, t, PIDFD_THREAD)
    if fd >= 0:
        if libc.syscall(PIDFD_SEND_SIGNAL, fd, 0, 0, 0) == 0: reached.append(f"pidfd {t}")
        os.close(fd)
    if libc.ptrace(16, t, 0, 0) == 0:
        reached.append(f"ptrace {t}")
        libc.ptrace(17, t, 0, 0)
try:
    open(f"/proc/{zot}/mem", "rb").close()
    reached.append("mem")
except OSError:
    pass
print(f"threads {len(tids)} reached {reached}")
`,
    );
    const r = await run(`python3 ${probe} ${process.pid}`, policy());
    expect(r.text).toMatch(/^threads \d+ reached \[\]$/m);
    expect(Number(/^threads (\d+)/m.exec(r.text)?.[1])).toBeGreaterThan(1);
  });

  test("a secret that appears during the session is hidden from the next command", async () => {
    const p = policy();
    const credentials = join(userHome, ".aws", "credentials");
    expect((await run(`cat ${credentials}`, p)).text).toContain("No such file");
    mkdirSync(join(userHome, ".aws"));
    writeFileSync(credentials, "aws_secret_access_key = SECRET\n");
    const r = await run(`cat ${credentials}; echo "entries: $(ls -A ${join(userHome, ".aws")} | wc -l)"`, p);
    expect(r.text).not.toContain("SECRET");
    expect(r.text).toContain("entries: 0");
  });

  test("a policy change starts a new server; the old one ends", async () => {
    const first = Number((await run("echo $PPID", policy())).text);
    const second = Number((await run("echo $PPID", policy({ network: true }))).text);
    expect(second).not.toBe(first);
    expect(await gone([first])).toBe(true);
  });
});

describe("ends", () => {
  test("a timeout kills the command and the processes it started", async () => {
    const pids = join(ws, "timeout-pids");
    const r = await run(`sleep 300 & echo $! > ${pids}; (trap '' TERM; sleep 301) & echo $! >> ${pids}; wait`, policy(), 1);
    expect(r.text).toContain("Timed out after 1 s");
    const started = readFileSync(pids, "utf8").trim().split("\n").map(Number);
    expect(started.length).toBe(2);
    expect(await gone(started)).toBe(true);
  });

  test("a killed server ends its running command with a clear error; the next command starts a new server", async () => {
    const p = policy();
    const marker = join(ws, "started");
    const running = run(`echo $$ > ${marker}; sleep 300`, p);
    while (!existsSync(marker) || readFileSync(marker, "utf8") === "") await Bun.sleep(20);
    const command = Number(readFileSync(marker, "utf8"));
    const server = commandServerFor(p);
    expect(server).not.toBeNull();
    const old = server!.pid;
    signal(old, "SIGKILL");
    const r = await running;
    expect(r.isError).toBe(true);
    expect(r.text).toContain("the sandbox's command server stopped (killed by SIGKILL); the command's result is lost");
    expect(await gone([command])).toBe(true);
    const next = await run("echo $PPID", p);
    expect(next.isError).toBe(false);
    expect(Number(next.text)).not.toBe(old);
  });

  test("a call aborted before the server says its command started stops the command", async () => {
    const ac = new AbortController();
    // A sleep no other test runs, so its process can be found by its command line.
    const pending = bashTool.execute({ command: "exec sleep 314160" }, { cwd: ws, home: zotHome, signal: ac.signal, progress: () => {}, sandbox: policy() });
    // The start request is on its way to the server; the abort lands before its answer.
    ac.abort();
    const r = await pending;
    expect(r.isError).toBe(true);
    expect(textOf(r.content)).toContain("[Aborted; the command and its child processes were killed.]");
    expect(await noneRunning(["sleep", "314160"])).toBe(true);
  });
});

describe("the reaper's list", () => {
  test("commands that exit before zot reads their start leave the list when they end, so a later kill -9 reaches no reused group id", async () => {
    const p = policy();
    // Started together, most have exited by the time their start frames are read.
    const results = await Promise.all(Array.from({ length: 24 }, () => run("true", p)));
    expect(results.every((r) => !r.isError)).toBe(true);
    const reaper = reaperOf(process.pid);
    expect(reaper).toBeDefined();
    expect(reaperList(reaper!)).toEqual([]);
  });
});

describe("output", () => {
  test("10 MB of binary output arrives byte-exact", async () => {
    const bytes = new Uint8Array(10 * 1024 * 1024);
    for (let i = 0; i < bytes.length; i += 65536) crypto.getRandomValues(bytes.subarray(i, i + 65536));
    writeFileSync(join(ws, "blob"), bytes);
    const c = await spawnCommand("/bin/sh", "exec /bin/cat blob", [], ws, policy());
    if (typeof c === "string") throw new Error(c);
    const parts: Uint8Array[] = [];
    for await (const part of c.output) parts.push(part);
    expect((await c.exited).code).toBe(0);
    expect(Buffer.compare(Buffer.concat(parts), Buffer.from(bytes))).toBe(0);
  });

  test("output reaches zot while the command runs, not only with its exit", async () => {
    // The command waits (5 s at most) for a file the test writes once the first line has arrived:
    // output held until the exit would make it give up and say so.
    const go = join(ws, "go-on");
    const script = `echo first; i=0; while [ ! -e ${go} ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done; if [ -e ${go} ]; then echo second; else echo gave up; fi`;
    const c = await spawnCommand("/bin/sh", script, [], ws, policy());
    if (typeof c === "string") throw new Error(c);
    let seen = "";
    for await (const part of c.output) {
      seen += new TextDecoder().decode(part);
      if (seen === "first\n") writeFileSync(go, "");
    }
    expect(seen).toBe("first\nsecond\n");
    expect((await c.exited).code).toBe(0);
  });
});

describe("frames", () => {
  test("requests and events round-trip", () => {
    const start = { kind: "start" as const, id: 7, argv: ["/bin/sh", "-c", "echo é"], cwd: "/w", env: { A: "1" } };
    const confine = { kind: "confine" as const, id: 0, spec: '{"ruleset":"é"}' };
    expect(requestFrames().push(Buffer.concat([encodeRequest(confine), encodeRequest(start)]))).toEqual({ ok: true, values: [confine, start] });
    const events = eventFrames();
    const exit = { kind: "exit" as const, id: 7, code: null, signal: "SIGKILL", drained: false };
    const out = { kind: "output" as const, id: 7, bytes: new Uint8Array([0, 255, 10]) };
    const whole = Buffer.concat([encodeEvent(out), encodeEvent(exit)]);
    // Split mid-frame: the decoder waits for the rest.
    expect(events.push(whole.subarray(0, 6))).toEqual({ ok: true, values: [] });
    expect(events.push(whole.subarray(6))).toEqual({ ok: true, values: [out, exit] });
    // A chunk that is a view into a larger buffer, at an offset.
    const offset = new Uint8Array(whole.length + 3);
    offset.set(whole, 3);
    expect(eventFrames().push(offset.subarray(3))).toEqual({ ok: true, values: [out, exit] });
    const ready = { kind: "ready" as const, id: 0, outcome: { ok: true as const, abi: 7 } };
    const refused = {
      kind: "ready" as const,
      id: 0,
      outcome: { ok: false as const, refusal: "this system does not let zot make namespaces (unshare failed (errno 1 EPERM))" },
    };
    expect(eventFrames().push(Buffer.concat([encodeEvent(ready), encodeEvent(refused)]))).toEqual({ ok: true, values: [ready, refused] });
  });

  test("malformed frames are rejected with a clear error, and the decoder stays failed", () => {
    const frame = (kind: number, payload: string): Uint8Array => {
      const body = Buffer.from(payload);
      const out = Buffer.alloc(9 + body.length);
      out.writeUInt32LE(5 + body.length, 0);
      out[4] = kind;
      out.writeUInt32LE(1, 5);
      body.copy(out, 9);
      return out;
    };
    const cases: [Uint8Array, string][] = [
      [Buffer.from([1, 0, 0, 0, 1]), "length 1 is out of range"],
      [frame(1, "not json"), "a start is not a JSON object"],
      [frame(1, JSON.stringify({ argv: [], cwd: "/", env: {} })), "a start's argv is not a list of strings"],
      [frame(1, JSON.stringify({ argv: ["/bin/true"], cwd: 3, env: {} })), "a start's cwd is not a string"],
      [frame(1, JSON.stringify({ argv: ["/bin/true"], cwd: "/", env: { A: 1 } })), "a start's env is not a map of strings"],
      [frame(2, "SIGSTOP"), "a kill names no known signal"],
      [frame(5, ""), "kind 5 is not a request"],
      [frame(8, ""), "a confine carries no confinement"],
    ];
    for (const [bytes, error] of cases) {
      const d = requestFrames();
      expect(d.push(bytes)).toEqual({ ok: false, error: `malformed command-server frame: ${error}` });
      expect(d.push(encodeRequest({ kind: "kill", id: 1, signal: "SIGTERM" })).ok).toBe(false);
    }
    expect(eventFrames().push(frame(3, "12"))).toEqual({ ok: false, error: "malformed command-server frame: a started has no pid" });
    // A ready is 1 and a u32 ABI, or 0 and a reason: anything else (an empty reason too) says neither.
    for (const payload of ["", "\x01\x07", "\x02abc", "\x00"])
      expect(eventFrames().push(frame(7, payload))).toEqual({ ok: false, error: "malformed command-server frame: a ready is neither an ABI nor a reason" });
    // pid 0 or 1 would make a kill of the command's group one of zot's own group or of every process.
    for (const pid of [0, 1]) {
      const p = Buffer.alloc(4);
      p.writeUInt32LE(pid, 0);
      expect(eventFrames().push(frame(3, p.toString("latin1")))).toEqual({ ok: false, error: "malformed command-server frame: a started has no pid" });
    }
  });

  /** A server of its own, outside the session's, and how to send it frames. */
  function ownServer(stderr: "pipe" | "ignore" = "ignore") {
    const s: ServerStart | null = commandServerStart(policy());
    if (!s) throw new Error("the sandbox is not enforced here");
    const server = Bun.spawn(s.argv, { stdin: "pipe", stdout: "pipe", stderr });
    const send = (...frames: Uint8Array[]) => {
      for (const f of frames) server.stdin.write(f);
      return server.stdin.flush();
    };
    return { server, spec: s.spec, send };
  }

  test("a server that could not confine itself runs nothing: every command gets the sandbox line and status 126", async () => {
    const { server, send } = ownServer();
    const marker = join(ws, "ran-unconfined");
    await send(
      encodeRequest({ kind: "confine", id: 0, spec: "not-a-confinement" }),
      encodeRequest({ kind: "start", id: 1, argv: ["/bin/sh", "-c", `echo > ${marker}`], cwd: ws, env: {} }),
    );
    server.stdin.end();
    const events = eventFrames().push(new Uint8Array(await new Response(server.stdout).arrayBuffer()));
    if (!events.ok) throw new Error(events.error);
    // Its first frame says it could not confine itself, and why; each command's line says so too.
    expect(events.values[0]).toEqual({ kind: "ready", id: 0, outcome: { ok: false, refusal: "the command server was sent no valid confinement (a zot bug)" } });
    const output = events.values.flatMap((e) => (e.kind === "output" ? [new TextDecoder().decode(e.bytes)] : [])).join("");
    expect(output).toBe("[zot] sandbox: the command server was sent no valid confinement (a zot bug); the command was not run.\n");
    expect(events.values.at(-1)).toEqual({ kind: "exit", id: 1, code: 126, signal: null, drained: true });
    expect(existsSync(marker)).toBe(false);
  });

  test("a server runs nothing before its confinement, and takes no second one", async () => {
    const marker = join(ws, "ran-before-confined");
    const start = encodeRequest({ kind: "start", id: 1, argv: ["/bin/sh", "-c", `echo > ${marker}`], cwd: ws, env: {} });
    const early = ownServer("pipe");
    await early.send(start);
    expect(await early.server.exited).toBe(0);
    expect(await new Response(early.server.stderr).text()).toBe("[zot] sandbox: malformed command-server frame: a start came before the confinement\n");
    expect(await new Response(early.server.stdout).text()).toBe("");
    // A second confinement could only loosen the first: the server stops reading and ends.
    const twice = ownServer("pipe");
    await twice.send(encodeRequest({ kind: "confine", id: 0, spec: twice.spec }), encodeRequest({ kind: "confine", id: 0, spec: twice.spec }), start);
    expect(await twice.server.exited).toBe(0);
    expect(await new Response(twice.server.stderr).text()).toBe("[zot] sandbox: malformed command-server frame: a second confinement\n");
    const events = eventFrames().push(new Uint8Array(await new Response(twice.server.stdout).arrayBuffer()));
    expect(events.ok && events.values.map((e) => e.kind)).toEqual(["ready"]);
    expect(existsSync(marker)).toBe(false);
  });

  test("a server whose channel closes kills what it runs and still sends each command's end", async () => {
    const { server, spec, send } = ownServer();
    const marker = join(ws, "outlived-the-server");
    await send(
      encodeRequest({ kind: "confine", id: 0, spec }),
      encodeRequest({ kind: "start", id: 1, argv: ["/bin/sh", "-c", `sleep 1; echo > ${marker}`], cwd: ws, env: {} }),
    );
    server.stdin.end();
    const events = eventFrames().push(new Uint8Array(await new Response(server.stdout).arrayBuffer()));
    if (!events.ok) throw new Error(events.error);
    expect(events.values.map((e) => e.kind)).toEqual(["ready", "started", "exit"]);
    expect(events.values.at(-1)).toMatchObject({ kind: "exit", id: 1, signal: "SIGKILL" });
    await Bun.sleep(1300);
    expect(existsSync(marker)).toBe(false);
  });

  test("a server sent a malformed frame says so and exits", async () => {
    const { server, send } = ownServer("pipe");
    await send(new Uint8Array([0xff, 0xff, 0xff, 0xff, 1]));
    expect(await server.exited).toBe(0);
    expect(await new Response(server.stderr).text()).toContain("malformed command-server frame: length 4294967295 is out of range");
  });
});
