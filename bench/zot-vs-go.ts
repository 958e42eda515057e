// The two scenarios of issue 9 §5, against the built binary and the Go zot's recorded figures:
//   echo    one prompt, the model calls `bash` (`echo ok`) once, a guard extension intercepts tool_call
//   loop50  one prompt, the model calls `bash` 50 times, no extension
// Whole-process wall time (spawn to exit, minus `/usr/bin/time /bin/true`) and peak RSS (GNU time's
// `%M`), interleaved run by run with two Go-free baselines: `bun -e 0` and a compiled Bun hello
// world (the floor of any `bun build --compile` binary). The guard is bench/guard-c compiled with
// `cc`, so the extension's own start-up (~1 ms) doesn't hide zot's.
//
//   bun bench/zot-vs-go.ts [runs] [binary]            (default 10 runs; dist/zot)
//   bun bench/zot-vs-go.ts --callgrind [binary]       instructions of zot's own process, per scenario
//
// `--callgrind` runs each scenario once under `valgrind --tool=callgrind` (children not traced) and
// prints the instruction count: unlike wall time, it barely moves with the load of a shared machine.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startScriptedModel } from "./scripted-model.ts";
import { freshBinary } from "../scripts/build-freshness.ts";

/** The Go zot on the machine (AMD EPYC, 2 cores, 2026-12-01): wall ms, peak MiB. */
const GO = { echo: { ms: 37, mib: 15.9 }, loop50: { ms: 183, mib: 17.7 } } as const;
/** Issue 9 §5's targets: wall time as a fraction of Go's, peak RSS in MiB. */
const TARGET = { echo: { ratio: 0.85, mib: 36 }, loop50: { ratio: 0.9, mib: 38 } } as const;

const ROOT = resolve(import.meta.dir, "..");
const callgrind = process.argv[2] === "--callgrind";
const RUNS = callgrind ? 1 : Number(process.argv[2] ?? 10);
const binaryArg = process.argv[3];

const home = mkdtempSync(join(tmpdir(), "zot-vs-go-"));
const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, ZOT_HOME: home };

function run(cmd: string[], what: string): void {
  const r = Bun.spawnSync(cmd, { cwd: home, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${what} failed (${cmd.join(" ")}): ${r.stderr.toString()}`);
}

// A private copy, so a rebuild of dist/zot during the run can't change what is measured.
const ZOT = join(home, "zot");
copyFileSync(resolve(binaryArg ?? freshBinary(ROOT, join(ROOT, "dist", "zot"))), ZOT);
const guard = join(home, "cguard");
mkdirSync(guard);
copyFileSync(join(import.meta.dir, "guard-c", "extension.json"), join(guard, "extension.json"));
run(["cc", "-O2", "-o", join(guard, "guard"), join(import.meta.dir, "guard-c", "guard.c")], "compiling the C guard");
const hello = join(home, "hello");
writeFileSync(join(home, "hello.ts"), 'console.log("hello");\n');
run([process.execPath, "build", "--compile", "--outfile", hello, join(home, "hello.ts")], "compiling the Bun hello world");

const model = startScriptedModel();
const print = (prompt: string, ext: string | null) => [
  ZOT,
  "-p",
  "--provider",
  "anthropic",
  "--base-url",
  model.base,
  "--api-key",
  "sk-bench-key-0000",
  "--no-session",
  "--max-steps",
  "100",
  ...(ext ? ["-e", ext] : []),
  prompt,
];
const SCENARIOS = {
  "bun -e 0": [process.execPath, "-e", "0"],
  "compiled Bun hello world": [hello],
  echo: print("steps=2 tool=bash run it", guard),
  loop50: print("steps=51 tool=bash loop", null),
};
type Name = keyof typeof SCENARIOS;
const names = Object.keys(SCENARIOS) as Name[];

type Sample = { ms: number; mib: number };
async function sample(cmd: string[]): Promise<Sample> {
  const rssFile = join(home, "rss.txt");
  const t0 = performance.now();
  const proc = Bun.spawn(["/usr/bin/time", "-f", "%M", "-o", rssFile, ...cmd], { env, cwd: home, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [code, out, err] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`${cmd.join(" ")} exited ${code}: ${out}${err}`);
  return { ms, mib: Number(readFileSync(rssFile, "utf8").trim().split("\n").pop()) / 1024 };
}

/** Instructions zot's own process executes (callgrind's `Ir`; children are not traced). */
async function instructions(cmd: string[]): Promise<number> {
  const outFile = join(home, "callgrind.out");
  const proc = Bun.spawn(["valgrind", "--tool=callgrind", `--callgrind-out-file=${outFile}`, ...cmd], { env, cwd: home, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  if (code !== 0) throw new Error(`callgrind of ${cmd.join(" ")} exited ${code}: ${err}`);
  const m = /Collected : (\d+)/.exec(err);
  if (!m) throw new Error(`callgrind printed no instruction count: ${err}`);
  return Number(m[1]);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

try {
  const machine = `${cpus().length} CPUs, ${cpus()[0]?.model ?? "unknown"}; bun ${Bun.version}; load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`;
  if (callgrind) {
    console.log(`machine: ${machine}; callgrind, one run per scenario`);
    for (const n of names) console.log(`${(await instructions(SCENARIOS[n])).toLocaleString("en").padStart(14)} instructions   ${n}`);
  } else {
    const results = Object.fromEntries(names.map((n) => [n, [] as Sample[]])) as Record<Name, Sample[]>;
    const wrapper: number[] = [];
    for (const n of names) await sample(SCENARIOS[n]);
    for (let i = 0; i < RUNS; i++) {
      wrapper.push((await sample(["/bin/true"])).ms);
      for (const n of names) results[n].push(await sample(SCENARIOS[n]));
    }
    const w = median(wrapper);
    console.log(`machine: ${machine}; ${RUNS} interleaved runs; medians (minus /usr/bin/time, ${w.toFixed(1)} ms)`);
    for (const n of names) {
      const ms = median(results[n].map((s) => s.ms)) - w;
      const mib = median(results[n].map((s) => s.mib));
      const max = Math.max(...results[n].map((s) => s.mib));
      let line = `${ms.toFixed(1).padStart(7)} ms  peak RSS ${mib.toFixed(1)} MiB (max ${max.toFixed(1)})   ${n}`;
      if (n === "echo" || n === "loop50") {
        const ratio = ms / GO[n].ms;
        const ok = (b: boolean) => (b ? "✓" : "✗");
        line += `   ${ratio.toFixed(2)}× Go (target ≤ ${TARGET[n].ratio}× ${ok(ratio <= TARGET[n].ratio)}), memory target ≤ ${TARGET[n].mib} MiB ${ok(max <= TARGET[n].mib)}`;
      }
      console.log(line);
    }
  }
} finally {
  model.stop();
  rmSync(home, { recursive: true, force: true });
}
