// What the whole-process benchmarks (zot-vs-go.ts, build-ab.ts) share: the `zot -p` command line
// against the scripted model, the compiled guard extension, hello world and Bun floor, and the two
// ways of measuring one run (wall time, CPU time and peak RSS).
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join, resolve } from "node:path";
import { BUILD_FLAGS } from "../scripts/build-flags.ts";

/** Wall time, CPU time (user + system, the whole process tree) and peak RSS of one run. */
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
 * One run under GNU time: wall time spawn → exit (including `/usr/bin/time`), its `%M` peak RSS of
 * the command, and the CPU time of the whole tree (wait4's rusage of `time`, which includes every
 * process it reaped). CPU time moves much less than wall time with a shared machine's load.
 * (Instruction counts would be steadier still, but this VM has no hardware counters and valgrind
 * 3.19 stops at an SSE4.2 string instruction in Bun.)
 */
export async function sample(cmd: string[], env: Record<string, string>, cwd: string): Promise<Sample> {
  const rssFile = join(cwd, "rss.txt");
  const t0 = performance.now();
  const proc = Bun.spawn(["/usr/bin/time", "-f", "%M", "-o", rssFile, ...cmd], { env, cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [code, out, err] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}: ${out}${err}`);
  const cpu = proc.resourceUsage()?.cpuTime;
  return { ms, cpuMs: cpu ? Number(cpu.total) / 1000 : NaN, mib: Number(readFileSync(rssFile, "utf8").trim().split("\n").pop()) / 1024 };
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
