// What the whole-process benchmarks (zot-vs-go.ts, build-ab.ts) share: the `zot -p` command line
// against the scripted model, the compiled guard extension, hello world and Bun floor, and the two
// ways of measuring one run (wall time, CPU time and peak RSS).
import { closeSync, constants, copyFileSync, existsSync, mkdirSync, openSync, readFileSync, rmdirSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { BUILD_FLAGS } from "../scripts/build-flags.ts";

/**
 * `env` for build `which` of a comparison of zot builds: its own $ZOT_HOME under `dir`. Builds that
 * keep a cache or the remembered sandbox verdict differently would overwrite each other's in one
 * home, and none would run as a user's next start does.
 */
export function buildEnv(env: Record<string, string>, dir: string, which: number | string): Record<string, string> {
  return { ...env, ZOT_HOME: join(dir, `zot-home-${which}`) };
}

/** Wall time, CPU time (user + system of every process the run started; see `sample`) and peak RSS of one run. */
export type Sample = { ms: number; cpuMs: number; mib: number };

/** The wire a run speaks to the scripted model: Anthropic's, or OpenAI's Chat Completions or Responses. */
export type BenchWire = "anthropic" | "chat" | "responses";

/** `zot -p` against the scripted model at `base`, no session, optionally one extension. */
export function printArgs(zot: string, base: string, prompt: string, ext: string | null, maxSteps = 100, wire: BenchWire = "anthropic"): string[] {
  const route =
    wire === "anthropic"
      ? ["--provider", "anthropic", "--base-url", base]
      : ["--provider", "openai", "--base-url", `${base}/v1`, "--wire", wire, "--model", "gpt-bench"];
  return [zot, "-p", ...route, "--api-key", "sk-bench-key-0000", "--no-session", "--max-steps", String(maxSteps), ...(ext ? ["-e", ext] : []), prompt];
}

/** The same command line with `--sandbox off` before its prompt (the last argument). */
export function unsandboxed(args: string[]): string[] {
  return [...args.slice(0, -1), "--sandbox", "off", ...args.slice(-1)];
}

/**
 * The Go zot to run side by side (ZOT_GO_BIN: a binary built outside this repository, as
 * shared/reference/zot-go.md describes), or null when it is not
 * set; a path that is not there stops the benchmark with what to do.
 */
export function goZotBinary(): string | null {
  const bin = process.env.ZOT_GO_BIN;
  if (!bin) return null;
  const path = resolve(bin);
  if (!existsSync(path))
    throw new Error(`ZOT_GO_BIN=${bin}: no such file; build one outside this repository as shared/reference/zot-go.md describes, or unset it.`);
  return path;
}

function build(cmd: string[], cwd: string, what: string): void {
  if (!Bun.which(cmd[0]!)) throw new Error(`${what} needs ${cmd[0]} on PATH (for cc: install gcc or clang).`);
  const r = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${what} failed (${cmd.join(" ")}): ${r.stderr.toString()}`);
}

/** bench/guard-c compiled with `cc -O2` into `<dir>/cguard`; returns the extension directory. */
export function compileGuard(dir: string): string {
  const guard = join(dir, "cguard");
  mkdirSync(guard, { recursive: true });
  copyFileSync(join(import.meta.dir, "guard-c", "extension.json"), join(guard, "extension.json"));
  build(["cc", "-O2", "-o", join(guard, "guard"), join(import.meta.dir, "guard-c", "guard.c")], dir, "compiling the C guard");
  return guard;
}

/** A `console.log("hello")` compiled with plain `bun build --compile`: the floor of any compiled Bun binary. */
export function compileHello(dir: string): string {
  const hello = join(dir, "hello");
  writeFileSync(join(dir, "hello.ts"), 'console.log("hello");\n');
  build([process.execPath, "build", "--compile", "--outfile", hello, join(dir, "hello.ts")], dir, "compiling the Bun hello world");
  return hello;
}

/**
 * bench/bun-floor/floor.ts compiled with zot's own build flags into `<dir>/floor`, with the state
 * file it reads; returns the command line of a floor run making `calls` model calls, with or without
 * an extension child.
 */
export function compileFloor(dir: string): (base: string, calls: number, extension: boolean) => string[] {
  const floor = join(dir, "floor");
  const state = join(dir, "floor-state");
  mkdirSync(state, { recursive: true });
  writeFileSync(join(state, "floor.json"), JSON.stringify({ provider: "anthropic" }));
  build([process.execPath, "build", ...BUILD_FLAGS, join(import.meta.dir, "bun-floor", "floor.ts"), "--outfile", floor], dir, "compiling the Bun floor");
  return (base, calls, extension) => [floor, base, state, String(calls), extension ? "1" : "0"];
}

/**
 * Where a run's CPU time is read. A sandboxed zot starts a confined command server that it kills at
 * exit without waiting for it, so no rusage of zot's tree includes it; a control group holds every
 * process a run starts, whoever reaps them. Each run gets a fresh child group of the cgroup v1
 * cpuacct hierarchy (or of cgroup v2's, whose every group has cpu.stat); without either (not root,
 * no cgroup file system) or with ZOT_BENCH_CPU=rusage (to compare), the rusage of the tree GNU
 * time reaped, which misses such processes.
 */
type CpuSource = { kind: "cgroup v1" | "cgroup v2"; root: string } | { kind: "rusage" };

function findCpuSource(): CpuSource {
  if (process.env.ZOT_BENCH_CPU === "rusage") return { kind: "rusage" };
  const candidates: { kind: "cgroup v1" | "cgroup v2"; root: string }[] = [
    { kind: "cgroup v1", root: "/sys/fs/cgroup/cpuacct" },
    { kind: "cgroup v2", root: "/sys/fs/cgroup/unified" },
    { kind: "cgroup v2", root: "/sys/fs/cgroup" },
  ];
  for (const c of candidates) {
    if (!existsSync(join(c.root, c.kind === "cgroup v1" ? "cpuacct.usage" : "cgroup.controllers"))) continue;
    const probe = join(c.root, `zot-bench-probe-${process.pid}`);
    try {
      mkdirSync(probe);
      rmdirSync(probe);
      return c;
    } catch {
      // Not writable here (not root, or a read-only mount): the next one, or rusage.
    }
  }
  return { kind: "rusage" };
}

const cpuSource = findCpuSource();
let groups = 0;

/** How `sample` counts CPU time, for a benchmark's header line. */
export function cpuMethod(): string {
  return cpuSource.kind === "rusage"
    ? `CPU: rusage of the reaped process tree (${process.env.ZOT_BENCH_CPU === "rusage" ? "ZOT_BENCH_CPU=rusage" : "no writable cgroup"}: processes a run leaves behind, such as the sandbox's command server, are not counted)`
    : `CPU: a ${cpuSource.kind} group per run (${cpuSource.root}), every process the run started`;
}

/** How long a run's leftover processes (a command server being killed) may take to go. */
const DRAIN_MS = 5000;

/** The CPU time in ms of a group whose processes are gone, read as it goes; its leftovers are killed after DRAIN_MS. */
async function drainGroup(dir: string, kind: "cgroup v1" | "cgroup v2"): Promise<number> {
  const procs = () => readFileSync(join(dir, "cgroup.procs"), "utf8").split("\n").filter(Boolean);
  const until = performance.now() + DRAIN_MS;
  for (let left = procs(); left.length > 0; left = procs()) {
    if (performance.now() > until) {
      console.error(`bench: ${left.length} process(es) of a run still alive after ${DRAIN_MS} ms (${left.join(" ")}); killed`);
      for (const pid of left) {
        try {
          process.kill(Number(pid), "SIGKILL");
        } catch {
          // Gone meanwhile.
        }
      }
    }
    await Bun.sleep(2);
  }
  const ms =
    kind === "cgroup v1"
      ? Number(readFileSync(join(dir, "cpuacct.usage"), "utf8").trim()) / 1e6
      : Number(/^usage_usec (\d+)$/m.exec(readFileSync(join(dir, "cpu.stat"), "utf8"))?.[1] ?? Number.NaN) / 1000;
  rmdirSync(dir);
  return ms;
}

/**
 * Where a run that joined its group waits for the go: joining a cgroup v1 group takes ~10 ms (an RCU
 * grace period) and varies with the machine's load, which wall time must not include.
 */
let gate: string | null = null;

function theGate(): string {
  if (gate) return gate;
  const path = join(tmpdir(), `zot-bench-gate-${process.pid}`);
  const r = Bun.spawnSync(["mkfifo", path]);
  if (r.exitCode !== 0) throw new Error(`mkfifo ${path} failed: ${r.stderr.toString()}`);
  process.on("exit", () => rmSync(path, { force: true }));
  gate = path;
  return path;
}

/** Lets the run through the gate once it is waiting there (its `sh` has joined the group), unless it died first. */
async function openGate(path: string, proc: { exitCode: number | null }): Promise<void> {
  for (;;) {
    try {
      const fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
      writeSync(fd, "\n");
      closeSync(fd);
      return;
    } catch (e) {
      // ENXIO: nobody has opened it for reading yet.
      if ((e as NodeJS.ErrnoException).code !== "ENXIO") throw e;
      if (proc.exitCode !== null) return;
      await Bun.sleep(0);
    }
  }
}

/**
 * One run under GNU time: wall time start → exit (including `/usr/bin/time`), its `%M` peak RSS of
 * the command, and the CPU time of every process the run started (see CpuSource). CPU time moves
 * much less than wall time with a shared machine's load. The run joins its group from a `sh` that
 * then waits at the gate and execs GNU time; wall time starts when the gate opens, and the group's
 * count a few instructions before the command's own.
 * (Instruction counts would be steadier still, but this VM has no hardware counters and valgrind
 * 3.19 stops at an SSE4.2 string instruction in Bun.)
 */
export async function sample(cmd: string[], env: Record<string, string>, cwd: string): Promise<Sample> {
  const rssFile = join(cwd, "rss.txt");
  const timed = ["/usr/bin/time", "-f", "%M", "-o", rssFile, ...cmd];
  const group = cpuSource.kind === "rusage" ? null : join(cpuSource.root, `zot-bench-${process.pid}-${groups++}`);
  if (group) mkdirSync(group);
  const wait = group ? theGate() : null;
  const argv = group && wait ? ["/bin/sh", "-c", 'echo $$ > "$0/cgroup.procs" || exit 125; read _ < "$1"; shift; exec "$@"', group, wait, ...timed] : timed;
  let t0 = performance.now();
  const proc = Bun.spawn(argv, { env, cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  if (wait) {
    await openGate(wait, proc);
    t0 = performance.now();
  }
  const [code, out, err] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  const ms = performance.now() - t0;
  const groupMs = group && cpuSource.kind !== "rusage" ? await drainGroup(group, cpuSource.kind) : null;
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}: ${out}${err}`);
  const cpu = proc.resourceUsage()?.cpuTime;
  const cpuMs = groupMs ?? (cpu ? Number(cpu.total) / 1000 : Number.NaN);
  return { ms, cpuMs, mib: Number(readFileSync(rssFile, "utf8").trim().split("\n").pop()) / 1024 };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** CPUs, model, Bun and the load average, for the first line of every report. */
export function machine(): string {
  const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  return `${cpus().length} CPUs, ${cpus()[0]?.model ?? "unknown"}; bun ${Bun.version}; load average ${load}`;
}

let tick: number | undefined;

/** How coarse procCpu's figures are: one clock tick, in ms (asked once, when first needed). */
export function procTickMs(): number {
  tick ??= 1000 / Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim() || 100);
  return tick;
}

/**
 * CPU ms of a process (or of one thread: `/proc/PID/task/TID/stat`) from its stat file: `own` its
 * utime + stime, `children` those of the children it reaped (Linux only).
 */
export function procCpu(statPath: string): { own: number; children: number } {
  const f = readFileSync(statPath, "utf8");
  const fields = f.slice(f.lastIndexOf(")") + 2).split(" ");
  const ms = procTickMs();
  return { own: (Number(fields[11]) + Number(fields[12])) * ms, children: (Number(fields[13]) + Number(fields[14])) * ms };
}
